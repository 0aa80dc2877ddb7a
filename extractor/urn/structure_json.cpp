#include "urn/structure_json.h"

#include <string>
#include <utility>

namespace lexlink::urn {
namespace {

using json = nlohmann::ordered_json;

json opt_string(std::string_view s, bool present) {
  return present ? json(std::string(s)) : json(nullptr);
}

// Texts of the children of node `index` with kind `kind`.
json child_texts(const Urn& u, std::size_t index, Kind kind) {
  json out = json::array();
  for (std::size_t c : u.children(index)) {
    if (u.nodes()[c].kind == kind) out.push_back(std::string(u.view(u.nodes()[c])));
  }
  return out;
}

json date_json(const Urn& u, std::size_t index) {
  json d{{"iso", nullptr}, {"local", nullptr}};
  for (std::size_t c : u.children(index)) {
    const Node& n = u.nodes()[c];
    if (n.kind == Kind::kDateIso) d["iso"] = std::string(u.view(n));
    if (n.kind == Kind::kDateLocal) d["local"] = std::string(u.view(n));
  }
  return d;
}

// "head;spec;spec" elements: measure, annex and the manifestation's four elements.
json qualified_json(const Urn& u, std::size_t index, const char* head_name) {
  json out{{head_name, nullptr}, {"specifications", json::array()}};
  for (std::size_t c : u.children(index)) {
    const Node& n = u.nodes()[c];
    if (n.kind == Kind::kSpecification) {
      out["specifications"].push_back(std::string(u.view(n)));
    } else {
      out[head_name] = std::string(u.view(n));
    }
  }
  return out;
}

// The structure of a parsed name as JSON, one key per element of the ABNF.
}  // namespace

json structure_json(const Urn& u) {
  json out;
  out["jurisdiction"] = {{"code", std::string(u.jurisdiction_code())}, {"units", json::array()}};
  out["authority"] = json::array();
  out["measure"] = nullptr;
  out["details"] = nullptr;
  out["annexes"] = json::array();
  out["expression"] = nullptr;
  out["manifestation"] = nullptr;
  const auto& nodes = u.nodes();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    switch (n.kind) {
      case Kind::kJurisdictionUnit:
        out["jurisdiction"]["units"].push_back(std::string(u.view(n)));
        break;
      case Kind::kIssuer:
        out["authority"].push_back({{"institution", std::string(u.view(nodes[i + 1]))},
                                    {"body_functions", child_texts(u, i, Kind::kBodyFunction)}});
        break;
      case Kind::kMeasure: out["measure"] = qualified_json(u, i, "type"); break;
      case Kind::kDetails: {
        json d{{"dates", json::array()},
               {"period", nullptr},
               {"numbers", json::array()},
               {"number_lex", nullptr},
               {"year_only", u.year_only()}};
        for (std::size_t c : u.children(i)) {
          const Node& k = nodes[c];
          if (k.kind == Kind::kDates) {
            for (std::size_t dd : u.children(c)) d["dates"].push_back(date_json(u, dd));
          } else if (k.kind == Kind::kPeriod) {
            d["period"] = std::string(u.view(k));
          } else if (k.kind == Kind::kNumbers) {
            for (std::size_t nn : u.children(c)) {
              const Node& num = nodes[nn];
              if (num.kind == Kind::kNumberLex) d["number_lex"] = std::string(u.view(num));
              d["numbers"].push_back(std::string(u.view(num)));
            }
          }
        }
        out["details"] = std::move(d);
        break;
      }
      case Kind::kAnnex: {
        json a = qualified_json(u, i, "id");
        out["annexes"].push_back(std::move(a));
        break;
      }
      case Kind::kExpression: {
        json e{{"version", nullptr}, {"language", nullptr}};
        for (std::size_t c : u.children(i)) {
          const Node& k = nodes[c];
          if (k.kind == Kind::kLanguage) e["language"] = std::string(u.view(k));
          if (k.kind != Kind::kVersion) continue;
          json v{
              {"amendment_date", nullptr}, {"specification", nullptr}, {"events", json::array()}};
          bool first = true;
          for (std::size_t vv : u.children(c)) {
            const Node& part = nodes[vv];
            if (first) {
              if (part.kind == Kind::kDate) {
                v["amendment_date"] = date_json(u, vv);
              } else {
                v["specification"] = std::string(u.view(part));
              }
              first = false;
            } else if (part.kind == Kind::kDate) {
              v["events"].push_back({{"date", date_json(u, vv)}});
            } else {
              v["events"].push_back({{"event", std::string(u.view(part))}});
            }
          }
          e["version"] = std::move(v);
        }
        out["expression"] = std::move(e);
        break;
      }
      case Kind::kManifestation: {
        json m{
            {"format", nullptr}, {"editor", nullptr}, {"component", nullptr}, {"feature", nullptr}};
        for (std::size_t c : u.children(i)) {
          const Node& k = nodes[c];
          if (k.kind == Kind::kFormat) m["format"] = qualified_json(u, c, "mime");
          if (k.kind == Kind::kEditor) m["editor"] = qualified_json(u, c, "publisher");
          if (k.kind == Kind::kComponent) m["component"] = qualified_json(u, c, "part");
          if (k.kind == Kind::kFeature) m["feature"] = qualified_json(u, c, "attribute");
        }
        out["manifestation"] = std::move(m);
        break;
      }
      default: break;
    }
  }
  const Node* p = u.find(Kind::kPartition);
  out["partition"] = opt_string(u.partition(), p != nullptr);
  const Node* q = u.find(Kind::kQuery);
  out["query"] = opt_string(u.get(Kind::kQuery), q != nullptr);
  const Node* f = u.find(Kind::kFragment);
  out["fragment"] = opt_string(u.get(Kind::kFragment), f != nullptr);
  return out;
}

}  // namespace lexlink::urn

#include "urn/url_template.h"

#include <cstdlib>

namespace lexlink::urn {
namespace {

std::size_t variable_index(std::string_view name) {
  for (std::size_t i = 0; i < kTemplateVariables.size(); ++i) {
    if (name == kTemplateVariables[i]) return i;
  }
  return kTemplateVariables.size();
}

Error error_at(std::size_t offset, std::string message) {
  Error e = make_error(ErrorCode::kDataError, std::move(message));
  e.col = static_cast<std::uint32_t>(offset + 1);
  return e;
}

class Compiler {
 public:
  Compiler(std::string_view s, const TemplateMaps& maps) : s_(s), maps_(maps) {}

  // Parses items until `]` (inside a group) or the end.
  Result<std::vector<UrlTemplate::Item>> sequence(bool in_group) {
    std::vector<UrlTemplate::Item> items;
    std::string literal;
    auto flush = [&] {
      if (!literal.empty()) {
        items.push_back({UrlTemplate::Item::Type::kLiteral, std::move(literal), 0, {}, {}});
        literal.clear();
      }
    };
    const std::size_t open = p_ == 0 ? 0 : p_ - 1;
    while (p_ < s_.size()) {
      const char c = s_[p_];
      if (c == '\\') {
        if (p_ + 1 >= s_.size()) return error_at(p_, "'\\' at the end of the template");
        literal += s_[p_ + 1];
        p_ += 2;
      } else if (c == '{') {
        flush();
        auto item = variable();
        if (!item) return item.error();
        items.push_back(std::move(*item));
      } else if (c == '[') {
        flush();
        ++p_;
        auto group = sequence(true);
        if (!group) return group.error();
        items.push_back({UrlTemplate::Item::Type::kGroup, {}, 0, {}, std::move(*group)});
      } else if (c == ']') {
        if (!in_group) return error_at(p_, "']' without a matching '['");
        flush();
        ++p_;
        return items;
      } else if (c == '}') {
        return error_at(p_, "'}' without a matching '{' (write '\\}' for the character)");
      } else {
        literal += c;
        ++p_;
      }
    }
    if (in_group) return error_at(open, "'[' is never closed");
    flush();
    return items;
  }

 private:
  Result<UrlTemplate::Item> variable() {
    const std::size_t open = p_++;
    const std::size_t close = s_.find('}', p_);
    if (close == std::string_view::npos) return error_at(open, "'{' is never closed");
    std::string_view body = s_.substr(p_, close - p_);
    std::size_t bar = body.find('|');
    std::string_view name = body.substr(0, bar);
    UrlTemplate::Item item{UrlTemplate::Item::Type::kVariable, {}, variable_index(name), {}, {}};
    if (item.variable == kTemplateVariables.size()) {
      std::string known;
      for (const char* v : kTemplateVariables) known += std::string(known.empty() ? "" : ", ") + v;
      return error_at(p_, "unknown variable '" + std::string(name) + "' (known: " + known + ")");
    }
    std::size_t pos = p_ + name.size();
    while (bar != std::string_view::npos) {
      const std::size_t start = bar + 1;
      bar = body.find('|', start);
      std::string_view spec = body.substr(start, bar == std::string_view::npos ? bar : bar - start);
      pos = p_ + start;
      auto filter = parse_filter(spec, pos);
      if (!filter) return filter.error();
      item.filters.push_back(std::move(*filter));
    }
    p_ = close + 1;
    return item;
  }

  Result<UrlTemplate::Filter> parse_filter(std::string_view spec, std::size_t pos) {
    using Op = UrlTemplate::Filter::Op;
    const std::size_t paren = spec.find('(');
    std::string_view fname = spec.substr(0, paren);
    std::vector<std::string> args;
    if (paren != std::string_view::npos) {
      if (spec.back() != ')') return error_at(pos, "filter arguments must end with ')'");
      std::string_view inner = spec.substr(paren + 1, spec.size() - paren - 2);
      std::size_t start = 0;
      while (true) {
        const std::size_t comma = inner.find(',', start);
        args.emplace_back(
            inner.substr(start, comma == std::string_view::npos ? comma : comma - start));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
      }
    }
    auto want = [&](std::size_t count) -> Status {
      if (args.size() == count) return Status::Ok();
      return error_at(pos, "filter '" + std::string(fname) + "' takes " + std::to_string(count) +
                               " argument(s), found " + std::to_string(args.size()));
    };
    auto integer = [&](const std::string& a, int& out) -> Status {
      char* end = nullptr;
      const long v = std::strtol(a.c_str(), &end, 10);
      if (a.empty() || *end != 0 || v < -64 || v > 64 || v == 0) {
        return error_at(pos, "'" + a + "' is not a usable number here (1..64, or -1..-64)");
      }
      out = static_cast<int>(v);
      return Status::Ok();
    };
    UrlTemplate::Filter f{Op::kUpper, {}, {}, 0};
    if (fname == "upper" || fname == "lower") {
      if (Status s = want(0); !s) return s.error();
      f.op = fname == "upper" ? Op::kUpper : Op::kLower;
    } else if (fname == "field") {
      if (Status s = want(2); !s) return s.error();
      if (args[0].size() != 1) return error_at(pos, "field(C,N): C is one character");
      if (Status s = integer(args[1], f.n); !s) return s.error();
      f.op = Op::kField;
      f.a = args[0];
    } else if (fname == "pad") {
      if (Status s = want(1); !s) return s.error();
      if (Status s = integer(args[0], f.n); !s) return s.error();
      if (f.n < 0) return error_at(pos, "pad(N): N is positive");
      f.op = Op::kPad;
    } else if (fname == "replace") {
      if (Status s = want(2); !s) return s.error();
      if (args[0].empty()) return error_at(pos, "replace(A,B): A is not empty");
      f.op = Op::kReplace;
      f.a = args[0];
      f.b = args[1];
    } else if (fname == "strip") {
      if (Status s = want(1); !s) return s.error();
      f.op = Op::kStrip;
      f.a = args[0];
    } else if (fname == "map") {
      if (Status s = want(1); !s) return s.error();
      if (maps_.find(args[0]) == maps_.end()) {
        return error_at(pos, "map(" + args[0] + "): no map of that name in resolver-maps.tsv");
      }
      f.op = Op::kMap;
      f.a = args[0];
    } else {
      return error_at(pos, "unknown filter '" + std::string(fname) +
                               "' (known: upper, lower, field, pad, replace, strip, map)");
    }
    return f;
  }

  std::string_view s_;
  const TemplateMaps& maps_;
  std::size_t p_ = 0;
};

std::string apply(const UrlTemplate::Filter& f, std::string v, const TemplateMaps& maps) {
  using Op = UrlTemplate::Filter::Op;
  switch (f.op) {
    case Op::kUpper:
      for (char& c : v) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c;
      return v;
    case Op::kLower:
      for (char& c : v) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
      return v;
    case Op::kField: {
      std::vector<std::string_view> fields;
      std::string_view s = v;
      std::size_t start = 0;
      while (true) {
        const std::size_t k = s.find(f.a[0], start);
        fields.push_back(s.substr(start, k == std::string_view::npos ? k : k - start));
        if (k == std::string_view::npos) break;
        start = k + 1;
      }
      const int count = static_cast<int>(fields.size());
      const int index = f.n > 0 ? f.n - 1 : count + f.n;
      if (index < 0 || index >= count) return {};
      return std::string(fields[static_cast<std::size_t>(index)]);
    }
    case Op::kPad:
      if (!v.empty() && v.size() < static_cast<std::size_t>(f.n)) {
        v.insert(0, static_cast<std::size_t>(f.n) - v.size(), '0');
      }
      return v;
    case Op::kReplace: {
      std::string out;
      for (std::size_t i = 0; i < v.size();) {
        if (v.compare(i, f.a.size(), f.a) == 0) {
          out += f.b;
          i += f.a.size();
        } else {
          out += v[i++];
        }
      }
      return out;
    }
    case Op::kStrip:
      if (v.compare(0, f.a.size(), f.a) == 0) v.erase(0, f.a.size());
      return v;
    case Op::kMap: {
      const auto& m = maps.find(f.a)->second;
      auto it = m.find(v);
      return it == m.end() ? std::string() : it->second;
    }
  }
  return v;
}

std::optional<std::string> expand_items(const std::vector<UrlTemplate::Item>& items,
                                        const TemplateValues& values, const TemplateMaps& maps) {
  std::string out;
  for (const auto& item : items) {
    switch (item.type) {
      case UrlTemplate::Item::Type::kLiteral: out += item.literal; break;
      case UrlTemplate::Item::Type::kVariable: {
        std::string v = values.values[item.variable];
        for (const auto& f : item.filters) v = apply(f, std::move(v), maps);
        if (v.empty()) return std::nullopt;
        out += v;
        break;
      }
      case UrlTemplate::Item::Type::kGroup:
        if (auto g = expand_items(item.group, values, maps)) out += *g;
        break;
    }
  }
  return out;
}

}  // namespace

Result<UrlTemplate> UrlTemplate::compile(std::string_view text, const TemplateMaps& maps) {
  Compiler c(text, maps);
  auto items = c.sequence(false);
  if (!items) return items.error();
  if (items->empty()) return error_at(0, "empty template");
  UrlTemplate t;
  t.items_ = std::move(*items);
  return t;
}

std::optional<std::string> UrlTemplate::expand(const TemplateValues& values,
                                               const TemplateMaps& maps) const {
  return expand_items(items_, values, maps);
}

TemplateValues TemplateValues::of(const Urn& urn, char partition_sep) {
  TemplateValues t;
  auto set = [&](std::string_view var, std::string_view value) {
    t.values[variable_index(var)] = std::string(value);
  };
  const std::string_view name = urn.document_name();
  set("name", name);
  set("nss", name.size() > 8 ? name.substr(8) : std::string_view());
  if (const Node* j = urn.find(Kind::kJurisdiction)) {
    set("jurisdiction", urn.view(*j));
    if (j->end + 1 <= name.size()) set("local", name.substr(j->end + 1));
    std::string units;
    for (std::string_view u : urn.all(Kind::kJurisdictionUnit)) {
      units += std::string(units.empty() ? "" : ";") + std::string(u);
    }
    set("units", units);
  }
  set("jurisdiction_code", urn.jurisdiction_code());
  set("authority", urn.get(Kind::kAuthority));
  set("measure", urn.get(Kind::kMeasure));
  set("measure_type", urn.get(Kind::kMeasureType));
  set("details", urn.get(Kind::kDetails));
  if (const Node* d = urn.find(Kind::kDetails)) {
    for (const Node& n : urn.nodes()) {
      if (n.kind == Kind::kDateIso && n.begin >= d->begin && n.end <= d->end) {
        std::string_view iso = urn.view(n);
        set("date", iso);
        set("month", iso.substr(5, 2));
        set("day", iso.substr(8, 2));
        break;
      }
    }
  }
  set("year", urn.year());
  set("period", urn.get(Kind::kPeriod));
  set("number",
      urn.get(Kind::kDocumentId).empty() ? urn.get(Kind::kNumberLex) : urn.get(Kind::kDocumentId));
  set("numbers", urn.get(Kind::kNumbers));
  std::string annex;
  for (std::string_view a : urn.all(Kind::kAnnex)) {
    annex += std::string(annex.empty() ? "" : ":") + std::string(a);
  }
  set("annex", annex);
  set("version", urn.get(Kind::kVersion));
  set("language", urn.get(Kind::kLanguage));
  set("partition", urn.partition());
  set("sep", std::string_view(&partition_sep, 1));
  return t;
}

}  // namespace lexlink::urn

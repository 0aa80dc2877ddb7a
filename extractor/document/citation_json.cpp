#include "document/citation_json.h"

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "common/json_text.h"

namespace lexlink::document {
namespace {

char* put_number(char* p, std::uint64_t v) {
  return write_decimal(p, v);  // kDecimalRoom (20) bytes: the bound below has them
}

}  // namespace

bool add_offset(std::string_view item, const OffsetNames& names, OffsetFields& out) {
  if (item == names.bytes) {
    out.bytes = true;
  } else if (item == names.code_points) {
    out.code_points = true;
  } else if (item == names.utf16) {
    out.utf16 = true;
  } else if (item == "all") {
    out = OffsetFields{true, true, true};
  } else {
    return false;
  }
  return true;
}

std::optional<OffsetFields> parse_offsets(std::string_view value, const OffsetNames& names) {
  OffsetFields out{false, false, false};
  std::size_t at = 0;
  while (at <= value.size()) {
    std::size_t comma = value.find(',', at);
    if (comma == std::string_view::npos) comma = value.size();
    if (!add_offset(value.substr(at, comma - at), names, out)) return std::nullopt;
    at = comma + 1;
  }
  return out;
}

std::size_t citation_fields_bound(const extract::Citation& c) {
  return 200 + 6 * kDecimalRoom + json_string_bound(c.text.size()) +
         json_string_bound(c.urn.size()) + json_string_bound(c.work.size()) +
         json_string_bound(c.jurisdiction.size()) + json_string_bound(c.rule.size());
}

char* write_citation_fields(char* p, const extract::Citation& c, const OffsetFields& offsets,
                            std::pair<const char*, const char*>* urn_json) {
  if (offsets.bytes) {
    p = put_literal(p, "\"start\":");
    p = put_number(p, c.start);
    p = put_literal(p, ",\"end\":");
    p = put_number(p, c.end);
    *p++ = ',';
  }
  if (offsets.code_points) {
    p = put_literal(p, "\"char_start\":");
    p = put_number(p, c.char_start);
    p = put_literal(p, ",\"char_end\":");
    p = put_number(p, c.char_end);
    *p++ = ',';
  }
  if (offsets.utf16) {
    p = put_literal(p, "\"utf16_start\":");
    p = put_number(p, c.utf16_start);
    p = put_literal(p, ",\"utf16_end\":");
    p = put_number(p, c.utf16_end);
    *p++ = ',';
  }
  p = put_literal(p, "\"text\":");
  p = write_json_string(p, c.text);
  p = put_literal(p, ",\"urn\":");
  char* const urn_begin = p;
  // The work is the urn or its start, the partition after it ("...;56~art3"): its JSON is then
  // the start of the urn's, copied (write_json_chars writes the urn in two parts as it writes it
  // whole when the second starts with an ASCII byte, as '~' is).
  const std::size_t w = c.work.size();
  const bool work_leads = c.urn.size() >= w && std::memcmp(c.urn.data(), c.work.data(), w) == 0 &&
                          (c.urn.size() == w || static_cast<unsigned char>(c.urn[w]) < 0x80);
  if (work_leads) {
    *p++ = '"';
    p = write_json_chars(p, std::string_view(c.urn).substr(0, w));
    char* const work_end = p;
    p = write_json_chars(p, std::string_view(c.urn).substr(w));
    *p++ = '"';
    if (urn_json != nullptr) *urn_json = {urn_begin, p};
    p = put_literal(p, ",\"work\":");
    p = put_copy(p, urn_begin, work_end);
    *p++ = '"';
  } else {
    p = write_json_string(p, c.urn);
    if (urn_json != nullptr) *urn_json = {urn_begin, p};
    p = put_literal(p, ",\"work\":");
    p = write_json_string(p, c.work);
  }
  p = put_literal(p, ",\"jurisdiction\":");
  p = write_json_string(p, c.jurisdiction);
  p = c.complete ? put_literal(p, ",\"complete\":true,\"rule\":")
                 : put_literal(p, ",\"complete\":false,\"rule\":");
  return write_json_string(p, c.rule);
}

void append_citation_json(std::string& out, const extract::Citation& c, const OffsetFields& offsets,
                          const std::optional<std::string_view>& href, bool inner_field) {
  const std::size_t at = out.size();
  const std::size_t more = (href ? 10 + json_string_bound(href->size()) : 0) + 16;
  out.resize(at + 2 + citation_fields_bound(c) + more);
  char* const begin = out.data();
  char* p = begin + at;
  *p++ = '{';
  p = write_citation_fields(p, c, offsets);
  if (href) {
    p = put_literal(p, ",\"href\":");
    p = write_json_string(p, *href);
  }
  if (inner_field) {
    p = c.inner ? put_literal(p, ",\"inner\":true") : put_literal(p, ",\"inner\":false");
  }
  *p++ = '}';
  out.resize(static_cast<std::size_t>(p - begin));
}

nlohmann::ordered_json outcome_json(const rewrite::Outcome& o) {
  using json = nlohmann::ordered_json;
  json j;
  const rewrite::Request& r = o.request;
  std::optional<rewrite::Span> span = o.original ? o.original : r.original;
  j["start"] = span ? json(span->begin) : json(nullptr);
  j["end"] = span ? json(span->end) : json(nullptr);
  j["urn"] = r.urn;
  j["linked"] = o.linked;
  j["reason"] = rewrite::to_string(o.reason);
  if (!o.detail.empty()) j["detail"] = o.detail;
  j["text"] = o.text;
  if (o.linked) {
    j["href"] = o.href;
    json links = json::array();
    for (const rewrite::Span& s : o.links) links.push_back(json::array({s.begin, s.end}));
    j["links"] = std::move(links);
    j["split"] = o.split;
  }
  j["snapped"] = o.snapped;
  if (r.original && span && !(*r.original == *span)) {
    j["requested"] = json::array({r.original->begin, r.original->end});
  }
  if (r.id != 0) j["line"] = r.id;
  if (!r.rule.empty()) j["rule"] = r.rule;
  return j;
}

}  // namespace lexlink::document

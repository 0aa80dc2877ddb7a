// document/citation_json: a citation and its markup outcome as JSON, the one writer of the fields
// every JSON output shares (extract's lines, stream's records, the service's answers): "start",
// "end", "char_start", "char_end", "utf16_start", "utf16_end" (those the caller asks for), "text",
// "urn", "work", "jurisdiction", "complete", "rule", and "href" and "inner" when asked for. Valid
// JSON whatever the citation's bytes (common/json_text). Written by hand into a buffer sized by a
// bound: this is the hot output path of `extract`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "extract/extractor.h"
#include "rewrite/rewriter.h"

namespace lexlink::document {

// Which spans a citation's JSON carries: in bytes of the original, code points, UTF-16 units.
struct OffsetFields {
  bool bytes = true;
  bool code_points = true;
  bool utf16 = false;
};

// The words that name the three spans: the CLI's (--offsets bytes,chars,utf16) and the
// service's ("offsets": "utf8,codepoint,utf16"); "all" names the three in both.
struct OffsetNames {
  std::string_view bytes, code_points, utf16;
};
inline constexpr OffsetNames kCliOffsetNames{"bytes", "chars", "utf16"};
inline constexpr OffsetNames kServiceOffsetNames{"utf8", "codepoint", "utf16"};

// Adds the span `item` names (or all three for "all") to `out`; false for another word.
bool add_offset(std::string_view item, const OffsetNames& names, OffsetFields& out);

// A comma-separated list of those words; nullopt when one is not.
std::optional<OffsetFields> parse_offsets(std::string_view value,
                                          const OffsetNames& names = kCliOffsetNames);

// The most bytes write_citation_fields() writes for `c`.
std::size_t citation_fields_bound(const extract::Citation& c);

// The fields of `c` from the first span to "rule", without braces, at `p` (room for
// citation_fields_bound(c) bytes); returns the end of what it wrote. `urn_json`, when given, is
// set to where the urn's JSON string was written, quotes included.
char* write_citation_fields(char* p, const extract::Citation& c, const OffsetFields& offsets,
                            std::pair<const char*, const char*>* urn_json = nullptr);

// `c` as a JSON object appended to `out`, with "href" when `href` is given and "inner" (the
// act named inside a citation of its partition: markup links the partition) last when
// `inner_field`.
void append_citation_json(std::string& out, const extract::Citation& c,
                          const OffsetFields& offsets = {},
                          const std::optional<std::string_view>& href = std::nullopt,
                          bool inner_field = false);

// What became of one citation in a markup, as a line of `markup --report` and an item of the
// service's "outcomes": start, end (null when unknown), urn, linked, reason, detail (when there
// is more to say), text, href, links and split (linked only), snapped, requested (when the span
// linked is not the one asked for), line (a citations file's line), rule.
nlohmann::ordered_json outcome_json(const rewrite::Outcome& o);
}  // namespace lexlink::document

// text/html_entities: HTML character references (the full HTML5 named table and numeric
// references) as the HTML Living Standard's tokenizer reads them in text content (internal to
// lexlink_text).
//
// Named references match the longest name of the table: with a ';' when the name has one, else
// one of the 106 legacy names that may omit it (`&copy 2020`, `&notit;` reads "¬it;"). Numeric
// references follow the standard's rules for bad values: 0, surrogates and values above
// U+10FFFF read U+FFFD, 0x80..0x9F read as Windows-1252. The table comes from the WHATWG
// standard (CC BY 4.0), generated into html_entities_table.cpp by scripts/gen_html_entities.py.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace lexlink::text {

struct HtmlEntity {
  std::string_view name;  // without '&', with the ';' when the table entry has one
  std::string_view utf8;  // one or two code points, UTF-8
};

// The whole table (2,231 entries), sorted by name in byte order.
std::span<const HtmlEntity> html_entities();

// The entry named exactly `name` (as written in the table: "amp;" or "amp"), or nullptr.
const HtmlEntity* find_html_entity(std::string_view name);

// A character reference read at the start of `s`, the bytes after a '&'.
struct CharRef {
  enum class Status : unsigned char {
    kNone,      // not a reference: the '&' is text
    kFound,     // a reference of `length` bytes after the '&'
    kNeedMore,  // `s` ends inside what may be a reference and more input may come
  };
  Status status = Status::kNone;
  std::size_t length = 0;
  std::string_view utf8;    // the value of a named reference (static storage), else empty
  char32_t code_point = 0;  // the value of a numeric reference (when utf8 is empty)
};

// HTML rules (text content). `at_eof`: no byte follows `s`.
CharRef scan_html_char_ref(std::string_view s, bool at_eof);

// XML rules: `&#N;`, `&#xH;` and `&name;` with the ';' required. Predefined and HTML5 names
// are decoded (code_point / utf8 set); another well-formed name is kFound with neither set (the
// caller keeps it as text). A malformed reference is kNone.
CharRef scan_xml_char_ref(std::string_view s);

// The code point a numeric reference's value means (HTML's rules for bad values).
char32_t html_numeric_value(std::uint64_t value);

}  // namespace lexlink::text

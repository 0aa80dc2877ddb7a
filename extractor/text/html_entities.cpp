#include "text/html_entities.h"

#include <algorithm>
#include <cstdint>

#include "text/charset.h"

namespace lexlink::text {

namespace {

constexpr std::size_t kMaxNameBytes = 32;   // the longest table name, ';' included
constexpr std::size_t kMaxLegacyBytes = 6;  // the longest name without ';'
constexpr std::size_t kMaxDigits = 64;      // a longer run of digits ends the reference

bool is_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

// Reads the digits of a numeric reference starting at s[start]; returns the index after them.
std::size_t read_number(std::string_view s, std::size_t start, bool hex, std::uint64_t& value) {
  value = 0;
  std::size_t i = start;
  while (i < s.size() && i - start < kMaxDigits && (hex ? is_hex(s[i]) : is_digit(s[i]))) {
    const int d = hex ? hex_value(s[i]) : s[i] - '0';
    value = value * (hex ? 16 : 10) + static_cast<std::uint64_t>(d);
    if (value > 0x10FFFF) value = 0x110000;  // saturate: out of range whatever follows
    ++i;
  }
  return i;
}

}  // namespace

const HtmlEntity* find_html_entity(std::string_view name) {
  const auto table = html_entities();
  auto it = std::lower_bound(table.begin(), table.end(), name,
                             [](const HtmlEntity& e, std::string_view n) { return e.name < n; });
  if (it == table.end() || it->name != name) return nullptr;
  return &*it;
}

char32_t html_numeric_value(std::uint64_t value) {
  if (value == 0 || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return 0xFFFD;
  const auto c = static_cast<char32_t>(value);
  if (c >= 0x80 && c <= 0x9F) return windows_1252_c1(c);
  return c;
}

CharRef scan_html_char_ref(std::string_view s, bool at_eof) {
  CharRef r;
  if (s.empty()) {
    r.status = at_eof ? CharRef::Status::kNone : CharRef::Status::kNeedMore;
    return r;
  }
  if (s[0] == '#') {
    std::size_t start = 1;
    bool hex = false;
    if (s.size() > 1 && (s[1] == 'x' || s[1] == 'X')) {
      hex = true;
      start = 2;
    }
    if (s.size() <= start) {
      r.status = at_eof ? CharRef::Status::kNone : CharRef::Status::kNeedMore;
      return r;
    }
    std::uint64_t value = 0;
    const std::size_t end = read_number(s, start, hex, value);
    if (end == start) return r;  // "&#" or "&#x" without digits: text
    if (end == s.size() && !at_eof && end - start < kMaxDigits) {
      r.status = CharRef::Status::kNeedMore;
      return r;
    }
    r.status = CharRef::Status::kFound;
    r.length = end < s.size() && s[end] == ';' ? end + 1 : end;
    r.code_point = html_numeric_value(value);
    return r;
  }
  if (!is_alnum(s[0])) return r;
  std::size_t k = 0;
  while (k < s.size() && k < kMaxNameBytes && is_alnum(s[k])) ++k;
  if (k == s.size() && !at_eof && k < kMaxNameBytes) {
    r.status = CharRef::Status::kNeedMore;  // the name (or its ';') may continue
    return r;
  }
  if (k < s.size() && s[k] == ';') {
    if (const HtmlEntity* e = find_html_entity(s.substr(0, k + 1))) {
      r.status = CharRef::Status::kFound;
      r.length = k + 1;
      r.utf8 = e->utf8;
      return r;
    }
  }
  for (std::size_t len = std::min(k, kMaxLegacyBytes); len >= 2; --len) {
    if (const HtmlEntity* e = find_html_entity(s.substr(0, len))) {
      r.status = CharRef::Status::kFound;
      r.length = len;
      r.utf8 = e->utf8;
      return r;
    }
  }
  return r;
}

CharRef scan_xml_char_ref(std::string_view s) {
  CharRef r;
  if (s.empty()) return r;
  if (s[0] == '#') {
    const bool hex = s.size() > 1 && s[1] == 'x';
    const std::size_t start = hex ? 2 : 1;
    std::uint64_t value = 0;
    const std::size_t end = read_number(s, start, hex, value);
    if (end == start || end >= s.size() || s[end] != ';') return r;
    r.status = CharRef::Status::kFound;
    r.length = end + 1;
    r.code_point = html_numeric_value(value);
    // XML has no Windows-1252 remapping: &#150; is U+0096.
    if (value >= 0x80 && value <= 0x9F) r.code_point = static_cast<char32_t>(value);
    return r;
  }
  // Name: ASCII letters, digits, '_', ':', '.', '-' and any non-ASCII byte; not a digit first.
  std::size_t k = 0;
  auto name_char = [](char c) {
    return is_alnum(c) || c == '_' || c == ':' || c == '.' || c == '-' ||
           static_cast<unsigned char>(c) >= 0x80;
  };
  while (k < s.size() && k < 256 && name_char(s[k])) ++k;
  if (k == 0 || is_digit(s[0]) || s[0] == '-' || s[0] == '.' || k >= s.size() || s[k] != ';') {
    return r;
  }
  r.status = CharRef::Status::kFound;
  r.length = k + 1;
  const std::string_view name = s.substr(0, k);
  if (name == "lt") {
    r.utf8 = "<";
  } else if (name == "gt") {
    r.utf8 = ">";
  } else if (name == "amp") {
    r.utf8 = "&";
  } else if (name == "quot") {
    r.utf8 = "\"";
  } else if (name == "apos") {
    r.utf8 = "'";
  } else if (const HtmlEntity* e = find_html_entity(s.substr(0, k + 1))) {
    r.utf8 = e->utf8;  // XHTML and DTD-declared HTML entities (&nbsp;, &sect;)
  }
  return r;
}

}  // namespace lexlink::text

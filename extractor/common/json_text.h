// common/json_text: writing JSON text safely and fast. Input text may hold invalid UTF-8 or NUL
// bytes; every string written is valid JSON whatever the input (invalid bytes become U+FFFD).
// Used by every writer of JSON: the CLI's lines, the service's answers, the library's reports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lexlink {

// `value` as compact JSON on one line (invalid UTF-8 in its strings replaced).
std::string to_json_line(const nlohmann::ordered_json& value);

// Appends `s` as a JSON string (quotes included) to `out`: escapes what JSON requires and
// replaces invalid UTF-8 with U+FFFD. For hot output paths that do not build JSON objects.
void append_json_string(std::string& out, std::string_view s);

// The most bytes write_json_string() writes for `n` bytes of input (a control byte becomes six,
// "\u00XX"; the quotes).
constexpr std::size_t json_string_bound(std::size_t n) {
  return 6 * n + 2;
}

// Writes `s` as append_json_string() appends it (the same bytes) at `p`, which has room for
// json_string_bound(s.size()) bytes; returns the end of what it wrote.
char* write_json_string(char* p, std::string_view s);

// The same without the quotes: what write_json_string() writes between them. Each character is
// written on its own, so where `s` is cut before an ASCII byte (or at its end) the two parts
// are written as `s` is: write_json_chars(s[0, k)) + write_json_chars(s[k, n)) is
// write_json_chars(s) when s[k] < 0x80.
char* write_json_chars(char* p, std::string_view s);

// The most bytes write_decimal() writes (any 64-bit value has at most 20 digits; it writes 20
// bytes, the digits first).
inline constexpr std::size_t kDecimalRoom = 20;

// Writes `v` in decimal (as std::to_chars) at `p`, which has room for kDecimalRoom bytes (the
// bytes after the digits are scratch); returns the end of the digits.
char* write_decimal(char* p, std::uint64_t v);

// Writes a literal (without its terminating NUL) at `p`; returns the end of what it wrote.
template <std::size_t N>
char* put_literal(char* p, const char (&literal)[N]) {
  std::memcpy(p, literal, N - 1);
  return p + (N - 1);
}

// Copies [from, to) to `p` (bytes written already, say); returns the end of what it wrote.
inline char* put_copy(char* p, const char* from, const char* to) {
  const auto n = static_cast<std::size_t>(to - from);
  std::memcpy(p, from, n);
  return p + n;
}

}  // namespace lexlink

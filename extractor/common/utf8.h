// common/utf8: small, allocation-free UTF-8 helpers shared by every stage.
//
// All functions take bytes and never read past the end of the view. Invalid sequences are
// reported, never "fixed" silently: callers decide whether to reject or pass the bytes through.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lexlink::utf8 {

inline constexpr char32_t kInvalid = 0xFFFFFFFF;

// Decodes the code point starting at s[i]; sets `len` to its byte length (1 on an invalid byte).
// Returns kInvalid for an invalid, overlong, surrogate or truncated sequence.
char32_t decode(std::string_view s, std::size_t i, std::size_t& len);

// Byte offset of the first invalid sequence, or npos when `s` is valid UTF-8.
std::size_t find_invalid(std::string_view s);

inline bool is_valid(std::string_view s) {
  return find_invalid(s) == std::string_view::npos;
}

// Appends the UTF-8 encoding of `cp` (which must be a valid scalar value).
void append(std::string& out, char32_t cp);

// Number of code points in a valid UTF-8 string (invalid bytes count as one each).
std::size_t count_code_points(std::string_view s);

// "U+00E0" style name of a code point.
std::string code_point_name(char32_t cp);

}  // namespace lexlink::utf8

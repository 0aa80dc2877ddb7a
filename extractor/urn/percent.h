// urn/percent: the percent-encoding of URN:LEX names (RFC 3986 section 2.1, the names' UTF-8
// bytes), shared by the parser, the normaliser and the renderers so it is written once.
// Inputs are names that have been validated: every '%' starts a well-formed triplet.
#pragma once

#include <string>
#include <string_view>

namespace lexlink::urn {

inline constexpr char kHexDigits[] = "0123456789ABCDEF";

// The value of a hex digit (0-9, a-f, A-F; the caller has checked it is one).
inline int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

// How decode_non_ascii() writes the triplets it keeps (those of ASCII bytes, which are not
// text: %3A is not ':').
enum class KeptEscapes { kAsWritten, kUpperCase };

// Percent-encoded bytes >= 0x80 become raw bytes (UTF-8 text); percent-encoded ASCII bytes stay
// triplets, as written or with upper-case hex.
std::string decode_non_ascii(std::string_view s, KeptEscapes kept);

// Raw bytes >= 0x80 become triplets with upper-case hex; everything else is copied.
std::string encode_non_ascii(std::string_view s);

}  // namespace lexlink::urn

#include "urn/percent.h"

namespace lexlink::urn {

std::string decode_non_ascii(std::string_view s, KeptEscapes kept) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%' || i + 2 >= s.size()) {
      out += s[i];
      continue;
    }
    const int b = hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]);
    if (b >= 0x80) {
      out += static_cast<char>(b);
    } else if (kept == KeptEscapes::kUpperCase) {
      out += '%';
      out += kHexDigits[b >> 4];
      out += kHexDigits[b & 15];
    } else {
      out.append(s.substr(i, 3));
    }
    i += 2;
  }
  return out;
}

std::string encode_non_ascii(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 2);
  for (char c : s) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x80) {
      out += '%';
      out += kHexDigits[b >> 4];
      out += kHexDigits[b & 15];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace lexlink::urn

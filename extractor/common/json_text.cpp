#include "common/json_text.h"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/utf8.h"

namespace lexlink {

std::string to_json_line(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

namespace {

// Whether one of the eight bytes of `w` needs more than copying: a control character, a byte of
// a multi-byte character (checked for validity), '"' or '\\'. Exact (no false positives).
bool needs_care(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  auto has_zero = [](std::uint64_t v) { return (v - kOnes) & ~v & kHigh; };
  const std::uint64_t below_space = (w - 0x20 * kOnes) & ~w & kHigh;
  return ((w & kHigh) | below_space | has_zero(w ^ (0x22 * kOnes)) |
          has_zero(w ^ (0x5C * kOnes))) != 0;
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    // A run of printable ASCII other than '"' and '\\' is copied as it is, in one append; the
    // run is found eight bytes at a time, then byte by byte.
    std::size_t run = i;
    for (std::uint64_t w; run + 8 <= s.size(); run += 8) {
      std::memcpy(&w, s.data() + run, 8);
      if (needs_care(w)) break;
    }
    while (run < s.size()) {
      const auto r = static_cast<unsigned char>(s[run]);
      if (r < 0x20 || r >= 0x80 || r == '"' || r == '\\') break;
      ++run;
    }
    if (run > i) {
      out.append(s.data() + i, run - i);
      i = run;
      if (i == s.size()) break;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      std::size_t len;
      if (utf8::decode(s, i, len) == utf8::kInvalid) {
        out += "\xEF\xBF\xBD";
        i += 1;
      } else {
        out.append(s.data() + i, len);
        i += len;
      }
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      switch (c) {
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
      }
    } else {
      out += static_cast<char>(c);
    }
    ++i;
  }
  out += '"';
}

char* write_json_string(char* p, std::string_view s) {
  *p++ = '"';
  p = write_json_chars(p, s);
  *p++ = '"';
  return p;
}

char* write_json_chars(char* p, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  const char* in = s.data();
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
#if defined(__SSE2__)
    // Sixteen bytes at a time while none needs care (the eight-byte words below are for what
    // remains, and for the bytes around one that needs care).
    if (i + 16 <= n) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
      // Below 0x20 as signed bytes: the controls and every byte of 0x80 or more.
      const __m128i care = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                                        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                                     _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
      const int mask = _mm_movemask_epi8(care);
      // The bytes before the first that needs care go as they are (the block is stored whole,
      // as its bytes' JSON takes at least as many; p moves past them only), then that one below.
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
      if (mask == 0) {
        p += 16;
        i += 16;
        continue;
      }
      const auto clean = static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
      p += clean;
      i += clean;
    }
#endif
    // Eight bytes at a time while none needs care; the last word of a string of eight bytes or
    // more is read overlapping the one before.
    std::uint64_t w;
    if (i + 8 <= n) {
      std::memcpy(&w, in + i, 8);
      if (!needs_care(w)) {
        std::memcpy(p, &w, 8);
        p += 8;
        i += 8;
        continue;
      }
    } else if (n >= 8) {
      std::memcpy(&w, in + n - 8, 8);
      if (!needs_care(w)) {
        const std::size_t rest = n - i;
        std::memcpy(p, in + i, rest);
        p += rest;
        break;
      }
    }
    // One character, as append_json_string() writes it.
    const auto c = static_cast<unsigned char>(in[i]);
    if (c >= 0x80) {
      std::size_t len;
      if (utf8::decode(s, i, len) == utf8::kInvalid) {
        std::memcpy(p, "\xEF\xBF\xBD", 3);
        p += 3;
        i += 1;
      } else {
        std::memcpy(p, in + i, len);
        p += len;
        i += len;
      }
      continue;
    }
    if (c == '"' || c == '\\') {
      *p++ = '\\';
      *p++ = static_cast<char>(c);
    } else if (c < 0x20) {
      *p++ = '\\';
      switch (c) {
        case '\n': *p++ = 'n'; break;
        case '\t': *p++ = 't'; break;
        case '\r': *p++ = 'r'; break;
        default:
          *p++ = 'u';
          *p++ = '0';
          *p++ = '0';
          *p++ = kHex[c >> 4];
          *p++ = kHex[c & 15];
      }
    } else {
      *p++ = static_cast<char>(c);
    }
    ++i;
  }
  return p;
}

char* write_decimal(char* p, std::uint64_t v) {
  // Two digits at a time from the right into a buffer, then the buffer's last kDecimalRoom bytes
  // at once (a fixed size: no call); the digits are their first bytes.
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  char buf[2 * kDecimalRoom];
  char* const end = buf + kDecimalRoom;
  char* b = end;
  if (v < 100000000) {  // eight digits or fewer (offsets below 100 MB): 32-bit arithmetic
    auto w = static_cast<std::uint32_t>(v);
    while (w >= 100) {
      const std::uint32_t k = (w % 100) * 2;
      w /= 100;
      b -= 2;
      std::memcpy(b, kPairs + k, 2);
    }
    v = w;
  }
  while (v >= 100) {
    const std::size_t k = static_cast<std::size_t>(v % 100) * 2;
    v /= 100;
    b -= 2;
    std::memcpy(b, kPairs + k, 2);
  }
  if (v >= 10) {
    b -= 2;
    std::memcpy(b, kPairs + 2 * v, 2);
  } else {
    *--b = static_cast<char>('0' + v);
  }
  std::memcpy(p, b, kDecimalRoom);  // b + kDecimalRoom is within buf
  return p + (end - b);
}

}  // namespace lexlink

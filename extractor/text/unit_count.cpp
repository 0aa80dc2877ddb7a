#include "text/unit_count.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace lexlink::text {
namespace {

// The byte classes counted: continuation bytes (10xxxxxx: not a character) and the lead bytes
// of four-byte sequences (F0..F4: a character of two UTF-16 units).
bool is_continuation(unsigned char b) {
  return (b & 0xC0) == 0x80;
}
bool is_four_byte_lead(unsigned char b) {
  return b >= 0xF0 && b <= 0xF4;
}

UnitCount count_utf8(std::string_view bytes) {
  std::uint64_t continuation = 0, supplementary = 0;
  std::size_t i = 0;
#if defined(__SSE2__) && defined(__x86_64__)
  // As signed bytes, a continuation byte is below -64 and a four-byte lead in [-16, -12]. Each
  // lane counts them (minus one per byte found) for up to 255 blocks, then the lanes are summed.
  const __m128i below = _mm_set1_epi8(-64);
  const __m128i lead_low = _mm_set1_epi8(-17);
  const __m128i lead_high = _mm_set1_epi8(-11);
  auto sum_lanes = [](__m128i lanes) {
    const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(sums)) +
           static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  };
  while (i + 16 <= bytes.size()) {
    const std::size_t rounds = std::min<std::size_t>((bytes.size() - i) / 16, 255);
    __m128i cont = _mm_setzero_si128();
    __m128i lead = _mm_setzero_si128();
    for (std::size_t r = 0; r < rounds; ++r, i += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes.data() + i));
      cont = _mm_sub_epi8(cont, _mm_cmplt_epi8(v, below));
      lead = _mm_sub_epi8(lead,
                          _mm_and_si128(_mm_cmpgt_epi8(v, lead_low), _mm_cmplt_epi8(v, lead_high)));
    }
    continuation += sum_lanes(cont);
    supplementary += sum_lanes(lead);
  }
  // Fewer than sixteen left of sixteen or more: the last sixteen bytes, without the lanes
  // counted already (the first 16 - rest).
  if (i < bytes.size() && bytes.size() >= 16) {
    const std::size_t rest = bytes.size() - i;
    const __m128i lane = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m128i mask = _mm_cmpgt_epi8(lane, _mm_set1_epi8(static_cast<char>(15 - rest)));
    const __m128i v =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes.data() + bytes.size() - 16));
    const __m128i cont = _mm_and_si128(_mm_cmplt_epi8(v, below), mask);
    const __m128i lead = _mm_and_si128(
        _mm_and_si128(_mm_cmpgt_epi8(v, lead_low), _mm_cmplt_epi8(v, lead_high)), mask);
    continuation += sum_lanes(_mm_sub_epi8(_mm_setzero_si128(), cont));
    supplementary += sum_lanes(_mm_sub_epi8(_mm_setzero_si128(), lead));
    i = bytes.size();
  }
#endif
  for (; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, bytes.data() + i, 8);
    // 0x80 in each byte that continues a character; summed without popcount (a library call
    // unless the target has the instruction).
    const std::uint64_t c = ((w & ~(w << 1)) & 0x8080808080808080ull) >> 7;
    continuation += (c * 0x0101010101010101ull) >> 56;
    // Four-byte leads are rare: looked for only in words with a byte of 0xF0 or more.
    if (((w & (w << 1) & (w << 2) & (w << 3)) & 0x8080808080808080ull) != 0) {
      for (std::size_t k = 0; k < 8; ++k) {
        supplementary += is_four_byte_lead(static_cast<unsigned char>(bytes[i + k]));
      }
    }
  }
  for (; i < bytes.size(); ++i) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    continuation += is_continuation(b);
    supplementary += is_four_byte_lead(b);
  }
  const std::uint64_t code_points = bytes.size() - continuation;
  return {code_points, code_points + supplementary};
}

UnitCount count_utf16(std::string_view bytes, bool little_endian) {
  std::uint64_t low_halves = 0;
  const std::size_t units = bytes.size() / 2;
  for (std::size_t i = 0; i < units; ++i) {
    const auto hi = static_cast<unsigned char>(bytes[2 * i + (little_endian ? 1 : 0)]);
    low_halves += hi >= 0xDC && hi <= 0xDF;  // the low half ends a pair counted already
  }
  return {units - low_halves, units};
}

}  // namespace

UnitCount count_units(std::string_view bytes, Encoding encoding) {
  switch (encoding) {
    case Encoding::kUtf8: return count_utf8(bytes);
    case Encoding::kUtf16Le: return count_utf16(bytes, true);
    case Encoding::kUtf16Be: return count_utf16(bytes, false);
    default: return {bytes.size(), bytes.size()};
  }
}

}  // namespace lexlink::text

// extract/number_text: the two readings of digits that the interpreters (units.cpp) and the
// partition chain reader (partition_chain.cpp) share. Both are total: any text is accepted.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace lexlink::extract {

inline bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The number the first digits of `s` write (at most 9 characters read, a leading '-' taken),
// 0 when there is none: what std::from_chars reads into an int, without its generality.
inline int to_int(std::string_view s) {
  const std::size_t size = std::min<std::size_t>(s.size(), 9);
  std::size_t i = 0;
  const bool negative = size > 0 && s[0] == '-';
  if (negative) i = 1;
  const std::size_t first = i;
  int v = 0;
  for (; i < size && s[i] >= '0' && s[i] <= '9'; ++i) v = v * 10 + (s[i] - '0');
  if (i == first) return 0;
  return negative ? -v : v;
}

}  // namespace lexlink::extract

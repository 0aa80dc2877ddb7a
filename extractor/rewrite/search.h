// rewrite/search: a sorted lookup for keys that mostly move forward. The rewriter looks up the
// view's pieces and tags of citation after citation, in document order: a few steps forward
// from the last answer find most, where a bisection of a chunk's pieces takes a dozen steps;
// the others get the bisection. Both give the same answer (search_test checks it).
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>

namespace lexlink::rewrite {

// The first index i of `items` for which before(items[i]) is false (items.size() if none), as
// std::partition_point: `before` must be true for a prefix of `items` and false after it.
// `hint`: where the last answer was.
template <class T, class Before>
std::size_t partition_point_from(std::span<const T> items, std::size_t hint, Before before) {
  static constexpr int kSteps = 8;
  std::size_t i = std::min(hint, items.size());
  if (i == 0 || before(items[i - 1])) {
    for (int k = 0; k < kSteps && i < items.size() && before(items[i]); ++k) ++i;
    if (i == items.size() || !before(items[i])) return i;
  }
  return static_cast<std::size_t>(std::partition_point(items.begin(), items.end(), before) -
                                  items.begin());
}

}  // namespace lexlink::rewrite

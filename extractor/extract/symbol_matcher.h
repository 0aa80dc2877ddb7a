// extract/symbol_matcher: the leftmost-longest matches of a grammar's combined rule program over
// the unit symbols of a chunk, from either of its two engines behind one interface: the symbol
// automata (symbol_dfa.h, the fast path) or RE2 (the reference engine, and the fallback where
// the automata do not build the expression). Both give the same spans; tests/extract/
// symbol_dfa_test.cpp compares them on every grammar and corpus.
//
// With the automata, the starts of every match are marked once, in one pass over the symbols
// (linear); each match is then the longest from the next mark. With RE2 each search is RE2's
// own unanchored leftmost-longest match. The matcher holds no state of its own beyond the
// caller's scratch (the marks and the automata's cache, one per thread).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "extract/symbol_dfa.h"
#include "extract/units.h"

namespace re2 {
class RE2;
}

namespace lexlink::extract {

class SymbolMatcher {
 public:
  // Searches `symbols` (which must outlive the matcher) with `dfa` when it is not null, else
  // with `combined` (compiled with longest_match; then not null). `marks` and `cache` are the
  // caller's scratch, kept from chunk to chunk.
  SymbolMatcher(const SymbolDfa* dfa, const re2::RE2* combined, std::string_view symbols,
                std::vector<std::uint8_t>& marks, SymbolDfa::Cache& cache);

  // The leftmost-longest match that starts at or after `pos`: `found` and its symbol span in
  // `match` (it may be empty), or not `found` when there is none. An error only when the
  // automata contradict themselves (a marked start without a match).
  Status next(std::size_t pos, Span& match, bool& found) const;

 private:
  const SymbolDfa* dfa_;
  const re2::RE2* combined_;
  std::string_view symbols_;
  const std::vector<std::uint8_t>& marks_;
  SymbolDfa::Cache& cache_;
};

}  // namespace lexlink::extract

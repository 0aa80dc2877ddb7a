// extract/symbol_dfa: the leftmost-longest search of a grammar's rules over unit symbols, with
// automata of our own instead of RE2's general machinery.
//
// The input is the combined rule program, a regular expression over symbol bytes in the subset
// the grammar loader writes (`\xNN` bytes, `[...]` sets of bytes and byte ranges, `(?:...)`,
// `(?P<name>...)`, `|`, `?`, `*`, `+`, `{m}`, `{m,}`, `{m,n}`). build() turns it into two
// nondeterministic automata over classes of equivalent bytes: a reverse one, read once from the
// end of a run of symbols to its start, that marks every position where some match starts, and
// a forward one, read from such a position, that gives the longest match there. Together they
// give the span RE2 gives for the same expression with longest_match (the leftmost start, then
// the longest end): tests/extract/symbol_dfa_test.cpp compares the two on every grammar, on the
// symbols of every corpus text and on random strings of symbols.
//
// Their deterministic states are built as the text meets them, in a Cache that each thread
// keeps (built whole, a grammar's automata took 0.4 G instructions for it and 6.5 G for uk; a
// text visits a few hundred of their states), so that a search step is one table lookup. RE2,
// searching for one match at a time, set up a forward and a reverse search per match (about
// 1,000 instructions each time). Cost: linear in the symbols for the marks; per match, its
// length plus the symbols after it that a longer match could still use (as RE2's forward
// search). A Cache holds at most about kMaxCachedStates states
// (it starts afresh beyond, between searches; a search adds at most one state per symbol).
// build() refuses syntax outside the subset and an expression that matches the empty string: the
// caller then keeps RE2. The SymbolDfa is immutable once built: threads share it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"

namespace lexlink::extract {

class SymbolDfa {
 public:
  static constexpr std::size_t kNoMatch = static_cast<std::size_t>(-1);
  static constexpr std::size_t kMaxCachedStates = 4096;

  static Result<SymbolDfa> build(std::string_view regex);

  // One automaton's deterministic states met so far (see Cache).
  struct States {
    std::vector<std::uint32_t> next;  // [state * classes + class] -> state, or kUnknown
    std::vector<std::uint8_t> accepts;
    std::vector<std::vector<std::uint32_t>> sets;  // each state's automaton states, sorted
    std::unordered_map<std::string, std::uint32_t> ids;
    std::vector<std::uint32_t> scratch;
  };
  // The deterministic states built so far, for one thread (not shared).
  struct Cache {
    States forward, reverse;
  };

  // starts[i] = 1 when a match of the expression starts at symbols[i], else 0 (resized to
  // symbols.size()).
  void mark_starts(std::string_view symbols, std::vector<std::uint8_t>& starts, Cache& cache) const;

  // The end of the longest match that starts at `begin`, or kNoMatch.
  std::size_t longest_from(std::string_view symbols, std::size_t begin, Cache& cache) const;

  std::size_t classes() const { return classes_; }

  // One automaton without its deterministic states (symbol_dfa.cpp).
  struct Automaton {
    bool unanchored = false;  // a match may start anywhere: the start states are always there
    std::vector<std::uint32_t> start;  // the states reached without reading, sorted
    // Per state (one per byte set of the expression, plus the final state, the last): the
    // classes it reads, and the states reached after reading one, without reading more.
    std::vector<std::vector<std::uint8_t>> reads;
    std::vector<std::vector<std::uint32_t>> follow;
    std::uint32_t final = 0;
  };

 private:
  static constexpr std::uint32_t kDead = 0;   // no match can go on: state 0 of both
  static constexpr std::uint32_t kStart = 1;  // state 1 of both
  static constexpr std::uint32_t kUnknown = 0xFFFFFFFF;

  class Walk;  // one search over an automaton's cached states (symbol_dfa.cpp)

  // Makes `s` ready for a search: its first states, anew when it has none or more than
  // kMaxCachedStates.
  void ready(const Automaton& a, States& s) const;
  std::uint32_t step(const Automaton& a, States& s, std::uint32_t state, std::uint8_t cls) const;
  std::uint32_t intern(States& s, const Automaton& a, const std::vector<std::uint32_t>& set) const;

  std::uint8_t byte_class_[256] = {};
  std::size_t classes_ = 0;
  std::shared_ptr<const Automaton> forward_, reverse_;
};

}  // namespace lexlink::extract

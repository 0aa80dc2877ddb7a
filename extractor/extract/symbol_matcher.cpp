#include "extract/symbol_matcher.h"

#include <re2/re2.h>

#include <bit>
#include <cstring>

namespace lexlink::extract {
namespace {

// The first marked start (SymbolDfa::mark_starts) at or after `pos`, or `n`: eight marks at a
// time, as most are 0.
std::size_t next_mark(const std::uint8_t* marks, std::size_t n, std::size_t pos) {
  for (; pos + 8 <= n; pos += 8) {
    std::uint64_t w;
    std::memcpy(&w, marks + pos, 8);
    if (w != 0) {
      const int zero_bits =
          std::endian::native == std::endian::little ? std::countr_zero(w) : std::countl_zero(w);
      return pos + static_cast<std::size_t>(zero_bits / 8);
    }
  }
  while (pos < n && marks[pos] == 0) ++pos;
  return pos;
}

}  // namespace

SymbolMatcher::SymbolMatcher(const SymbolDfa* dfa, const re2::RE2* combined,
                             std::string_view symbols, std::vector<std::uint8_t>& marks,
                             SymbolDfa::Cache& cache)
    : dfa_(dfa), combined_(combined), symbols_(symbols), marks_(marks), cache_(cache) {
  if (dfa_ != nullptr) dfa_->mark_starts(symbols_, marks, cache_);
}

Status SymbolMatcher::next(std::size_t pos, Span& match, bool& found) const {
  found = false;
  if (dfa_ != nullptr) {
    // The next marked start, and the longest match there.
    const std::size_t n = marks_.size();
    pos = next_mark(marks_.data(), n, pos);
    if (pos == n) return Status::Ok();
    const std::size_t longest = dfa_->longest_from(symbols_, pos, cache_);
    if (longest == SymbolDfa::kNoMatch) {
      return make_error(ErrorCode::kInternal, "symbol automata: a marked start without a match");
    }
    match = Span{static_cast<std::uint32_t>(pos), static_cast<std::uint32_t>(longest)};
    found = true;
    return Status::Ok();
  }
  const re2::StringPiece text(symbols_.data(), symbols_.size());
  re2::StringPiece m;
  if (!combined_->Match(text, pos, symbols_.size(), re2::RE2::UNANCHORED, &m, 1)) {
    return Status::Ok();
  }
  const auto s = static_cast<std::uint32_t>(m.data() - symbols_.data());
  match = Span{s, static_cast<std::uint32_t>(s + m.size())};
  found = true;
  return Status::Ok();
}

}  // namespace lexlink::extract

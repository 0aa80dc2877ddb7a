#include "extract/reading_windows.h"

#include <algorithm>
#include <string>

#include "common/utf8.h"
#include "lexicon/tokenizer.h"

namespace lexlink::extract {
namespace {

struct WindowBuilder {
  std::string_view text;
  const std::vector<std::uint64_t>& breaks;  // sorted chunk-relative offsets

  // ASCII bytes are judged from the byte (letters and digits are word characters); the others
  // from their code point.
  static bool ascii_word(unsigned char c) {
    return static_cast<unsigned char>((c | 0x20) - 'a') < 26 ||
           static_cast<unsigned char>(c - '0') < 10;
  }
  // The word boundary at or before `pos` (at most 64 bytes back).
  std::size_t word_start(std::size_t pos) const {
    std::size_t p = pos;
    for (int guard = 0; p > 0 && guard < 64; ++guard) {
      const auto c = static_cast<unsigned char>(text[p - 1]);
      if (c < 0x80) {
        if (!ascii_word(c)) break;
        --p;
        continue;
      }
      std::size_t k = p - 1;
      while (k > 0 && (static_cast<unsigned char>(text[k]) & 0xC0) == 0x80) --k;
      std::size_t len;
      const char32_t cp = utf8::decode(text, k, len);
      if (cp == utf8::kInvalid || !lexicon::is_word_char(cp)) break;
      p = k;
    }
    return p;
  }
  // Where a list of numbers that runs past `pos` ends: from `pos`, as long as a number starts
  // within kListGap bytes of the end of the last one (a list's glue: ", ", " e ", "-bis, ",
  // ", lettera a), "), the end of that number's word; at most `limit`.
  static constexpr std::size_t kListGap = 8;
  std::size_t list_end(std::size_t pos, std::size_t limit) const {
    std::size_t p = pos;
    while (p < limit) {
      const std::size_t stop = std::min(limit, p + kListGap);
      std::size_t d = p;
      while (d < stop && static_cast<unsigned char>(text[d] - '0') >= 10) ++d;
      if (d == stop) break;
      while (d < limit && static_cast<unsigned char>(text[d] - '0') < 10) ++d;
      p = std::min(word_end(d), limit);
    }
    return p;
  }
  // Where a list of numbers that runs before `pos` starts, with its head (the partition word
  // before it: "sections 1, 2, ..., 60 of title 42" read back from "title"): back from `pos`
  // as long as a number ends within kListGap bytes of the start of the next one, then the
  // words within kListGap bytes before the first; at least `limit`.
  std::size_t list_start(std::size_t pos, std::size_t limit) const {
    auto digit = [&](std::size_t at) { return static_cast<unsigned char>(text[at] - '0') < 10; };
    std::size_t p = pos;
    bool list = p < text.size() && digit(p);  // the window starts on a list's first number
    while (p > limit) {
      const std::size_t stop = p - limit > kListGap ? p - kListGap : limit;
      std::size_t d = p;
      while (d > stop && !digit(d - 1)) --d;
      if (d == stop && (d == limit || !digit(d - 1))) break;
      while (d > limit && digit(d - 1)) --d;
      p = std::max(word_start(d), limit);
      list = true;
    }
    if (list) p = std::max(word_start(p - limit > kListGap ? p - kListGap : limit), limit);
    return p;
  }
  std::size_t word_end(std::size_t pos) const {
    std::size_t p = pos;
    for (int guard = 0; p < text.size() && guard < 64; ++guard) {
      const auto c = static_cast<unsigned char>(text[p]);
      if (c < 0x80) {
        if (!ascii_word(c)) break;
        ++p;
        continue;
      }
      std::size_t len;
      const char32_t cp = utf8::decode(text, p, len);
      if (cp == utf8::kInvalid || !lexicon::is_word_char(cp)) break;
      p += len;
    }
    return p;
  }
};

// Extractor::cut_advisor(). A window spans [t - back, t + forward] around a trigger start t,
// widened to whole words (which stop at white space) and along lists of numbers (as long as
// a number comes within kListGap bytes of the last); outside windows nothing is read. So a cut
// after white space at q changes nothing when no trigger starts in [q - forward, q + back] and
// no digit is within 2 * kListGap of q. With several grammars the scanner holds them all (and
// their markers: more starts than needed, never fewer).
class WindowGapAdvisor final : public text::CutAdvisor {
 public:
  WindowGapAdvisor(std::shared_ptr<const scan::TriggerScanner> scanner, std::size_t back,
                   std::size_t forward)
      : scanner_(std::move(scanner)), back_(back), forward_(forward) {}

  std::size_t find_cut(std::string_view text, std::size_t from) const override {
    // The view's text may differ by a few bytes from the bytes shown here (an invalid byte
    // reads U+FFFD): a margin.
    constexpr std::size_t kSlack = 64;
    constexpr std::size_t kDigitGap = 2 * WindowBuilder::kListGap;
    const std::size_t before = forward_ + kSlack;  // what must be seen before q
    const std::size_t after = back_ + kSlack;      // and after it
    if (text.size() < before + after || text.size() >= 0xFFFFFFF0u) return std::string_view::npos;
    auto scratch = scanner_->make_scratch();
    std::vector<std::uint32_t> starts;
    auto digit = [&](std::size_t at) { return static_cast<unsigned char>(text[at] - '0') < 10; };
    auto space = [&](std::size_t at) {
      const char c = text[at];
      return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    };
    // Places are judged kBlock at a time, each block with the starts that can reach it (from
    // `before` ahead of it to `after` past it): the first acceptable place is usually near, and
    // the rest of the text (a chunk's worth) is then never scanned.
    constexpr std::size_t kBlock = 4096;
    for (std::size_t q0 = std::max(from, before); q0 + after <= text.size(); q0 += kBlock) {
      const std::size_t q_end = std::min(q0 + kBlock, text.size() - after + 1);
      starts.clear();
      if (!scanner_->find_starts(text, *scratch, starts, q0 - before, q_end + after)) {
        return std::string_view::npos;
      }
      std::size_t next = 0;  // the first start not before q - before
      for (std::size_t q = q0; q < q_end; ++q) {
        if (!space(q - 1)) continue;
        while (next < starts.size() && starts[next] + before < q) ++next;
        if (next < starts.size() && starts[next] <= q + after) continue;
        bool near_digit = false;
        for (std::size_t d = q - kDigitGap; d < q + kDigitGap && !near_digit; ++d) {
          near_digit = digit(d);
        }
        if (!near_digit) return q;
      }
    }
    return std::string_view::npos;
  }

 private:
  std::shared_ptr<const scan::TriggerScanner> scanner_;
  std::size_t back_, forward_;
};

}  // namespace

std::shared_ptr<const text::CutAdvisor> make_window_gap_advisor(
    std::shared_ptr<const scan::TriggerScanner> scanner, std::size_t back, std::size_t forward) {
  return std::make_shared<WindowGapAdvisor>(std::move(scanner), back, forward);
}

void reading_windows(std::string_view text, const std::vector<std::uint64_t>& breaks,
                     const std::vector<std::uint32_t>& starts, std::size_t back,
                     std::size_t forward, Windows& windows) {
  windows.clear();
  // Windows around trigger starts, within the block that holds the start, merged.
  WindowBuilder wb{text, breaks};
  for (std::uint32_t start : starts) {
    auto it = std::upper_bound(breaks.begin(), breaks.end(), start);
    const std::size_t block_end = it == breaks.end() ? text.size() : *it;
    const std::size_t block_begin = it == breaks.begin() ? 0 : *(it - 1);
    std::size_t lo = start > back ? start - back : 0;
    std::size_t hi = start + forward;
    lo = std::max(lo, block_begin);
    hi = std::min(hi, block_end);
    // A window that reaches back into the last one merges with it whatever word its start
    // is in (the word's start is at or before `lo`): the search back is left out.
    const bool merges = !windows.empty() && lo <= windows.back().second;
    if (!merges) lo = std::max(wb.word_start(lo), block_begin);
    hi = std::min(wb.word_end(hi), block_end);
    if (merges || (!windows.empty() && lo <= windows.back().second)) {
      windows.back().second = std::max(windows.back().second, hi);
    } else {
      windows.emplace_back(lo, hi);
    }
  }
  // A list that goes on past a window ("articoli 1, 2, 3, ..., 200 della legge ...", or
  // before it: "sections 1, 2, ..., 60 of title 42" opened at "title"): the window follows
  // it as long as numbers keep coming, within its block, up to the next window (so in dense
  // text, where windows merge, there is nothing to do). Without this a list longer than the
  // window lost every item.
  std::size_t kept = 0;
  for (std::size_t k = 0; k < windows.size(); ++k) {
    auto [lo, hi] = windows[k];
    auto it = std::upper_bound(breaks.begin(), breaks.end(), hi);
    std::size_t limit = it == breaks.end() ? text.size() : *it;
    if (k + 1 < windows.size()) limit = std::min(limit, windows[k + 1].first);
    if (hi < limit) hi = wb.list_end(hi, limit);
    it = std::upper_bound(breaks.begin(), breaks.end(), lo);
    std::size_t floor = it == breaks.begin() ? 0 : *(it - 1);
    if (kept > 0) floor = std::max(floor, windows[kept - 1].second);
    if (lo > floor) lo = wb.list_start(lo, floor);
    if (kept > 0 && lo <= windows[kept - 1].second) {
      windows[kept - 1].second = std::max(windows[kept - 1].second, hi);
    } else {
      windows[kept++] = {lo, hi};
    }
  }
  windows.resize(kept);
}

}  // namespace lexlink::extract

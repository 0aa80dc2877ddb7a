// scan/trigger_scanner: find_window_starts() leaves out only starts whose windows the kept ones
// already cover, so the windows the extractor opens are those of every start find_starts()
// gives. Checked with Hyperscan and with RE2 on every bundled corpus text, for several windows
// and block layouts (no breaks, a break at every line, a break every 150 bytes), and on small
// texts made to put starts at the edges of the reach, of blocks and of the text.
#include <algorithm>
#include <catch2/catch.hpp>

#include "scan/trigger_scanner.h"
#include "support/test_support.h"

using namespace lexlink;

namespace {

using Starts = std::vector<std::uint32_t>;
using Breaks = std::vector<std::uint64_t>;
using Windows = std::vector<std::pair<std::size_t, std::size_t>>;

// The windows of the extractor, without the word adjustments: [start - back, start + forward)
// clipped to the start's block, merged when they overlap or touch.
Windows windows_of(const Starts& starts, const Breaks& breaks, std::size_t back,
                   std::size_t forward, std::size_t n) {
  Windows w;
  for (std::uint32_t s : starts) {
    auto it = std::upper_bound(breaks.begin(), breaks.end(), std::uint64_t{s});
    const std::size_t block_end = it == breaks.end() ? n : static_cast<std::size_t>(*it);
    const std::size_t block_begin = it == breaks.begin() ? 0 : static_cast<std::size_t>(*(it - 1));
    const std::size_t lo = std::max(block_begin, s > back ? s - back : 0);
    const std::size_t hi = std::min(block_end, std::size_t{s} + forward);
    if (!w.empty() && lo <= w.back().second) {
      w.back().second = std::max(w.back().second, hi);
    } else {
      w.emplace_back(lo, hi);
    }
  }
  return w;
}

struct Counts {
  std::size_t all = 0;
  std::size_t kept = 0;
};

// Checks the kept starts of `text` against all its starts; adds both numbers to `counts`.
void check_text(const scan::TriggerScanner& scanner, scan::TriggerScanner::Scratch& scratch,
                const std::string& text, std::size_t back, std::size_t forward,
                const Breaks& breaks, Counts& counts) {
  const std::size_t reach = back + forward;
  Starts all, kept;
  REQUIRE(scanner.find_starts(text, scratch, all));
  REQUIRE(scanner.find_window_starts(text, back, forward, breaks, scratch, kept));
  INFO("reach " << reach << ", " << breaks.size() << " breaks");
  REQUIRE(std::is_sorted(kept.begin(), kept.end()));
  REQUIRE(std::adjacent_find(kept.begin(), kept.end()) == kept.end());
  REQUIRE(std::includes(all.begin(), all.end(), kept.begin(), kept.end()));
  // Every start left out lies between two kept ones within the reach in its block, after a
  // kept one in its block whose window reaches the block's end, or before a kept one in its
  // block whose window reaches the block's start.
  for (std::uint32_t u : all) {
    auto after = std::lower_bound(kept.begin(), kept.end(), u);
    if (after != kept.end() && *after == u) continue;
    INFO("start " << u << " left out");
    auto brk = std::upper_bound(breaks.begin(), breaks.end(), std::uint64_t{u});
    const std::size_t block_end = brk == breaks.end() ? text.size() : *brk;
    const std::size_t block_begin = brk == breaks.begin() ? 0 : *(brk - 1);
    const bool has_before = after != kept.begin() && *(after - 1) >= block_begin;
    const bool has_after = after != kept.end() && *after < block_end;
    const bool merged = has_before && has_after && *after - *(after - 1) <= reach;
    const bool reaches_end = has_before && *(after - 1) + forward >= block_end;
    const bool reaches_start = has_after && *after <= block_begin + back;
    CHECK((merged || reaches_end || reaches_start));
  }
  CHECK(windows_of(kept, breaks, back, forward, text.size()) ==
        windows_of(all, breaks, back, forward, text.size()));
  counts.all += all.size();
  counts.kept += kept.size();
}

std::shared_ptr<const scan::TriggerScanner> compile(scan::Engine engine) {
  const std::vector<std::vector<std::string>> triggers = {{"legge"},
                                                          {"articolo"},
                                                          {"art", "."},
                                                          {"d", ".", "lgs", "."},
                                                          {"comma"},
                                                          {"lei"},
                                                          {"§"},
                                                          {"inciso"},
                                                          {"section"},
                                                          {"act"},
                                                          {"s", ".", "i", "."},
                                                          {"regulation"},
                                                          {"article"}};
  scan::TriggerOptions o;
  o.engine = engine;
  auto scanner = scan::TriggerScanner::compile(triggers, o);
  REQUIRE(scanner);
  return *scanner;
}

}  // namespace

TEST_CASE("window starts open the windows of all starts, on the bundled corpora",
          "[extract][scan]") {
  for (scan::Engine engine : {scan::Engine::kHyperscan, scan::Engine::kRe2}) {
    INFO((engine == scan::Engine::kHyperscan ? "Hyperscan" : "RE2"));
    const auto scanner = compile(engine);
    auto scratch = scanner->make_scratch();
    Counts dense, other;
    std::size_t texts = 0;
    for (const auto& file : test::corpus_texts()) {
      // RE2 tries every position: a part of each text keeps the test short.
      const std::string text = test::read_file(file).substr(
          0, engine == scan::Engine::kHyperscan ? std::string::npos : 60000);
      INFO(file.string());
      Breaks lines, every150;
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') lines.push_back(i + 1);
      }
      for (std::size_t i = 150; i < text.size(); i += 150) every150.push_back(i);
      check_text(*scanner, *scratch, text, 320, 400, {}, dense);
      check_text(*scanner, *scratch, text, 320, 400, lines, other);
      check_text(*scanner, *scratch, text, 320, 400, every150, other);
      check_text(*scanner, *scratch, text, 30, 400, every150, other);
      check_text(*scanner, *scratch, text, 30, 34, {}, other);
      check_text(*scanner, *scratch, text, 2000, 3000, lines, other);
      check_text(*scanner, *scratch, text, 0, 1, {}, other);
      ++texts;
    }
    CHECK(texts >= 10);
    CHECK(dense.all > 1000);
    // Legal text is dense with triggers: many starts need not be found (56% are kept with
    // these triggers, fewer with a grammar's many more).
    CHECK(dense.kept * 4 < dense.all * 3);
  }
}

TEST_CASE("window starts at the edges of the reach and of the text", "[extract][scan]") {
  for (scan::Engine engine : {scan::Engine::kHyperscan, scan::Engine::kRe2}) {
    INFO((engine == scan::Engine::kHyperscan ? "Hyperscan" : "RE2"));
    const auto scanner = compile(engine);
    auto scratch = scanner->make_scratch();
    Counts counts;
    // Triggers at chosen gaps (accented filler, so probes land inside characters too), first
    // and last at the text's ends.
    for (std::size_t gap : {1, 9, 10, 11, 19, 20, 21, 39, 40, 41, 100}) {
      std::string text;
      for (int k = 0; k < 12; ++k) {
        if (k > 0) {
          for (std::size_t f = 0; f < gap; ++f) text += f % 3 == 1 ? "\xC3\xA0" : " ";
        }
        text += k % 2 == 0 ? "legge" : "ART.";
      }
      INFO("gap " << gap << ": " << text);
      Breaks mid = {text.size() / 2};
      for (std::size_t back : {5, 10, 20}) {
        check_text(*scanner, *scratch, text, back, back, {}, counts);
        check_text(*scanner, *scratch, text, back, back, mid, counts);
      }
    }
    Starts none;
    REQUIRE(scanner->find_window_starts("", 320, 400, {}, *scratch, none));
    REQUIRE(scanner->find_window_starts("nessun riferimento qui", 320, 400, {}, *scratch, none));
    CHECK(none.empty());
    CHECK(counts.kept < counts.all);
  }
}

TEST_CASE("find_starts over a range gives the starts of the whole text inside it",
          "[extract][scan]") {
  for (scan::Engine engine : {scan::Engine::kHyperscan, scan::Engine::kRe2}) {
    INFO((engine == scan::Engine::kHyperscan ? "Hyperscan" : "RE2"));
    const auto scanner = compile(engine);
    auto scratch = scanner->make_scratch();
    std::size_t checked = 0;
    for (const auto& file : test::corpus_texts()) {
      const std::string text = test::read_file(file).substr(0, 60000);
      INFO(file.string());
      Starts all;
      REQUIRE(scanner->find_starts(text, *scratch, all));
      // Ranges of several sizes at odd offsets: their edges fall inside words and triggers.
      for (std::size_t size : {1u, 7u, 333u, 4096u, 20000u}) {
        for (std::size_t from = 0; from < text.size(); from += 4999) {
          const std::size_t to = std::min(text.size(), from + size);
          Starts got;
          REQUIRE(scanner->find_starts(text, *scratch, got, from, to));
          Starts want;
          for (std::uint32_t s : all) {
            if (s >= from && s < to) want.push_back(s);
          }
          INFO("[" << from << ", " << to << ")");
          REQUIRE(got == want);
          checked += want.size();
        }
      }
    }
    CHECK(checked > 1000);
  }
}

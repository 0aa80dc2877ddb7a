// scan/trigger_scanner: count_starts() over grouped triggers counts, for each group, what
// find_starts() of a scanner of that group's triggers alone finds (the grammar chooser of
// `--jurisdiction auto` relies on it), with Hyperscan and with RE2, on every bundled corpus text.
#include <catch2/catch.hpp>

#include "scan/trigger_scanner.h"
#include "support/test_support.h"

using namespace lexlink;

TEST_CASE("grouped trigger counts equal each group's own scanner", "[extract][scan]") {
  const std::vector<std::vector<std::vector<std::string>>> groups = {
      {{"legge"}, {"articolo"}, {"art", "."}, {"d", ".", "lgs", "."}, {"comma"}},
      {{"lei"}, {"art", "."}, {"§"}, {"inciso"}},
      {{"section"}, {"act"}, {"s", ".", "i", "."}, {"regulation"}, {"article"}},
  };
  std::vector<std::vector<std::string>> all;
  std::vector<std::uint32_t> group_of;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (const auto& t : groups[g]) {
      all.push_back(t);
      group_of.push_back(static_cast<std::uint32_t>(g));
    }
  }
  for (scan::Engine engine : {scan::Engine::kHyperscan, scan::Engine::kRe2}) {
    scan::TriggerOptions o;
    o.engine = engine;
    auto combined = scan::TriggerScanner::compile(all, o, group_of);
    REQUIRE(combined);
    auto cs = (*combined)->make_scratch();
    std::size_t texts = 0, found = 0;
    for (const auto& file : test::corpus_texts()) {
      const std::string text = test::read_file(file).substr(0, 200000);
      INFO(file.string());
      std::vector<std::size_t> counts;
      REQUIRE((*combined)->count_starts(text, *cs, counts));
      REQUIRE(counts.size() == groups.size());
      for (std::size_t g = 0; g < groups.size(); ++g) {
        auto alone = scan::TriggerScanner::compile(groups[g], o);
        REQUIRE(alone);
        auto sc = (*alone)->make_scratch();
        std::vector<std::uint32_t> starts;
        REQUIRE((*alone)->find_starts(text, *sc, starts));
        CHECK(counts[g] == starts.size());
        found += starts.size();
      }
      ++texts;
    }
    CHECK(texts >= 10);
    CHECK(found > 1000);
  }
}

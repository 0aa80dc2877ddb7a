// scan/trigger_scanner: the fast path (the word index, triggers found by their first bytes, and
// Hyperscan for what the index cannot take) reports exactly the starts and group counts of the
// RE2 reference path: on every trigger in three cases next to bytes that do and do not make a
// token boundary (ASCII and not, invalid UTF-8, the ends of the text), on random texts of every
// length across the 64-byte blocks of the scan, and on the bundled corpus texts. And a cached
// Hyperscan database is never read for other patterns than its own.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scan/trigger_scanner.h"
#include "support/test_support.h"

using namespace lexlink;

namespace {

using Phrase = std::vector<std::string>;

// Each path of the fast engine: letters (a run that is the trigger, runs longer than eight and
// than 64 letters, two triggers sharing eight letters and a length), letters then other bytes,
// first bytes that are no letter ('§', 'é', a digit), and what goes to Hyperscan ('ÿ' and 'Ÿ'
// differ in two bytes, Cyrillic cases too, and a fifth kind of first bytes).
const std::vector<Phrase> kTriggers = {
    {"legge"},
    {"leg"},
    {"l", "."},
    {"d", ".", "l", "."},
    {"co", "."},
    {"art"},
    {"artt"},
    {"x"},
    {"abcdefghij"},
    {"abcdefghik"},
    {"abcdefghijk"},
    {"abcdefghijklmnop"},
    {"università"},
    {"constituição"},
    {"cf", "/", "88"},
    {"cg", "3", "p"},
    {"s", ".", "i", "."},
    {"ss"},
    {"l", "'"},
    {"§"},
    {"§", "§"},
    {"único"},
    {"électoral"},
    {"2", "bis"},
    {"ÿes"},
    {"статья"},
    {"(", "a", ")"},
    {"αρθρο"},
    {"œuvre"},
    {"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"}};

// What may sit before or after a trigger.
const std::vector<std::string> kNeighbours = {
    "",         " ",        "a",        "Z",        "0",        "_",        ".",
    "'",        "\n",       "\xc3\xa0", "\xc3\x80", "\xc2\xa0", "\xc2\xa7", "\xe2\x80\x99",
    "\xc2\xba", "\xcc\x81", "\xc2\xad", "\xd0\x96", "\xff",     "\xc3",     "\x80"};

std::string written(const Phrase& p, int form) {
  std::string w;
  for (const auto& t : p) w += t;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const bool up = form == 1 || (form == 2 && i == 0);
    if (up && w[i] >= 'a' && w[i] <= 'z') w[i] = static_cast<char>(w[i] - 32);
  }
  return w;
}

std::vector<std::string> texts() {
  std::vector<std::string> out;
  for (const Phrase& p : kTriggers) {
    for (int form = 0; form < 3; ++form) {
      const std::string w = written(p, form);
      std::string all;
      for (const auto& before : kNeighbours) {
        for (const auto& after : kNeighbours) {
          out.push_back(before + w + after);
          all += before + w + after;
        }
      }
      out.push_back(all);
      out.push_back(w + w);
    }
  }
  // Random texts of triggers, neighbours and letters, 0 to 300 bytes: triggers across blocks.
  std::uint64_t seed = 42;
  const auto next = [&seed] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::size_t>(seed >> 33);
  };
  for (int r = 0; r < 3000; ++r) {
    std::string t;
    const std::size_t size = next() % 300;
    while (t.size() < size) {
      if (next() % 3 == 0) {
        t += written(kTriggers[next() % kTriggers.size()], static_cast<int>(next() % 3));
      } else {
        t += kNeighbours[next() % kNeighbours.size()];
      }
    }
    out.push_back(t);
  }
  for (const auto& corpus : std::filesystem::directory_iterator(test::data_path("corpora"))) {
    if (!std::filesystem::is_directory(corpus.path() / "text")) continue;
    for (const auto& file : std::filesystem::directory_iterator(corpus.path() / "text")) {
      std::ifstream in(file.path(), std::ios::binary);
      std::ostringstream ss;
      ss << in.rdbuf();
      out.push_back(ss.str().substr(0, 100000));
    }
  }
  return out;
}

void same_answers(const std::vector<Phrase>& triggers, const std::vector<std::uint32_t>& groups,
                  std::size_t least = 10000) {
  scan::TriggerOptions fast_options, slow_options;
  slow_options.engine = scan::Engine::kRe2;
  auto fast = scan::TriggerScanner::compile(triggers, fast_options, groups);
  auto slow = scan::TriggerScanner::compile(triggers, slow_options, groups);
  REQUIRE(fast);
  REQUIRE(slow);
  auto fs = (*fast)->make_scratch();
  auto ss = (*slow)->make_scratch();
  std::size_t found = 0;
  for (const std::string& text : texts()) {
    INFO("text: " << text.substr(0, 200));
    std::vector<std::uint32_t> a = {7}, b = {7};  // appended to what is there
    REQUIRE((*fast)->find_starts(text, *fs, a));
    REQUIRE((*slow)->find_starts(text, *ss, b));
    REQUIRE(a == b);
    found += a.size() - 1;
    std::vector<std::size_t> ca, cb;
    REQUIRE((*fast)->count_starts(text, *fs, ca));
    REQUIRE((*slow)->count_starts(text, *ss, cb));
    REQUIRE(ca == cb);
  }
  CHECK(found > least);
}

}  // namespace

TEST_CASE("the fast trigger engine finds what RE2 finds", "[extract][scan]") {
  std::vector<std::uint32_t> groups;
  for (std::size_t i = 0; i < kTriggers.size(); ++i)
    groups.push_back(static_cast<std::uint32_t>(i % 3));
  SECTION("all kinds, with Hyperscan for some") {
    same_answers(kTriggers, groups);
  }
  SECTION("one group") {
    same_answers(kTriggers, {});
  }
  SECTION("the word index alone") {
    std::vector<Phrase> letters;
    for (const Phrase& p : kTriggers) {
      const char c = p.front().front();
      if ((c >= 'a' && c <= 'z') || c == '\xc2') letters.push_back(p);  // '§' too
    }
    same_answers(letters, {});
  }
  SECTION("Hyperscan alone") {
    same_answers({{"ÿes"}, {"статья"}}, {}, 1000);
  }
}

TEST_CASE("a cached trigger database serves its own patterns only", "[extract][scan]") {
  test::TempDir dir("triggers");
  scan::TriggerOptions o;
  o.cache_dir = dir.path.string();
  o.data_hash = 1;
  // Triggers that Hyperscan takes: cases that differ in two bytes.
  const std::vector<Phrase> one = {{"ÿes"}, {"ÿx"}}, other = {{"ÿes"}, {"ÿy"}};
  const std::string text = "ÿes ÿx ÿy ŸES ŸX";
  const auto starts = [&](const std::vector<Phrase>& t, bool cached) {
    auto s = scan::TriggerScanner::compile(t, o);
    REQUIRE(s);
    CHECK((*s)->loaded_from_cache() == cached);
    auto sc = (*s)->make_scratch();
    std::vector<std::uint32_t> found;
    REQUIRE((*s)->find_starts(text, *sc, found));
    return found;
  };
  const auto first = starts(one, false);
  CHECK(first == std::vector<std::uint32_t>{0, 5, 13, 18});
  CHECK(starts(one, true) == first);
  CHECK(starts(other, false) == std::vector<std::uint32_t>{0, 9, 13});
  o.data_hash = 2;
  CHECK(starts(one, false) == first);
  // The word index needs no database at all.
  auto letters = scan::TriggerScanner::compile({{"legge"}}, o);
  REQUIRE(letters);
  CHECK((*letters)->loaded_from_cache());
}

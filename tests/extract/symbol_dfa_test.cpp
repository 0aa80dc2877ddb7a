// The automata of extract/symbol_dfa against RE2: for every grammar's combined rule program, on
// the unit symbols of every bundled corpus text and on random strings of the program's symbols,
// and for random expressions on random strings, the leftmost-longest matches found one after
// another (as Extractor::run_engine reads them) are the same spans. Also: the syntax it refuses.
#include <re2/re2.h>

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "extract/symbol_dfa.h"
#include "extract/symbol_options.h"
#include "extract/unit_builder.h"
#include "grammar/grammar.h"
#include "support/test_support.h"

using namespace lexlink;

namespace {

using Spans = std::vector<std::pair<std::size_t, std::size_t>>;

// The matches from the start of `s`, each searched after the one before.
Spans re2_matches(const re2::RE2& re, const std::string& s) {
  Spans out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    re2::StringPiece m;
    if (!re.Match(s, pos, s.size(), re2::RE2::UNANCHORED, &m, 1)) break;
    const auto b = static_cast<std::size_t>(m.data() - s.data());
    out.emplace_back(b, b + m.size());
    pos = m.empty() ? b + 1 : b + m.size();
  }
  return out;
}

Spans dfa_matches(const extract::SymbolDfa& d, extract::SymbolDfa::Cache& cache,
                  const std::string& s) {
  Spans out;
  std::vector<std::uint8_t> starts;
  d.mark_starts(s, starts, cache);
  std::size_t pos = 0;
  while (pos < s.size()) {
    while (pos < s.size() && starts[pos] == 0) ++pos;
    if (pos == s.size()) break;
    const std::size_t e = d.longest_from(s, pos, cache);
    REQUIRE(e != extract::SymbolDfa::kNoMatch);  // a marked start has a match
    out.emplace_back(pos, e);
    pos = e;
  }
  return out;
}

// The grammar's combined program as the extractor builds it (with the rules' group names,
// which both engines read as plain groups).
std::string combined_regex(const grammar::Grammar& g) {
  std::string out;
  for (const auto& r : g.rules()) {
    if (!out.empty()) out += '|';
    out += "(?:" + r.regex + ")";
  }
  return out;
}

// The bytes the expression names (its "\xNN"), and the break symbol.
std::vector<char> alphabet(const std::string& regex) {
  std::vector<bool> seen(256, false);
  seen[0] = true;
  for (std::size_t i = 0; i + 3 < regex.size(); ++i) {
    if (regex[i] == '\\' && regex[i + 1] == 'x') {
      seen[std::stoul(regex.substr(i + 2, 2), nullptr, 16)] = true;
    }
  }
  std::vector<char> out;
  for (int b = 0; b < 256; ++b) {
    if (seen[static_cast<std::size_t>(b)]) out.push_back(static_cast<char>(b));
  }
  return out;
}

std::string hex(unsigned b) {
  static const char* const digits = "0123456789abcdef";
  return std::string("\\x") + digits[b >> 4] + digits[b & 15];
}

// A random expression over the bytes 1..4 in the syntax the grammar loader writes.
std::string random_regex(std::mt19937& rng, int depth) {
  std::uniform_int_distribution<int> pick(0, depth > 3 ? 1 : 6);
  switch (pick(rng)) {
    case 0: return hex(static_cast<unsigned>(1 + rng() % 4));
    case 1: {
      const auto a = static_cast<unsigned>(1 + rng() % 4);
      const auto b = static_cast<unsigned>(a + rng() % (5 - a));
      return "[" + hex(a) + (b > a ? "-" + hex(b) : std::string()) + "]";
    }
    case 2: return random_regex(rng, depth + 1) + random_regex(rng, depth + 1);
    case 3: return "(?:" + random_regex(rng, depth + 1) + "|" + random_regex(rng, depth + 1) + ")";
    case 4: {
      static const char* const ops[] = {"?", "*", "+", "{2}", "{1,3}", "{0,2}", "{2,}"};
      return "(?:" + random_regex(rng, depth + 1) + ")" + ops[rng() % 7];
    }
    case 5: return "(?P<x" + std::to_string(depth) + ">" + random_regex(rng, depth + 1) + ")";
    default: return random_regex(rng, depth + 1) + hex(static_cast<unsigned>(1 + rng() % 4));
  }
}

}  // namespace

TEST_CASE("the symbol automata find the matches RE2 finds, on every grammar and corpus",
          "[extract]") {
  std::vector<std::string> texts;
  for (const auto& path : test::corpus_texts()) texts.push_back(test::read_file(path));
  REQUIRE(texts.size() > 10);
  std::mt19937 rng(7);
  std::size_t matches = 0;
  for (const char* name : {"it", "br", "us", "uk", "za", "fr", "eu"}) {
    INFO("grammar " << name);
    auto g = grammar::Grammar::load(LEXLINK_SOURCE_DIR, name);
    REQUIRE(g);
    const std::string regex = combined_regex(*g);
    const re2::RE2 re(regex, extract::symbol_options(true));
    REQUIRE(re.ok());
    auto dfa = extract::SymbolDfa::build(regex);
    REQUIRE(dfa);
    extract::SymbolDfa::Cache cache;
    // The units of every text, read whole.
    for (const std::string& text : texts) {
      extract::UnitText u;
      PodVector<std::uint32_t> ids;
      extract::build_units(*g, text, {{0, text.size()}}, {}, {}, u, ids);
      const Spans want = re2_matches(re, u.symbols);
      CHECK(dfa_matches(*dfa, cache, u.symbols) == want);
      matches += want.size();
    }
    // Random strings of the program's symbols.
    const std::vector<char> symbols = alphabet(regex);
    for (int k = 0; k < 300; ++k) {
      std::string s(1 + rng() % 120, '\0');
      for (char& c : s) c = symbols[rng() % symbols.size()];
      CHECK(dfa_matches(*dfa, cache, s) == re2_matches(re, s));
    }
  }
  CHECK(matches > 3000);
}

TEST_CASE("the symbol automata find the matches RE2 finds, for random expressions", "[extract]") {
  std::mt19937 rng(11);
  std::size_t built = 0, refused = 0;
  for (int k = 0; k < 2000; ++k) {
    const std::string regex = random_regex(rng, 0);
    INFO(regex);
    const re2::RE2 re(regex, extract::symbol_options(true));
    REQUIRE(re.ok());
    auto dfa = extract::SymbolDfa::build(regex);
    if (!dfa) {
      // Only an expression that matches the empty string is refused.
      CHECK(re2::RE2::FullMatch("", re));
      ++refused;
      continue;
    }
    CHECK_FALSE(re2::RE2::FullMatch("", re));
    ++built;
    extract::SymbolDfa::Cache cache;
    for (int n = 0; n < 20; ++n) {
      std::string s(rng() % 40, '\0');
      for (char& c : s) c = static_cast<char>(rng() % 6);  // 0 and 5: no expression reads them
      CHECK(dfa_matches(*dfa, cache, s) == re2_matches(re, s));
    }
  }
  CHECK(built > 1000);
  CHECK(refused > 10);
}

TEST_CASE("the symbol automata refuse what they do not read", "[extract]") {
  for (const char* bad : {"a", "\\x01.", "(?i:\\x01)", "[^\\x01]", "\\x01*?", "(\\x01)", "\\x01{2",
                          "\\x01{3,2}", "(?:\\x01", "\\x01)", "\\x0g", "\\x01?", "(?:\\x01|)"}) {
    INFO(bad);
    CHECK_FALSE(extract::SymbolDfa::build(bad));
  }
  CHECK(extract::SymbolDfa::build("(?:\\x01|\\x02[\\x03-\\x05]+)\\x06{0,2}"));
}

TEST_CASE("a symbol automaton's cache starts afresh past its bound, with the same matches",
          "[extract]") {
  // (1|2)*1(1|2){8}: its deterministic automaton has hundreds of states; random strings over
  // 1 and 2 visit them, so the cache is rebuilt many times across the searches.
  const std::string regex = "(?:\\x01|\\x02)*\\x01(?:\\x01|\\x02){8}\\x03";
  const re2::RE2 re(regex, extract::symbol_options(true));
  auto dfa = extract::SymbolDfa::build(regex);
  REQUIRE(dfa);
  extract::SymbolDfa::Cache cache;
  std::mt19937 rng(3);
  for (int k = 0; k < 200; ++k) {
    std::string s(2000, '\0');
    for (char& c : s) c = static_cast<char>(1 + rng() % 3);
    CHECK(dfa_matches(*dfa, cache, s) == re2_matches(re, s));
  }
  CHECK(cache.reverse.sets.size() + cache.forward.sets.size() > 2);
}

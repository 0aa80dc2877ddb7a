// The extractor compiles a rule's own program (with its captures) only when a span first
// matches the rule, and numbers its capture groups before that from grammar::Rule::captures
// (extract/extractor.cpp, RuleProgram). This test compiles every rule of every grammar as the
// extractor does and checks that each compiles and that its groups are exactly those captures,
// in that order. (A rule matching the empty text is still refused at load, now by the set:
// tests/data/grammars-bad/empty-match.)
#include <re2/re2.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "extract/symbol_options.h"
#include "grammar/grammar.h"
#include "support/test_support.h"

using namespace lexlink;

TEST_CASE("a rule's capture groups are its captures, in order", "[extract]") {
  std::size_t rules = 0, captures = 0;
  for (const auto& dir : std::filesystem::directory_iterator(test::data_path("grammars"))) {
    if (!dir.is_directory()) continue;
    const std::string name = dir.path().filename().string();
    auto g = grammar::Grammar::load(LEXLINK_SOURCE_DIR, name);
    if (!g) FAIL(g.error().to_string());
    for (const grammar::Rule& r : g->rules()) {
      INFO(name << "/" << r.name);
      // The options of the extractor's rule programs (RuleProgram).
      const re2::RE2 re(r.regex, extract::symbol_options(false));
      REQUIRE(re.ok());
      CHECK(static_cast<std::size_t>(re.NumberOfCapturingGroups()) == r.captures.size());
      const auto& groups = re.NamedCapturingGroups();
      CHECK(groups.size() == r.captures.size());
      for (std::size_t k = 0; k < r.captures.size(); ++k) {
        auto it = groups.find(r.captures[k]);
        REQUIRE(it != groups.end());
        CHECK(it->second == static_cast<int>(k + 1));
        ++captures;
      }
      ++rules;
    }
  }
  CHECK(rules > 50);
  CHECK(captures > 100);
}

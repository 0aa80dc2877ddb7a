// Every rule of every grammar under grammars/ carries examples (text -> names) and
// counter-examples (text -> nothing from that rule); this test runs them all, with the
// Hyperscan scanner and with the RE2 reference path, and checks that both give the same.
#include <catch2/catch.hpp>
#include <filesystem>

#include "extract/extractor.h"
#include "extract/extractors.h"
#include "support/test_support.h"

using namespace lexlink;

namespace {

std::vector<std::string> grammar_names() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(test::data_path("grammars"))) {
    if (e.is_directory()) out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every grammar rule gives its examples and not its counter-examples", "[extract]") {
  const auto names = grammar_names();
  REQUIRE(!names.empty());
  for (const std::string& g : names) {
    const auto hs = test::load_extractor(g);
    const auto re2 = test::load_extractor(g, scan::Engine::kRe2);
    std::size_t examples = 0;
    for (const auto& rule : hs->rules()) {
      for (const auto& ex : rule.examples) {
        INFO(rule.file << ":" << ex.line << ": rule " << rule.name << ": " << ex.text);
        const auto got = test::citations_of(*hs, ex.text);
        std::vector<std::string> urns;
        for (const auto& c : got) urns.push_back(c.urn);
        CHECK(urns == ex.urns);
        const auto slow_got = test::citations_of(*re2, ex.text);
        std::vector<std::string> slow_urns;
        for (const auto& c : slow_got) slow_urns.push_back(c.urn);
        CHECK(slow_urns == urns);
        ++examples;
      }
      for (const auto& ex : rule.counters) {
        INFO(rule.file << ":" << ex.line << ": rule " << rule.name << ", counter: " << ex.text);
        for (const auto& c : test::citations_of(*hs, ex.text)) {
          CHECK(c.rule != rule.grammar + "/" + rule.name);
        }
      }
    }
    INFO("grammar " << g);
    CHECK(examples > 10);
  }
}

TEST_CASE("broken grammar folders are refused with file:line:col", "[extract]") {
  const TsvFile table =
      test::load_table("tests/data/grammars-bad/cases.tsv", {"case", "location", "message"});
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": case " << row.fields[0]);
    extract::ExtractorOptions o;
    o.data_dir = test::data_path("tests/data/grammars-bad/" + std::string(row.fields[0]));
    o.grammars = {"g"};
    o.cache_dir = "-";
    auto x = extract::Extractor::load(o);
    REQUIRE_FALSE(x);
    const std::string text = x.error().to_string();
    CHECK_THAT(text, Catch::Contains(std::string(row.fields[1])));
    CHECK_THAT(text, Catch::Contains(std::string(row.fields[2])));
  }
}

// Lists longer than a reading window (tests/data/extract/long-lists.tsv): every item is cited,
// in order, up to the bound on one chain; beyond it the act alone.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "extract/extractor.h"
#include "extract/extractors.h"
#include "support/test_support.h"

using namespace lexlink;

TEST_CASE("a list longer than the reading window is read whole", "[extract]") {
  const auto table =
      test::load_table("tests/data/extract/long-lists.tsv",
                       {"case", "grammar", "before", "items", "and", "after", "first", "last"});
  REQUIRE(table.rows().size() >= 4);
  for (const auto& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0]);
    const std::string grammar(row.fields[1]);
    const std::size_t n = std::stoul(std::string(row.fields[3]));
    std::string text(row.fields[2]);
    for (std::size_t i = 1; i < n; ++i) text += std::to_string(i) + (i + 1 < n ? ", " : "");
    text += std::string(row.fields[4]) + std::to_string(n) + std::string(row.fields[5]) + "\n";
    const std::vector<extract::Citation> got =
        test::citations_of(test::extractor_for(grammar), text);
    REQUIRE(!got.empty());
    CHECK(got.front().urn == std::string(row.fields[6]));
    CHECK(got.back().urn == std::string(row.fields[7]));
    if (n <= 10000) {
      CHECK(got.size() == n);
      for (std::size_t i = 0; i + 1 < got.size(); ++i) {
        INFO(i);
        CHECK(got[i].start < got[i + 1].start);
      }
    } else {
      CHECK(got.size() == 1);
    }
  }
}

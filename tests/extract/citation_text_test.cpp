// The words each citation spans, as extract prints them and markup links them
// (tests/data/extract/citation-texts.tsv).
#include <catch2/catch.hpp>
#include <string>

#include "extract/extractors.h"
#include "support/test_support.h"

using namespace lexlink;

TEST_CASE("each citation spans the words that name it", "[extract]") {
  const auto table = test::load_table("tests/data/extract/citation-texts.tsv",
                                      {"case", "grammar", "text", "expected"});
  REQUIRE(table.rows().size() >= 5);
  for (const auto& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0]);
    std::string got;
    for (const auto& c : test::citations_of(test::extractor_for(std::string(row.fields[1])),
                                            std::string(row.fields[2]))) {
      got += (got.empty() ? "" : " ; ") + c.text + " => " + c.urn;
    }
    CHECK(got == std::string(row.fields[3]));
  }
}

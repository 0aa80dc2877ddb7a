// A name is flagged partial when the citation leaves out part of it (an act by its date alone,
// no chapter: the `{!}` of an emit template) and complete otherwise
// (tests/data/extract/completeness.tsv).
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "extract/extractor.h"
#include "extract/extractors.h"
#include "support/test_support.h"

using namespace lexlink;

TEST_CASE("names are flagged complete or partial as the citation gives them", "[extract]") {
  const auto table = test::load_table("tests/data/extract/completeness.tsv",
                                      {"case", "grammar", "text", "expected"});
  REQUIRE(table.rows().size() >= 4);
  for (const auto& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0]);
    const std::string grammar(row.fields[1]);
    const extract::Extractor& x = test::extractor_for(grammar);
    std::string got;
    for (const auto& c : test::citations_of(x, test::unescape(row.fields[2]))) {
      if (!got.empty()) got += " ; ";
      got += c.urn + (c.complete ? " complete" : " partial");
    }
    CHECK(got == std::string(row.fields[3]));
  }
}

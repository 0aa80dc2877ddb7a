// References to the document itself resolve to its own name, and only when the phrase names an
// act of the document's type; without --self, the document's heading names it, a complete name
// on a heading line winning over a partial one before it (tests/data/extract/self-references.tsv).
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "extract/extractor.h"
#include "extract/extractors.h"
#include "support/test_support.h"

using namespace lexlink;

TEST_CASE("references to the document itself need the document's own type", "[extract]") {
  const auto table = test::load_table("tests/data/extract/self-references.tsv",
                                      {"case", "grammar", "self", "text", "expected"});
  REQUIRE(table.rows().size() >= 5);
  for (const auto& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0]);
    const std::string grammar(row.fields[1]);
    const extract::Extractor& x = test::extractor_for(grammar);
    const std::string text = test::unescape(row.fields[3]);
    const std::string self(row.fields[2]);
    const std::vector<extract::Citation> got =
        test::citations_of(x, text, self == "-" ? std::string() : self);
    // An expected name written "URN@TEXT" also checks the text the citation covers.
    const std::string expected(row.fields[4]);
    const auto want = test::split(expected, " ; ");
    std::string urns;
    for (std::size_t i = 0; i < got.size(); ++i) {
      const bool with_text = i < want.size() && want[i].find('@') != std::string::npos;
      urns += (urns.empty() ? "" : " ; ") + got[i].urn + (with_text ? "@" + got[i].text : "");
    }
    CHECK(urns == (expected == "-" ? std::string() : expected));
  }
}

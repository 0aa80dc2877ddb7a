// extract/document_name: the document's own name from its metadata, table-driven
// (tests/data/extract/document-names.tsv).
#include "extract/document_name.h"

#include <catch2/catch.hpp>
#include <string>

#include "support/test_support.h"

using lexlink::test::load_table;
using lexlink::test::unescape;

TEST_CASE("the document name comes from LexML, Akoma Ntoso, NormeInRete or HTML metadata",
          "[extract]") {
  const auto table =
      load_table("tests/data/extract/document-names.tsv", {"case", "head", "expected"});
  REQUIRE(table.rows().size() >= 10);
  for (const auto& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0]);
    const std::string expected(row.fields[2]);
    CHECK(lexlink::extract::document_urn(unescape(row.fields[1])) ==
          (expected == "-" ? std::string() : expected));
  }
  // Only the head is read.
  const std::string far = std::string(lexlink::extract::kDocumentNameBytes, ' ') +
                          "<meta name=\"urn\" content=\"urn:lex:it:stato:legge:2000-04-03;56\">";
  CHECK(lexlink::extract::document_urn(far).empty());
}

// extract/document_name: the document's own name from its metadata, table-driven
// (tests/data/extract/document-names.tsv), publishers' identifiers mapped with the uk
// lexicons/uk/document-ids.tsv; and a bad document-ids.tsv is reported at file:line:col.
#include "extract/document_name.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/test_support.h"

using lexlink::test::data_path;
using lexlink::test::load_table;
using lexlink::test::unescape;

TEST_CASE("the document name comes from LexML, Akoma Ntoso, NormeInRete or HTML metadata",
          "[extract]") {
  const auto table =
      load_table("tests/data/extract/document-names.tsv", {"case", "head", "expected"});
  REQUIRE(table.rows().size() >= 10);
  lexlink::extract::DocumentIds ids;
  REQUIRE(ids.load(data_path("lexicons/uk/document-ids.tsv")));
  REQUIRE(!ids.empty());
  for (const auto& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0]);
    const std::string expected(row.fields[2]);
    CHECK(lexlink::extract::document_urn(unescape(row.fields[1]), &ids) ==
          (expected == "-" ? std::string() : expected));
  }
  // Only the head is read.
  const std::string far = std::string(lexlink::extract::kDocumentNameBytes, ' ') +
                          "<meta name=\"urn\" content=\"urn:lex:it:stato:legge:2000-04-03;56\">";
  CHECK(lexlink::extract::document_urn(far).empty());
}

TEST_CASE("a bad document-ids.tsv is reported at its file:line:col", "[extract]") {
  const std::string path =
      (std::filesystem::temp_directory_path() / "lexlink-document-ids.tsv").string();
  std::ofstream(path) << "pattern\turn\n^http://example/(\\d+)\turn:lex:xx:a:b:\\1\n"
                      << "^http://example/((\turn:lex:xx:a:b:1\n";
  lexlink::extract::DocumentIds ids;
  const lexlink::Status s = ids.load(path);
  REQUIRE(!s);
  CHECK(s.error().to_string().find("lexlink-document-ids.tsv:3:1") != std::string::npos);
  CHECK(s.error().to_string().find("bad pattern") != std::string::npos);
  std::ofstream(path) << "pattern\turn\n^http://example/(\\d+)\turn:lex:xx:a:b:\\2\n";
  lexlink::extract::DocumentIds two;
  const lexlink::Status t = two.load(path);
  REQUIRE(!t);
  CHECK(t.error().to_string().find("bad template") != std::string::npos);
  std::filesystem::remove(path);
}

// Normalisation, written forms and lexical equivalence, table-driven from tests/data/urn/.
#include <catch2/catch.hpp>

#include "support/test_support.h"
#include "urn/normalize.h"
#include "urn/render.h"

using namespace lexlink;
using namespace lexlink::urn;
using lexlink::test::load_table;
using lexlink::test::split;

TEST_CASE("normalize and the unicode and punycode forms follow the table", "[urn][normalize]") {
  const TsvFile table =
      load_table("tests/data/urn/normalize.tsv", {"input", "options", "expected"});
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0] << " [" << row.fields[1] << "]");
    NormalizeOptions options;
    std::string form = "canonical";
    if (row.fields[1] != "-") {
      for (const std::string& opt : split(row.fields[1], ",")) {
        if (opt == "fold") {
          options.fold = true;
        } else if (opt.rfind("fold=", 0) == 0) {
          options.fold = true;
          options.fold_transform = opt.substr(5);
        } else if (opt == "lower-partition") {
          options.lower_partition = true;
        } else if (opt == "no-nfc") {
          options.nfc = false;
        } else if (opt == "drop-query") {
          options.drop_query_fragment = true;
        } else if (opt.rfind("form=", 0) == 0) {
          form = opt.substr(5);
        } else {
          FAIL("unknown option " << opt);
        }
      }
    }
    auto normalized = normalize(row.fields[0], options);
    if (!normalized) FAIL(normalized.error().message);
    // The canonical form is a fixed point and strictly valid.
    CHECK(validate(*normalized));
    auto again = normalize(*normalized, options);
    REQUIRE(again);
    CHECK(*again == *normalized);
    std::string got = *normalized;
    if (form != "canonical") {
      auto u = parse(*normalized);
      REQUIRE(u);
      if (form == "unicode") {
        got = to_unicode(*u);
      } else {
        auto p = to_punycode(*u);
        if (!p) FAIL(p.error().message);
        got = *p;
        for (char c : got) CHECK(static_cast<unsigned char>(c) < 0x80);  // DNS-ready ASCII
      }
    }
    CHECK(got == row.fields[2]);
  }
}

TEST_CASE("normalize reports invalid names and bad transforms", "[urn][normalize]") {
  auto r = normalize("urn:lex:it:stato:legge");
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message, Catch::Contains("':' after the measure"));
  NormalizeOptions bad;
  bad.fold = true;
  bad.fold_transform = "No-Such-Transform";
  auto t = normalize("urn:lex:it:ministero.sanità:d:2000;1", bad);
  REQUIRE_FALSE(t);
  CHECK_THAT(t.error().message, Catch::Contains("unknown ICU transform"));
  // Folding that yields a character a name cannot hold is reported, not emitted.
  NormalizeOptions quote;
  quote.fold = true;
  auto q = normalize(
      "urn:lex:it:ministero.a\xE2\x80\x9C"
      "b:d:2000;1",
      quote);  // a"b
  REQUIRE_FALSE(q);
  CHECK_THAT(q.error().message, Catch::Contains("is not valid"));
}

TEST_CASE("lexical equivalence follows the table", "[urn][equal]") {
  const TsvFile table = load_table("tests/data/urn/equal.tsv", {"a", "b", "options", "equal"});
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0] << " vs " << row.fields[1]);
    EquivalenceOptions options;
    if (row.fields[2] != "-") {
      for (const std::string& opt : split(row.fields[2], ",")) {
        if (opt == "iri")
          options.allow_iri = true;
        else if (opt == "nfc")
          options.nfc = true;
        else if (opt == "fold")
          options.fold = true;
        else
          FAIL("unknown option " << opt);
      }
    }
    const bool want = row.fields[3] == "true";
    auto r = equivalent(row.fields[0], row.fields[1], options);
    if (!r) FAIL(r.error().message);
    CHECK(*r == want);
    auto swapped = equivalent(row.fields[1], row.fields[0], options);
    REQUIRE(swapped);
    CHECK(*swapped == want);  // symmetric
  }
  auto invalid = equivalent("urn:lex:it:stato:legge:2000;1", "urn:lex:it:stato");
  REQUIRE_FALSE(invalid);
  CHECK(invalid.error().production.rfind("b: ", 0) == 0);
}

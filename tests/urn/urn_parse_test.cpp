// Parsing and validation of URN:LEX names, table-driven from tests/data/urn/.
#include <catch2/catch.hpp>
#include <set>

#include "support/test_support.h"
#include "urn/normalize.h"
#include "urn/urn.h"

using namespace lexlink;
using namespace lexlink::urn;
using lexlink::test::load_table;
using lexlink::test::unescape;

namespace {

// Every production that a valid name can exercise.
const std::vector<Kind> kAllKinds = {Kind::kReference,
                                     Kind::kJurisdiction,
                                     Kind::kJurisdictionCode,
                                     Kind::kJurisdictionUnit,
                                     Kind::kWork,
                                     Kind::kAuthority,
                                     Kind::kIssuer,
                                     Kind::kInstitution,
                                     Kind::kBodyFunction,
                                     Kind::kMeasure,
                                     Kind::kMeasureType,
                                     Kind::kSpecification,
                                     Kind::kDetails,
                                     Kind::kDates,
                                     Kind::kDate,
                                     Kind::kDateIso,
                                     Kind::kDateLocal,
                                     Kind::kPeriod,
                                     Kind::kNumbers,
                                     Kind::kDocumentId,
                                     Kind::kNumberLex,
                                     Kind::kAnnex,
                                     Kind::kAnnexId,
                                     Kind::kExpression,
                                     Kind::kVersion,
                                     Kind::kEvent,
                                     Kind::kLanguage,
                                     Kind::kManifestation,
                                     Kind::kFormat,
                                     Kind::kMime,
                                     Kind::kEditor,
                                     Kind::kPublisher,
                                     Kind::kComponent,
                                     Kind::kPart,
                                     Kind::kFeature,
                                     Kind::kAttribute,
                                     Kind::kPartition,
                                     Kind::kQuery,
                                     Kind::kFragment};

}  // namespace

TEST_CASE("valid names parse, validate and normalise as the table says", "[urn][parse]") {
  const TsvFile table = load_table("tests/data/urn/valid.tsv", {"name", "covers", "canonical"});
  std::set<Kind> seen;
  for (const TsvRow& row : table.rows()) {
    const std::string name = unescape(row.fields[0]);
    INFO(table.path() << ":" << row.line << ": " << name << " (" << row.fields[1] << ")");
    auto parsed = parse(name);
    if (!parsed) FAIL(parsed.error().message);
    CHECK(parsed->text() == name);
    CHECK(validate(name));
    for (const Node& n : parsed->nodes()) seen.insert(n.kind);
    // The tree is well formed: children inside their parents, in order.
    const auto nodes = parsed->nodes();
    REQUIRE(!nodes.empty());
    CHECK(nodes[0].kind == Kind::kReference);
    CHECK(nodes[0].begin == 0);
    CHECK(nodes[0].end == name.size());
    for (std::size_t i = 1; i < nodes.size(); ++i) {
      REQUIRE(nodes[i].parent >= 0);
      const Node& parent = nodes[static_cast<std::size_t>(nodes[i].parent)];
      CHECK(nodes[i].begin >= parent.begin);
      CHECK(nodes[i].end <= parent.end);
      CHECK(nodes[i].begin <= nodes[i].end);
    }
    const std::string expected = row.fields[2] == "=" ? name : unescape(row.fields[2]);
    auto canonical = normalize(name);
    if (!canonical) FAIL(canonical.error().message);
    CHECK(*canonical == expected);
  }
  for (Kind k : kAllKinds) {
    INFO("production " << to_string(k) << " is exercised by some name of valid.tsv");
    CHECK(seen.count(k) == 1);
  }
}

TEST_CASE("invalid names fail where and why the table says", "[urn][parse]") {
  const TsvFile table =
      load_table("tests/data/urn/invalid.tsv", {"name", "position", "production", "message"});
  for (const TsvRow& row : table.rows()) {
    const std::string name = unescape(row.fields[0]);
    INFO(table.path() << ":" << row.line << ": " << row.fields[0]);
    ParseError e;
    CHECK_FALSE(validate(name, {}, &e));
    CHECK(e.position == std::stoul(std::string(row.fields[1])));
    CHECK(e.production == row.fields[2]);
    CHECK_THAT(e.message, Catch::Contains(std::string(row.fields[3])));
    // parse() reports exactly what validate() reports.
    auto parsed = parse(name);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().position == e.position);
    CHECK(parsed.error().message == e.message);
  }
}

TEST_CASE("the parse tree reports each production's text", "[urn][parse]") {
  const TsvFile table =
      load_table("tests/data/urn/structure.tsv", {"name", "production", "values"});
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0] << " " << row.fields[1]);
    auto parsed = parse(row.fields[0]);
    if (!parsed) FAIL(parsed.error().message);
    std::string got;
    for (const Node& n : parsed->nodes()) {
      if (to_string(n.kind) == row.fields[1]) {
        got += (got.empty() ? "" : " | ") + std::string(parsed->view(n));
      }
    }
    CHECK(got == row.fields[2]);
  }
}

TEST_CASE("parse options relax exactly what they name", "[urn][parse]") {
  ParseOptions relaxed;
  relaxed.allow_empty_authority = true;
  CHECK(validate("urn:lex:eu::regulation:2016;2016-679", relaxed));
  CHECK_FALSE(validate("urn:lex:eu::regulation:2016;2016-679"));
  CHECK_FALSE(validate("urn:lex:it:::2013;36", relaxed));  // an empty measure stays invalid

  ParseOptions unnumbered;
  unnumbered.allow_unnumbered = true;
  CHECK(validate("urn:lex:it:stato:costituzione:1947-12-27", unnumbered));
  CHECK(validate("urn:lex:it:stato:costituzione:1947-12-27~art117-com2-letn", unnumbered));
  CHECK_FALSE(validate("urn:lex:it:stato:costituzione:1947-12-27x", unnumbered));

  ParseOptions iri;
  iri.allow_iri = true;
  CHECK(validate("urn:lex:it:ministero.sanità:decreto:2000-01-01;1", iri));
  ParseError e;
  CHECK_FALSE(validate("urn:lex:it:ministero.sanit\xC3:decreto:2000-01-01;1", iri, &e));
  CHECK_THAT(e.message, Catch::Contains("invalid UTF-8"));
  CHECK(
      validate("urn:lex:us:congress:code:title.15;15-usc~sec1\xE2\x80\x93"
               "7",
               iri));
  CHECK_FALSE(
      validate("urn:lex:it:ministero.a\xC2\xA0"
               "b:d:2000;1",
               iri, &e));  // NBSP
  CHECK_THAT(e.message, Catch::Contains("is white space, a control or an invisible character"));
  CHECK_FALSE(
      validate("urn:lex:it:ministero.a\xC2\xAD"
               "b:d:2000;1",
               iri, &e));  // soft hyphen
  CHECK_FALSE(
      validate("urn:lex:us:congress:code:title.15;15-usc~sec1\xE2\x80\x93"
               "7",
               {}, &e));
  CHECK_THAT(e.message, Catch::Contains("must be percent-encoded (%E2%80%93)"));

  ParseOptions short_names;
  short_names.max_length = 20;
  CHECK_FALSE(validate("urn:lex:it:stato:legge:2000;1", short_names, &e));
  CHECK(e.code == ErrorCode::kLimitExceeded);
  CHECK_THAT(e.message, Catch::Contains("the limit is 20"));
}

TEST_CASE("Urn accessors", "[urn][parse]") {
  auto u = parse("urn:lex:it:stato:legge:2000-04-03;56@original$pdf:senato.it~art3-com2?s=I2L");
  REQUIRE(u);
  CHECK(u->jurisdiction_code() == "it");
  CHECK(u->work() == "stato:legge:2000-04-03;56");
  CHECK(u->work_name() == "urn:lex:it:stato:legge:2000-04-03;56");
  CHECK(u->partition() == "art3-com2");
  CHECK(u->document_name() == "urn:lex:it:stato:legge:2000-04-03;56@original$pdf:senato.it");
  CHECK(u->year() == "2000");
  CHECK_FALSE(u->year_only());

  auto partial = parse("urn:lex:eu:european.union:directive:1995;1995-46");
  REQUIRE(partial);
  CHECK(partial->year_only());
  CHECK(partial->year() == "1995");

  auto period = parse("urn:lex:it:senato:ddl:14.legislature;s.2544");
  REQUIRE(period);
  CHECK_FALSE(period->year_only());
  CHECK(period->year().empty());

  auto amended = parse("urn:lex:it:senato:ddl:14.legislature;s.2544@2001-01-01");
  REQUIRE(amended);
  CHECK(amended->year().empty());  // the version's date is not the act's

  auto issuers = parse("urn:lex:it:a;b+c:d:2000;1");
  REQUIRE(issuers);
  CHECK(issuers->all(Kind::kInstitution) == std::vector<std::string_view>{"a", "c"});
  const Node* first_issuer = issuers->find(Kind::kIssuer);
  REQUIRE(first_issuer != nullptr);
  CHECK(issuers->all(Kind::kBodyFunction, first_issuer) == std::vector<std::string_view>{"b"});
  CHECK(issuers->children(0).size() == 2);  // jurisdiction and work
}

TEST_CASE("parse_into reuses its buffers and leaves nothing behind on failure", "[urn][parse]") {
  Urn u;
  ParseError e;
  REQUIRE(parse_into("urn:lex:it:stato:legge:2000;1", {}, u, &e));
  CHECK(u.text() == "urn:lex:it:stato:legge:2000;1");
  REQUIRE_FALSE(parse_into("urn:lex:it:stato:legge", {}, u, &e));
  CHECK(u.text().empty());
  CHECK(u.nodes().empty());
  REQUIRE(parse_into("urn:lex:br:federal:lei:1990-09-11;8078", {}, u, &e));
  CHECK(u.jurisdiction_code() == "br");
}

TEST_CASE("very long and hostile inputs stay linear and safe", "[urn][parse]") {
  ParseOptions big;
  big.max_length = 4 << 20;
  // One million numbers.
  std::string many = "urn:lex:it:stato:legge:2000-01-01;1";
  for (int i = 0; i < 200000; ++i) many += ",12345";
  auto u = parse(many, big);
  REQUIRE(u);
  CHECK(u->all(Kind::kDocumentId).size() == 200001);
  // A 1 MB word.
  std::string word = "urn:lex:it:" + std::string(1 << 20, 'a') + ":legge:2000;1";
  CHECK(validate(word, big));
  ParseError e;
  CHECK_FALSE(validate(word, {}, &e));
  CHECK(e.code == ErrorCode::kLimitExceeded);
  // Every byte value in every position of a valid name: never crashes, always decides.
  const std::string base = "urn:lex:it:stato:legge:2000-04-03;56~art3";
  for (std::size_t pos = 0; pos < base.size(); ++pos) {
    for (int b = 0; b < 256; ++b) {
      std::string s = base;
      s[pos] = static_cast<char>(b);
      ParseError err;
      const bool ok = validate(s, {}, &err);
      if (!ok) CHECK(err.position <= s.size());
      CHECK(ok == static_cast<bool>(parse(s)));
    }
  }
}

// The HTTP form, the resolver template language and the resolver rules in lexicons/.
#include <catch2/catch.hpp>
#include <filesystem>

#include "support/test_support.h"
#include "urn/profiles.h"
#include "urn/render.h"
#include "urn/url_template.h"

using namespace lexlink;
using namespace lexlink::urn;
using lexlink::test::data_path;
using lexlink::test::load_table;
using lexlink::test::unescape;

TEST_CASE("the HTTP form follows the table", "[urn][render]") {
  const TsvFile table = load_table("tests/data/urn/http.tsv", {"name", "base", "sep", "url"});
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0]);
    auto u = parse(row.fields[0]);
    REQUIRE(u);
    HttpOptions options{row.fields[1] == "-" ? "" : std::string(row.fields[1]), row.fields[2][0]};
    CHECK(to_http(*u, options) == row.fields[3]);
  }
}

TEST_CASE("resolver templates expand as the table says", "[urn][template]") {
  const TsvFile table =
      load_table("tests/data/urn/templates.tsv", {"template", "name", "expected"});
  TemplateMaps maps;
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0] << " on " << row.fields[1]);
    auto t = UrlTemplate::compile(row.fields[0], maps);
    if (!t) FAIL(t.error().message);
    auto u = parse(row.fields[1]);
    if (!u) FAIL(u.error().message);
    auto got = t->expand(TemplateValues::of(*u, '#'), maps);
    if (row.fields[2] == "-") {
      CHECK_FALSE(got.has_value());
    } else {
      REQUIRE(got.has_value());
      CHECK(*got == unescape(row.fields[2]));
    }
  }
}

TEST_CASE("bad templates are refused with the column of the problem", "[urn][template]") {
  const TsvFile table =
      load_table("tests/data/urn/bad-templates.tsv", {"template", "col", "message"});
  TemplateMaps maps;
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0]);
    auto t = UrlTemplate::compile(row.fields[0], maps);
    REQUIRE_FALSE(t);
    CHECK(t.error().col == std::stoul(std::string(row.fields[1])));
    CHECK_THAT(t.error().message, Catch::Contains(std::string(row.fields[2])));
  }
}

TEST_CASE("the project's resolver rules give the links of the table", "[urn][resolve]") {
  auto profiles = Profiles::load(LEXLINK_SOURCE_DIR);
  if (!profiles) FAIL(profiles.error().to_string());
  const TsvFile table = load_table("tests/data/urn/resolve.tsv", {"name", "sep", "url"});
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0]);
    auto u = parse(row.fields[0]);
    REQUIRE(u);
    auto url = profiles->resolve(*u, ResolveOptions{row.fields[1][0]});
    if (row.fields[2][0] == '!') {
      REQUIRE_FALSE(url);
      CHECK_THAT(url.error().message, Catch::Contains(std::string(row.fields[2].substr(1))));
    } else {
      if (!url) FAIL(url.error().message);
      CHECK(*url == row.fields[2]);
    }
  }
  CHECK(profiles->fold_transform("de") == "de-ASCII; Any-Latin; Latin-ASCII");
  CHECK(profiles->fold_transform("it") == "Any-Latin; Latin-ASCII");
}

TEST_CASE("broken lexicon folders are refused with file:line:col", "[urn][resolve]") {
  const TsvFile table =
      load_table("tests/data/lexicons-bad/cases.tsv", {"case", "location", "message"});
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": case " << row.fields[0]);
    const std::string dir = data_path("tests/data/lexicons-bad/" + std::string(row.fields[0]));
    REQUIRE(std::filesystem::is_directory(dir));
    auto p = Profiles::load(dir);
    REQUIRE_FALSE(p);
    const std::string text = p.error().to_string();
    CHECK_THAT(text, Catch::Contains(std::string(row.fields[1])));
    CHECK_THAT(text, Catch::Contains(std::string(row.fields[2])));
  }
}

TEST_CASE("pattern prefixes", "[urn][resolve]") {
  CHECK(pattern_matches_prefix("urn:lex:eu:*:regulation:", "urn:lex:eu:a+b:regulation:2016;1"));
  CHECK_FALSE(pattern_matches_prefix("urn:lex:eu:*:regulation:", "urn:lex:eu:a:b:regulation:1"));
  CHECK(pattern_matches_prefix("urn:lex:uk:parliament:act:", "urn:lex:uk:parliament:act:1985;67"));
  CHECK_FALSE(
      pattern_matches_prefix("urn:lex:uk:parliament:act:", "urn:lex:uk:parliament:act;local:1"));
  CHECK(pattern_matches_prefix("*", "anything"));
  CHECK(pattern_matches_prefix("", "anything"));
}

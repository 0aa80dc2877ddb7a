// extractor/eval gold: reading gold.tsv (tests/data/eval/gold-good/ and gold-bad/, with the
// rows and errors expected in gold_good.tsv and gold_bad.tsv), the publisher-ids mapping
// (corpora/publisher-ids/) and the rows that are scored.
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "eval/gold.h"
#include "support/test_support.h"

using namespace lexlink::eval;
using lexlink::test::data_path;
using lexlink::test::load_table;

namespace {

std::uint64_t number(std::string_view s) {
  return std::stoull(std::string(s));
}

}  // namespace

TEST_CASE("gold.tsv rows are read as written", "[eval]") {
  const auto table = load_table("tests/data/eval/gold_good.tsv",
                                {"file", "rows", "row", "line", "doc", "start", "end", "cited",
                                 "urn", "publisher_id", "publisher_extra"});
  for (const auto& t : table.rows()) {
    INFO(table.path() << ":" << t.line << " " << t.fields[0]);
    auto rows = read_gold(data_path("tests/data/eval/gold-good/" + std::string(t.fields[0])));
    if (!rows) FAIL(rows.error().to_string());
    REQUIRE(rows->size() == number(t.fields[1]));
    const GoldRow& r = rows->at(number(t.fields[2]));
    CHECK(r.line == number(t.fields[3]));
    CHECK(r.doc == t.fields[4]);
    CHECK(r.start == number(t.fields[5]));
    CHECK(r.end == number(t.fields[6]));
    CHECK(r.cited == t.fields[7]);
    CHECK(r.urn == t.fields[8]);
    CHECK(r.publisher_id == t.fields[9]);
    CHECK(r.publisher_extra == t.fields[10]);
  }
}

TEST_CASE("a malformed gold.tsv is an error at file:line:col", "[eval]") {
  const auto table = load_table("tests/data/eval/gold_bad.tsv", {"file", "line", "col", "message"});
  REQUIRE(table.rows().size() >= 15);
  for (const auto& t : table.rows()) {
    INFO(table.path() << ":" << t.line << " " << t.fields[0]);
    const std::string path = data_path("tests/data/eval/gold-bad/" + std::string(t.fields[0]));
    auto rows = read_gold(path);
    REQUIRE_FALSE(rows);
    const lexlink::Error& e = rows.error();
    CHECK(e.code == lexlink::ErrorCode::kDataError);
    CHECK(e.file == path);
    CHECK(e.line == number(t.fields[1]));
    CHECK(e.col == number(t.fields[2]));
    CHECK(e.message == t.fields[3]);
  }
}

TEST_CASE("a gold.tsv that does not exist is kNotFound", "[eval]") {
  auto rows = read_gold(data_path("tests/data/eval/gold-good/no-such-file.tsv"));
  REQUIRE_FALSE(rows);
  CHECK(rows.error().code == lexlink::ErrorCode::kNotFound);
}

TEST_CASE("rows without a urn are named from their publisher identifier", "[eval]") {
  const std::string dir = "tests/data/eval/corpora/publisher-ids/";
  const auto map_table = load_table(dir + "map.tsv", {"key", "urn"});
  std::map<std::string, std::string, std::less<>> map;
  for (const auto& r : map_table.rows()) map.emplace(r.fields[0], r.fields[1]);
  std::vector<std::string> keys;  // the keys asked for, in order
  auto rows = read_gold(data_path(dir + "gold.tsv"));
  if (!rows) FAIL(rows.error().to_string());
  map_publisher_ids(*rows, [&](std::string_view key) {
    keys.emplace_back(key);
    auto it = map.find(key);
    return it == map.end() ? std::string() : it->second;
  });
  const auto expected = load_table(dir + "expected_urns.tsv", {"line", "urn", "why"});
  REQUIRE(expected.rows().size() == rows->size());
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const auto& t = expected.rows()[i];
    INFO(expected.path() << ":" << t.line << " " << t.fields[2]);
    CHECK((*rows)[i].line == number(t.fields[0]));
    CHECK((*rows)[i].urn == t.fields[1]);
  }
  // Only the rows without a urn and with an identifier are looked up.
  CHECK(keys == std::vector<std::string>{"LEGIARTI1 | Code du travail",
                                         "LEGIARTI1 | Code du travail", "UNKNOWN | t",
                                         "LEGIARTI3 | ", "LEGIARTI1 | Autre titre"});
  // The rows scored: those with a urn now.
  const auto scored = scored_gold(std::move(*rows));
  REQUIRE(scored.size() == 1);
  REQUIRE(scored.at("p").size() == 5);
  CHECK(scored.at("p")[1].start == 10);
  CHECK(scored.at("p")[1].name->measure == "code");
}

TEST_CASE("scored_gold keeps the rows with a urn, of the measure asked for, by document",
          "[eval]") {
  auto rows = read_gold(data_path("tests/data/eval/corpora/measure/gold.tsv"));
  if (!rows) FAIL(rows.error().to_string());
  const auto all = scored_gold(*rows);
  REQUIRE(all.size() == 2);
  CHECK(all.at("e").size() == 3);
  CHECK(all.at("f").size() == 1);
  const auto code = scored_gold(*rows, "code");
  REQUIRE(code.size() == 1);  // f has no code row: it is not scored at all
  REQUIRE(code.at("e").size() == 2);
  CHECK(code.at("e")[0].urn == "urn:lex:fr:etat:code:travail~artl1");
  CHECK(code.at("e")[1].urn == "urn:lex:fr:etat:code:commerce~artl2");
  CHECK(scored_gold(*rows, "decreto").empty());
  // A row without a urn is not scored; one whose urn does not parse is, and matches nothing.
  auto j = read_gold(data_path("tests/data/eval/corpora/jurisdictions/gold.tsv"));
  if (!j) FAIL(j.error().to_string());
  const auto scored = scored_gold(*j);
  CHECK(scored.count("d") == 0);
  REQUIRE(scored.at("c").size() == 1);
  CHECK_FALSE(scored.at("c")[0].name.has_value());
  // Documents come in byte order, whatever the file's order.
  std::vector<GoldRow> unordered = {{"b", 0, 1, "", "urn:lex:it:stato:legge:2000;1", "", "", 2},
                                    {"B", 0, 1, "", "urn:lex:it:stato:legge:2000;1", "", "", 3},
                                    {"a", 0, 1, "", "urn:lex:it:stato:legge:2000;1", "", "", 4}};
  std::vector<std::string> docs;
  for (const auto& [doc, links] : scored_gold(unordered)) docs.push_back(doc);
  CHECK(docs == std::vector<std::string>{"B", "a", "b"});
}

// extractor/eval score_name: score.py's norm_num, parse and work_match, table-driven
// (tests/data/eval/norm_num.tsv, score_parse.tsv, work_match.tsv; score_py_check.py checks the
// same tables against score.py itself).
#include <catch2/catch.hpp>
#include <string>

#include "eval/score_name.h"
#include "support/test_support.h"

using lexlink::eval::norm_num;
using lexlink::eval::partition_match;
using lexlink::eval::score_parse;
using lexlink::eval::work_match;
using lexlink::test::load_table;
using lexlink::test::unescape;

TEST_CASE("norm_num normalises numbers as score.py does", "[eval]") {
  const auto table =
      load_table("tests/data/eval/norm_num.tsv", {"input", "normalised", "score_py"});
  REQUIRE(table.rows().size() >= 10);
  for (const auto& row : table.rows()) {
    INFO(table.path() << ":" << row.line);
    CHECK(norm_num(unescape(row.fields[0])) == unescape(row.fields[1]));
  }
}

TEST_CASE("score_parse reads the fields score.py compares", "[eval]") {
  const auto table = load_table(
      "tests/data/eval/score_parse.tsv",
      {"urn", "parses", "jur", "auth", "measure", "year", "full", "number", "period", "part"});
  REQUIRE(table.rows().size() >= 20);
  std::size_t parsed = 0;
  for (const auto& row : table.rows()) {
    INFO(table.path() << ":" << row.line << " " << row.fields[0]);
    const auto p = score_parse(unescape(row.fields[0]));
    REQUIRE(p.has_value() == (row.fields[1] == "yes"));
    if (!p) continue;
    ++parsed;
    CHECK(p->jur == unescape(row.fields[2]));
    CHECK(p->auth == unescape(row.fields[3]));
    CHECK(p->measure == unescape(row.fields[4]));
    CHECK(p->year == unescape(row.fields[5]));
    CHECK(p->full == unescape(row.fields[6]));
    CHECK(p->number == unescape(row.fields[7]));
    CHECK(p->period == unescape(row.fields[8]));
    CHECK(p->part == unescape(row.fields[9]));
  }
  CHECK(parsed >= 15);
}

TEST_CASE("work_match and partition_match compare names as score.py does", "[eval]") {
  const auto table = load_table("tests/data/eval/work_match.tsv",
                                {"gold", "predicted", "work", "partition", "why"});
  REQUIRE(table.rows().size() >= 30);
  for (const auto& row : table.rows()) {
    INFO(table.path() << ":" << row.line << " " << row.fields[4]);
    const auto g = score_parse(unescape(row.fields[0]));
    const auto p = score_parse(unescape(row.fields[1]));
    CHECK(work_match(g, p) == (row.fields[2] == "yes"));
    CHECK(partition_match(g, p) == (row.fields[3] == "yes"));
    // A partition hit is a work hit.
    if (partition_match(g, p)) CHECK(work_match(g, p));
  }
}

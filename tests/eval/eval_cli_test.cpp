// `lexlink eval` on the library: what it refuses (a malformed gold.tsv at file:line:col, a
// --limit that is not a number, a --details file it cannot write) and the end-to-end scores of
// a hand-made folder.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "support/test_support.h"

using lexlink::test::data_path;
using lexlink::test::read_file;
using lexlink::test::run_cli;
using lexlink::test::TempDir;

namespace {

// A corpus folder in `dir`: gold.tsv and one document, text/doc.txt.
void make_corpus(const TempDir& dir, const std::string& gold) {
  std::filesystem::create_directories(dir.path / "text");
  dir.file("text/doc.txt", "legge 3 aprile 2000, n. 56 e legge 4 maggio 2001, n. 7.\n");
  dir.file("gold.tsv", gold);
}

const char* const kHeader =
    "doc_id\tchar_start\tchar_end\tcited_text\turn\tpublisher_identifier\tpublisher_extra\n";

}  // namespace

TEST_CASE("eval refuses a malformed gold.tsv, naming file:line:col", "[eval][cli]") {
  TempDir dir("eval-bad-gold");
  make_corpus(dir, read_file(data_path("tests/data/eval/gold-bad/bad-row-without-urn.tsv")));
  auto r = run_cli({"eval", "--jurisdiction", "it", dir.path.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "lexlink eval: " + dir / "gold.tsv" +
                     ":4:5: char_end: expected a number of code points (decimal digits, below "
                     "2^64), found 'ten'\n");
}

TEST_CASE("eval scores a hand-made folder and refuses bad options", "[eval][cli]") {
  TempDir dir("eval-options");
  make_corpus(dir, std::string(kHeader) +
                       "doc\t0\t26\tlegge 3 aprile 2000, n. 56\t"
                       "urn:lex:it:stato:legge:2000-04-03;56~art1\t\t\n"
                       "doc\t60\t70\telsewhere\turn:lex:it:stato:legge:1999-01-01;1\t\t\n");
  auto r = run_cli({"eval", "--jurisdiction", "it", dir.path.string()});
  REQUIRE(r.exit_code == 0);
  // Two citations: one on the first row's work (not its partition), one where no row is.
  CHECK(r.out.find(": work P=0.500 R=0.500 F1=0.500; partition P=0.000 R=0.000 F1=0.000\n") !=
        std::string::npos);
  CHECK(r.out.find("docs=1 gold=2 pred=2 mb_s=") != std::string::npos);
  auto linked = run_cli({"eval", "--jurisdiction", "it", "--linked-only", dir.path.string()});
  CHECK(linked.out.find("work P=1.000 R=0.500") != std::string::npos);
  CHECK(linked.out.find("left out (no gold row overlaps them): 1\n") != std::string::npos);
  for (const char* limit : {"abc", "-1", "1x", ""}) {
    INFO(limit);
    auto bad = run_cli({"eval", "--jurisdiction", "it", "--limit", limit, dir.path.string()});
    CHECK(bad.exit_code == 2);
    CHECK(bad.err ==
          std::string("lexlink eval: --limit needs a number of documents, not '") + limit + "'\n");
  }
  auto unwritable = run_cli({"eval", "--jurisdiction", "it", "--details",
                             dir / "no-such-folder/details.jsonl", dir.path.string()});
  CHECK(unwritable.exit_code == 2);
  CHECK(unwritable.err.find("--details") != std::string::npos);
  // The details: the prediction that hit the work only, the stray one, the two rows missed.
  auto details = run_cli(
      {"eval", "--jurisdiction", "it", "--details", dir / "details.jsonl", dir.path.string()});
  REQUIRE(details.exit_code == 0);
  const std::string lines = dir.read("details.jsonl");
  CHECK(lines.find("{\"kind\":\"partition-mismatch\",\"doc\":\"doc\",\"char_start\":0,"
                   "\"char_end\":26,\"text\":\"legge 3 aprile 2000, n. 56\",\"urn\":"
                   "\"urn:lex:it:stato:legge:2000-04-03;56\",\"rule\":") == 0);
  CHECK(lines.find("\"overlaps_gold\":true,\"gold\":[{\"char_start\":0,\"char_end\":26,\"text\":"
                   "\"legge 3 aprile 2000, n. 56\",\"urn\":"
                   "\"urn:lex:it:stato:legge:2000-04-03;56~art1\"}]}\n") != std::string::npos);
  CHECK(lines.find("\"kind\":\"false-positive\"") != std::string::npos);
  CHECK(lines.find("{\"kind\":\"missed-partition\",\"doc\":\"doc\",\"char_start\":0,"
                   "\"char_end\":26,\"text\":\"legge 3 aprile 2000, n. 56\",\"urn\":"
                   "\"urn:lex:it:stato:legge:2000-04-03;56~art1\"}\n") != std::string::npos);
  CHECK(lines.find("{\"kind\":\"missed\",\"doc\":\"doc\",\"char_start\":60,\"char_end\":70,"
                   "\"text\":\"elsewhere\",\"urn\":\"urn:lex:it:stato:legge:1999-01-01;1\"}\n") !=
        std::string::npos);
}

TEST_CASE(
    "eval labels the scores with the folder's name however the path is spelled, refuses a "
    "folder without gold.tsv and a --measure that selects nothing",
    "[eval][cli]") {
  TempDir dir("eval-label");
  make_corpus(dir, std::string(kHeader) +
                       "doc\t0\t26\tlegge 3 aprile 2000, n. 56\t"
                       "urn:lex:it:stato:legge:2000-04-03;56\t\t\n");
  const std::string name = dir.path.filename().string();
  for (const std::string& spelling : {dir.path.string(), dir.path.string() + "/",
                                      dir.path.string() + "/.", dir.path.string() + "/text/.."}) {
    INFO(spelling);
    auto r = run_cli({"eval", "--jurisdiction", "it", spelling});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.rfind(name + ": work P=0.500 R=1.000 F1=0.667", 0) == 0);
  }
  auto no_gold = run_cli({"eval", (dir.path / "text").string()});
  CHECK(no_gold.exit_code == 2);
  CHECK(no_gold.out.empty());
  CHECK(no_gold.err == "lexlink eval: " + (dir.path / "text").string() +
                           ": no gold.tsv (a corpus folder holds gold.tsv and text/*.txt: lexlink "
                           "eval --help)\n");
  auto none = run_cli({"eval", "--jurisdiction", "it", "--measure", "decreto", dir.path.string()});
  CHECK(none.exit_code == 1);
  CHECK(none.out.empty());
  CHECK(none.err ==
        "lexlink eval: --measure decreto selects no gold row (the gold's measure types: legge)\n");
  auto some = run_cli({"eval", "--jurisdiction", "it", "--measure", "legge", dir.path.string()});
  CHECK(some.exit_code == 0);
}

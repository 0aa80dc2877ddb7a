// extractor/eval score: hand-made corpora (tests/data/eval/corpora/<case>/: gold.tsv,
// predictions.tsv, the counts and F1 in expected.tsv, the --details rows in details.tsv, and
// score.py's own report in score_py.txt), the overlap search against a scan of every row, and
// the report lines.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "eval/gold.h"
#include "eval/score.h"
#include "support/test_support.h"

using namespace lexlink::eval;
using lexlink::test::data_path;
using lexlink::test::load_table;
using lexlink::test::split;
namespace fs = std::filesystem;

namespace {

const char* const kCases[] = {"overlaps", "jurisdictions", "measure", "small"};

std::uint64_t number(std::string_view s) {
  return std::stoull(std::string(s));
}

std::string three(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

// "-", "--linked-only", "--measure M", "--measure M --linked-only", as eval takes them.
ScoreOptions options_of(std::string_view s) {
  ScoreOptions o;
  const auto words = split(s, " ");
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "--linked-only") {
      o.linked_only = true;
    } else if (words[i] == "--measure" && i + 1 < words.size()) {
      o.measure = words[++i];
    } else if (words[i] != "-") {
      FAIL("unknown option " << words[i]);
    }
  }
  return o;
}

struct Case {
  std::string dir;  // relative to the source tree
  std::vector<GoldRow> gold;
  std::map<std::string, std::vector<Prediction>> predictions;  // by document
};

Case load_case(const std::string& name) {
  Case c;
  c.dir = "tests/data/eval/corpora/" + name + "/";
  auto gold = read_gold(data_path(c.dir + "gold.tsv"));
  if (!gold) FAIL(gold.error().to_string());
  c.gold = std::move(*gold);
  const auto preds = load_table(c.dir + "predictions.tsv",
                                {"doc", "char_start", "char_end", "urn", "text", "rule"});
  for (const auto& r : preds.rows()) {
    c.predictions[std::string(r.fields[0])].push_back(
        {number(r.fields[1]), number(r.fields[2]), std::string(r.fields[3]),
         std::string(r.fields[4]), std::string(r.fields[5])});
  }
  return c;
}

// A detail as details.tsv writes it.
std::string detail_line(const std::string& doc, const DetailRow& d) {
  std::string gold;  // "START-END URN" per gold row of a partition mismatch, ';'-separated
  for (const auto& g : d.gold) {
    gold += (gold.empty() ? "" : ";") + std::to_string(g.char_start) + "-" +
            std::to_string(g.char_end) + " " + g.urn;
  }
  return doc + "\t" + to_string(d.kind) + "\t" + std::to_string(d.char_start) + "\t" +
         std::to_string(d.char_end) + "\t" + d.urn + "\t" + d.text + "\t" + d.rule + "\t" +
         (d.overlaps_gold ? "yes" : "no") + "\t" + (gold.empty() ? "-" : gold);
}

struct CorpusScore {
  Counts counts;
  std::vector<std::string> details;
};

// The corpus scored as `lexlink eval` scores it: the documents of the scored gold, in order.
// `shuffle`: each document's gold rows in another order first.
CorpusScore score_case(const Case& c, ScoreOptions options, unsigned shuffle = 0) {
  options.details = true;
  CorpusScore out;
  std::mt19937 rng(shuffle);
  static const std::vector<Prediction> kNone;
  for (auto& [doc, rows] : scored_gold(c.gold, options.measure)) {
    if (shuffle != 0) std::shuffle(rows.begin(), rows.end(), rng);
    const DocumentGold gold(rows);
    auto it = c.predictions.find(doc);
    const DocumentScore s =
        score_document(gold, it == c.predictions.end() ? kNone : it->second, options);
    out.counts += s.counts;
    for (const DetailRow& d : s.details) out.details.push_back(detail_line(doc, d));
  }
  return out;
}

}  // namespace

TEST_CASE("hand-made corpora give the counts and F1 worked out by hand", "[eval]") {
  for (const char* name : kCases) {
    const Case c = load_case(name);
    const auto expected =
        load_table(c.dir + "expected.tsv",
                   {"options", "docs", "gold", "pred", "tp_work", "tp_partition", "hit_work",
                    "hit_partition", "unlinked", "work_f1", "partition_f1"});
    for (const auto& t : expected.rows()) {
      INFO(expected.path() << ":" << t.line << " " << t.fields[0]);
      const Counts n = score_case(c, options_of(t.fields[0])).counts;
      CHECK(n.docs == number(t.fields[1]));
      CHECK(n.gold == number(t.fields[2]));
      CHECK(n.predictions == number(t.fields[3]));
      CHECK(n.tp_work == number(t.fields[4]));
      CHECK(n.tp_partition == number(t.fields[5]));
      CHECK(n.hit_work == number(t.fields[6]));
      CHECK(n.hit_partition == number(t.fields[7]));
      CHECK(n.unlinked == number(t.fields[8]));
      CHECK(three(work_scores(n).f1) == t.fields[9]);
      CHECK(three(partition_scores(n).f1) == t.fields[10]);
    }
  }
}

TEST_CASE("the details rows come in order: predictions, then gold rows, document by document",
          "[eval]") {
  for (const char* name : kCases) {
    const Case c = load_case(name);
    const auto table =
        load_table(c.dir + "details.tsv", {"options", "doc", "kind", "char_start", "char_end",
                                           "urn", "text", "rule", "overlaps_gold", "gold"});
    std::map<std::string, std::vector<std::string>> expected;  // by options
    for (const auto& t : table.rows()) {
      std::string line(t.fields[1]);
      for (std::size_t i = 2; i < t.fields.size(); ++i) line += "\t" + std::string(t.fields[i]);
      expected[std::string(t.fields[0])].push_back(line);
    }
    for (const auto& [options, lines] : expected) {
      INFO(table.path() << " " << options);
      CHECK(score_case(c, options_of(options)).details == lines);
    }
  }
}

TEST_CASE("the counts do not depend on the order of the gold rows", "[eval]") {
  for (const char* name : kCases) {
    INFO(name);
    const Case c = load_case(name);
    for (const char* options : {"-", "--linked-only"}) {
      const Counts sorted = score_case(c, options_of(options)).counts;
      for (unsigned seed = 1; seed <= 5; ++seed) {
        CHECK(score_case(c, options_of(options), seed).counts == sorted);
      }
    }
  }
}

TEST_CASE("the report is score.py's on the same gold and predictions", "[eval]") {
  // score_py.txt: what score.py printed on the case, its throughput left out
  // (tests/data/eval/score_py_check.py writes and checks it).
  std::size_t checked = 0;
  for (const char* name : kCases) {
    const Case c = load_case(name);
    const fs::path recorded = data_path(c.dir + "score_py.txt");
    if (!fs::exists(recorded)) continue;
    INFO(name);
    std::string report_lines = report(name, score_case(c, options_of("-")).counts, 0.0);
    const std::size_t mb = report_lines.rfind(" mb_s=");
    REQUIRE(mb != std::string::npos);
    report_lines.erase(mb, report_lines.find('\n', mb) - mb);
    CHECK(report_lines == lexlink::test::read_file(recorded));
    ++checked;
  }
  CHECK(checked == std::size(kCases));
}

TEST_CASE("the report prints the counts and scores to three decimals", "[eval]") {
  Counts c;
  c.docs = 2;
  c.gold = 5;
  c.predictions = 6;
  c.tp_work = 4;
  c.tp_partition = 2;
  c.hit_work = 4;
  c.hit_partition = 2;
  CHECK(report("corpus", c, 12.345) ==
        "corpus: work P=0.667 R=0.800 F1=0.727; partition P=0.333 R=0.400 F1=0.364\n"
        "work_f1=0.727 part_f1=0.364 p=0.667 r=0.800 docs=2 gold=5 pred=6 mb_s=12.35\n");
  CHECK(report("empty", Counts{}, 0) ==
        "empty: work P=0.000 R=0.000 F1=0.000; partition P=0.000 R=0.000 F1=0.000\n"
        "work_f1=0.000 part_f1=0.000 p=0.000 r=0.000 docs=0 gold=0 pred=0 mb_s=0.00\n");
}

TEST_CASE("the overlap search finds what a scan of every row finds", "[eval]") {
  // Random rows and spans, short and long, touching and nested; empty spans too.
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::vector<GoldLink> rows(rng() % 40);
    for (GoldLink& g : rows) {
      g.start = rng() % 500;
      g.end = g.start + (rng() % 4 == 0 ? rng() % 300 : rng() % 12);
    }
    const DocumentGold gold(rows);
    for (int q = 0; q < 200; ++q) {
      const std::uint64_t start = rng() % 520, end = start + rng() % 30;
      std::vector<std::size_t> found, scanned;
      gold.for_each_overlapping(start, end, [&](std::size_t i) { found.push_back(i); });
      for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].start < end && start < rows[i].end) scanned.push_back(i);
      }
      std::sort(found.begin(), found.end());
      INFO("round " << round << " span [" << start << ", " << end << ")");
      REQUIRE(found == scanned);
      CHECK(gold.overlaps_any(start, end) == !scanned.empty());
    }
  }
}

TEST_CASE("spans that touch do not overlap, a span inside a row does", "[eval]") {
  const std::vector<GoldLink> rows = {{10, 20, "", "", std::nullopt},
                                      {20, 30, "", "", std::nullopt}};
  const DocumentGold gold(rows);
  auto overlapping = [&](std::uint64_t s, std::uint64_t e) {
    std::vector<std::size_t> v;
    gold.for_each_overlapping(s, e, [&](std::size_t i) { v.push_back(i); });
    return v;
  };
  CHECK(overlapping(0, 10).empty());
  CHECK(overlapping(30, 40).empty());
  CHECK(overlapping(19, 21) == std::vector<std::size_t>{0, 1});
  CHECK(overlapping(20, 25) == std::vector<std::size_t>{1});
  CHECK(overlapping(12, 13) == std::vector<std::size_t>{0});
  CHECK(overlapping(0, 100) == std::vector<std::size_t>{0, 1});
  CHECK(overlapping(15, 15) == std::vector<std::size_t>{0});  // empty, inside a row
  CHECK(overlapping(20, 20).empty());                         // empty, where two rows touch
}

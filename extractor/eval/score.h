// eval/score: one document's predicted citations scored against its gold rows, the counts
// summed over a corpus, and precision, recall and F1 from them: the definition of the team's
// corpora README ("How a prediction is scored") as ../shared/tools/score.py implements it,
// with the options of `lexlink eval` that score.py does not have (--measure, --linked-only, the
// --details rows).
//
// For each prediction, in order:
//   - left out when its name does not parse (score_parse) or, with a measure, is of another;
//   - left out when its jurisdiction is none of the document's gold rows' and it overlaps no
//     gold row (a citation of another country's law in a document whose publisher links only
//     its own);
//   - with linked_only, left out and counted as `unlinked` when it overlaps no gold row;
//   - else counted, and a work hit (tp_work) when it work-matches a gold row it overlaps, a
//     partition hit (tp_partition) when it partition-matches one.
// A gold row is hit (hit_work, hit_partition) when some counted prediction matches it; a row
// hit by two predictions counts once, a prediction matching two rows hits both. Spans overlap
// when they share a code point: [a, b) and [c, d) with a < d and c < b, so touching spans
// ([0, 5) and [5, 9)) do not.
//
// Guarantees: the counts are score.py's for the same gold rows and predictions (its `gold`,
// `pred`, and the numerators of P and R), whatever the order of the gold rows; the details come
// in a fixed order (the predictions' in prediction order, then the gold rows' in row order). The
// rows a prediction overlaps are found by binary search over the rows sorted by start, so a
// document with tens of thousands of links costs O((n + m) log n), not n times m. Nothing
// throws but std::bad_alloc.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "eval/gold.h"
#include "eval/score_name.h"

namespace lexlink::eval {

// A predicted citation: its span in code points of the document's text, [char_start, char_end),
// its name, and (for the details) its text and the rule that found it.
struct Prediction {
  std::uint64_t char_start = 0, char_end = 0;
  std::string urn, text, rule;
};

struct ScoreOptions {
  std::string measure;       // score only names of this measure type ("": all)
  bool linked_only = false;  // leave out the predictions that overlap no gold row
  bool details = false;      // give the DetailRows
};

struct Counts {
  std::size_t docs = 0;
  std::size_t gold = 0;                         // gold rows scored
  std::size_t predictions = 0;                  // predictions counted (precision's denominator)
  std::size_t tp_work = 0, tp_partition = 0;    // predictions that hit
  std::size_t hit_work = 0, hit_partition = 0;  // gold rows hit (recall's numerators)
  std::size_t unlinked = 0;  // linked_only: predictions left out because they overlap no row
  Counts& operator+=(const Counts& o);
  bool operator==(const Counts&) const = default;
};

struct Scores {
  double precision = 0, recall = 0, f1 = 0;  // 0 where a denominator is 0
};
double f1(double precision, double recall);
Scores work_scores(const Counts& c);
Scores partition_scores(const Counts& c);

// The two lines score.py prints for corpus `name` (numbers to 3 decimals, mb_s to 2), each
// ending in '\n':
//   NAME: work P=.. R=.. F1=..; partition P=.. R=.. F1=..
//   work_f1=.. part_f1=.. p=.. r=.. docs=.. gold=.. pred=.. mb_s=..
std::string report(std::string_view name, const Counts& c, double mb_s);

// A line of `eval --details`: a prediction that missed (false-positive: no work hit;
// partition-mismatch: a work hit, no partition hit) or a gold row that was missed (missed: no
// work hit; missed-partition: a work hit, no partition hit). For a gold row, text is its
// cited_text, rule is empty and overlaps_gold false.
enum class DetailKind { kFalsePositive, kPartitionMismatch, kMissed, kMissedPartition };
const char* to_string(DetailKind kind);  // "false-positive", ...

struct DetailRow {
  DetailKind kind = DetailKind::kFalsePositive;
  std::uint64_t char_start = 0, char_end = 0;
  std::string text, urn, rule;
  bool overlaps_gold = false;  // a prediction's: whether it overlaps any gold row
  // A partition-mismatch's gold side: the rows it overlaps whose work it matched, by start,
  // end, then urn (so that the order of gold.tsv does not change it). Empty for other kinds.
  struct GoldSide {
    std::uint64_t char_start = 0, char_end = 0;
    std::string text, urn;
  };
  std::vector<GoldSide> gold;
};

// One document's gold rows, indexed for the overlap search.
class DocumentGold {
 public:
  // `rows` must outlive this object.
  explicit DocumentGold(const std::vector<GoldLink>& rows);

  const std::vector<GoldLink>& rows() const { return *rows_; }
  // Whether a gold row's name has jurisdiction `jur`.
  bool has_jurisdiction(std::string_view jur) const { return jurs_.count(jur) != 0; }

  // Calls visit(i) for each row i that overlaps [start, end), in order of start.
  template <class Visit>
  void for_each_overlapping(std::uint64_t start, std::uint64_t end, Visit&& visit) const {
    // A row that starts `longest_` code points or more before `start` ends at or before it.
    const std::uint64_t from = start > longest_ ? start - longest_ : 0;
    const std::vector<GoldLink>& rows = *rows_;
    auto it = std::lower_bound(by_start_.begin(), by_start_.end(), from,
                               [&](std::size_t i, std::uint64_t v) { return rows[i].start < v; });
    for (; it != by_start_.end() && rows[*it].start < end; ++it) {
      if (start < rows[*it].end) visit(*it);
    }
  }
  bool overlaps_any(std::uint64_t start, std::uint64_t end) const;

 private:
  const std::vector<GoldLink>* rows_;
  std::vector<std::size_t> by_start_;  // row indices by start (stable)
  std::uint64_t longest_ = 0;          // the longest row's length
  std::set<std::string, std::less<>> jurs_;
};

struct DocumentScore {
  Counts counts;                   // docs = 1
  std::vector<DetailRow> details;  // when options.details
};

// Scores `predictions` against `gold`, a document's rows as scored_gold gives them (already
// restricted to options.measure).
DocumentScore score_document(const DocumentGold& gold, const std::vector<Prediction>& predictions,
                             const ScoreOptions& options);

}  // namespace lexlink::eval

// eval/score_name: a URN:LEX name as the scoring compares it, and the comparisons: the parse,
// work match and partition match of the team's corpora README ("How a prediction is scored")
// as ../shared/tools/score.py implements them (its parse, norm_num and work_match).
//
// Guarantees: for a name of ASCII letters, digits and ASCII white space, every function here
// gives what score.py's function of the same name gives (tests/eval/score_name_test.cpp, tables
// in tests/data/eval/). Lower-casing and white space are ASCII only (the C locale): where
// score.py's Python str.lower(), str.strip() and \s also take non-ASCII letters and spaces
// ("À", U+00A0), these leave them as they are. The corpora's names are ASCII but for an en dash
// in some US Code partitions, which neither side changes. No function throws but for
// std::bad_alloc.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lexlink::eval {

// The fields of a name the scoring compares, lower-cased. `year` is the date's first four
// digits, `full` the date when it is YYYY-MM-DD, `period` the date when it has no year (a
// legislature, a session); `number` the numbers after the date joined with ',' and normalised
// by norm_num; `part` the partition after '~' with runs of '-', ';' and '_' made one '-'.
struct ScoreName {
  std::string jur, auth, measure, year, full, number, period, part;
};

// score.py norm_num: lower-cased, each run of '/', '.', '_' and white space made one '-', the
// '-' at both ends stripped ("N. 5/A" -> "n-5-a").
std::string norm_num(std::string_view s);

// score.py parse: the name's fields, or nullopt when it is not "urn:lex:" (after trimming white
// space, any case) followed by at least three ':'-separated fields. Versions and languages
// ('@', '$' and what follows) are dropped; the jurisdiction and measure lose their ';' suffixes.
std::optional<ScoreName> score_parse(std::string_view urn);

// score.py work_match: the same work. Same jurisdiction, measure, year, number and period; the
// same authority unless the gold's is empty (a wildcard: publishers that do not say who
// enacted); full dates compared only when both have one. False when either is nullopt.
bool work_match(const std::optional<ScoreName>& gold, const std::optional<ScoreName>& predicted);

// The same partition of the same work: work_match and equal `part` (both empty: the work
// itself). A partition hit is always a work hit.
bool partition_match(const std::optional<ScoreName>& gold,
                     const std::optional<ScoreName>& predicted);

}  // namespace lexlink::eval

// eval/gold: a corpus folder's gold.tsv (one row per publisher link, the format of the team's
// corpora README) read into rows, the rows without a urn named from their publisher's
// identifier, and the rows that are scored, by document.
//
// The file: a header line naming the columns doc_id, char_start, char_end, cited_text, urn and,
// optionally, publisher_identifier and publisher_extra, in this order; then a row per line with
// as many tab-separated fields as the header. Offsets count code points of text/<doc_id>.txt,
// [char_start, char_end). Blank lines are skipped, a line's trailing CR is dropped (as Python's
// text mode does for score.py) and so is a UTF-8 byte order mark. Fields are kept as written: the
// TSV escapes \t \n \\ are not decoded (score.py does not decode them, and `eval --details` prints
// the cited text as written).
//
// Guarantees: a malformed row is an error at file:line:col naming the field, never skipped and
// never an exception (but std::bad_alloc): a row with another number of fields, an empty doc_id, an
// offset that is not decimal digits or does not fit 64 bits, char_end before char_start. Every row
// is checked, those without a urn too (they may be named by map_publisher_ids). (`lexlink eval`
// before this library skipped rows of fewer than 5 fields, read "12x" as 12 and "-1" as 2^64-1, and
// ended with an uncaught std::invalid_argument on "x"; score.py skips rows of fewer than 5 fields
// and raises ValueError on a bad offset.)
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "eval/score_name.h"

namespace lexlink::eval {

struct GoldRow {
  std::string doc;
  std::uint64_t start = 0, end = 0;  // code points
  std::string cited, urn;
  std::string publisher_id, publisher_extra;  // "" when the file has no such column
  std::uint32_t line = 0;                     // in the file, 1-based
};

// The rows of gold.tsv text `content`, in file order; `path` names the file in errors.
Result<std::vector<GoldRow>> parse_gold(const std::string& path, std::string_view content);
// The same, read from `path` (kNotFound when it does not exist).
Result<std::vector<GoldRow>> read_gold(const std::string& path);

// What a publisher's identifier names: given "IDENTIFIER | TITLE", a URN:LEX name or "" (the
// key lexicons/<jur>/publisher-ids.tsv patterns match: extract::DocumentIds::rewrite).
using PublisherMap = std::function<std::string(std::string_view key)>;

// Names the rows without a urn that have a publisher_identifier: urn = map("ID | TITLE"), TITLE
// being the row's publisher_extra or, when it is empty, the first non-empty publisher_extra of
// any row with the same identifier (publishers give a link's title once per page). A row `map`
// gives "" stays without a urn.
void map_publisher_ids(std::vector<GoldRow>& rows, const PublisherMap& map);

// A gold row as it is scored.
struct GoldLink {
  std::uint64_t start = 0, end = 0;
  std::string cited, urn;
  std::optional<ScoreName> name;  // score_parse(urn)
};

// The rows that are scored, by document (documents in byte order, which is score.py's sorted()
// order on their code points; rows in file order): the rows with a urn and, when `measure` is
// not empty, whose name has that measure. A document none of whose rows is scored is not there.
std::map<std::string, std::vector<GoldLink>> scored_gold(std::vector<GoldRow> rows,
                                                         std::string_view measure = {});

}  // namespace lexlink::eval

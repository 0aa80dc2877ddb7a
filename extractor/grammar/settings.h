// grammar/settings: a grammar's `set KEY = VALUE` lines (grammars/README.md, "Settings") as typed
// fields, read when the grammar loads.
//
// Every key and every value is checked there: an unknown key, a value the key does not accept
// (`set partition.range = end`), a key set twice, or a level id that is no level of the
// partitions class, is refused as `file:line:col: message` (the column of the value, or of the
// word of it that is wrong) with the accepted values listed. A field not set keeps the default
// written here, which is what a grammar without the line gets. Readers of a loaded grammar read
// the fields, never the text.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "grammar/location.h"

namespace lexlink::grammar {

struct Settings {
  // `line-break`: in plain text, a line break is white space (kSpace, `space`) or ends a block
  // (kParagraph, `paragraph`; not in a hard-wrapped document, see grammars/README.md).
  enum class LineBreak : std::uint8_t { kSpace, kParagraph };
  LineBreak line_break = LineBreak::kSpace;
  // `heading.title`: the line after the document's heading is linked as any other (`linked`) or
  // is the document's title and gives no citation (`unlinked`).
  enum class HeadingTitle : std::uint8_t { kLinked, kUnlinked };
  HeadingTitle heading_title = HeadingTitle::kLinked;
  // `complete-year.<jur> = yes`: the jurisdictions whose names with a year and a number are
  // complete.
  std::set<std::string, std::less<>> complete_year;

  // `partition.separator`: between the levels of a partition id.
  std::string separator = "-";
  // `partition.separator.<jur>`: the separator for names of jurisdiction <jur>.
  std::map<std::string, std::string, std::less<>> separator_of;
  // `partition.value-separator`: between a level's id and its value (may be empty).
  std::string value_separator;
  // `partition.suffix`: how an article number's suffix is written: `glue` ("3-bis" -> 3bis),
  // `letter-index` ("6-A" -> 6-1), `alnum` (letters and dashed numbers against the number:
  // "1395m", "300gg-11").
  enum class Suffix : std::uint8_t { kGlue, kLetterIndex, kAlnum };
  Suffix suffix = Suffix::kGlue;
  // `partition.parens`: the levels of a number and of a letter written in brackets after a
  // value ("par pt"); empty: none.
  std::string paren_number, paren_letter;
  // `partition.bare-roman`: the level of a roman numeral in capitals without its level word.
  std::string bare_roman;
  // `partition.implicit`: the level of values read before any level word.
  std::string implicit;
  // `partition.brackets`: `path` reads each bracketed value after a value as the next level
  // down (kPath); `no` (kNo) reads brackets only as `partition.parens` says.
  enum class Brackets : std::uint8_t { kNo, kPath };
  Brackets brackets = Brackets::kNo;
  // `partition.bare-level`: a level word without a value cites nothing (`no`), the level whole
  // (`yes`), or the level whole when it is one of the levels listed (their ids).
  enum class BareLevel : std::uint8_t { kNo, kEvery, kListed };
  BareLevel bare_level = BareLevel::kNo;
  std::vector<std::string> bare_level_ids;  // kListed
  // `partition.range`: a range cites every value (`every`), its two ends (`ends`) or its first
  // value over the whole range (`first`).
  enum class Range : std::uint8_t { kEvery, kEnds, kFirst };
  Range range = Range::kEvery;
  // `partition.range-act = yes`: a range of partitions stands for its act in the text.
  bool range_act = false;
  // `partition.act-words = yes`: a citation of partitions also cites its act on its own words.
  bool act_words = false;
  // `partition.prefix`: folded words written before a value and glued to it in capitals.
  std::vector<std::string> prefixes;
  // `partition.nested`: the bracket after which the chain goes on inside an enacted act ("[");
  // empty: none.
  std::string nested;
};

// Fills a Settings from the `set` lines of a grammar, in the order they are read.
class SettingsReader {
 public:
  // One `set KEY = VALUE` line; `key_at` and `value_at` are where the key and the value start.
  // A value written `""` is the empty value.
  Status read(std::string_view key, std::string_view value, const Location& key_at,
              const Location& value_at);
  // After the last line: the level ids the settings name must be ids of levels of the
  // partitions class, `level_ids` (the `id` of each of its rows); `has_partitions` false when
  // the grammar declares no partitions class.
  Status finish(const std::vector<std::string>& level_ids, bool has_partitions) const;

  const Settings& settings() const { return settings_; }
  Settings& settings() { return settings_; }

 private:
  // A level id named by a setting, for finish().
  struct LevelName {
    std::string id;
    std::string key;
    Location at;
  };
  Settings settings_;
  std::vector<LevelName> level_names_;
  std::map<std::string, Location, std::less<>> seen_;  // the keys set so far, and where
};

}  // namespace lexlink::grammar

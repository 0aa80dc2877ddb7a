// extract/units: the units a grammar matches over, and the interpreters that read captures.
//
// A unit is a lexicon phrase or a single token (grammars/README.md). Interpreters turn the units
// a rule captured into pieces of a URN: a date, a year, an act number (units.cpp), a partition
// chain (partition_chain.cpp). They never throw and never guess: a value they cannot read makes
// the rule not apply.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/pod_vector.h"
#include "grammar/grammar.h"
#include "lexicon/tokenizer.h"

namespace lexlink::extract {

// Written whole by the unit builder (no default values: the unit buffer grows without writing
// its new elements).
struct Unit {
  std::uint32_t first_token;
  std::uint32_t token_count;  // 0 for a break between windows
  std::int32_t cls;           // lexicon class, -1 for a single token
  std::uint32_t row;          // lexicon row when cls >= 0
};
// The unit of a break between windows and blocks.
constexpr Unit kBreakUnit{0, 0, -1, 0};

// The units of the windows of one chunk, their tokens and one symbol byte per unit.
struct UnitText {
  lexicon::Tokens tokens;
  PodVector<Unit> units;
  std::string symbols;
  std::vector<std::uint32_t> line_starts;  // the unit builder's scratch
  void clear() {
    tokens.clear();
    units.clear();
    symbols.clear();
  }
};

// A unit range [begin, end) of a UnitText.
struct Span {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  bool empty() const { return begin >= end; }
};

// How a grammar reads partition chains: its partition levels and `partition.*` settings, read
// once per grammar (grammars/README.md, "Partitions"). Levels hold views into the setup: it is
// neither copied nor moved once built.
class ChainSetup {
 public:
  enum class Format : std::uint8_t {
    kNumber,
    kLetter,
    kLetterIndex,
    kRoman,
    kAsWritten,
    kFixed,
    kOther
  };
  // One level of the document's structure (a row of the partitions class, or an unnamed level
  // written in brackets).
  struct Level {
    std::string_view id;
    int rank = 0;
    Format format = Format::kOther;
    std::string_view fixed;  // the value of a `fixed:<v>` level
    int parent = -1;         // the row of the implied parent level, or -1
    bool singular = false;   // the word names one value ("comma", not "commi": `plural` = no)
  };

  explicit ChainSetup(const grammar::Grammar& g);
  ChainSetup(const ChainSetup&) = delete;
  ChainSetup& operator=(const ChainSetup&) = delete;

  int part_cls = -1;          // the partitions class, -1 when the grammar has none
  std::vector<Level> levels;  // per row of the partitions class
  std::optional<Level> paren_number, paren_letter;  // partition.parens
  std::optional<Level> bare_roman;                  // partition.bare-roman
  std::optional<Level> implicit;                    // partition.implicit
  bool brackets_path = false;                       // partition.brackets = path
  bool bare_level = false;                          // partition.bare-level = yes | IDS
  std::vector<std::string> bare_level_ids;          // its level ids (empty: every level)
  // Whether a word of `level` without a value cites the level whole (partition.bare-level).
  bool may_stand_bare(const Level& level) const {
    return bare_level &&
           (bare_level_ids.empty() || std::find(bare_level_ids.begin(), bare_level_ids.end(),
                                                level.id) != bare_level_ids.end());
  }
  bool suffix_alnum = false;          // partition.suffix = alnum
  bool suffix_letter_index = false;   // partition.suffix = letter-index
  bool range_ends = false;            // partition.range = ends
  bool range_first = false;           // partition.range = first
  std::vector<std::string> prefixes;  // partition.prefix, folded words
  std::string value_separator;        // partition.value-separator
  std::string nested;                 // partition.nested: "[" or empty

  // The lexicon columns the interpreters read, by attribute id: the fixed ones below, then
  // every attribute a rule's templates name (looked up once, not per value read).
  static constexpr int kMonth = 0, kRole = 1, kOrdinal = 2, kLatin = 3;
  // The id of an attribute, or -1 when neither the interpreters nor a template read it.
  int attribute_id(std::string_view name) const;
  // The column of `attribute` in lexicon class `cls` (>= 0), or -1.
  int column(int attribute, std::int32_t cls) const {
    return columns_[static_cast<std::size_t>(attribute) * classes_ + static_cast<std::size_t>(cls)];
  }

 private:
  struct Row {
    std::string id, fixed;
  };
  std::vector<Row> rows_;                // the strings the levels view
  std::vector<std::string> attributes_;  // by attribute id
  std::size_t classes_ = 0;              // lexicon classes
  std::vector<int> columns_;             // [attribute * classes_ + class]
};

class Interpreter {
 public:
  Interpreter(const grammar::Grammar& g, const ChainSetup& chain, const UnitText& u);

  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Each reader appends its value to `out` and returns true, or returns false and leaves `out`
  // as it was when the value is unreadable. The value may be empty (an empty lexicon cell).
  // "yyyy-mm-dd", or "yyyy" when only the year is there (`year_only` set).
  bool date(Span s, bool& year_only, std::string& out) const;
  bool year(Span s, std::string& out) const;
  bool number(Span s, std::string& out) const;
  bool digits(Span s, std::string& out) const;
  bool roman(Span s, std::string& out) const;
  bool text(Span s, std::string& out) const;
  // The value of column `attribute` (ChainSetup::attribute_id) of the first lexicon unit in `s`.
  bool attribute(Span s, int attribute, std::string& out) const;

  // A partition chain read into one item per cited partition.
  struct PartitionItem {
    std::string id;          // "art3-com2", "art6_cpt_inc2"
    Span span;               // the units this item stands for
    bool whole = false;      // inside a range: the span is the whole citation
    bool in_range = false;   // an end or the inside of a range ("arts. 11-A a 11-C")
    bool act_words = false;  // the act on its own words inside the chain's citation
  };
  // Reads the chain in `s` into `items` (cleared first); `match` is the whole match (the first
  // item starts at the chain, the last ends with the match); `separator` joins the levels of an
  // id ("art3" + "-" + "com2"). False, and `items` empty, when the chain cannot be read.
  bool partitions(Span s, Span match, std::string_view separator,
                  std::vector<PartitionItem>& items) const;

  static std::optional<int> roman_value(std::string_view folded);
  static int two_digit_year(int yy) { return yy <= 30 ? 2000 + yy : 1900 + yy; }
  // Acts cited in legal text were made between 1800 and 2100; a "year" outside is a misreading
  // (the number of "n. 2024/1174" read as its year).
  static bool plausible_year(int y) { return y >= 1800 && y <= 2100; }

 private:
  std::string_view norm(std::uint32_t token) const {
    return u_.tokens.norm(u_.tokens.tokens[token]);
  }
  const lexicon::LexiconClass* cls_of(const Unit& unit) const {
    if (unit.cls < 0) return nullptr;
    return &g_.lexicon().classes()[static_cast<std::size_t>(unit.cls)];
  }
  // The cell of `attribute` (ChainSetup::attribute_id) of a lexicon unit's row, or nullptr.
  // (Here, to be inlined: the readers ask it of most units they read.)
  const std::string* cell(const Unit& unit, int attribute) const {
    if (unit.cls < 0 || attribute < 0) return nullptr;
    const int col = chain_.column(attribute, unit.cls);
    if (col < 0) return nullptr;
    return &cls_of(unit)->rows[unit.row][static_cast<std::size_t>(col)];
  }

  const grammar::Grammar& g_;
  const ChainSetup& chain_;
  const UnitText& u_;
  mutable std::vector<std::string_view> numbers_;  // date()'s scratch
  struct Scratch;                                  // partitions()' buffers, kept for the chunk
  mutable std::unique_ptr<Scratch> scratch_;
  // partitions()' steps (units.cpp): a chain's units read as elements, and the elements walked
  // as paths through the document's structure.
  class ElementReader;
  class ChainWalker;
};

}  // namespace lexlink::extract

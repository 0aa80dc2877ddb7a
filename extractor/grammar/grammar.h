// grammar/grammar: loads a grammar folder (grammars/<name>/*.grammar, format in grammars/README.md)
// with the lexicons it declares, checks it, and compiles every rule's pattern into a regular
// expression over unit symbols (one byte per unit, RE2 Latin-1 syntax).
//
// Loading reports the first problem as `file:line:col: message` and builds nothing half-way.
// A loaded Grammar is immutable and may be shared by threads. Two grammars loaded from
// different data folders coexist (no global state).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/string_table.h"
#include "grammar/location.h"
#include "grammar/settings.h"
#include "lexicon/lexicon.h"
#include "lexicon/tokenizer.h"

namespace lexlink::grammar {

// A pattern element (see grammars/README.md, "Patterns").
struct Pattern {
  enum class Op : std::uint8_t {
    kSeq,
    kAlt,
    kRepeat,
    kCapture,
    kClass,
    kLiteral,
    kBuiltin,
    kMacro
  };
  Op op = Op::kSeq;
  std::vector<Pattern> children;
  std::string name;      // class, literal (folded), builtin, macro or capture name
  int min = 1, max = 1;  // kRepeat; max -1 = unbounded
  Location where;
};

struct Example {
  std::string text;
  std::vector<std::string> urns;  // expected names, in order (empty: nothing)
  std::uint32_t line = 0;
};

// One placeholder or literal piece of an emit template.
struct TemplatePart {
  struct Choice {
    std::string capture;      // empty for a literal fallback
    std::string attribute;    // lexicon column, or empty
    std::string interpreter;  // date, year, number, digits, roman, text, or empty
    // `interpreter` read once (empty: number).
    enum class Read : std::uint8_t {
      kNumber,
      kDate,
      kYear,
      kDigits,
      kRoman,
      kText
    } read = Read::kNumber;
    std::string literal;   // the fallback text when capture is empty
    bool partial = false;  // a `!literal` fallback
  };
  std::string text;             // literal text (when choices is empty)
  std::vector<Choice> choices;  // alternatives, first with a value wins
};

struct Rule {
  std::string name;
  std::string doc;
  Pattern match;
  std::string emit;                      // the template as written
  std::vector<TemplatePart> emit_parts;  // parsed
  enum class Refers : std::uint8_t {
    kNone,
    kSelf,
    kPrevious,
    kPreviousMeasure
  } refers = Refers::kNone;
  // kPreviousMeasure: the measure type of the act; kSelf (optional): the measure type the
  // document must have (an empty value: any).
  TemplatePart refers_measure;
  TemplatePart refers_year;  // for kPreviousMeasure: the act's year too (no choices: any year)
  // `defines: {t.measure} {y:year}`: the match defines a name for the act cited just before it
  // ("... Act 2014 (anaw 4) (“the 2014 Act”)"), which `refers: previous {t.measure} {y:year}`
  // then takes for the rest of the document before any later act of that type and year; it
  // gives no citation. The two templates are kept in refers_measure and refers_year.
  bool defines = false;
  // `defines: next {t.measure} {y:year}`: the definition comes before its act ("“the 2013 Act”
  // means the Public Service Pensions Act 2013"): the citation that follows it is the one named.
  bool defines_next = false;
  int continues = 0;  // > 0: continues a list of acts
  // Only a document's heading: the rule names the document (its own name, for `refers: self`)
  // when it matches the heading on one of the first lines, and never gives a citation.
  bool heading = false;
  // `complete: CLASS`: the name emitted has no date ("...:decreto.lei:;5452"); the work of the
  // row of lexicon class CLASS (its `work` column) with the same jurisdiction, authority,
  // measure and number completes it. Without such a row the rule gives nothing.
  int complete_class = -1;
  // `years: CAPTURE FROM-TO`: the rule applies only when the year read from CAPTURE (as
  // {CAPTURE:year}) is within [years_from, years_to]; otherwise the next rule matching the same
  // words is tried (uk: "X Act (Northern Ireland) 1954" is of the NI Parliament, 1921-1972;
  // "... 2008" of the NI Assembly).
  std::string years_capture;
  int years_from = 0;
  int years_to = 9999;
  std::vector<Example> examples;
  std::vector<Example> counters;
  Location where;
  std::vector<std::string> captures;  // names, in pattern order
  std::string regex;                  // compiled: RE2 Latin-1 over unit symbols
};

// One byte per unit kind. Fixed symbols first; lexicon classes and literals follow.
namespace symbol {
inline constexpr std::uint8_t kBreak = 0;  // between windows: nothing matches it
inline constexpr std::uint8_t kNum1 = 1;   // numbers by digit count
inline constexpr std::uint8_t kNum2 = 2;
inline constexpr std::uint8_t kNum3 = 3;
inline constexpr std::uint8_t kNum4 = 4;
inline constexpr std::uint8_t kNum5 = 5;         // five digits or more
inline constexpr std::uint8_t kLetterRoman = 6;  // one-letter word that is a roman numeral
inline constexpr std::uint8_t kLetter = 7;       // other one-letter word
inline constexpr std::uint8_t kRoman = 8;        // longer roman numeral
inline constexpr std::uint8_t kWord = 9;         // other word
inline constexpr std::uint8_t kPunct = 10;       // punctuation not used as a literal
inline constexpr std::uint8_t kTitle = 11;       // other word written with a capital ("Transport")
inline constexpr std::uint8_t kFirstDynamic = 12;
// The tokenizer's shapes are these symbols (lexicon::shape).
static_assert(lexicon::shape::kRomanLetter == kLetterRoman && lexicon::shape::kLetter == kLetter &&
              lexicon::shape::kLower == kWord && lexicon::shape::kPunct == kPunct &&
              lexicon::shape::kCapital == kTitle && kNum1 == 1 && kNum5 == 5);
}  // namespace symbol

class Grammar {
 public:
  // Loads grammars/<name>/ from `data_dir` with the lexicons it declares.
  static Result<Grammar> load(const std::string& data_dir, const std::string& name);

  const std::string& name() const { return name_; }
  const lexicon::Lexicon& lexicon() const { return lexicon_; }
  // Words typical of the grammar's texts (`markers PATH`), for choosing a grammar per document.
  const lexicon::Lexicon& markers() const { return markers_; }
  const std::vector<Rule>& rules() const { return rules_; }
  int window_back() const { return window_back_; }
  int window_forward() const { return window_forward_; }
  int partitions_class() const { return partitions_class_; }
  // The `set` lines of the grammar, checked and typed (grammar/settings.h).
  const Settings& settings() const { return settings_; }
  // Every file the grammar was loaded from, with its content hash (for caches).
  const std::vector<std::string>& files() const { return files_; }
  std::uint64_t data_hash() const { return data_hash_; }

  // The symbol of a unit: a lexicon class, or a single token.
  std::uint8_t class_symbol(int cls) const { return class_symbol_[static_cast<std::size_t>(cls)]; }
  // The symbol of a unit that is row `row` of class `cls`: the class's, except for the rows of
  // the partitions class that announce a list (`plural` yes), which have their own symbol when a
  // pattern asks for them (`PLURAL`); the class's element matches both.
  std::uint8_t unit_symbol(int cls, std::uint32_t row) const {
    return cls == partitions_class_ && row < plural_row_.size() && plural_row_[row] != 0
               ? plural_symbol_
               : class_symbol_[static_cast<std::size_t>(cls)];
  }
  std::uint8_t token_symbol(const lexicon::Tokens& tokens, const lexicon::Token& t) const;
  // The same, given the token's word id in lexicon() (its literals have ids).
  std::uint8_t token_symbol(const lexicon::Tokens& tokens, const lexicon::Token& t,
                            std::uint32_t word_id) const {
    if (word_id < literal_by_word_.size()) {
      const std::int16_t literal = literal_by_word_[word_id];
      if (literal >= 0) return static_cast<std::uint8_t>(literal);
    }
    // The shape the tokenizer noted, else the commonest shapes inline: numbers, punctuation,
    // and lower-case ASCII words of two letters or more that cannot be roman numerals (their
    // first letter is none) nor a SUFFIX.
    if (t.shape != lexicon::shape::kOther) return t.shape;
    const std::size_t len = t.end - t.begin;
    switch (t.kind) {
      case lexicon::TokenKind::kNumber:
        return static_cast<std::uint8_t>(len >= 5 ? symbol::kNum5 : len);
      case lexicon::TokenKind::kPunct: return symbol::kPunct;
      case lexicon::TokenKind::kWord:
        if (t.norm_in_source && len >= 2) {
          const char first = tokens.source[t.begin];
          const bool roman = first == 'i' || first == 'v' || first == 'x' || first == 'l' ||
                             first == 'c' || first == 'd' || first == 'm';
          const bool after_digit =
              t.begin > 0 && static_cast<unsigned char>(tokens.source[t.begin - 1] - '0') < 10;
          if (!roman && (suffix_symbol_ == 0 || len > 4 || !after_digit)) return symbol::kWord;
        }
        break;
    }
    return shape_symbol(tokens, t);
  }
  // What a token's word id alone says of its unit (by word id of lexicon(); an id out of the
  // table, such as Lexicon::kNoWord, reads as kCodeShape): kCodePhrase when a lexicon phrase may
  // start with the word (ask Lexicon::longest_at, then token_symbol); kCodeShape when the
  // word starts no phrase and is no literal, so that a single token's symbol is its shape (the
  // token's `shape` when the tokenizer knew it, else token_symbol); any other value is the
  // symbol of the literal the word is (a single token's symbol).
  static constexpr std::uint8_t kCodePhrase = 0;  // symbol::kBreak: never a literal's
  static constexpr std::uint8_t kCodeShape = 1;   // symbol::kNum1: never a literal's
  const std::vector<std::uint8_t>& word_codes() const { return word_code_; }
  // Human-readable name of a symbol (for `lexlink explain`).
  std::string symbol_name(std::uint8_t s) const;

  // Whether a folded word is a roman numeral (i, iv, xii, mcmxcix).
  static bool is_roman(std::string_view folded);

 private:
  // The symbol of a token that is not a grammar literal: its shape (digits, letters, capitals),
  // or SUFFIX for a short word glued to the number before it.
  std::uint8_t shape_symbol(const lexicon::Tokens& tokens, const lexicon::Token& t) const;
  // `shape`, or the SUFFIX symbol for a short word glued to the number before it.
  std::uint8_t suffixed(const lexicon::Tokens& tokens, const lexicon::Token& t,
                        std::uint8_t shape) const;
  std::string name_;
  lexicon::Lexicon lexicon_;
  lexicon::Lexicon markers_;
  std::vector<Rule> rules_;
  int window_back_ = 256;
  int window_forward_ = 384;
  int partitions_class_ = -1;
  Settings settings_;
  std::vector<std::uint8_t> class_symbol_;
  std::vector<std::uint8_t> plural_row_;  // by row of the partitions class: 1 when it has its
                                          // own symbol (plural_symbol_)
  std::uint8_t plural_symbol_ = 0;
  // `SUFFIX`: a lower-case word of 2 to 4 letters written against the number before it ("300gg",
  // "1395ww") has this symbol instead of WORD's when a pattern asks for it (0: none does).
  std::uint8_t suffix_symbol_ = 0;
  std::map<std::string, std::uint8_t, std::less<>> literal_symbol_;
  StringTable literal_index_;                  // the same, for lookups in the hot path
  std::vector<std::int16_t> literal_by_word_;  // the same by lexicon word id (-1: none)
  std::vector<std::uint8_t> word_code_;        // word_codes()
  std::vector<std::string> symbol_names_;
  std::vector<std::string> files_;
  std::uint64_t data_hash_ = 0;

  friend class Loader;
};

}  // namespace lexlink::grammar

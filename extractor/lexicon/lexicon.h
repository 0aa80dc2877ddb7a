// lexicon/lexicon: phrase classes loaded from TSV files, and longest-match lookup in tokens.
//
// A lexicon file (format in lexicons/README.md) has a header `phrase<TAB><attribute>...` and one
// row per entry; the phrase column holds one or more variants separated by " | " ("decreto
// legislativo | d.lgs. | dlgs"). Variants are tokenized and normalised like the text, so spacing,
// case and accents do not matter. A Lexicon holds several named classes (act types, months,
// partition words ...); a phrase belongs to exactly one class of a Lexicon (a duplicate is a load
// error naming both places). A variant written "=Costituzione" matches only as written (case and
// accents exact): the capitalised word names the Constitution, "costituzione" is a common noun.
// Lookup finds, at a token position, the longest phrase of any class.
// A loaded Lexicon is immutable and safe to share between threads.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/string_table.h"
#include "lexicon/tokenizer.h"
#include "lexicon/word_index.h"

namespace lexlink::lexicon {

struct LexiconClass {
  std::string name;                            // the name grammars use, e.g. "act"
  std::string file;                            // path it was loaded from (for messages)
  std::vector<std::string> columns;            // attribute names: the header after "phrase"
  std::vector<std::vector<std::string>> rows;  // attribute values, one vector per row
  std::vector<std::uint32_t> row_lines;        // line of each row in `file`
  std::vector<std::string> variants;           // every normalised variant ("d . lgs .")
  // Every variant as written in the file, its tokens joined by one space ("D. Lgs.",
  // "Constituição"): the scanner also looks for the accented spelling.
  std::vector<std::string> written;
  bool trigger = false;  // its phrases start windows of text to read

  // The column index of `attribute`, or -1.
  int column(std::string_view attribute) const;
};

// A phrase found in tokens: tokens [first, first + count) are entry `row` of class `cls`.
struct PhraseMatch {
  std::uint32_t first = 0;
  std::uint32_t count = 0;
  std::int32_t cls = -1;
  std::uint32_t row = 0;
};

class Lexicon {
 public:
  // Adds the class `name` read from `path` (shown in messages as `display_path`).
  Status add_class(const std::string& name, const std::string& path,
                   const std::string& display_path, bool trigger);

  const std::vector<LexiconClass>& classes() const { return classes_; }
  int class_index(std::string_view name) const;

  // The longest phrase starting at token `i` and ending before token `end` (default: the end of
  // `tokens`); cls == -1 when none. A phrase never spans a paragraph break (a blank line).
  PhraseMatch longest_at(const Tokens& tokens, std::uint32_t i,
                         std::uint32_t end = 0xFFFFFFFF) const;

  // Word ids: every normalised token of every phrase, and the words given to add_word(), has a
  // small integer id (kNoWord for any other text). The hot path looks each token up once and
  // then compares ids.
  static constexpr std::uint32_t kNoWord = WordIndex::kMissing;
  std::uint32_t word_id(std::string_view norm) const { return words_.find(norm); }
  // The word ids, for tokenize(text, tokens, base, words(), ids).
  const WordIndex& words() const { return words_; }
  std::uint32_t word_count() const { return static_cast<std::uint32_t>(word_list_.size()); }
  // Gives each of `norms` (one normalised token each) an id too (a grammar's literals). At load
  // only.
  void add_words(const std::vector<std::string>& norms);
  // Builds the lookup indexes: required after the last add_class() or add_words(), before any
  // lookup (longest_at, word ids, may_start_phrase). Calling it again rebuilds them.
  void index();
  // Whether a phrase may start with the word of id `id` (else longest_at() finds none there).
  bool may_start_phrase(std::uint32_t id) const {
    return id < first_count_ && (firsts_[id].single != First::kNone || firsts_[id].next != 0);
  }
  // The same as longest_at() above, with `ids[k]` the word id of `tokens.tokens[k]`, and `end`
  // at most the number of tokens.
  PhraseMatch longest_at(const Tokens& tokens, const std::uint32_t* ids, std::uint32_t i,
                         std::uint32_t end) const {
    // Most words of a text start no phrase, and most that do are followed by a word that no
    // longer phrase goes on with: both answered here, inline, from what the first word allows.
    const std::uint32_t id = ids[i];
    if (id >= first_count_) return PhraseMatch{};
    const First& f = firsts_[id];
    if (f.single == First::kNone && f.next == 0) return PhraseMatch{};
    if (f.single != First::kChecked) {
      const std::uint32_t next = i + 1 < end ? ids[i + 1] : kNoWord;
      if (next == kNoWord || (f.next >> (next & 63) & 1) == 0 ||
          tokens.tokens[i + 1].newlines_before >= 2) {
        if (f.single == First::kNone) return PhraseMatch{};
        return PhraseMatch{i, 1, f.cls, f.row};
      }
    }
    return longest_from(tokens, ids, i, end);
  }

 private:
  struct Entry {
    std::vector<std::string> rest;  // normalised tokens after the first
    std::int32_t cls;
    std::uint32_t row;
    std::vector<std::string> exact;  // when not empty: every token as written
  };
  std::vector<LexiconClass> classes_;
  // First normalised token -> entries, longest first; first_index_ maps the token to its list.
  std::map<std::string, std::vector<Entry>, std::less<>> by_first_;
  std::vector<const std::vector<Entry>*> lists_;
  StringTable first_index_;
  // The same entries by word id: by_first_id_[id] holds [begin, end) of id_entries_, longest
  // first; rest_ids_ holds the ids of the tokens after the first, back to back.
  struct IdEntry {
    std::uint32_t rest_begin, rest_len;
    std::int32_t cls;
    std::uint32_t row;
    const std::vector<std::string>* exact;  // nullptr unless the variant is exact
  };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> by_first_id_;
  // What a first word allows, by word id: its one-word entry (`single`: none, one to take as
  // it is, or one to check as written), and a 64-bit filter of the words that can follow it in
  // a longer entry (bit `id & 63`).
  struct First {
    enum : std::uint8_t { kNone, kPlain, kChecked } single = kNone;
    std::int32_t cls = -1;
    std::uint32_t row = 0;
    std::uint64_t next = 0;
  };
  std::vector<First> firsts_;
  std::uint32_t first_count_ = 0;  // firsts_.size()
  PhraseMatch longest_from(const Tokens& tokens, const std::uint32_t* ids, std::uint32_t i,
                           std::uint32_t end) const;
  std::vector<IdEntry> id_entries_;
  std::vector<std::uint32_t> rest_ids_;
  WordIndex words_;
  std::vector<std::string> word_list_;
  std::vector<std::string> extra_words_;
  // Normalised phrase -> where it was defined (for duplicate messages).
  std::map<std::string, std::string, std::less<>> defined_at_;
};

}  // namespace lexlink::lexicon

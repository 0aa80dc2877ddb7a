// lexicon/tokenizer: splits UTF-8 text into the tokens that lexicons and grammars are written in.
//
// A token is a word (letters, including accented and ordinal-indicator letters such as º),
// a number (ASCII digits), or one punctuation character. White space separates tokens and is
// not a token; NBSP and the other Unicode spaces are white space; a soft hyphen (U+00AD) inside
// a word is ignored. Every token keeps its byte span in the text and a normalised form used for
// lookups: words are lower-cased and stripped of accents (`Costituzione`, `COSTITUZIONE` ->
// `costituzione`; `Constituição` -> `constituicao`), the ordinal indicators º ª and the degree
// sign ° stay as they are, dash-like characters (U+2010..U+2015, U+2212) read as "-", and
// typographic quotes and apostrophes read as their ASCII forms. The same tokenizer reads lexicon
// entries, so an entry matches the text whatever its spacing: `d.lgs.` matches "D. Lgs.".
// Tokenization is linear, allocation-free per token once the output vectors have grown, and
// never fails: invalid UTF-8 bytes become punctuation tokens.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/pod_vector.h"

namespace lexlink::lexicon {

enum class TokenKind : std::uint8_t { kWord, kNumber, kPunct };

// What a token looks like, as far as the tokenizer sees it while reading it: enough for the
// unit builder to give most tokens their symbol without reading them again. The values are the
// grammar's symbols for these shapes (grammar/grammar.h checks that they agree).
namespace shape {
inline constexpr std::uint8_t kOther = 0;  // any other token: read it to know its shape
// 1..5: a number of that many digits (5: five or more).
inline constexpr std::uint8_t kRomanLetter = 6;  // a one-letter ASCII word that is a roman digit
inline constexpr std::uint8_t kLetter = 7;       // another one-letter ASCII word
// An ASCII word of two letters or more that is no roman numeral (a letter of it is no roman
// digit: i v x l c d m), whose first letter is a lower-case letter, and not a word of two to four
// letters written right after a digit in the text (a possible suffix: "300gg"; the first word of
// a piece counts as one too).
inline constexpr std::uint8_t kLower = 9;
inline constexpr std::uint8_t kPunct = 10;  // every punctuation token
// An ASCII word of two letters or more that is no roman numeral, whose first letter is a
// capital, and not a word of two to four letters written right after a digit (as above).
inline constexpr std::uint8_t kCapital = 11;
}  // namespace shape

// Written whole by the tokenizer (no default values: the token buffer grows without writing its
// new elements).
struct Token {
  std::uint32_t begin;  // byte span in the tokenized text
  std::uint32_t end;
  std::uint32_t norm_begin;  // the normalised form: Tokens::norms[norm_begin, +norm_len),
  std::uint16_t norm_len;    // or the token's own text when norm_in_source is set
  TokenKind kind;
  bool norm_in_source;  // the text is already normal (lower-case ASCII, digits)
  // The white space before this token holds a line break (plain-text paragraphs are told apart
  // by a blank line: newlines_before >= 2).
  std::uint8_t newlines_before;
  std::uint8_t shape;  // see `shape` above
};

struct Tokens {
  PodVector<Token> tokens;
  PodVector<char> norms;  // every token's normalised form, back to back
  // The text the tokens' spans point into (offset 0 = its first byte). Set by tokenize() when
  // it is empty; a caller tokenizing pieces of a larger text sets it to that text first.
  std::string_view source;
  std::string_view norm(const Token& t) const {
    return t.norm_in_source ? source.substr(t.begin, t.end - t.begin)
                            : std::string_view(norms.data() + t.norm_begin, t.norm_len);
  }
  // The token as written (case and accents kept).
  std::string_view raw(const Token& t) const { return source.substr(t.begin, t.end - t.begin); }
  void clear() {
    tokens.clear();
    norms.clear();
    source = {};
  }
};

// Appends the tokens of `text` to `out`; spans are offsets into `text` plus `base`.
void tokenize(std::string_view text, Tokens& out, std::uint32_t base = 0);

class WordIndex;
// The same, and appends the id of each token's normal form in `index` (WordIndex::kMissing when
// it has none) to `ids`, one per token appended.
void tokenize(std::string_view text, Tokens& out, std::uint32_t base, const WordIndex& index,
              PodVector<std::uint32_t>& ids);

// The same, and appends the index in out.tokens of each token appended whose white space before
// holds a line break (newlines_before > 0) to `line_starts`, in order.
void tokenize(std::string_view text, Tokens& out, std::uint32_t base, const WordIndex& index,
              PodVector<std::uint32_t>& ids, std::vector<std::uint32_t>& line_starts);

// The normalised form of one word or phrase as the tokenizer would produce it, tokens joined by
// a single space ("D. Lgs." -> "d . lgs ."). For lexicon keys and messages.
std::string normalize_phrase(std::string_view text);

// Folds one code point for lookups: lower case without accents (may yield two ASCII letters,
// `ß` -> "ss", `æ` -> "ae"); returns false when `cp` is not a letter.
bool fold_letter(char32_t cp, std::string& out);

// True when the tokenizer puts `cp` inside words (letters, marks, digits, ignorable joiners).
bool is_word_char(char32_t cp);

// Every code point below U+0250 that folds to the ASCII letter `c` (both cases, accented forms).
const std::vector<char32_t>& letters_folding_to(char c);

}  // namespace lexlink::lexicon

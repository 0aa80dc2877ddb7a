// The tokenizer: a table of texts and their tokens (tests/data/lexicon/tokens.tsv), and every
// two-byte character below U+0280 read as the general Unicode functions (fold_letter,
// is_word_char) say, whether it starts a word, sits inside one or stands alone: the tokenizer
// reads those characters from a precomputed table, and this checks the table against them.
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "common/utf8.h"
#include "lexicon/tokenizer.h"
#include "lexicon/word_index.h"
#include "support/test_support.h"

using namespace lexlink;

namespace {

std::string kinds_of(const lexicon::Tokens& t) {
  std::string out;
  for (const auto& tok : t.tokens) {
    if (!out.empty()) out += ' ';
    out += tok.kind == lexicon::TokenKind::kWord     ? 'w'
           : tok.kind == lexicon::TokenKind::kNumber ? 'n'
                                                     : 'p';
  }
  return out;
}

std::string norms_of(const lexicon::Tokens& t) {
  std::string out;
  for (const auto& tok : t.tokens) {
    if (!out.empty()) out += ' ';
    out += t.norm(tok);
  }
  return out;
}

}  // namespace

TEST_CASE("the tokenizer gives the tokens of its table", "[lexicon]") {
  const auto table =
      test::load_table("tests/data/lexicon/tokens.tsv", {"case", "text", "norms", "kinds"});
  REQUIRE(table.rows().size() >= 10);
  for (const auto& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0]);
    const std::string text = test::unescape(row.fields[1]);
    lexicon::Tokens t;
    lexicon::tokenize(text, t);
    CHECK(norms_of(t) == test::unescape(row.fields[2]));
    CHECK(kinds_of(t) == std::string(row.fields[3]));
    CHECK(lexicon::normalize_phrase(text) == test::unescape(row.fields[2]));
    // With word ids: the same tokens, and one id per token.
    lexicon::WordIndex index;
    index.build({"legge", "constituicao", "§", "-"});
    lexicon::Tokens t2;
    PodVector<std::uint32_t> ids;
    lexicon::tokenize(text, t2, 0, index, ids);
    CHECK(norms_of(t2) == norms_of(t));
    CHECK(kinds_of(t2) == kinds_of(t));
    REQUIRE(ids.size() == t2.tokens.size());
    for (std::size_t k = 0; k < ids.size(); ++k) {
      CHECK(ids[k] == index.find(t2.norm(t2.tokens[k])));
    }
    // With line starts: the same tokens, ids, and the tokens after a line break, after the
    // tokens already there.
    lexicon::Tokens t3;
    PodVector<std::uint32_t> ids3;
    std::vector<std::uint32_t> starts;
    lexicon::tokenize("x\n", t3, 0, index, ids3, starts);
    lexicon::tokenize(text, t3, 2, index, ids3, starts);
    REQUIRE(t3.tokens.size() == t.tokens.size() + 1);
    std::vector<std::uint32_t> expected;
    for (std::size_t k = 0; k < t.tokens.size(); ++k) {
      CHECK(ids3[k + 1] == ids[k]);
      CHECK(t3.tokens[k + 1].begin == t.tokens[k].begin + 2);
      CHECK(t3.tokens[k + 1].newlines_before == t.tokens[k].newlines_before);
      if (t.tokens[k].newlines_before != 0) expected.push_back(static_cast<std::uint32_t>(k + 1));
    }
    CHECK(starts == expected);
  }
}

TEST_CASE("two-byte characters read as the Unicode functions say", "[lexicon]") {
  std::size_t letters = 0, others = 0;
  for (char32_t cp = 0x80; cp < 0x280; ++cp) {
    std::string ch;
    utf8::append(ch, cp);
    REQUIRE(ch.size() == 2);
    INFO("U+" << std::hex << static_cast<std::uint32_t>(cp));
    std::string fold;
    const bool letter = lexicon::fold_letter(cp, fold);
    const bool word = lexicon::is_word_char(cp);
    const bool space = cp == 0x85 || cp == 0xA0;  // NEL and NBSP: white space
    for (const std::string& before : {std::string("ab"), std::string()}) {
      const std::string text = before + ch + "cd";  // the tokens point into it
      lexicon::Tokens t;
      lexicon::tokenize(text, t);
      if (word) {
        // In a word: its fold (a letter) or nothing (an ignorable character; the combining
        // marks are above U+0300).
        REQUIRE(t.tokens.size() == 1);
        CHECK(t.tokens[0].kind == lexicon::TokenKind::kWord);
        CHECK(t.norm(t.tokens[0]) == before + (letter ? fold : std::string()) + "cd");
        // An ignorable character (the soft hyphen) starting a text is skipped, not kept.
        CHECK(t.raw(t.tokens[0]) == (letter || !before.empty() ? text : std::string("cd")));
      } else if (space) {
        CHECK(norms_of(t) == (before.empty() ? "cd" : "ab cd"));
      } else {
        // Punctuation: a token of its own.
        REQUIRE(t.tokens.size() == (before.empty() ? 2u : 3u));
        const auto& mid = t.tokens[before.empty() ? 0 : 1];
        CHECK(mid.kind == lexicon::TokenKind::kPunct);
        CHECK(t.raw(mid) == ch);
      }
    }
    (letter ? letters : others) += 1;
  }
  CHECK(letters > 300);  // the accented letters of the European languages are letters
  CHECK(others > 50);
}

TEST_CASE("word ids looked up while tokenizing are the ids of the words' normal forms",
          "[lexicon]") {
  // The index holds the normal forms of every tenth token of the corpus texts, short and long
  // (more than 8 bytes: the filter and the 8-byte comparisons), and one-byte words; every token
  // of the texts gets the id of its normal form there, or kMissing when it has none.
  std::vector<std::string> texts;
  for (const auto& path : test::corpus_texts()) texts.push_back(test::read_file(path));
  REQUIRE(texts.size() > 10);
  std::vector<std::string> words;
  std::map<std::string, std::uint32_t, std::less<>> ids_of;
  std::size_t seen = 0;
  for (const std::string& text : texts) {
    lexicon::Tokens t;
    lexicon::tokenize(text, t);
    for (const auto& tok : t.tokens) {
      const std::string norm(t.norm(tok));
      if (seen++ % 10 != 0 || ids_of.count(norm) != 0) continue;
      ids_of.emplace(norm, static_cast<std::uint32_t>(words.size()));
      words.push_back(norm);
    }
  }
  REQUIRE(words.size() > 1000);
  lexicon::WordIndex index;
  index.build(words);
  std::size_t found = 0, found_long = 0, missing = 0;
  for (const std::string& text : texts) {
    lexicon::Tokens t;
    PodVector<std::uint32_t> ids;
    lexicon::tokenize(text, t, 0, index, ids);
    REQUIRE(ids.size() == t.tokens.size());
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const std::string_view norm = t.norm(t.tokens[k]);
      const auto it = ids_of.find(norm);
      const std::uint32_t expected = it == ids_of.end() ? lexicon::WordIndex::kMissing : it->second;
      if (ids[k] != expected) FAIL_CHECK("'" << norm << "': " << ids[k] << " != " << expected);
      CHECK(index.find(norm) == expected);
      (expected == lexicon::WordIndex::kMissing ? missing : found) += 1;
      found_long += expected != lexicon::WordIndex::kMissing && norm.size() > 8;
    }
  }
  CHECK(found_long > 100);
  CHECK(missing > 100);
}

// The unit builder's short path against the general one. build_units gives most tokens their
// symbol from their word code (Grammar::word_codes) and the shape the tokenizer noted
// (lexicon::shape); the general path asks Lexicon::longest_at for a phrase at every token, then
// Grammar::token_symbol(tokens, token), which reads the token's normal form and source again.
// Every bundled corpus text and a set of edge cases (accents, NBSP, soft hyphen, º, invalid
// UTF-8, CRLF, capitals, roman numerals, words glued to numbers), read with every grammar, must
// give the same units and symbols both ways; and every shape the tokenizer notes must be the
// shape the general path gives the token.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "extract/unit_builder.h"
#include "grammar/grammar.h"
#include "lexicon/tokenizer.h"
#include "support/test_support.h"

using namespace lexlink;

namespace {

const char* const kEdgeCases[] = {
    "gg 300gg 1395ww 12abc 5a a5 ab1 7Bis 8ter 9quater 10 bis\n",
    "Art. 5 della Costituzione\r\nLEGGE 3 aprile 2000, n. 56; D.Lgs. 30 marzo 2001, n. 165\r\n",
    "i I ii II iv IV x XI xii mcm Mcmxcix MCMXCIX civ Civ di Di DI dl cd l L v V m M c C d D\n",
    "città CITTÀ çaSA ÁrVoRE Constituição Federal, art. 5º, § 2º, n.º 8.078 e 1ª\n",
    "art.\xC2\xA0"
    "5 con\xC2\xADtratto Consti\xC2\xADtuição art\xC2\xAD 3 \xC2\xAD\xC2\xAD x\n",
    "a\xC3(b \xff\xfe 12\xC3 ab\xC0\xAF"
    "cd 5\xE2\x80\x91"
    "bis \xE2\x80\x9Cx\xE2\x80\x9D l\xE2\x80\x99"
    "art\n",
    "Section 12(a) of the Act 2000 c. 8; ss. 3-5; 26 U.S.C. 7701(a)(30); 5th 21st 3rd\n\n"
    "Regulation (EU) 2016/679 of the European Parliament\n",
    "ART. 1\nArt. 2 -\nArticolo 3\n\nArtigo 4º\nCAPÍTULO II\nTítulo IV\n",
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopq rstuvwxyzab\n",
    "\nfoo\n\nbar\r\n\r\nbaz\xE2\x80\xA8qux\xC2\x85quux \xE2\x80\xA9\n",
    " \n\t x\n",
    "\n\n\n",
    "x",
    "5",
    "",
};

// Checks the units of `text` (one window: the whole text, read as `reading` says, the view
// breaking it at `breaks`) against the general path.
void check_units(const grammar::Grammar& g, const std::string& text,
                 const extract::UnitReading& reading = {},
                 const std::vector<std::uint64_t>& breaks = {}) {
  extract::UnitText u;
  PodVector<std::uint32_t> ids;
  extract::build_units(g, text, {{0, text.size()}}, breaks, reading, u, ids);
  const lexicon::Lexicon& lex = g.lexicon();
  const auto n = static_cast<std::uint32_t>(u.tokens.tokens.size());
  REQUIRE(ids.size() == n);
  // The line starts noted by the tokenizer, with the first token and the tokens after a break of
  // the view: every token after a line break or a break (newlines_before > 0), and the first
  // token when a '\n' (or nothing) is right before it.
  std::vector<std::uint32_t> starts;
  for (std::uint32_t t = 0; t < n; ++t) {
    const lexicon::Token& tok = u.tokens.tokens[t];
    if (t == 0 ? tok.begin == 0 || text[tok.begin - 1] == '\n' : tok.newlines_before != 0) {
      starts.push_back(t);
    }
  }
  CHECK(u.line_starts == starts);
  REQUIRE(u.symbols.size() == u.units.size());
  std::uint32_t next = 0;  // the token the next unit starts at
  for (std::size_t k = 0; k < u.units.size(); ++k) {
    const extract::Unit& unit = u.units[k];
    if (unit.token_count == 0) {
      CHECK(u.symbols[k] == static_cast<char>(grammar::symbol::kBreak));
      continue;
    }
    REQUIRE(unit.first_token == next);
    const lexicon::Token& tok = u.tokens.tokens[next];
    INFO("token " << next << " '" << u.tokens.raw(tok) << "' shape "
                  << static_cast<int>(tok.shape));
    // The general path: a phrase from the ids, else the token's symbol read from its text.
    const lexicon::PhraseMatch m = lex.longest_at(u.tokens, ids.data(), next, n);
    CHECK(unit.cls == m.cls);
    if (m.cls >= 0) {
      CHECK(unit.token_count == m.count);
      CHECK(unit.row == m.row);
      CHECK(static_cast<std::uint8_t>(u.symbols[k]) == g.unit_symbol(m.cls, m.row));
    } else {
      CHECK(unit.token_count == 1);
      CHECK(static_cast<std::uint8_t>(u.symbols[k]) == g.token_symbol(u.tokens, tok));
    }
    next += unit.token_count;
  }
  CHECK(next == n);
  // A break of the view between two tokens makes the second start a paragraph; a break inside
  // a token changes nothing (the units are those without it).
  if (!breaks.empty()) {
    std::vector<std::uint64_t> between;
    for (std::uint64_t b : breaks) {
      bool inside = false;
      for (std::uint32_t t = 0; t < n; ++t) {
        const lexicon::Token& tok = u.tokens.tokens[t];
        inside = inside || (tok.begin < b && b < tok.end);
        if (t > 0 && u.tokens.tokens[t - 1].end <= b && b <= tok.begin) {
          INFO("break " << b << " before token " << t);
          CHECK(tok.newlines_before == 2);
        }
      }
      if (!inside) between.push_back(b);
    }
    if (between.size() < breaks.size()) {
      extract::UnitText v;
      PodVector<std::uint32_t> v_ids;
      extract::build_units(g, text, {{0, text.size()}}, between, reading, v, v_ids);
      CHECK(v.symbols == u.symbols);
      CHECK(v.line_starts == u.line_starts);
    }
  }
  // Every shape noted is the token's shape: its symbol when its word is neither a literal nor
  // the start of a phrase (then the symbol may be the literal's).
  const std::vector<std::uint8_t>& codes = g.word_codes();
  for (std::uint32_t t = 0; t < n; ++t) {
    const lexicon::Token& tok = u.tokens.tokens[t];
    if (tok.shape == lexicon::shape::kOther) continue;
    if (ids[t] < codes.size() && codes[ids[t]] != grammar::Grammar::kCodeShape) continue;
    INFO("token " << t << " '" << u.tokens.raw(tok) << "'");
    CHECK(tok.shape == g.token_symbol(u.tokens, tok));
  }
}

}  // namespace

TEST_CASE("units read from word codes and shapes are the units of the general path", "[extract]") {
  std::vector<std::string> texts;
  for (const char* s : kEdgeCases) texts.emplace_back(s);
  for (const auto& path : test::corpus_texts()) texts.push_back(test::read_file(path));
  REQUIRE(texts.size() > 20);
  std::size_t shaped = 0, tokens = 0;
  for (const char* name : {"it", "br", "us", "uk", "za", "fr", "eu"}) {
    auto g = grammar::Grammar::load(LEXLINK_SOURCE_DIR, name);
    REQUIRE(g);
    for (const std::string& text : texts) {
      INFO("grammar " << name << ", text: " << text.substr(0, 80));
      check_units(*g, text);
      // Lines as blocks (hard-wrapped or not), and breaks of the view every 97 bytes.
      check_units(*g, text, extract::UnitReading{true, 0});
      check_units(*g, text, extract::UnitReading{true, 60});
      std::vector<std::uint64_t> breaks;
      for (std::uint64_t b = 50; b < text.size(); b += 97) breaks.push_back(b);
      check_units(*g, text, {}, breaks);
      lexicon::Tokens t;
      lexicon::tokenize(text, t);
      for (const auto& tok : t.tokens) shaped += tok.shape != lexicon::shape::kOther;
      tokens += t.tokens.size();
    }
  }
  CHECK(shaped * 2 > tokens);  // the short path is the common one
}

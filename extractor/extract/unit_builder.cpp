#include "extract/unit_builder.h"

#include <algorithm>

#include "lexicon/tokenizer.h"

namespace lexlink::extract {

std::size_t line_width(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
    line.remove_suffix(1);
  }
  std::size_t n = 0;
  for (char c : line) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

void build_units(const grammar::Grammar& g, std::string_view text,
                 const std::vector<std::pair<std::size_t, std::size_t>>& windows,
                 const std::vector<std::uint64_t>& breaks, const UnitReading& reading, UnitText& u,
                 PodVector<std::uint32_t>& word_ids) {
  u.clear();
  u.tokens.source = text;
  const bool lines_are_blocks = reading.lines_are_blocks;
  const lexicon::Lexicon& lex = g.lexicon();
  const std::uint8_t* const codes = g.word_codes().data();
  const std::size_t code_count = g.word_codes().size();
  for (const auto& [lo, hi] : windows) {
    const std::size_t first_token = u.tokens.tokens.size();
    word_ids.resize(first_token);
    // The tokenizer notes the tokens that start a line (after a line break).
    std::vector<std::uint32_t>& line_starts = u.line_starts;
    line_starts.clear();
    lexicon::tokenize(text.substr(lo, hi - lo), u.tokens, static_cast<std::uint32_t>(lo),
                      lex.words(), word_ids, line_starts);
    const std::size_t end_token = u.tokens.tokens.size();
    // The window's tokens and ids stay where they are below (only units and symbols grow).
    lexicon::Token* const toks = u.tokens.tokens.data();
    const std::uint32_t* const ids = word_ids.data();
    // The first token starts a line when it starts the text or a line break ('\n') is right
    // before it, whatever the tokenizer saw in the window.
    {
      const bool starts = first_token < end_token && (toks[first_token].begin == 0 ||
                                                      text[toks[first_token].begin - 1] == '\n');
      const bool noted = !line_starts.empty() && line_starts.front() == first_token;
      if (noted && !starts) line_starts.erase(line_starts.begin());
      if (starts && !noted) {
        line_starts.insert(line_starts.begin(), static_cast<std::uint32_t>(first_token));
      }
    }
    // A synthetic break between two tokens counts as a paragraph break (and the token after it
    // as a line start). Each break's token, the first to begin at or after it, is searched for
    // (breaks are far fewer than tokens): the break is between two tokens when the one before
    // ends at or before it.
    std::vector<std::uint32_t> broken;  // tokens given a break here that started no line
    lexicon::Token* after = toks + first_token + 1;
    lexicon::Token* const tokens_end = toks + end_token;
    for (auto bit = std::lower_bound(breaks.begin(), breaks.end(), lo);
         bit != breaks.end() && after < tokens_end; ++bit) {
      const std::uint64_t b = *bit;
      after = std::partition_point(after, tokens_end,
                                   [b](const lexicon::Token& k) { return k.begin < b; });
      if (after == tokens_end) break;
      if (after[-1].end <= b) {
        if (after->newlines_before == 0) broken.push_back(static_cast<std::uint32_t>(after - toks));
        after->newlines_before = 2;
      }
    }
    if (!broken.empty()) {
      const auto middle = static_cast<std::ptrdiff_t>(line_starts.size());
      line_starts.insert(line_starts.end(), broken.begin(), broken.end());
      std::inplace_merge(line_starts.begin(), line_starts.begin() + middle, line_starts.end());
    }
    // `line-break = paragraph`: every line is a block of its own (text where each element of
    // the document is one line, as legislation.gov.uk's and Laws.Africa's text renderings),
    // except in a hard-wrapped document, where a line filled to the width goes on on the next.
    const std::size_t wrap = reading.wrap_width, full = wrap - wrap / 5;
    for (std::size_t k = 0; lines_are_blocks && k < line_starts.size(); ++k) {
      lexicon::Token& tok = toks[line_starts[k]];
      if (line_starts[k] == first_token || tok.newlines_before != 1) continue;
      if (wrap != 0) {
        const std::size_t nl = text.rfind('\n', tok.begin);  // ends the line before
        const std::size_t prev = nl == 0 ? std::string_view::npos : text.rfind('\n', nl - 1);
        const std::size_t from = prev == std::string_view::npos ? 0 : prev + 1;
        if (nl != std::string_view::npos && line_width(text.substr(from, nl - from)) >= full) {
          continue;
        }
      }
      tok.newlines_before = 2;
    }
    // A line holding only a partition word and its number ("Art. 1º", "Articolo 5") is a
    // heading of the document's own structure: it joins no citation.
    const int part_cls = g.partitions_class();
    for (std::size_t k = 0; part_cls >= 0 && k < line_starts.size(); ++k) {
      const std::size_t t = line_starts[k];
      const lexicon::PhraseMatch pm = lex.longest_at(u.tokens, ids, static_cast<std::uint32_t>(t),
                                                     static_cast<std::uint32_t>(end_token));
      if (pm.cls != part_cls) continue;
      std::size_t k2 = t + pm.count, values = 0;
      bool number = false;
      while (k2 < end_token && toks[k2].newlines_before == 0 && values < 4) {
        number = number || toks[k2].kind == lexicon::TokenKind::kNumber;
        ++k2;
        ++values;
      }
      const bool line_ends =
          k2 == end_token ? hi == text.size() || text[hi] == '\n' : toks[k2].newlines_before >= 1;
      if (number && line_ends && values <= 3) {
        toks[t].newlines_before = 2;
        if (k2 < end_token) toks[k2].newlines_before = 2;
      }
    }
    // At most a break and a unit per token, plus the leading break: units and symbols are
    // written in place and cut to length after the window.
    const std::size_t most = 2 * (end_token - first_token) + 1;
    std::size_t sym = u.symbols.size();
    u.symbols.resize(sym + most);
    char* const symbols = u.symbols.data();
    make_room(u.units, most);
    const std::size_t first_unit = u.units.size();
    u.units.resize(first_unit + most);
    Unit* unit = u.units.data() + first_unit;
    *unit++ = kBreakUnit;
    symbols[sym++] = static_cast<char>(grammar::symbol::kBreak);
    for (std::size_t t = first_token; t < end_token;) {
      const lexicon::Token& tok = toks[t];
      if (t > first_token && tok.newlines_before >= 2) {
        *unit++ = kBreakUnit;
        symbols[sym++] = static_cast<char>(grammar::symbol::kBreak);
      }
      // Most tokens start no phrase and are no literal, and the tokenizer knew their shape:
      // their symbol is read from their id and their token alone.
      const std::uint32_t id = ids[t];
      std::uint8_t s = id < code_count ? codes[id] : grammar::Grammar::kCodeShape;
      if (s == grammar::Grammar::kCodeShape) {
        s = tok.shape != lexicon::shape::kOther ? tok.shape : g.token_symbol(u.tokens, tok, id);
      } else if (s == grammar::Grammar::kCodePhrase) {
        const lexicon::PhraseMatch m = lex.longest_at(u.tokens, ids, static_cast<std::uint32_t>(t),
                                                      static_cast<std::uint32_t>(end_token));
        if (m.cls >= 0) {
          *unit++ = Unit{static_cast<std::uint32_t>(t), m.count, m.cls, m.row};
          symbols[sym++] = static_cast<char>(g.unit_symbol(m.cls, m.row));
          t += m.count;
          continue;
        }
        s = g.token_symbol(u.tokens, tok, id);
      }
      *unit++ = Unit{static_cast<std::uint32_t>(t), 1, -1, 0};
      symbols[sym++] = static_cast<char>(s);
      ++t;
    }
    u.symbols.resize(sym);
    u.units.resize(static_cast<std::size_t>(unit - u.units.data()));
  }
  u.units.push_back(kBreakUnit);
  u.symbols += static_cast<char>(grammar::symbol::kBreak);
}

}  // namespace lexlink::extract

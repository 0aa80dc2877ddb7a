// extract/partition_chain: Interpreter::partitions (units.h), the partition chain reader, and
// ChainSetup, how a grammar's settings make it read. Steps: the chain's units read as elements
// (ElementReader), split into segments at connectors, walked as paths through the document's
// structure (ChainWalker), written as one item per cited partition (write_items).
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "extract/number_text.h"
#include "extract/units.h"

namespace lexlink::extract {

// --- partition chains ----------------------------------------------------------------------
//
// A chain is read in two steps. First its units become elements: level words, values (numbers
// with their suffixes, letters, roman numerals, ordinal words, a level's fixed value), list
// separators ("," "e"), range words ("a") and connectors ("del", "do"). Connectors split the
// chain into segments; a chain written inside out ("inciso I do caput do art. 5") has its
// segments reversed, so that it reads from the largest level to the smallest. Then the
// elements are walked as a path through the document's structure: a value at level L replaces
// the path's part at L and below, and the path reached before a replacement is a cited
// partition unless a deeper value extended it. So "articoli 76 e 87, quinto comma" cites art76
// and art87-com5, and "commi 1, 2 e 4, 56 e 58" returns to the articles after the list closed
// by "e".

namespace {

struct Value {
  std::string text;  // formatted value ("3bis", "a", "1")
  Span span;
  int ordinal = -1;       // numeric value for ranges (-1: not rangeable)
  bool letter = false;    // a letter value (ranges go a..d)
  bool interior = false;  // inside a range ("33" of "32 a 37"): no text of its own
  bool in_range = false;  // an end or the inside of a range ("32", "33" ... "37")
};

using Level = ChainSetup::Level;
using Format = ChainSetup::Format;

struct Element {
  enum class Kind : std::uint8_t { kLevel, kValue, kOrdinal, kAnd, kComma, kTo, kOf } kind;
  Level level{};  // kLevel
  Value value{};  // kValue, kOrdinal
  // `partition.brackets = path`: a bracketed value ("(1)"), one level below the value it follows
  // (`deeper`), or at the depth of the bracketed value before it ("(1) or (1A)").
  bool bracket = false;
  bool deeper = false;
};

}  // namespace

ChainSetup::ChainSetup(const grammar::Grammar& g) {
  const grammar::Settings& settings = g.settings();
  part_cls = g.partitions_class();
  if (part_cls >= 0) {
    const auto& pc = g.lexicon().classes()[static_cast<std::size_t>(part_cls)];
    const int c_id = pc.column("id"), c_rank = pc.column("rank"), c_value = pc.column("value"),
              c_parent = pc.column("parent"), c_plural = pc.column("plural");
    auto col = [](const std::vector<std::string>& r, int c) -> const std::string& {
      static const std::string kNone;
      return c >= 0 && static_cast<std::size_t>(c) < r.size() ? r[static_cast<std::size_t>(c)]
                                                              : kNone;
    };
    // The strings first, then the views into them (rows_ is not touched again).
    rows_.reserve(pc.rows.size());
    for (const auto& r : pc.rows) {
      const std::string& v = col(r, c_value);
      rows_.push_back(Row{col(r, c_id), v.rfind("fixed:", 0) == 0 ? v.substr(6) : std::string()});
    }
    auto find_row = [&](const std::string& id) -> int {
      for (std::size_t r = 0; r < pc.rows.size(); ++r) {
        if (col(pc.rows[r], c_id) == id) return static_cast<int>(r);
      }
      return -1;
    };
    for (std::size_t r = 0; r < pc.rows.size(); ++r) {
      const auto& row = pc.rows[r];
      const std::string& v = col(row, c_value);
      Level level;
      level.id = rows_[r].id;
      level.rank = to_int(col(row, c_rank));
      level.format = v == "number"               ? Format::kNumber
                     : v == "letter"             ? Format::kLetter
                     : v == "letter-index"       ? Format::kLetterIndex
                     : v == "roman"              ? Format::kRoman
                     : v == "as-written"         ? Format::kAsWritten
                     : v.rfind("fixed:", 0) == 0 ? Format::kFixed
                                                 : Format::kOther;
      level.fixed = rows_[r].fixed;
      const std::string& parent = col(row, c_parent);
      level.parent = parent.empty() ? -1 : find_row(parent);
      level.singular = col(row, c_plural) == "no";
      levels.push_back(level);
    }
    auto level_with_id = [&](std::string_view id) -> std::optional<Level> {
      if (id.empty()) return std::nullopt;
      for (const Level& l : levels) {
        if (l.id == id) return l;
      }
      return std::nullopt;
    };
    // `partition.parens`: the level of a bracketed number and of a bracketed letter ("par pt").
    paren_number = level_with_id(settings.paren_number);
    paren_letter = level_with_id(settings.paren_letter);
    bare_roman = level_with_id(settings.bare_roman);
    implicit = level_with_id(settings.implicit);
  }
  brackets_path = settings.brackets == grammar::Settings::Brackets::kPath;
  // `yes`: every level; else the ids of the levels that may stand without a value.
  bare_level = settings.bare_level != grammar::Settings::BareLevel::kNo;
  bare_level_ids = settings.bare_level_ids;
  suffix_alnum = settings.suffix == grammar::Settings::Suffix::kAlnum;
  suffix_letter_index = settings.suffix == grammar::Settings::Suffix::kLetterIndex;
  range_ends = settings.range == grammar::Settings::Range::kEnds;
  range_first = settings.range == grammar::Settings::Range::kFirst;
  prefixes = settings.prefixes;
  value_separator = settings.value_separator;
  nested = settings.nested;
  // Attribute columns: the interpreters' own (kMonth ...), then the templates'.
  attributes_ = {"month", "role", "ordinal", "latin"};
  auto add_attributes = [&](const grammar::TemplatePart& part) {
    for (const auto& c : part.choices) {
      if (!c.attribute.empty() && attribute_id(c.attribute) < 0) attributes_.push_back(c.attribute);
    }
  };
  for (const grammar::Rule& r : g.rules()) {
    for (const auto& part : r.emit_parts) add_attributes(part);
    add_attributes(r.refers_measure);
    add_attributes(r.refers_year);
  }
  const auto& classes = g.lexicon().classes();
  classes_ = classes.size();
  columns_.assign(attributes_.size() * classes_, -1);
  for (std::size_t a = 0; a < attributes_.size(); ++a) {
    for (std::size_t c = 0; c < classes_; ++c)
      columns_[a * classes_ + c] = classes[c].column(attributes_[a]);
  }
}

int ChainSetup::attribute_id(std::string_view name) const {
  for (std::size_t a = 0; a < attributes_.size(); ++a) {
    if (attributes_[a] == name) return static_cast<int>(a);
  }
  return -1;
}

namespace {

// One level of a path through the document's structure, with its value.
struct Step {
  Level level;
  Value value;
};

// Appends `piece`, every '\x1f' in it written as `separator` (the ids of the levels and values
// never hold one; this keeps the ids exactly as when they were joined with '\x1f' first).
void append_joined(std::string& out, std::string_view piece, std::string_view separator) {
  // Pieces are a few bytes long: appended byte by byte (push_back is inline), not with library
  // calls.
  for (char c : piece) {
    if (c == '\x1f') {
      out += separator;
    } else {
      out.push_back(c);
    }
  }
}

}  // namespace

// partitions()' buffers: reused from one chain to the next within a chunk.
struct Interpreter::Scratch {
  std::vector<Element> elements;  // the chain's elements, then its segments without connectors
  std::vector<Element> order;     // the segments in reading order, when they are reversed
  std::vector<std::pair<std::size_t, std::size_t>> segments;  // [begin, end) in `elements`
  std::vector<Step> path;
  std::vector<Step> cited;              // the cited paths, one after the other
  std::vector<std::size_t> cited_ends;  // where each cited path ends in `cited`
  std::vector<Value> pending;
};

Interpreter::Interpreter(const grammar::Grammar& g, const ChainSetup& chain, const UnitText& u)
    : g_(g), chain_(chain), u_(u) {}
Interpreter::~Interpreter() = default;

// --- 1. Elements --------------------------------------------------------------------------

// The units of a chain as elements, in text order. The format of the last level word decides
// how values read.
class Interpreter::ElementReader {
 public:
  ElementReader(const Interpreter& in, Span s, std::vector<Element>& elements)
      : in_(in),
        u_(in.u_),
        cs_(in.chain_),
        toks_(in.u_.tokens.tokens),
        s_(s),
        elements_(elements) {}

  // False when the chain cannot be read.
  bool read();

 private:
  enum class Read : std::uint8_t { kNo, kYes, kUnreadable };  // what a reader made of a unit

  std::string_view norm(std::uint32_t unit) const { return in_.norm(u_.units[unit].first_token); }
  char single_letter(std::uint32_t at) const;
  char repeated_letter(std::uint32_t at, int& ordinal) const;
  bool unit_is(std::uint32_t at, std::string_view what) const {
    return at < s_.end && u_.units[at].token_count == 1 && norm(at) == what;
  }
  bool upper_roman(const lexicon::Token& t) const;
  std::uint32_t bracketed(std::uint32_t at, std::string& text) const;
  bool glued(std::uint32_t at) const;
  bool touches(std::uint32_t a, std::uint32_t b) const {
    return toks_[u_.units[a].first_token + u_.units[a].token_count - 1].end ==
           toks_[u_.units[b].first_token].begin;
  }
  bool closes_letter(std::uint32_t at) const;
  bool bare_letter() const;
  bool number_after_letters();
  void push_number(Value&& v);

  bool read_bracketed(std::uint32_t& i);
  bool read_paren_level(std::uint32_t& i);
  Read read_letter(std::uint32_t& i);
  bool read_lexicon_unit(std::uint32_t i);
  void read_token(std::uint32_t& i);
  bool read_prefix(std::uint32_t& i, const lexicon::Token& tok, std::string_view n);
  void read_number(std::uint32_t& i, std::string_view n);
  void read_alnum_suffix(Value& v, std::uint32_t i, std::string_view n, std::uint32_t& last) const;
  void read_suffix(Value& v, std::uint32_t i, std::uint32_t& last) const;
  bool read_word_value(std::uint32_t i, const lexicon::Token& tok, std::string_view n);

  const Interpreter& in_;
  const UnitText& u_;
  const ChainSetup& cs_;
  const PodVector<lexicon::Token>& toks_;
  const Span s_;
  std::vector<Element>& elements_;
  Format format_ = Format::kNumber;
  std::optional<Level> real_level_;  // the last level written with its word (or implicit)
  // number_after_letters(): the elements read so far, and whether the nearest level above the
  // letters among them is a level of numbers.
  std::size_t seen_ = 0;
  bool numbers_above_ = false;
  int nest_rank_ = 0;  // added to the rank of the levels inside `partition.nested` brackets
  // `partition.prefix`: words written before a value and glued to it in capitals ("L. 1132-1"
  // -> L1132-1); a space-separated list of folded words.
  std::string pending_prefix_;
  std::uint32_t prefix_at_ = 0;
};

char Interpreter::ElementReader::single_letter(std::uint32_t at) const {
  if (at >= s_.end || u_.units[at].token_count != 1) return 0;
  const lexicon::Token& t = toks_[u_.units[at].first_token];
  const std::string_view w = norm(at);
  if (t.kind != lexicon::TokenKind::kWord || w.size() != 1 || w[0] < 'a' || w[0] > 'z') return 0;
  return w[0];
}

// A letter written two or three times ("aa", "mmm"): the letters after z in a list; its
// ordinal follows z's (aa 26, bb 27 ... aaa 52). Zero when the unit at `at` is none.
char Interpreter::ElementReader::repeated_letter(std::uint32_t at, int& ordinal) const {
  if (at >= s_.end || u_.units[at].token_count != 1) return 0;
  const lexicon::Token& t = toks_[u_.units[at].first_token];
  const std::string_view w = norm(at);
  if (t.kind != lexicon::TokenKind::kWord || w.size() < 2 || w.size() > 3 || w[0] < 'a' ||
      w[0] > 'z' || w.find_first_not_of(w[0]) != std::string_view::npos) {
    return 0;
  }
  ordinal = 26 * static_cast<int>(w.size() - 1) + (w[0] - 'a');
  return w[0];
}

// A roman numeral in capitals.
bool Interpreter::ElementReader::upper_roman(const lexicon::Token& t) const {
  const std::string_view raw = u_.tokens.raw(t);
  if (raw.empty()) return false;
  for (char c : raw) {
    if (c != 'I' && c != 'V' && c != 'X' && c != 'L' && c != 'C' && c != 'D' && c != 'M') {
      return false;
    }
  }
  return true;
}

// The bracketed value starting at unit `at` ("(" value ")"): its text and the unit of ")", or
// 0 when there is none.
std::uint32_t Interpreter::ElementReader::bracketed(std::uint32_t at, std::string& text) const {
  if (!unit_is(at, "(")) return 0;
  std::uint32_t k = at + 1;
  text.clear();
  if (k < s_.end && u_.units[k].cls < 0 && u_.units[k].token_count == 1 &&
      toks_[u_.units[k].first_token].kind == lexicon::TokenKind::kNumber) {
    text = u_.tokens.raw(toks_[u_.units[k].first_token]);
    ++k;
    // "(1A)", "(8ZA)": letters glued to the number.
    if (k < s_.end && u_.units[k].cls < 0 && u_.units[k].token_count == 1) {
      const lexicon::Token& t = toks_[u_.units[k].first_token];
      if (t.kind == lexicon::TokenKind::kWord && t.end - t.begin <= 3 &&
          t.begin == toks_[u_.units[k - 1].first_token].end) {
        text += u_.tokens.raw(t);
        ++k;
      }
    }
  } else if (k < s_.end && u_.units[k].cls < 0 && u_.units[k].token_count == 1) {
    const lexicon::Token& t = toks_[u_.units[k].first_token];
    const std::string_view n = norm(k);
    const bool ascii_letters =
        std::all_of(n.begin(), n.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    // One or two letters ("(b)", "(da)"), a roman numeral ("(iv)"), or one letter written up
    // to four times, as lists go on past "(zz)" ("(aaa)", "(jjj)"); not a word ("(new)").
    const bool repeated = !n.empty() && n.size() <= 4 &&
                          std::all_of(n.begin(), n.end(), [&](char c) { return c == n[0]; });
    if (t.kind == lexicon::TokenKind::kWord && ascii_letters &&
        (n.size() <= 2 || repeated || roman_value(n).has_value())) {
      text = u_.tokens.raw(t);
      ++k;
    }
  }
  if (text.empty() || !unit_is(k, ")")) return 0;
  return k;
}

// The unit at `at` is one token written against the one before.
bool Interpreter::ElementReader::glued(std::uint32_t at) const {
  if (at >= s_.end || at == 0 || u_.units[at].token_count != 1 || u_.units[at - 1].token_count == 0)
    return false;
  const Unit& prev = u_.units[at - 1];
  return toks_[u_.units[at].first_token].begin ==
         toks_[prev.first_token + prev.token_count - 1].end;
}

// ")" after a letter, or after its latin suffix ("b-ter)", "m-undecies)").
bool Interpreter::ElementReader::closes_letter(std::uint32_t at) const {
  if (unit_is(at + 1, ")")) return true;
  const std::uint32_t k = unit_is(at + 1, "-") ? at + 2 : at + 1;
  return k < s_.end && in_.cell(u_.units[k], ChainSetup::kLatin) != nullptr && unit_is(k + 1, ")");
}

// A bare letter right after its level's word ("alínea b", "lettera c"), or after "and" / "to"
// following such a letter ("alíneas b e d"): only where the grammar's pattern put it.
bool Interpreter::ElementReader::bare_letter() const {
  if (elements_.empty()) return false;
  const Element::Kind last = elements_.back().kind;
  if (last == Element::Kind::kLevel) return true;
  return (last == Element::Kind::kAnd || last == Element::Kind::kTo) && elements_.size() >= 2 &&
         elements_[elements_.size() - 2].kind == Element::Kind::kValue &&
         elements_[elements_.size() - 2].value.letter;
}

// After a letter level, a number that follows a comma belongs to the numbered level above the
// letters ("commi 2, lettera g), e 6": comma 6); the walk climbs there. The nearest level above
// the letters is the last level element of another format: found by reading each element once
// (`seen_`), not by a search back from every number, which a list of 20,000 "e N, lettera aa)"
// made quadratic.
bool Interpreter::ElementReader::number_after_letters() {
  for (; seen_ < elements_.size(); ++seen_) {
    if (elements_[seen_].kind != Element::Kind::kLevel) continue;
    const Format f = elements_[seen_].level.format;
    if (f != Format::kLetter && f != Format::kLetterIndex) numbers_above_ = f == Format::kNumber;
  }
  std::size_t k = elements_.size();
  if (k > 0 && elements_[k - 1].kind == Element::Kind::kAnd) --k;
  return k > 0 && elements_[k - 1].kind == Element::Kind::kComma && numbers_above_;
}

// A number read as a value (`number` and `as-written` levels), after the implicit level word
// when no level was written ("42 U.S.C. 1983": `partition.implicit`).
void Interpreter::ElementReader::push_number(Value&& v) {
  if (format_ != Format::kNumber && format_ != Format::kAsWritten &&
      !((format_ == Format::kLetter || format_ == Format::kLetterIndex) &&
        number_after_letters())) {
    return;
  }
  if (cs_.implicit && !real_level_) {
    real_level_ = cs_.implicit;
    elements_.emplace_back(Element{.kind = Element::Kind::kLevel, .level = *cs_.implicit});
    elements_.back().value.span = v.span;
  }
  elements_.emplace_back(Element{.kind = Element::Kind::kValue, .value = std::move(v)});
}

bool Interpreter::ElementReader::read() {
  elements_.clear();
  for (std::uint32_t i = s_.begin; i < s_.end; ++i) {
    if (cs_.brackets_path && !elements_.empty() && read_bracketed(i)) continue;
    if ((cs_.paren_number || cs_.paren_letter) && read_paren_level(i)) continue;
    const Read letter = read_letter(i);
    if (letter == Read::kUnreadable) return false;
    if (letter == Read::kYes) continue;
    // `partition.nested = [`: after "[", the chain goes on inside the act the value before it
    // enacted ("§ 101(a) [title V, § 595(b)]"): its levels rank below every level before.
    if (!cs_.nested.empty() && !elements_.empty() && unit_is(i, cs_.nested)) {
      nest_rank_ += 1000;
      continue;
    }
    if (read_lexicon_unit(i)) continue;
    const Unit& unit = u_.units[i];
    if (unit.cls >= 0 || unit.token_count != 1) continue;
    read_token(i);
  }
  return true;
}

// `partition.brackets = path`: values in brackets are unnamed levels written as they are
// ("section 6(1)(b)" -> section-6-1-b, "(1A)", "(da)", "(iv)").
bool Interpreter::ElementReader::read_bracketed(std::uint32_t& i) {
  std::string text;
  const std::uint32_t close = bracketed(i, text);
  if (close == 0) return false;
  const Element::Kind before = elements_.back().kind;
  Element e{Element::Kind::kValue, {}, {}};
  e.value.text = text;
  e.value.span = Span{i, close + 1};
  if (all_digits(text)) {
    e.value.ordinal = to_int(text);
  } else if (text.size() == 1) {
    e.value.ordinal = (text[0] | 0x20) - 'a';
    e.value.letter = true;
  }
  e.bracket = before != Element::Kind::kLevel;  // "paragraph (a)": the level's own value
  e.deeper = before == Element::Kind::kValue;
  elements_.push_back(std::move(e));
  i = close;
  return true;
}

// `partition.parens`: "(1)" or "(a)" right after a value, a deeper level written in brackets
// ("Article 5(1)(a)").
bool Interpreter::ElementReader::read_paren_level(std::uint32_t& i) {
  if (!(unit_is(i, "(") && !elements_.empty() && elements_.back().kind == Element::Kind::kValue &&
        unit_is(i + 2, ")"))) {
    return false;
  }
  const Unit& inner = u_.units[i + 1];
  const bool digits_inside =
      inner.token_count == 1 && toks_[inner.first_token].kind == lexicon::TokenKind::kNumber;
  const char letter = single_letter(i + 1);
  const bool roman = letter == 0 && inner.token_count == 1 &&
                     toks_[inner.first_token].kind == lexicon::TokenKind::kWord &&
                     roman_value(norm(i + 1)).has_value();
  const std::optional<Level>& level =
      digits_inside ? cs_.paren_number : (letter != 0 ? cs_.paren_letter : std::optional<Level>());
  if (!level || roman) return false;
  elements_.push_back({Element::Kind::kLevel, *level, {}});
  elements_.back().value.span = Span{i, i + 3};
  Element v{Element::Kind::kValue, {}, {}};
  if (digits_inside) {
    v.value.text = std::string(norm(i + 1));
    v.value.ordinal = to_int(v.value.text);
  } else {
    v.value.text = level->format == Format::kLetterIndex ? std::to_string(letter - 'a' + 1)
                                                         : std::string(1, letter);
    v.value.ordinal = letter - 'a';
    v.value.letter = true;
  }
  v.value.span = Span{i, i + 3};
  elements_.push_back(std::move(v));
  i += 2;
  return true;
}

// A letter value under a level of letters: "b)", "aa)", '"g"', a bare letter after its word,
// with a latin suffix ("b-ter)").
Interpreter::ElementReader::Read Interpreter::ElementReader::read_letter(std::uint32_t& i) {
  const bool letters = format_ == Format::kLetter || format_ == Format::kLetterIndex;
  int repeated_ordinal = 0;
  const bool repeated = repeated_letter(i, repeated_ordinal) != 0 && closes_letter(i);
  // ("numero iii)" under a level of numbers: not a value this chain can read.)
  if (repeated && !letters && format_ != Format::kAsWritten && u_.units[i].cls >= 0) {
    return Read::kUnreadable;
  }
  const char single = single_letter(i);
  // A quoted letter: the quotes touch it ('"g" e "h"': the "e" between is a conjunction).
  auto quoted = [&] {
    return i > s_.begin && unit_is(i - 1, "\"") && unit_is(i + 1, "\"") && touches(i - 1, i) &&
           touches(i, i + 1);
  };
  if (!(letters && (repeated || (single != 0 && (closes_letter(i) || quoted() ||
                                                 (!unit_is(i - 1, "\"") && !unit_is(i + 1, "\"") &&
                                                  bare_letter())))))) {
    return Read::kNo;
  }
  const int ordinal = repeated ? repeated_ordinal : single - 'a';
  Element e{Element::Kind::kValue, {}, {}};
  e.value.text = format_ == Format::kLetter ? std::string(norm(i)) : std::to_string(ordinal + 1);
  e.value.ordinal = ordinal;
  e.value.letter = true;
  e.value.span = Span{i, i + 1};
  std::uint32_t k = unit_is(i + 1, "-") ? i + 2 : i + 1;  // a suffix: "b-ter)", "aa-bis)"
  if (k < s_.end) {
    if (auto latin = in_.cell(u_.units[k], ChainSetup::kLatin)) {
      e.value.text += *latin;
      e.value.ordinal = -1;
      e.value.span.end = k + 1;
      i = k;
    }
  }
  elements_.push_back(std::move(e));
  return Read::kYes;
}

// A lexicon unit: a level word, a list or range word, a connector, an ordinal word.
bool Interpreter::ElementReader::read_lexicon_unit(std::uint32_t i) {
  const Unit& unit = u_.units[i];
  if (unit.cls == cs_.part_cls) {
    Element& e = elements_.emplace_back(
        Element{.kind = Element::Kind::kLevel, .level = cs_.levels[unit.row]});
    e.level.rank += nest_rank_;
    e.value.span = Span{i, i + 1};
    format_ = e.level.format;
    real_level_ = e.level;
    return true;
  }
  if (auto role = in_.cell(unit, ChainSetup::kRole)) {
    if (*role == "and") elements_.emplace_back(Element{.kind = Element::Kind::kAnd});
    if (*role == "to") elements_.emplace_back(Element{.kind = Element::Kind::kTo});
    if (*role == "of") elements_.emplace_back(Element{.kind = Element::Kind::kOf});
    return true;  // "from", "skip"
  }
  if (auto n = in_.cell(unit, ChainSetup::kOrdinal)) {  // primo, secondo, único ...
    Element& e = elements_.emplace_back(Element{.kind = Element::Kind::kOrdinal});
    e.value.text = *n;
    e.value.ordinal = all_digits(*n) ? to_int(*n) : -1;
    e.value.span = Span{i, i + 1};
    return true;
  }
  return false;
}

// A single token that is not a lexicon unit: a prefix, a number, a word that is a value, a
// comma.
void Interpreter::ElementReader::read_token(std::uint32_t& i) {
  const lexicon::Token& tok = toks_[u_.units[i].first_token];
  const std::string_view n = norm(i);
  if (read_prefix(i, tok, n)) return;
  if (tok.kind == lexicon::TokenKind::kNumber) {
    read_number(i, n);
    return;
  }
  if (read_word_value(i, tok, n)) return;
  if (n == "," || n == ";") elements_.emplace_back(Element{.kind = Element::Kind::kComma});
}

// `partition.prefix`: a prefix word before a number (and a "."), kept for the number.
bool Interpreter::ElementReader::read_prefix(std::uint32_t& i, const lexicon::Token& tok,
                                             std::string_view n) {
  const std::vector<std::string>& prefixes = cs_.prefixes;
  if (prefixes.empty() || tok.kind != lexicon::TokenKind::kWord ||
      std::find(prefixes.begin(), prefixes.end(), n) == prefixes.end()) {
    return false;
  }
  const std::uint32_t k = unit_is(i + 1, ".") ? i + 2 : i + 1;
  if (!(k < s_.end && u_.units[k].token_count == 1 &&
        toks_[u_.units[k].first_token].kind == lexicon::TokenKind::kNumber)) {
    return false;
  }
  pending_prefix_.clear();
  for (char c : n)
    pending_prefix_ += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  prefix_at_ = i;
  i = k - 1;
  return true;
}

// A number and its suffixes, a value.
void Interpreter::ElementReader::read_number(std::uint32_t& i, std::string_view n) {
  Value v;
  v.text.assign(pending_prefix_).append(n);
  v.ordinal = pending_prefix_.empty() ? to_int(n) : -1;
  const std::uint32_t value_begin = pending_prefix_.empty() ? i : prefix_at_;
  pending_prefix_.clear();
  std::uint32_t last = i;
  if (cs_.suffix_alnum) {
    read_alnum_suffix(v, i, n, last);
  } else {
    read_suffix(v, i, last);
  }
  v.span = Span{value_begin, last + 1};
  if (!cs_.suffix_alnum && format_ == Format::kAsWritten) {  // "10A" as the text writes it
    const lexicon::Token& t0 = toks_[u_.units[v.span.begin].first_token];
    const lexicon::Token& t1 = toks_[u_.units[last].first_token];
    v.text.clear();
    for (char c : u_.tokens.source.substr(t0.begin, t1.end - t0.begin)) {
      if (c != ' ' && c != '-') v.text += c;
    }
  }
  i = last;
  push_number(std::move(v));
}

// `partition.suffix = alnum`: letters written against the number and a dashed number after
// them ("1395m", "300gg-11", "1395w-4"). `last`: the value's last unit.
void Interpreter::ElementReader::read_alnum_suffix(Value& v, std::uint32_t i, std::string_view n,
                                                   std::uint32_t& last) const {
  std::uint32_t k = i + 1;
  auto letters_at = [&](std::uint32_t at) {
    return glued(at) && u_.units[at].cls < 0 &&
           toks_[u_.units[at].first_token].kind == lexicon::TokenKind::kWord &&
           norm(at).size() <= 4;
  };
  for (int guard = 0; guard < 8; ++guard) {
    if (letters_at(k)) {
      v.text += std::string(norm(k));
      v.ordinal = -1;
      last = k++;
    }
    // A dash before the same number with letters is a range, not a dashed number: "49–49c",
    // "49e–49k" (sections 49 to 49c), where "300gg–11" and "1320a–7a" are numbers.
    const bool range_of_same =
        k + 2 < s_.end && unit_is(k, "-") && norm(k + 1) == n && letters_at(k + 2);
    if (!range_of_same && unit_is(k, "-") && glued(k) && glued(k + 1) &&
        toks_[u_.units[k + 1].first_token].kind == lexicon::TokenKind::kNumber) {
      v.text += "-" + std::string(norm(k + 1));
      v.ordinal = -1;
      last = k + 1;
      k += 2;
      continue;
    }
    break;
  }
}

// Suffixes: "3-bis", "3 bis", "6º-F", "231g", "1-A". `last`: the value's last unit.
void Interpreter::ElementReader::read_suffix(Value& v, std::uint32_t i, std::uint32_t& last) const {
  std::uint32_t k = i + 1;
  if (unit_is(k, "º") || unit_is(k, "°")) last = k++;  // the ordinal mark is the value's
  const std::uint32_t after_dash = unit_is(k, "-") ? k + 1 : k;
  if (after_dash >= s_.end) return;
  if (auto latin = in_.cell(u_.units[after_dash], ChainSetup::kLatin)) {
    v.text += *latin;
    v.ordinal = -1;
    last = after_dash;
  } else if (single_letter(after_dash) != 0 && !unit_is(after_dash + 1, ")")) {
    const auto& su = u_.units[after_dash];
    const bool adjacent =
        toks_[su.first_token].begin == toks_[u_.units[after_dash - 1].first_token].end;
    if (after_dash != k || adjacent) {
      const char l = single_letter(after_dash);
      v.text += cs_.suffix_letter_index ? "-" + std::to_string(l - 'a' + 1) : std::string(1, l);
      v.ordinal = -1;
      last = after_dash;
    }
  }
}

// A word that is a value: as written under `as-written` levels, a roman numeral under roman
// levels or as `partition.bare-roman`. True when the word was read (as a value or as nothing).
bool Interpreter::ElementReader::read_word_value(std::uint32_t i, const lexicon::Token& tok,
                                                 std::string_view n) {
  if (tok.kind != lexicon::TokenKind::kWord) return false;
  // `as-written` levels take a roman numeral, a letter or a short word in capitals as written
  // ("Part IV", "div. A", "div. FF", "title LVXXXV": the US Code's divisions past Z and its
  // titles past the numerals it spells); the grammar's pattern says where values may stand.
  auto capitals = [](std::string_view raw) {
    return raw.size() >= 2 && raw.size() <= 8 &&
           std::all_of(raw.begin(), raw.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  };
  if (format_ == Format::kAsWritten &&
      (roman_value(n).has_value() || n.size() == 1 || capitals(u_.tokens.raw(tok)))) {
    Value v;
    v.text = u_.tokens.raw(tok);
    v.ordinal = roman_value(n).value_or(-1);
    v.span = Span{i, i + 1};
    elements_.emplace_back(Element{.kind = Element::Kind::kValue, .value = std::move(v)});
    return true;
  }
  // A roman numeral in capitals without its level word, after a level whose values are
  // numbers, is a value of `partition.bare-roman` ("art. 155, II" is inciso II of article 155).
  if (format_ == Format::kNumber && cs_.bare_roman && !elements_.empty() && upper_roman(tok)) {
    if (auto r = roman_value(n)) {
      Element level{Element::Kind::kLevel, *cs_.bare_roman, {}};
      level.value.span = Span{i, i + 1};
      elements_.push_back(std::move(level));
      format_ = cs_.bare_roman->format;
      Value v;
      v.text = std::to_string(*r);
      v.ordinal = *r;
      v.span = Span{i, i + 1};
      elements_.emplace_back(Element{.kind = Element::Kind::kValue, .value = std::move(v)});
    }
    return true;
  }
  if (format_ == Format::kRoman) {
    if (auto r = roman_value(n)) {
      Value v;
      v.text = std::to_string(*r);
      v.ordinal = *r;
      v.span = Span{i, i + 1};
      elements_.emplace_back(Element{.kind = Element::Kind::kValue, .value = std::move(v)});
    }
    return true;
  }
  return false;
}

// --- 2. Segments --------------------------------------------------------------------------

namespace {

// The segments between connectors (the maximal runs of elements other than connectors, which
// are dropped from `elements`).
void split_segments(std::vector<Element>& elements,
                    std::vector<std::pair<std::size_t, std::size_t>>& segments) {
  segments.clear();
  std::size_t kept = 0, run = 0;
  for (std::size_t r = 0; r < elements.size(); ++r) {
    if (elements[r].kind == Element::Kind::kOf) {
      if (kept > run) segments.emplace_back(run, kept);
      run = kept;
      continue;
    }
    if (kept != r) elements[kept] = std::move(elements[r]);
    ++kept;
  }
  if (kept > run) segments.emplace_back(run, kept);
  elements.erase(elements.begin() + static_cast<std::ptrdiff_t>(kept), elements.end());
}

// A first segment of level words alone that may not stand without a value ("regulations under
// section 41 of that Act", "sections of Part I": not partitions of the act) cites nothing: it
// is dropped, and a citation the chain starts starts at the next segment. The span the
// citation starts at (`match`, or later).
Span drop_bare_words(const ChainSetup& cs, Span s, Span match, std::vector<Element>& elements,
                     std::vector<std::pair<std::size_t, std::size_t>>& segments) {
  Span cite = match;
  if (segments.size() <= 1) return cite;
  bool words_alone = true;
  for (std::size_t k = segments[0].first; k < segments[0].second && words_alone; ++k) {
    const Element& e = elements[k];
    words_alone = e.kind == Element::Kind::kLevel && e.level.format != Format::kFixed &&
                  !cs.may_stand_bare(e.level);
  }
  if (!words_alone) return cite;
  const std::size_t cut = segments[1].first;
  if (match.begin == s.begin && !elements[cut].value.span.empty()) {
    cite.begin = elements[cut].value.span.begin;
  }
  elements.erase(elements.begin(), elements.begin() + static_cast<std::ptrdiff_t>(cut));
  segments.erase(segments.begin());
  for (auto& seg : segments) seg = {seg.first - cut, seg.second - cut};
  return cite;
}

// The rank of the first and of the last level word of a segment (0: none).
int first_rank(const std::vector<Element>& elements, std::pair<std::size_t, std::size_t> seg) {
  for (std::size_t k = seg.first; k < seg.second; ++k) {
    if (elements[k].kind == Element::Kind::kLevel) return elements[k].level.rank;
  }
  return 0;
}
int last_rank(const std::vector<Element>& elements, std::pair<std::size_t, std::size_t> seg) {
  for (std::size_t k = seg.second; k-- > seg.first;) {
    if (elements[k].kind == Element::Kind::kLevel) return elements[k].level.rank;
  }
  return 0;
}

// Inside out: some connector leads from a smaller level to a larger one ("§ 1º do art. 62").
bool is_inside_out(const std::vector<Element>& elements,
                   const std::vector<std::pair<std::size_t, std::size_t>>& segments) {
  for (std::size_t k = 0; k + 1 < segments.size(); ++k) {
    const int before = last_rank(elements, segments[k]);
    const int after = first_rank(elements, segments[k + 1]);
    const Element::Kind end = elements[segments[k].second - 1].kind;
    const bool joined = end == Element::Kind::kAnd || end == Element::Kind::kComma;  // ", e all'"
    if (before > 0 && after > 0 && before > after && !joined) return true;
  }
  return false;
}

}  // namespace

// --- 3. The walk --------------------------------------------------------------------------

// The elements walked as a path through the document's structure; the paths cited are then in
// Scratch::cited (path k is cited[cited_ends[k - 1], cited_ends[k])). Each element is walked
// once: its value is moved on, not copied. At most about 10,000 values are added (a range is
// its values): beyond, the chain cannot be read.
class Interpreter::ChainWalker {
 public:
  ChainWalker(const ChainSetup& cs, Scratch& sc) : cs_(cs), sc_(sc) {}

  // One path through the document from the largest level ("art. 3, comma 2, lettera b)"); a
  // chain written wholly inside out is read from its last segment.
  bool walk_in_order();
  // Inside out, item by item: "o § 6º, o § 7º e o § 8º do art. 61, o § 1º do art. 62 e o §
  // 3º do art. 63".
  bool walk_inside_out();

 private:
  void cite_path() {
    sc_.cited.insert(sc_.cited.end(), sc_.path.begin(), sc_.path.end());
    sc_.cited_ends.push_back(sc_.cited.size());
  }
  bool add(const Level& level, Value&& v);
  bool add_range_inside(const Level& level, const Value& from, const Value& to);
  bool walk(Element* seg, std::size_t n, bool and_level_new_item);
  bool on_level(Element* seg, std::size_t k, std::size_t n, bool and_level_new_item);
  bool on_ordinal(Element* seg, std::size_t k, std::size_t n);
  bool on_value(Element* seg, std::size_t k, std::size_t n);
  void on_comma(const Element* seg, std::size_t k, std::size_t n);
  std::vector<std::vector<Step>> cited_paths() const;

  const ChainSetup& cs_;
  Scratch& sc_;
  bool leaf_ = false;  // the path ends with a value nothing deeper extended
  const Level* current_ = nullptr;
  Level current_level_;
  bool range_next_ = false, and_seen_ = false;
  // The current level was announced by ordinals ("terzo comma"): a bare number after it
  // belongs to the level above ("articoli 270, terzo comma e 306").
  bool ordinal_level_ = false;
  std::size_t guard_ = 0;  // values added
  int bracket_rank_ = -1;  // the rank of the last bracketed value
};

// A value at `level`.
bool Interpreter::ChainWalker::add(const Level& level, Value&& v) {
  if (++guard_ > 10000) return false;
  std::vector<Step>& path = sc_.path;
  // `partition.range = first`: a range cites its first value, for the whole range (Légifrance
  // links "articles L. 1225-1 à L. 1225-28" to its first article).
  if (range_next_ && cs_.range_first && !path.empty() && path.back().level.id == level.id) {
    range_next_ = false;
    path.back().value.span.end = v.span.end;
    return true;
  }
  if (range_next_) {
    range_next_ = false;
    if (!path.empty() && path.back().level.id == level.id) {
      path.back().value.in_range = true;
      v.in_range = true;
      const Value from = path.back().value;
      if (!add_range_inside(level, from, v)) return false;
    }
  }
  // A value at this level ends the path reached so far at this level or below.
  while (!path.empty() && path.back().level.rank >= level.rank) {
    if (leaf_) cite_path();
    leaf_ = false;
    path.pop_back();
  }
  // An implied parent (the caput of an article, for a Brazilian inciso).
  if (level.parent >= 0) {
    const Level& parent = cs_.levels[static_cast<std::size_t>(level.parent)];
    const bool has_parent_rank = !path.empty() && path.back().level.rank >= parent.rank;
    if (!path.empty() && !has_parent_rank && parent.format == Format::kFixed) {
      Value pv;
      pv.text = parent.fixed;
      pv.span = v.span;
      path.emplace_back(Step{parent, std::move(pv)});
    }
  }
  path.emplace_back(Step{level, std::move(v)});
  leaf_ = true;
  return true;
}

// The inside of the range `from` to `to` at `level`, value by value. `partition.range = ends`:
// a range cites its two ends only (numberings with inserted articles, "L. 1225-1 à L.
// 1225-28", "sections 2921 to 2925", have no knowable inside).
bool Interpreter::ChainWalker::add_range_inside(const Level& level, const Value& from,
                                                const Value& to) {
  if (cs_.range_ends || from.ordinal < 0 || to.ordinal <= from.ordinal ||
      to.ordinal - from.ordinal > 500 || from.letter != to.letter) {
    return true;
  }
  for (int k = from.ordinal + 1; k < to.ordinal; ++k) {
    Value mid;
    mid.span = to.span;
    mid.interior = true;
    mid.in_range = true;
    mid.ordinal = k;
    mid.letter = to.letter;
    // (Letters after z are written twice, then three times: aa = 26, aaa = 52.)
    mid.text =
        to.letter && level.format != Format::kLetterIndex
            ? std::string(static_cast<std::size_t>(k / 26 + 1), static_cast<char>('a' + k % 26))
            : std::to_string(to.letter ? k + 1 : k);
    if (!add(level, std::move(mid))) return false;
  }
  return true;
}

// Walks elements seg[0, n) from the largest level to the smallest; the partitions cited are
// then in sc_.cited. False when the chain cannot be read. With `and_level_new_item`, "e" before
// a level word starts a new item ("art. 9º e no inciso II do § 1º do art. 31": art. 9º is one
// item, the inciso another).
bool Interpreter::ChainWalker::walk(Element* seg, std::size_t n, bool and_level_new_item) {
  bracket_rank_ = -1;
  sc_.path.clear();
  sc_.cited.clear();
  sc_.cited_ends.clear();
  leaf_ = false;
  current_ = nullptr;
  range_next_ = and_seen_ = ordinal_level_ = false;
  sc_.pending.clear();
  for (std::size_t k = 0; k < n; ++k) {
    switch (seg[k].kind) {
      case Element::Kind::kLevel:
        if (!on_level(seg, k, n, and_level_new_item)) return false;
        break;
      case Element::Kind::kOrdinal:
        if (!on_ordinal(seg, k, n)) return false;
        break;
      case Element::Kind::kValue:
        if (!on_value(seg, k, n)) return false;
        break;
      case Element::Kind::kAnd: and_seen_ = true; break;
      case Element::Kind::kTo: range_next_ = true; break;
      case Element::Kind::kComma: on_comma(seg, k, n); break;
      case Element::Kind::kOf: break;
    }
  }
  if (leaf_ && !sc_.path.empty()) cite_path();
  return true;
}

// A level word: the level of the values after it (and of the ordinals before it).
bool Interpreter::ChainWalker::on_level(Element* seg, std::size_t k, std::size_t n,
                                        bool and_level_new_item) {
  Element& e = seg[k];
  std::vector<Value>& pending = sc_.pending;
  if (and_level_new_item && and_seen_) {
    if (leaf_ && !sc_.path.empty()) cite_path();
    sc_.path.clear();
    leaf_ = false;
  }
  current_level_ = e.level;
  current_ = &current_level_;
  and_seen_ = false;
  range_next_ = false;
  ordinal_level_ = !pending.empty();
  if (e.level.format == Format::kFixed) {
    Value v;
    v.text = e.level.fixed;
    v.span = e.value.span;
    if (!add(current_level_, std::move(v))) return false;
  }
  for (Value& p : pending) {
    if (!add(current_level_, std::move(p))) return false;
  }
  // `partition.bare-level`: a level word without a value cites the level whole ("Sch." ->
  // schedule, "Sch. Pt. II" -> schedule-part-II).
  if (pending.empty() && e.level.format != Format::kFixed &&
      (k + 1 == n || seg[k + 1].kind == Element::Kind::kLevel) && cs_.may_stand_bare(e.level)) {
    Value v;
    v.span = e.value.span;
    if (!add(current_level_, std::move(v))) return false;
  }
  pending.clear();
  return true;
}

// An ordinal word ("terzo"): a value of the level before it, or of the level word after it.
bool Interpreter::ChainWalker::on_ordinal(Element* seg, std::size_t k, std::size_t n) {
  Element& e = seg[k];
  const bool level_follows = k + 1 < n && (seg[k + 1].kind == Element::Kind::kLevel ||
                                           seg[k + 1].kind == Element::Kind::kAnd ||
                                           seg[k + 1].kind == Element::Kind::kComma);
  // Ordinals right after their level word, as a list: "commi terzo e quarto".
  std::size_t b = k;
  while (b > 0 &&
         (seg[b - 1].kind == Element::Kind::kOrdinal || seg[b - 1].kind == Element::Kind::kAnd ||
          seg[b - 1].kind == Element::Kind::kComma)) {
    --b;
  }
  const bool after_level = current_ != nullptr && sc_.pending.empty() && b > 0 &&
                           seg[b - 1].kind == Element::Kind::kLevel;
  if (after_level) return add(current_level_, std::move(e.value));
  if (current_ == nullptr || level_follows) {
    sc_.pending.push_back(std::move(e.value));
    return true;
  }
  return add(current_level_, std::move(e.value));
}

// A value: of the current level, of a level above it, or one written in brackets.
bool Interpreter::ChainWalker::on_value(Element* seg, std::size_t k, std::size_t n) {
  Element& e = seg[k];
  std::vector<Step>& path = sc_.path;
  if (e.bracket && (e.deeper || bracket_rank_ >= 0)) {
    // One level below the value before it, or beside the bracketed value before it.
    const int rank = e.deeper ? (path.empty() ? 0 : path.back().level.rank) + 1 : bracket_rank_;
    bracket_rank_ = rank;
    return add(Level{{}, rank, Format::kAsWritten, {}, -1, false}, std::move(e.value));
  }
  if (current_ == nullptr) return true;  // a value before any level word: not ours to read
  if (ordinal_level_ && path.size() >= 2 && path.back().level.id == current_level_.id) {
    current_level_ = path[path.size() - 2].level;
    ordinal_level_ = false;
  }
  // A value followed by ", " and its own level's word is a value of a level above ("lettera
  // d), e 12, comma 2": article 12).
  if (k + 2 < n && seg[k + 1].kind == Element::Kind::kComma &&
      seg[k + 2].kind == Element::Kind::kLevel && seg[k + 2].level.id == current_level_.id) {
    for (std::size_t j = path.size(); j-- > 0;) {
      if (path[j].level.rank < current_level_.rank) {
        if (path[j].level.format != Format::kFixed) current_level_ = path[j].level;
        break;
      }
    }
  }
  return add(current_level_, std::move(e.value));
}

// "commi 1, 2 e 4, 56": after a list closed by "e", a comma goes back up a level. "articoli
// 128-quater, comma 2, e 128-sexies, comma 2": after the one value of a singular level word, a
// comma and a bare value go back up a level too.
void Interpreter::ChainWalker::on_comma(const Element* seg, std::size_t k, std::size_t n) {
  const std::vector<Step>& path = sc_.path;
  if (path.size() >= 2 && current_ != nullptr && path.back().level.id == current_level_.id) {
    // (An ordinal no level word follows is a value too: "commi secondo, lettera g), e sesto".)
    auto is_value = [&](std::size_t at) {
      return seg[at].kind == Element::Kind::kValue ||
             (seg[at].kind == Element::Kind::kOrdinal &&
              (at + 1 == n || seg[at + 1].kind != Element::Kind::kLevel));
    };
    const bool value_next =
        (k + 1 < n && is_value(k + 1)) ||
        (k + 2 < n && seg[k + 1].kind == Element::Kind::kAnd && is_value(k + 2));
    const Level up = path[path.size() - 2].level;
    if ((and_seen_ || (current_level_.singular && value_next)) && up.format != Format::kFixed) {
      current_level_ = up;
      and_seen_ = false;
    }
  }
  range_next_ = false;
}

// The paths walk() cited, each as a vector of its own (for the inside-out reading).
std::vector<std::vector<Step>> Interpreter::ChainWalker::cited_paths() const {
  std::vector<std::vector<Step>> out;
  out.reserve(sc_.cited_ends.size());
  std::size_t from = 0;
  for (std::size_t end : sc_.cited_ends) {
    out.emplace_back(sc_.cited.begin() + static_cast<std::ptrdiff_t>(from),
                     sc_.cited.begin() + static_cast<std::ptrdiff_t>(end));
    from = end;
  }
  return out;
}

bool Interpreter::ChainWalker::walk_in_order() {
  std::vector<Element>& elements = sc_.elements;
  const auto& segments = sc_.segments;
  Element* seq = elements.data();
  std::size_t n = elements.size();  // the segments, one after the other
  if (segments.size() > 1 &&
      first_rank(elements, segments.front()) > first_rank(elements, segments.back())) {
    std::vector<Element>& order = sc_.order;
    order.clear();
    for (std::size_t k = segments.size(); k-- > 0;) {
      order.insert(order.end(),
                   std::make_move_iterator(elements.begin() +
                                           static_cast<std::ptrdiff_t>(segments[k].first)),
                   std::make_move_iterator(elements.begin() +
                                           static_cast<std::ptrdiff_t>(segments[k].second)));
    }
    seq = order.data();
    n = order.size();
  }
  return walk(seq, n, false);
}

// Each segment after a connector starts with the level its items belong to (its head: "art.
// 61"), which becomes the parent of every item still without one at that rank; what follows
// the head after "," or "e" and a level word starts new items.
bool Interpreter::ChainWalker::walk_inside_out() {
  std::vector<Element>& elements = sc_.elements;
  const auto& segments = sc_.segments;
  std::vector<std::vector<Step>> paths;  // each from its largest level to its smallest
  for (std::size_t si = 0; si < segments.size(); ++si) {
    Element* seg = elements.data() + segments[si].first;
    const std::size_t seg_size = segments[si].second - segments[si].first;
    std::size_t split = si == 0 ? 0 : seg_size;
    for (std::size_t k = 0; si > 0 && k + 1 < seg_size; ++k) {
      if ((seg[k].kind == Element::Kind::kAnd || seg[k].kind == Element::Kind::kComma) &&
          seg[k + 1].kind == Element::Kind::kLevel) {
        split = k;
        break;
      }
    }
    if (split > 0) {
      if (!walk(seg, split, false)) return false;
      std::vector<std::vector<Step>> heads = cited_paths();
      bool attached = false;
      std::vector<std::vector<Step>> next;
      for (auto& item : paths) {
        const bool takes = !heads.empty() && !item.empty() &&
                           item.front().level.rank > heads.front().back().level.rank;
        if (!takes) {
          next.push_back(std::move(item));
          continue;
        }
        attached = true;
        for (const auto& head : heads) {
          std::vector<Step> joined = head;
          joined.insert(joined.end(), item.begin(), item.end());
          next.push_back(std::move(joined));
        }
      }
      if (!attached) {
        for (auto& head : heads) next.push_back(std::move(head));
      }
      paths = std::move(next);
    }
    if (split < seg_size) {
      if (!walk(seg + split, seg_size - split, true)) return false;
      for (auto& item : cited_paths()) paths.push_back(std::move(item));
    }
    if (paths.size() > 10000) return false;
  }
  // Each item walked again from its largest level, for the parents a level implies.
  std::vector<std::vector<Step>> result;
  for (const auto& item : paths) {
    sc_.path.clear();
    leaf_ = false;
    range_next_ = false;
    for (const Step& step : item) {
      if (!add(step.level, Value(step.value))) return false;
    }
    if (!sc_.path.empty()) result.push_back(sc_.path);
  }
  sc_.cited.clear();
  sc_.cited_ends.clear();
  for (const auto& steps : result) {
    sc_.cited.insert(sc_.cited.end(), steps.begin(), steps.end());
    sc_.cited_ends.push_back(sc_.cited.size());
  }
  return true;
}

// --- 4. Items -----------------------------------------------------------------------------

namespace {

// One item per cited path: its id (the levels and values joined with `separator`) and its
// span. The first item (in the text) starts the citation at `cite`, the last one ends it with
// `match`; the inside of a range has no text of its own and stands for the whole citation.
void write_items(const std::vector<Step>& cited, const std::vector<std::size_t>& cited_ends,
                 const std::string& value_sep, std::string_view separator, Span match, Span cite,
                 std::vector<Interpreter::PartitionItem>& items) {
  items.reserve(cited_ends.size());
  std::size_t from = 0;
  for (const std::size_t to : cited_ends) {
    const Step* steps = cited.data() + from;
    const std::size_t count = to - from;
    from = to;
    Interpreter::PartitionItem& item = items.emplace_back();
    for (std::size_t k = 0; k < count; ++k) {
      if (k > 0) item.id += separator;
      // A level without an id (uk: a subsection, a bracketed value) writes its value alone.
      append_joined(item.id, steps[k].level.id, separator);
      if (!value_sep.empty() && !steps[k].level.id.empty() && !steps[k].value.text.empty()) {
        append_joined(item.id, value_sep, separator);
      }
      append_joined(item.id, steps[k].value.text, separator);
    }
    item.span = steps[count - 1].value.span;
    // Bracketed values written right after the value before them ("105(7)", "(3)(c)") belong
    // to the item's text.
    for (std::size_t k = count - 1; k > 0; --k) {
      const Span& before = steps[k - 1].value.span;
      if (before.empty() || before.end != steps[k].value.span.begin) break;
      item.span.begin = before.begin;
    }
    item.whole = steps[count - 1].value.interior;
    item.in_range = steps[count - 1].value.in_range;
  }
  if (items.size() == 1) {
    items[0].span = cite;
    return;
  }
  auto first = std::min_element(items.begin(), items.end(), [](const auto& a, const auto& b) {
    return a.span.begin < b.span.begin;
  });
  first->span.begin = cite.begin;
  auto last = std::max_element(items.begin(), items.end(), [](const auto& a, const auto& b) {
    return a.whole != b.whole ? a.whole : a.span.end < b.span.end;  // an item with own words
  });
  last->span.end = match.end;
  for (auto& item : items) {
    if (item.whole) item.span = cite;
  }
}

}  // namespace

bool Interpreter::partitions(Span s, Span match, std::string_view separator,
                             std::vector<PartitionItem>& items) const {
  items.clear();
  if (chain_.part_cls < 0) return false;
  if (!scratch_) scratch_ = std::make_unique<Scratch>();
  Scratch& sc = *scratch_;
  // 1. Elements, in text order.
  if (!ElementReader(*this, s, sc.elements).read()) return false;
  // 2. Segments between connectors; a chain written from the smallest level is reversed.
  split_segments(sc.elements, sc.segments);
  const Span cite = drop_bare_words(chain_, s, match, sc.elements, sc.segments);
  // 3. The walk.
  ChainWalker walker(chain_, sc);
  if (!(is_inside_out(sc.elements, sc.segments) ? walker.walk_inside_out()
                                                : walker.walk_in_order())) {
    return false;
  }
  if (sc.cited_ends.empty() || sc.cited_ends.size() > 10000) return false;
  // 4. The items.
  write_items(sc.cited, sc.cited_ends, chain_.value_separator, separator, match, cite, items);
  return true;
}

}  // namespace lexlink::extract

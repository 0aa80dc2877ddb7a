#include "extract/units.h"

#include <algorithm>
#include <charconv>
#include <optional>

namespace lexlink::extract {
namespace {

inline bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The number the first digits of `s` write (at most 9 characters read, a leading '-' taken),
// 0 when there is none: what std::from_chars reads into an int, without its generality.
inline int to_int(std::string_view s) {
  const std::size_t size = std::min<std::size_t>(s.size(), 9);
  std::size_t i = 0;
  const bool negative = size > 0 && s[0] == '-';
  if (negative) i = 1;
  const std::size_t first = i;
  int v = 0;
  for (; i < size && s[i] >= '0' && s[i] <= '9'; ++i) v = v * 10 + (s[i] - '0');
  if (i == first) return 0;
  return negative ? -v : v;
}

bool is_leap(int y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int days_in(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m - 1];
}

}  // namespace

std::optional<int> Interpreter::roman_value(std::string_view s) {
  if (!grammar::Grammar::is_roman(s)) return std::nullopt;
  auto v = [](char c) {
    switch (c) {
      case 'i': return 1;
      case 'v': return 5;
      case 'x': return 10;
      case 'l': return 50;
      case 'c': return 100;
      case 'd': return 500;
      default: return 1000;
    }
  };
  int total = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const int cur = v(s[i]);
    if (i + 1 < s.size() && v(s[i + 1]) > cur) {
      total -= cur;
    } else {
      total += cur;
    }
  }
  return total;
}

namespace {

// Writes `v` (0 <= v < 10^width) with leading zeros to `width` digits at `p`.
char* put_padded(char* p, int v, int width) {
  for (int k = width - 1; k >= 0; --k) {
    p[k] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
  return p + width;
}

// Appends `v` (0 <= v < 10^width) with leading zeros to `width` digits.
void append_padded(std::string& out, int v, int width) {
  char buf[4];
  out.append(buf, static_cast<std::size_t>(put_padded(buf, v, width) - buf));
}

// Appends a non-negative int in decimal.
void append_int(std::string& out, int v) {
  char buf[16];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

}  // namespace

bool Interpreter::date(Span s, bool& year_only, std::string& out) const {
  year_only = false;
  std::vector<std::string_view>& numbers = numbers_;
  numbers.clear();
  int month = 0;
  std::size_t numbers_before_month = 0;
  for (std::uint32_t i = s.begin; i < s.end; ++i) {
    const Unit& unit = u_.units[i];
    if (auto m = cell(unit, ChainSetup::kMonth)) {
      if (month != 0) return false;
      month = to_int(*m);
      numbers_before_month = numbers.size();
      continue;
    }
    if (unit.cls >= 0 || unit.token_count != 1) continue;
    const std::string_view n = norm(unit.first_token);
    if (all_digits(n)) numbers.push_back(n);
  }
  int y = 0, m = 0, d = 0;
  auto year_of = [](std::string_view n) -> int {
    if (n.size() == 4) return to_int(n);
    if (n.size() == 2) return Interpreter::two_digit_year(to_int(n));
    return 0;
  };
  if (month != 0) {
    if (numbers.empty()) return false;
    m = month;
    if (numbers_before_month >= 1) d = to_int(numbers[numbers_before_month - 1]);
    if (numbers.size() > numbers_before_month) y = year_of(numbers[numbers_before_month]);
    // Month first, as in English: "June 25, 1938".
    if (numbers_before_month == 0 && numbers.size() == 2 && numbers[0].size() <= 2 &&
        numbers[1].size() == 4) {
      d = to_int(numbers[0]);
      y = year_of(numbers[1]);
    }
    if (!plausible_year(y)) return false;
    if (d == 0) {
      year_only = true;
      append_padded(out, y, 4);
      return true;
    }
  } else if (numbers.size() == 3) {
    if (numbers[0].size() == 4) {
      y = to_int(numbers[0]), m = to_int(numbers[1]), d = to_int(numbers[2]);
    } else {
      d = to_int(numbers[0]), m = to_int(numbers[1]), y = year_of(numbers[2]);
    }
  } else if (!numbers.empty()) {
    y = year_of(numbers.back());
    if (!plausible_year(y)) return false;
    year_only = true;
    append_padded(out, y, 4);
    return true;
  } else {
    return false;
  }
  if (!plausible_year(y) || m < 1 || m > 12 || d < 1 || d > days_in(y, m)) return false;
  // "%04d-%02d-%02d": the checks above keep every field within its width.
  char buf[10];
  char* p = put_padded(buf, y, 4);
  *p++ = '-';
  p = put_padded(p, m, 2);
  *p++ = '-';
  put_padded(p, d, 2);
  out.append(buf, sizeof buf);
  return true;
}

bool Interpreter::year(Span s, std::string& out) const {
  for (std::uint32_t i = s.end; i-- > s.begin;) {
    const Unit& unit = u_.units[i];
    if (unit.cls >= 0 || unit.token_count != 1) continue;
    const std::string_view n = norm(unit.first_token);
    if (!all_digits(n)) continue;
    if (n.size() == 2) {
      append_int(out, two_digit_year(to_int(n)));
      return true;
    }
    if (n.size() == 4 && plausible_year(to_int(n))) {
      out += n;
      return true;
    }
    return false;
  }
  return false;
}

bool Interpreter::number(Span s, std::string& out) const {
  const std::size_t mark = out.size();
  for (std::uint32_t i = s.begin; i < s.end; ++i) {
    const Unit& unit = u_.units[i];
    for (std::uint32_t t = unit.first_token; t < unit.first_token + unit.token_count; ++t) {
      const std::string_view n = norm(t);
      if (n == ".") {
        // "8.078": a thousands separator between digits; elsewhere dropped too.
        continue;
      }
      if (n == "/" || n == "-") {
        if (out.size() > mark && out.back() != '-') out += '-';
        continue;
      }
      if (n == "º" || n == "°" || n == "ª" || n == "\xC2\xBA" || n == "\xC2\xB0") continue;
      for (char c : n) {
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) out += c;
      }
    }
  }
  while (out.size() > mark && out.back() == '-') out.pop_back();
  return out.size() > mark;
}

bool Interpreter::digits(Span s, std::string& out) const {
  const std::size_t mark = out.size();
  for (std::uint32_t i = s.begin; i < s.end; ++i) {
    const Unit& unit = u_.units[i];
    for (std::uint32_t t = unit.first_token; t < unit.first_token + unit.token_count; ++t) {
      for (char c : norm(t)) {
        if (c >= '0' && c <= '9') out += c;
      }
    }
  }
  return out.size() > mark;
}

bool Interpreter::roman(Span s, std::string& out) const {
  for (std::uint32_t i = s.begin; i < s.end; ++i) {
    const Unit& unit = u_.units[i];
    if (unit.cls >= 0 || unit.token_count != 1) continue;
    if (auto v = roman_value(norm(unit.first_token))) {
      out += std::to_string(*v);
      return true;
    }
  }
  return false;
}

bool Interpreter::text(Span s, std::string& out) const {
  const std::size_t mark = out.size();
  for (std::uint32_t i = s.begin; i < s.end; ++i) {
    const Unit& unit = u_.units[i];
    for (std::uint32_t t = unit.first_token; t < unit.first_token + unit.token_count; ++t) {
      if (u_.tokens.tokens[t].kind == lexicon::TokenKind::kPunct) continue;
      if (out.size() > mark) out += '.';
      out += norm(t);
    }
  }
  return out.size() > mark;
}

bool Interpreter::attribute(Span s, int attr, std::string& out) const {
  for (std::uint32_t i = s.begin; i < s.end; ++i) {
    if (u_.units[i].cls >= 0) {
      const std::string* v = cell(u_.units[i], attr);
      if (v == nullptr) return false;
      out += *v;
      return true;
    }
  }
  return false;
}

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

bool Interpreter::partitions(Span s, Span match, std::string_view separator,
                             std::vector<PartitionItem>& items) const {
  items.clear();
  const ChainSetup& cs = chain_;
  const int part_cls = cs.part_cls;
  if (part_cls < 0) return false;
  if (!scratch_) scratch_ = std::make_unique<Scratch>();
  Scratch& sc = *scratch_;
  const auto& toks = u_.tokens.tokens;

  auto single_letter = [&](std::uint32_t at) -> char {
    if (at >= s.end || u_.units[at].token_count != 1) return 0;
    const lexicon::Token& t = toks[u_.units[at].first_token];
    const std::string_view w = norm(u_.units[at].first_token);
    if (t.kind != lexicon::TokenKind::kWord || w.size() != 1 || w[0] < 'a' || w[0] > 'z') return 0;
    return w[0];
  };
  // A letter written two or three times ("aa", "mmm"): the letters after z in a list; its
  // ordinal follows z's (aa 26, bb 27 ... aaa 52). Zero when the unit at `at` is none.
  auto repeated_letter = [&](std::uint32_t at, int& ordinal) -> char {
    if (at >= s.end || u_.units[at].token_count != 1) return 0;
    const lexicon::Token& t = toks[u_.units[at].first_token];
    const std::string_view w = norm(u_.units[at].first_token);
    if (t.kind != lexicon::TokenKind::kWord || w.size() < 2 || w.size() > 3 || w[0] < 'a' ||
        w[0] > 'z' || w.find_first_not_of(w[0]) != std::string_view::npos) {
      return 0;
    }
    ordinal = 26 * static_cast<int>(w.size() - 1) + (w[0] - 'a');
    return w[0];
  };
  auto unit_is = [&](std::uint32_t at, std::string_view what) {
    return at < s.end && u_.units[at].token_count == 1 && norm(u_.units[at].first_token) == what;
  };

  // Levels written in brackets after a value ("Article 5(1)(a)"): `partition.parens`.
  const std::optional<Level>& paren_number = cs.paren_number;
  const std::optional<Level>& paren_letter = cs.paren_letter;

  // A roman numeral in capitals without its level word, after a level whose values are numbers,
  // is a value of `partition.bare-roman` ("art. 155, II" is inciso II of article 155).
  const std::optional<Level>& bare_roman = cs.bare_roman;
  auto upper_roman = [&](const lexicon::Token& t) {
    const std::string_view raw = u_.tokens.raw(t);
    if (raw.empty()) return false;
    for (char c : raw) {
      if (c != 'I' && c != 'V' && c != 'X' && c != 'L' && c != 'C' && c != 'D' && c != 'M') {
        return false;
      }
    }
    return true;
  };

  // `partition.brackets = path`: values in brackets are unnamed levels written as they are
  // ("section 6(1)(b)" -> section-6-1-b, "(1A)", "(da)", "(iv)").
  const bool brackets_path = cs.brackets_path;
  // The bracketed value starting at unit `at` ("(" value ")"): its text and the unit of ")".
  auto bracketed = [&](std::uint32_t at, std::string& text) -> std::uint32_t {
    if (!unit_is(at, "(")) return 0;
    std::uint32_t k = at + 1;
    text.clear();
    if (k < s.end && u_.units[k].cls < 0 && u_.units[k].token_count == 1 &&
        toks[u_.units[k].first_token].kind == lexicon::TokenKind::kNumber) {
      text = u_.tokens.raw(toks[u_.units[k].first_token]);
      ++k;
      // "(1A)", "(8ZA)": letters glued to the number.
      if (k < s.end && u_.units[k].cls < 0 && u_.units[k].token_count == 1) {
        const lexicon::Token& t = toks[u_.units[k].first_token];
        if (t.kind == lexicon::TokenKind::kWord && t.end - t.begin <= 3 &&
            t.begin == toks[u_.units[k - 1].first_token].end) {
          text += u_.tokens.raw(t);
          ++k;
        }
      }
    } else if (k < s.end && u_.units[k].cls < 0 && u_.units[k].token_count == 1) {
      const lexicon::Token& t = toks[u_.units[k].first_token];
      const std::string_view n = norm(u_.units[k].first_token);
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
  };

  // `partition.implicit`: the level of values read before any level word ("42 U.S.C. 1983").
  const std::optional<Level>& implicit = cs.implicit;
  const bool alnum = cs.suffix_alnum;
  auto glued = [&](std::uint32_t at) {
    if (at >= s.end || at == 0 || u_.units[at].token_count != 1 ||
        u_.units[at - 1].token_count == 0)
      return false;
    const Unit& prev = u_.units[at - 1];
    return toks[u_.units[at].first_token].begin ==
           toks[prev.first_token + prev.token_count - 1].end;
  };

  // `partition.prefix`: words written before a value and glued to it in capitals ("L. 1132-1"
  // -> L1132-1); a space-separated list of folded words.
  const std::vector<std::string>& prefixes = cs.prefixes;
  std::string pending_prefix;
  std::uint32_t prefix_at = 0;

  // 1. Elements, in text order. The format of the last level word decides how values read.
  std::vector<Element>& elements = sc.elements;
  elements.clear();
  Format format = Format::kNumber;
  std::optional<Level> real_level;  // the last level written with its word (or implicit)
  // After a letter level, a number that follows a comma belongs to the numbered level above the
  // letters ("commi 2, lettera g), e 6": comma 6); the walk climbs there.
  // The nearest level above the letters is the last level element of another format: found
  // by reading each element once (`seen`), not by a search back from every number, which a list
  // of 20,000 "e N, lettera aa)" made quadratic.
  std::size_t seen = 0;
  bool numbers_above = false;
  auto number_after_letters = [&]() {
    for (; seen < elements.size(); ++seen) {
      if (elements[seen].kind != Element::Kind::kLevel) continue;
      const Format f = elements[seen].level.format;
      if (f != Format::kLetter && f != Format::kLetterIndex) numbers_above = f == Format::kNumber;
    }
    std::size_t k = elements.size();
    if (k > 0 && elements[k - 1].kind == Element::Kind::kAnd) --k;
    return k > 0 && elements[k - 1].kind == Element::Kind::kComma && numbers_above;
  };
  // A number read as a value (`number` and `as-written` levels), after the implicit level word
  // when no level was written ("42 U.S.C. 1983").
  auto push_number = [&](Value&& v) {
    if (format != Format::kNumber && format != Format::kAsWritten &&
        !((format == Format::kLetter || format == Format::kLetterIndex) &&
          number_after_letters())) {
      return;
    }
    if (implicit && !real_level) {
      real_level = implicit;
      elements.emplace_back(Element{.kind = Element::Kind::kLevel, .level = *implicit});
      elements.back().value.span = v.span;
    }
    elements.emplace_back(Element{.kind = Element::Kind::kValue, .value = std::move(v)});
  };
  int nest_rank = 0;  // added to the rank of the levels inside `partition.nested` brackets
  for (std::uint32_t i = s.begin; i < s.end; ++i) {
    const Unit& unit = u_.units[i];
    if (brackets_path && !elements.empty()) {
      std::string text;
      if (const std::uint32_t close = bracketed(i, text); close != 0) {
        const Element::Kind before = elements.back().kind;
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
        elements.push_back(std::move(e));
        i = close;
        continue;
      }
    }
    // "(1)" or "(a)" right after a value: a deeper level written in brackets.
    if ((paren_number || paren_letter) && unit_is(i, "(") && !elements.empty() &&
        elements.back().kind == Element::Kind::kValue && unit_is(i + 2, ")")) {
      const Unit& inner = u_.units[i + 1];
      const bool digits_inside =
          inner.token_count == 1 && toks[inner.first_token].kind == lexicon::TokenKind::kNumber;
      const char letter = single_letter(i + 1);
      const bool roman = letter == 0 && inner.token_count == 1 &&
                         toks[inner.first_token].kind == lexicon::TokenKind::kWord &&
                         roman_value(norm(inner.first_token)).has_value();
      const std::optional<Level>& level =
          digits_inside ? paren_number : (letter != 0 ? paren_letter : std::optional<Level>());
      if (level && !roman) {
        elements.push_back({Element::Kind::kLevel, *level, {}});
        elements.back().value.span = Span{i, i + 3};
        Element v{Element::Kind::kValue, {}, {}};
        if (digits_inside) {
          v.value.text = std::string(norm(inner.first_token));
          v.value.ordinal = to_int(v.value.text);
        } else {
          v.value.text = level->format == Format::kLetterIndex ? std::to_string(letter - 'a' + 1)
                                                               : std::string(1, letter);
          v.value.ordinal = letter - 'a';
          v.value.letter = true;
        }
        v.value.span = Span{i, i + 3};
        elements.push_back(std::move(v));
        i += 2;
        continue;
      }
    }
    const bool letters = format == Format::kLetter || format == Format::kLetterIndex;
    // A quoted letter: the quotes touch it ('"g" e "h"': the "e" between is a conjunction).
    auto touches = [&](std::uint32_t a, std::uint32_t b) {
      return toks[u_.units[a].first_token + u_.units[a].token_count - 1].end ==
             toks[u_.units[b].first_token].begin;
    };
    // ")" after a letter, or after its latin suffix ("b-ter)", "m-undecies)").
    auto closes_letter = [&](std::uint32_t at) {
      if (unit_is(at + 1, ")")) return true;
      const std::uint32_t k = unit_is(at + 1, "-") ? at + 2 : at + 1;
      return k < s.end && cell(u_.units[k], ChainSetup::kLatin) != nullptr && unit_is(k + 1, ")");
    };
    // A bare letter right after its level's word ("alínea b", "lettera c"), or after "and" / "to"
    // following such a letter ("alíneas b e d"): only where the grammar's pattern put it.
    auto bare_letter = [&]() {
      if (elements.empty()) return false;
      const Element::Kind last = elements.back().kind;
      if (last == Element::Kind::kLevel) return true;
      return (last == Element::Kind::kAnd || last == Element::Kind::kTo) && elements.size() >= 2 &&
             elements[elements.size() - 2].kind == Element::Kind::kValue &&
             elements[elements.size() - 2].value.letter;
    };
    int repeated_ordinal = 0;
    const bool repeated = repeated_letter(i, repeated_ordinal) != 0 && closes_letter(i);
    // ("numero iii)" under a level of numbers: not a value this chain can read.)
    if (repeated && !letters && format != Format::kAsWritten && unit.cls >= 0) return false;
    const char single = single_letter(i);
    if (letters &&
        (repeated ||
         (single != 0 && (closes_letter(i) ||
                          (i > s.begin && unit_is(i - 1, "\"") && unit_is(i + 1, "\"") &&
                           touches(i - 1, i) && touches(i, i + 1)) ||
                          (!unit_is(i - 1, "\"") && !unit_is(i + 1, "\"") && bare_letter()))))) {
      const int ordinal = repeated ? repeated_ordinal : single - 'a';
      Element e{Element::Kind::kValue, {}, {}};
      e.value.text = format == Format::kLetter ? std::string(norm(u_.units[i].first_token))
                                               : std::to_string(ordinal + 1);
      e.value.ordinal = ordinal;
      e.value.letter = true;
      e.value.span = Span{i, i + 1};
      std::uint32_t k = unit_is(i + 1, "-") ? i + 2 : i + 1;  // a suffix: "b-ter)", "aa-bis)"
      if (k < s.end) {
        if (auto latin = cell(u_.units[k], ChainSetup::kLatin)) {
          e.value.text += *latin;
          e.value.ordinal = -1;
          e.value.span.end = k + 1;
          i = k;
        }
      }
      elements.push_back(std::move(e));
      continue;
    }
    // `partition.nested = [`: after "[", the chain goes on inside the act the value before it
    // enacted ("§ 101(a) [title V, § 595(b)]"): its levels rank below every level before.
    if (!cs.nested.empty() && !elements.empty() && unit_is(i, cs.nested)) {
      nest_rank += 1000;
      continue;
    }
    if (unit.cls == part_cls) {
      Element& e = elements.emplace_back(
          Element{.kind = Element::Kind::kLevel, .level = cs.levels[unit.row]});
      e.level.rank += nest_rank;
      e.value.span = Span{i, i + 1};
      format = e.level.format;
      real_level = e.level;
      continue;
    }
    if (auto role = cell(unit, ChainSetup::kRole)) {
      if (*role == "and") elements.emplace_back(Element{.kind = Element::Kind::kAnd});
      if (*role == "to") elements.emplace_back(Element{.kind = Element::Kind::kTo});
      if (*role == "of") elements.emplace_back(Element{.kind = Element::Kind::kOf});
      continue;  // "from", "skip"
    }
    if (auto n = cell(unit, ChainSetup::kOrdinal)) {  // primo, secondo, único ...
      Element& e = elements.emplace_back(Element{.kind = Element::Kind::kOrdinal});
      e.value.text = *n;
      e.value.ordinal = all_digits(*n) ? to_int(*n) : -1;
      e.value.span = Span{i, i + 1};
      continue;
    }
    if (unit.cls >= 0 || unit.token_count != 1) continue;
    const lexicon::Token& tok = toks[unit.first_token];
    const std::string_view n = norm(unit.first_token);
    if (!prefixes.empty() && tok.kind == lexicon::TokenKind::kWord &&
        std::find(prefixes.begin(), prefixes.end(), n) != prefixes.end()) {
      const std::uint32_t k = unit_is(i + 1, ".") ? i + 2 : i + 1;
      if (k < s.end && u_.units[k].token_count == 1 &&
          toks[u_.units[k].first_token].kind == lexicon::TokenKind::kNumber) {
        pending_prefix.clear();
        for (char c : n)
          pending_prefix += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        prefix_at = i;
        i = k - 1;
        continue;
      }
    }
    if (tok.kind == lexicon::TokenKind::kNumber) {
      Value v;
      v.text.assign(pending_prefix).append(n);
      v.ordinal = pending_prefix.empty() ? to_int(n) : -1;
      const std::uint32_t value_begin = pending_prefix.empty() ? i : prefix_at;
      pending_prefix.clear();
      std::uint32_t last = i;
      // `partition.suffix = alnum`: letters written against the number and a dashed number
      // after them ("1395m", "300gg-11", "1395w-4").
      if (alnum) {
        std::uint32_t k = i + 1;
        auto letters_at = [&](std::uint32_t at) {
          return glued(at) && u_.units[at].cls < 0 &&
                 toks[u_.units[at].first_token].kind == lexicon::TokenKind::kWord &&
                 norm(u_.units[at].first_token).size() <= 4;
        };
        for (int guard = 0; guard < 8; ++guard) {
          if (letters_at(k)) {
            v.text += std::string(norm(u_.units[k].first_token));
            v.ordinal = -1;
            last = k++;
          }
          // A dash before the same number with letters is a range, not a dashed number: "49–49c",
          // "49e–49k" (sections 49 to 49c), where "300gg–11" and "1320a–7a" are numbers.
          const bool range_of_same = k + 2 < s.end && unit_is(k, "-") &&
                                     norm(u_.units[k + 1].first_token) == n && letters_at(k + 2);
          if (!range_of_same && unit_is(k, "-") && glued(k) && glued(k + 1) &&
              toks[u_.units[k + 1].first_token].kind == lexicon::TokenKind::kNumber) {
            v.text += "-" + std::string(norm(u_.units[k + 1].first_token));
            v.ordinal = -1;
            last = k + 1;
            k += 2;
            continue;
          }
          break;
        }
        v.span = Span{value_begin, last + 1};
        i = last;
        push_number(std::move(v));
        continue;
      }
      // Suffixes: "3-bis", "3 bis", "6º-F", "231g", "1-A".
      std::uint32_t k = i + 1;
      if (unit_is(k, "º") || unit_is(k, "°")) last = k++;  // the ordinal mark is the value's
      const std::uint32_t after_dash = unit_is(k, "-") ? k + 1 : k;
      if (after_dash < s.end) {
        if (auto latin = cell(u_.units[after_dash], ChainSetup::kLatin)) {
          v.text += *latin;
          v.ordinal = -1;
          last = after_dash;
        } else if (single_letter(after_dash) != 0 && !unit_is(after_dash + 1, ")")) {
          const auto& su = u_.units[after_dash];
          const bool adjacent =
              toks[su.first_token].begin == toks[u_.units[after_dash - 1].first_token].end;
          if (after_dash != k || adjacent) {
            const char l = single_letter(after_dash);
            v.text +=
                cs.suffix_letter_index ? "-" + std::to_string(l - 'a' + 1) : std::string(1, l);
            v.ordinal = -1;
            last = after_dash;
          }
        }
      }
      v.span = Span{value_begin, last + 1};
      if (format == Format::kAsWritten) {  // "10A" as the text writes it
        const lexicon::Token& t0 = toks[u_.units[v.span.begin].first_token];
        const lexicon::Token& t1 = toks[u_.units[last].first_token];
        v.text.clear();
        for (char c : u_.tokens.source.substr(t0.begin, t1.end - t0.begin)) {
          if (c != ' ' && c != '-') v.text += c;
        }
      }
      i = last;
      push_number(std::move(v));
      continue;
    }
    // `as-written` levels take a roman numeral, a letter or a short word in capitals as written
    // ("Part IV", "div. A", "div. FF", "title LVXXXV": the US Code's divisions past Z and its
    // titles past the numerals it spells); the grammar's pattern says where values may stand.
    auto capitals = [](std::string_view raw) {
      return raw.size() >= 2 && raw.size() <= 8 &&
             std::all_of(raw.begin(), raw.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
    };
    if (tok.kind == lexicon::TokenKind::kWord && format == Format::kAsWritten &&
        (roman_value(n).has_value() || n.size() == 1 || capitals(u_.tokens.raw(tok)))) {
      Value v;
      v.text = u_.tokens.raw(tok);
      v.ordinal = roman_value(n).value_or(-1);
      v.span = Span{i, i + 1};
      elements.emplace_back(Element{.kind = Element::Kind::kValue, .value = std::move(v)});
      continue;
    }
    if (tok.kind == lexicon::TokenKind::kWord && format == Format::kNumber && bare_roman &&
        !elements.empty() && upper_roman(tok)) {
      if (auto r = roman_value(n)) {
        Element level{Element::Kind::kLevel, *bare_roman, {}};
        level.value.span = Span{i, i + 1};
        elements.push_back(std::move(level));
        format = bare_roman->format;
        Value v;
        v.text = std::to_string(*r);
        v.ordinal = *r;
        v.span = Span{i, i + 1};
        elements.emplace_back(Element{.kind = Element::Kind::kValue, .value = std::move(v)});
      }
      continue;
    }
    if (tok.kind == lexicon::TokenKind::kWord && format == Format::kRoman) {
      if (auto r = roman_value(n)) {
        Value v;
        v.text = std::to_string(*r);
        v.ordinal = *r;
        v.span = Span{i, i + 1};
        elements.emplace_back(Element{.kind = Element::Kind::kValue, .value = std::move(v)});
      }
      continue;
    }
    if (n == "," || n == ";") elements.emplace_back(Element{.kind = Element::Kind::kComma});
  }

  // 2. Segments between connectors (the maximal runs of elements other than connectors, which
  // are dropped); a chain written from the smallest level is reversed.
  std::vector<std::pair<std::size_t, std::size_t>>& segments = sc.segments;
  segments.clear();
  {
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
  // is dropped, and a citation the chain starts starts at the next segment.
  Span cite = match;
  if (segments.size() > 1) {
    bool words_alone = true;
    for (std::size_t k = segments[0].first; k < segments[0].second && words_alone; ++k) {
      const Element& e = elements[k];
      words_alone = e.kind == Element::Kind::kLevel && e.level.format != Format::kFixed &&
                    !cs.may_stand_bare(e.level);
    }
    if (words_alone) {
      const std::size_t cut = segments[1].first;
      if (match.begin == s.begin && !elements[cut].value.span.empty()) {
        cite.begin = elements[cut].value.span.begin;
      }
      elements.erase(elements.begin(), elements.begin() + static_cast<std::ptrdiff_t>(cut));
      segments.erase(segments.begin());
      for (auto& seg : segments) seg = {seg.first - cut, seg.second - cut};
    }
  }
  auto first_rank = [&](std::pair<std::size_t, std::size_t> seg) {
    for (std::size_t k = seg.first; k < seg.second; ++k) {
      if (elements[k].kind == Element::Kind::kLevel) return elements[k].level.rank;
    }
    return 0;
  };
  auto last_rank = [&](std::pair<std::size_t, std::size_t> seg) {
    for (std::size_t k = seg.second; k-- > seg.first;) {
      if (elements[k].kind == Element::Kind::kLevel) return elements[k].level.rank;
    }
    return 0;
  };
  // Inside out: some connector leads from a smaller level to a larger one ("§ 1º do art. 62").
  bool inside_out = false;
  for (std::size_t k = 0; k + 1 < segments.size(); ++k) {
    const int before = last_rank(segments[k]), after = first_rank(segments[k + 1]);
    const Element::Kind end = elements[segments[k].second - 1].kind;
    const bool joined = end == Element::Kind::kAnd || end == Element::Kind::kComma;  // ", e all'"
    if (before > 0 && after > 0 && before > after && !joined) inside_out = true;
  }

  // 3. The walk.
  std::vector<Step>& path = sc.path;
  // The cited paths, one after the other: path k is cited[cited_ends[k - 1], cited_ends[k]).
  std::vector<Step>& cited = sc.cited;
  std::vector<std::size_t>& cited_ends = sc.cited_ends;
  path.clear();
  cited.clear();
  cited_ends.clear();
  auto cite_path = [&]() {
    cited.insert(cited.end(), path.begin(), path.end());
    cited_ends.push_back(cited.size());
  };
  bool leaf = false;  // the path ends with a value nothing deeper extended
  const Level* current = nullptr;
  Level current_level;
  bool range_next = false, and_seen = false;
  // The current level was announced by ordinals ("terzo comma"): a bare number after it belongs
  // to the level above ("articoli 270, terzo comma e 306").
  bool ordinal_level = false;
  std::vector<Value>& pending = sc.pending;  // ordinal words waiting for their level word
  pending.clear();
  std::size_t guard = 0;

  // `partition.range = ends`: a range cites its two ends only (numberings with inserted
  // articles, "L. 1225-1 à L. 1225-28", "sections 2921 to 2925", have no knowable inside).
  const bool range_ends = cs.range_ends;
  // `partition.range = first`: a range cites its first value, for the whole range (Légifrance
  // links "articles L. 1225-1 à L. 1225-28" to its first article).
  const bool range_first = cs.range_first;
  // A value at `level` (recursive for the inside of a range: called as add(add, ...)).
  auto add = [&](auto& self, const Level& level, Value&& v) -> bool {
    if (++guard > 10000) return false;
    if (range_next && range_first && !path.empty() && path.back().level.id == level.id) {
      range_next = false;
      path.back().value.span.end = v.span.end;
      return true;
    }
    if (range_next) {
      range_next = false;
      if (!path.empty() && path.back().level.id == level.id) {
        path.back().value.in_range = true;
        v.in_range = true;
        const Value from = path.back().value;
        if (!range_ends && from.ordinal >= 0 && v.ordinal > from.ordinal &&
            v.ordinal - from.ordinal <= 500 && from.letter == v.letter) {
          for (int k = from.ordinal + 1; k < v.ordinal; ++k) {
            Value mid;
            mid.span = v.span;
            mid.interior = true;
            mid.in_range = true;
            mid.ordinal = k;
            mid.letter = v.letter;
            // (Letters after z are written twice, then three times: aa = 26, aaa = 52.)
            mid.text = v.letter && level.format != Format::kLetterIndex
                           ? std::string(static_cast<std::size_t>(k / 26 + 1),
                                         static_cast<char>('a' + k % 26))
                           : std::to_string(v.letter ? k + 1 : k);
            if (!self(self, level, std::move(mid))) return false;
          }
        }
      }
    }
    // A value at this level ends the path reached so far at this level or below.
    while (!path.empty() && path.back().level.rank >= level.rank) {
      if (leaf) cite_path();
      leaf = false;
      path.pop_back();
    }
    // An implied parent (the caput of an article, for a Brazilian inciso).
    if (level.parent >= 0) {
      const Level& parent = cs.levels[static_cast<std::size_t>(level.parent)];
      const bool has_parent_rank = !path.empty() && path.back().level.rank >= parent.rank;
      if (!path.empty() && !has_parent_rank && parent.format == Format::kFixed) {
        Value pv;
        pv.text = parent.fixed;
        pv.span = v.span;
        path.emplace_back(Step{parent, std::move(pv)});
      }
    }
    path.emplace_back(Step{level, std::move(v)});
    leaf = true;
    return true;
  };

  // Walks elements seg[0, n) from the largest level to the smallest; the partitions cited are
  // then in `cited`. False when the chain cannot be read. Each element is walked once: its
  // value is moved on, not copied.
  // With `and_level_new_item`, "e" before a level word starts a new item ("art. 9º e no inciso
  // II do § 1º do art. 31": art. 9º is one item, the inciso another).
  int bracket_rank = -1;  // the rank of the last bracketed value
  auto walk = [&](Element* seg, std::size_t n, bool and_level_new_item) -> bool {
    bracket_rank = -1;
    path.clear();
    cited.clear();
    cited_ends.clear();
    leaf = false;
    current = nullptr;
    range_next = and_seen = ordinal_level = false;
    pending.clear();
    for (std::size_t k = 0; k < n; ++k) {
      Element& e = seg[k];
      switch (e.kind) {
        case Element::Kind::kLevel: {
          if (and_level_new_item && and_seen) {
            if (leaf && !path.empty()) cite_path();
            path.clear();
            leaf = false;
          }
          current_level = e.level;
          current = &current_level;
          and_seen = false;
          range_next = false;
          ordinal_level = !pending.empty();
          if (e.level.format == Format::kFixed) {
            Value v;
            v.text = e.level.fixed;
            v.span = e.value.span;
            if (!add(add, current_level, std::move(v))) return false;
          }
          for (Value& p : pending) {
            if (!add(add, current_level, std::move(p))) return false;
          }
          // `partition.bare-level`: a level word without a value cites the level whole
          // ("Sch." -> schedule, "Sch. Pt. II" -> schedule-part-II).
          if (pending.empty() && e.level.format != Format::kFixed &&
              (k + 1 == n || seg[k + 1].kind == Element::Kind::kLevel) &&
              cs.may_stand_bare(e.level)) {
            Value v;
            v.span = e.value.span;
            if (!add(add, current_level, std::move(v))) return false;
          }
          pending.clear();
          break;
        }
        case Element::Kind::kOrdinal: {
          const bool level_follows = k + 1 < n && (seg[k + 1].kind == Element::Kind::kLevel ||
                                                   seg[k + 1].kind == Element::Kind::kAnd ||
                                                   seg[k + 1].kind == Element::Kind::kComma);
          // Ordinals right after their level word, as a list: "commi terzo e quarto".
          std::size_t b = k;
          while (b > 0 && (seg[b - 1].kind == Element::Kind::kOrdinal ||
                           seg[b - 1].kind == Element::Kind::kAnd ||
                           seg[b - 1].kind == Element::Kind::kComma)) {
            --b;
          }
          const bool after_level = current != nullptr && pending.empty() && b > 0 &&
                                   seg[b - 1].kind == Element::Kind::kLevel;
          if (after_level) {
            if (!add(add, current_level, std::move(e.value))) return false;
          } else if (current == nullptr || level_follows) {
            pending.push_back(std::move(e.value));
          } else if (!add(add, current_level, std::move(e.value))) {
            return false;
          }
          break;
        }
        case Element::Kind::kValue:
          if (e.bracket && (e.deeper || bracket_rank >= 0)) {
            // One level below the value before it, or beside the bracketed value before it.
            const int rank =
                e.deeper ? (path.empty() ? 0 : path.back().level.rank) + 1 : bracket_rank;
            bracket_rank = rank;
            if (!add(add, Level{{}, rank, Format::kAsWritten, {}, -1, false}, std::move(e.value))) {
              return false;
            }
            break;
          }
          if (current == nullptr) break;  // a value before any level word: not ours to read
          if (ordinal_level && path.size() >= 2 && path.back().level.id == current_level.id) {
            current_level = path[path.size() - 2].level;
            ordinal_level = false;
          }
          // A value followed by ", " and its own level's word is a value of a level above
          // ("lettera d), e 12, comma 2": article 12).
          if (k + 2 < n && seg[k + 1].kind == Element::Kind::kComma &&
              seg[k + 2].kind == Element::Kind::kLevel && seg[k + 2].level.id == current_level.id) {
            for (std::size_t j = path.size(); j-- > 0;) {
              if (path[j].level.rank < current_level.rank) {
                if (path[j].level.format != Format::kFixed) current_level = path[j].level;
                break;
              }
            }
          }
          if (!add(add, current_level, std::move(e.value))) return false;
          break;
        case Element::Kind::kAnd: and_seen = true; break;
        case Element::Kind::kTo: range_next = true; break;
        case Element::Kind::kComma:
          // "commi 1, 2 e 4, 56": after a list closed by "e", a comma goes back up a level.
          // "articoli 128-quater, comma 2, e 128-sexies, comma 2": after the one value of a
          // singular level word, a comma and a bare value go back up a level too.
          if (path.size() >= 2 && current != nullptr && path.back().level.id == current_level.id) {
            // (An ordinal no level word follows is a value too: "commi secondo, lettera g), e
            // sesto".)
            auto is_value = [&](std::size_t at) {
              return seg[at].kind == Element::Kind::kValue ||
                     (seg[at].kind == Element::Kind::kOrdinal &&
                      (at + 1 == n || seg[at + 1].kind != Element::Kind::kLevel));
            };
            const bool value_next =
                (k + 1 < n && is_value(k + 1)) ||
                (k + 2 < n && seg[k + 1].kind == Element::Kind::kAnd && is_value(k + 2));
            const Level up = path[path.size() - 2].level;
            if ((and_seen || (current_level.singular && value_next)) &&
                up.format != Format::kFixed) {
              current_level = up;
              and_seen = false;
            }
          }
          range_next = false;
          break;
        case Element::Kind::kOf: break;
      }
    }
    if (leaf && !path.empty()) cite_path();
    return true;
  };
  // The paths `walk` cited, each as a vector of its own (for the inside-out reading).
  auto cited_paths = [&]() {
    std::vector<std::vector<Step>> out;
    out.reserve(cited_ends.size());
    std::size_t from = 0;
    for (std::size_t end : cited_ends) {
      out.emplace_back(cited.begin() + static_cast<std::ptrdiff_t>(from),
                       cited.begin() + static_cast<std::ptrdiff_t>(end));
      from = end;
    }
    return out;
  };

  if (!inside_out) {
    // One path through the document from the largest level ("art. 3, comma 2, lettera b)");
    // a chain written wholly inside out is read from its last segment.
    Element* seq = elements.data();
    std::size_t n = elements.size();  // the segments, one after the other
    if (segments.size() > 1 && first_rank(segments.front()) > first_rank(segments.back())) {
      std::vector<Element>& order = sc.order;
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
    if (!walk(seq, n, false)) return false;
  } else {
    // Inside out, item by item: "o § 6º, o § 7º e o § 8º do art. 61, o § 1º do art. 62 e o § 3º
    // do art. 63". Each segment after a connector starts with the level its items belong to
    // (its head: "art. 61"), which becomes the parent of every item still without one at that
    // rank; what follows the head after "," or "e" and a level word starts new items.
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
      path.clear();
      leaf = false;
      range_next = false;
      for (const Step& step : item) {
        if (!add(add, step.level, Value(step.value))) return false;
      }
      if (!path.empty()) result.push_back(path);
    }
    cited.clear();
    cited_ends.clear();
    for (const auto& steps : result) {
      cited.insert(cited.end(), steps.begin(), steps.end());
      cited_ends.push_back(cited.size());
    }
  }
  if (cited_ends.empty() || cited_ends.size() > 10000) return false;

  const std::string& value_sep = cs.value_separator;
  items.reserve(cited_ends.size());
  std::size_t from = 0;
  for (const std::size_t to : cited_ends) {
    const Step* steps = cited.data() + from;
    const std::size_t count = to - from;
    from = to;
    PartitionItem& item = items.emplace_back();
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
  } else {
    // The first item (in the text) starts the citation, the last one ends it; the inside of a
    // range has no text of its own and stands for the whole citation.
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
  return true;
}

}  // namespace lexlink::extract

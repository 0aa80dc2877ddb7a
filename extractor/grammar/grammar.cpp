// Loading and compiling a grammar folder; see grammar.h and grammars/README.md.
#include "grammar/grammar.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <set>

#include "common/tsv.h"

namespace lexlink::grammar {

bool Grammar::is_roman(std::string_view s) {
  if (s.empty() || s.size() > 15) return false;
  for (char c : s) {  // quick rejection: most words hold a letter that is no roman digit
    if (c != 'i' && c != 'v' && c != 'x' && c != 'l' && c != 'c' && c != 'd' && c != 'm') {
      return false;
    }
  }
  // m{0,3} (cm|cd|d?c{0,3}) (xc|xl|l?x{0,3}) (ix|iv|v?i{0,3})
  std::size_t i = 0;
  auto take = [&](char c, int most) {
    int k = 0;
    while (i < s.size() && s[i] == c && k < most) ++i, ++k;
  };
  auto pair = [&](char a, char b) {
    if (i + 1 < s.size() && s[i] == a && s[i + 1] == b) {
      i += 2;
      return true;
    }
    return false;
  };
  take('m', 3);
  if (!pair('c', 'm') && !pair('c', 'd')) {
    take('d', 1);
    take('c', 3);
  }
  if (!pair('x', 'c') && !pair('x', 'l')) {
    take('l', 1);
    take('x', 3);
  }
  if (!pair('i', 'x') && !pair('i', 'v')) {
    take('v', 1);
    take('i', 3);
  }
  return i == s.size();
}

namespace {

// The symbol of a token that is not a grammar literal: its shape (digits, letters, capitals).
std::uint8_t shape_of(const lexicon::Tokens& tokens, const lexicon::Token& t,
                      std::string_view norm) {
  switch (t.kind) {
    case lexicon::TokenKind::kNumber: {
      const std::size_t digits = norm.size();
      return static_cast<std::uint8_t>(digits >= 5 ? symbol::kNum5 : digits);
    }
    case lexicon::TokenKind::kWord:
      if (norm.size() == 1) return Grammar::is_roman(norm) ? symbol::kLetterRoman : symbol::kLetter;
      if (Grammar::is_roman(norm)) return symbol::kRoman;
      {
        const auto first = static_cast<unsigned char>(tokens.source[t.begin]);
        return first >= 'A' && first <= 'Z' ? symbol::kTitle : symbol::kWord;
      }
    case lexicon::TokenKind::kPunct: return symbol::kPunct;
  }
  return symbol::kPunct;
}

}  // namespace

std::uint8_t Grammar::shape_symbol(const lexicon::Tokens& tokens, const lexicon::Token& t) const {
  const char* norm =
      t.norm_in_source ? tokens.source.data() + t.begin : tokens.norms.data() + t.norm_begin;
  const std::size_t len = t.norm_in_source ? t.end - t.begin : t.norm_len;
  return suffixed(tokens, t, shape_of(tokens, t, std::string_view(norm, len)));
}

std::uint8_t Grammar::suffixed(const lexicon::Tokens& tokens, const lexicon::Token& t,
                               std::uint8_t shape) const {
  if (suffix_symbol_ == 0 || shape != symbol::kWord || t.begin == 0) return shape;
  const std::size_t len = t.end - t.begin;
  const auto before = static_cast<unsigned char>(tokens.source[t.begin - 1]);
  return len >= 2 && len <= 4 && before >= '0' && before <= '9' ? suffix_symbol_ : shape;
}

std::uint8_t Grammar::token_symbol(const lexicon::Tokens& tokens, const lexicon::Token& t) const {
  const std::string_view norm = tokens.norm(t);
  if (const std::uint32_t lit = literal_index_.find(norm); lit != StringTable::kMissing) {
    return static_cast<std::uint8_t>(lit);
  }
  return suffixed(tokens, t, shape_of(tokens, t, norm));
}

std::string Grammar::symbol_name(std::uint8_t s) const {
  return s < symbol_names_.size() ? symbol_names_[s] : "?";
}

namespace {

constexpr const char* kBuiltins[] = {"NUM", "NUM1",  "NUM2",   "NUM3",   "NUM4",  "NUM5",
                                     "DAY", "YEAR",  "WORD",   "LETTER", "ROMAN", "PUNCT",
                                     "ANY", "TITLE", "PLURAL", "SUFFIX"};
constexpr const char* kInterpreters[] = {"date", "year", "number", "digits", "roman", "text"};
bool is_builtin(std::string_view name) {
  for (const char* b : kBuiltins) {
    if (name == b) return true;
  }
  return false;
}

bool is_macro_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return name[0] >= 'A' && name[0] <= 'Z';
}

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// Text assembled from one or more source lines, mapping offsets back to (line, col).
struct SourceText {
  std::string text;
  struct Segment {
    std::size_t offset;
    std::uint32_t line;
    std::uint32_t col;
  };
  std::vector<Segment> segments;
  std::string file;

  void append(std::string_view piece, std::uint32_t line, std::uint32_t col) {
    if (!text.empty()) text += ' ';
    segments.push_back({text.size(), line, col});
    text += piece;
  }
  Location at(std::size_t offset) const {
    Location loc{file, 0, 0};
    for (const Segment& s : segments) {
      if (s.offset > offset) break;
      loc.line = s.line;
      loc.col = static_cast<std::uint32_t>(s.col + (offset - s.offset));
    }
    return loc;
  }
  // The text after its first `n` characters (a keyword: "self ", "previous ", "next "), each
  // segment's column moved by `n`.
  SourceText after(std::size_t n) const {
    SourceText t = *this;
    t.text = t.text.substr(n);
    for (Segment& s : t.segments) s.col += static_cast<std::uint32_t>(n);
    return t;
  }
};

// Whether template parts are "{type.measure} {y:year}": a placeholder, one space, a placeholder.
bool measure_and_year(const std::vector<TemplatePart>& parts) {
  return parts.size() == 3 && !parts[0].choices.empty() && parts[1].choices.empty() &&
         parts[1].text == " " && !parts[2].choices.empty();
}

Error error_at(const Location& loc, std::string message) {
  Error e = make_error(ErrorCode::kDataError, std::move(message));
  e.file = loc.file;
  e.line = loc.line;
  e.col = loc.col;
  return e;
}

std::uint64_t fnv1a(std::uint64_t h, std::string_view s) {
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

// The pattern language (grammars/README.md, "Patterns").
class PatternParser {
 public:
  PatternParser(const SourceText& src) : src_(src), s_(src.text) {}

  Result<Pattern> parse() {
    auto p = alternation();
    if (!p) return p;
    skip_space();
    if (i_ < s_.size()) return fail("unexpected '" + std::string(1, s_[i_]) + "'");
    return p;
  }

 private:
  Error fail(std::string message) const { return error_at(src_.at(i_), std::move(message)); }

  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
  }

  Result<Pattern> alternation() {
    std::vector<Pattern> branches;
    const Location where = src_.at(i_);
    while (true) {
      auto seq = sequence();
      if (!seq) return seq;
      branches.push_back(std::move(*seq));
      skip_space();
      if (i_ < s_.size() && s_[i_] == '|') {
        ++i_;
        continue;
      }
      break;
    }
    if (branches.size() == 1) return std::move(branches[0]);
    Pattern p;
    p.op = Pattern::Op::kAlt;
    p.children = std::move(branches);
    p.where = where;
    return p;
  }

  Result<Pattern> sequence() {
    Pattern p;
    p.op = Pattern::Op::kSeq;
    p.where = src_.at(i_);
    while (true) {
      skip_space();
      if (i_ >= s_.size() || s_[i_] == '|' || s_[i_] == ')') break;
      auto item = quantified();
      if (!item) return item;
      p.children.push_back(std::move(*item));
    }
    if (p.children.empty()) return fail("empty pattern (or empty alternative)");
    if (p.children.size() == 1) return std::move(p.children[0]);
    return p;
  }

  Result<Pattern> quantified() {
    auto atom_result = atom();
    if (!atom_result) return atom_result;
    Pattern a = std::move(*atom_result);
    while (i_ < s_.size()) {
      const char c = s_[i_];
      int lo, hi;
      if (c == '?') {
        lo = 0, hi = 1;
        ++i_;
      } else if (c == '*') {
        lo = 0, hi = -1;
        ++i_;
      } else if (c == '+') {
        lo = 1, hi = -1;
        ++i_;
      } else if (c == '{') {
        const std::size_t close = s_.find('}', i_);
        if (close == std::string::npos) return fail("'{' without '}'");
        const std::string body = s_.substr(i_ + 1, close - i_ - 1);
        int m = -1, n = -1;
        char extra;
        if (std::sscanf(body.c_str(), "%d,%d%c", &m, &n, &extra) == 2) {
        } else if (std::sscanf(body.c_str(), "%d%c", &m, &extra) == 1) {
          n = m;
        } else if (body.size() > 1 && body.back() == ',' &&
                   std::sscanf(body.c_str(), "%d,", &m) == 1) {
          n = -1;
        } else {
          return fail("expected {m}, {m,} or {m,n}");
        }
        if (m < 0 || (n != -1 && n < m) || m > 50 || n > 50) {
          return fail("repetition bounds must satisfy 0 <= m <= n <= 50");
        }
        lo = m, hi = n;
        i_ = close + 1;
      } else {
        break;
      }
      Pattern r;
      r.op = Pattern::Op::kRepeat;
      r.min = lo;
      r.max = hi;
      r.where = a.where;
      r.children.push_back(std::move(a));
      a = std::move(r);
    }
    return a;
  }

  Result<Pattern> atom() {
    skip_space();
    if (i_ >= s_.size()) return fail("expected a pattern element");
    const Location where = src_.at(i_);
    const char c = s_[i_];
    if (c == '(') {
      ++i_;
      auto inner = alternation();
      if (!inner) return inner;
      skip_space();
      if (i_ >= s_.size() || s_[i_] != ')') return fail("expected ')'");
      ++i_;
      return inner;
    }
    if (c == '"') {
      std::string lit;
      ++i_;
      while (i_ < s_.size() && s_[i_] != '"') {
        if (s_[i_] == '\\' && i_ + 1 < s_.size()) ++i_;
        lit += s_[i_++];
      }
      if (i_ >= s_.size()) return error_at(where, "unterminated string");
      ++i_;
      lexicon::Tokens t;
      lexicon::tokenize(lit, t);
      if (t.tokens.size() != 1) {
        return error_at(where, "a literal is exactly one token; \"" + lit + "\" is " +
                                   std::to_string(t.tokens.size()) +
                                   " (use a lexicon class for phrases)");
      }
      Pattern p;
      p.op = Pattern::Op::kLiteral;
      p.name = std::string(t.norm(t.tokens[0]));
      p.where = where;
      return p;
    }
    if (!ident_char(c) || c == '-') {
      return fail("expected a pattern element, found '" + std::string(1, c) + "'");
    }
    const std::size_t start = i_;
    while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
    std::string name = s_.substr(start, i_ - start);
    if (i_ < s_.size() && s_[i_] == ':') {
      for (char ch : name) {
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_')) {
          return error_at(where,
                          "a capture name is lower case letters, digits and '_': '" + name + "'");
        }
      }
      ++i_;
      auto inner = atom();
      if (!inner) return inner;
      // A capture binds tighter than quantifiers written after the element: x:A? captures A?.
      Pattern captured = std::move(*inner);
      while (i_ < s_.size() && (s_[i_] == '?' || s_[i_] == '*' || s_[i_] == '+')) {
        Pattern r;
        r.op = Pattern::Op::kRepeat;
        r.min = s_[i_] == '+' ? 1 : 0;
        r.max = s_[i_] == '?' ? 1 : -1;
        r.where = captured.where;
        r.children.push_back(std::move(captured));
        captured = std::move(r);
        ++i_;
      }
      Pattern p;
      p.op = Pattern::Op::kCapture;
      p.name = std::move(name);
      p.where = where;
      p.children.push_back(std::move(captured));
      return p;
    }
    Pattern p;
    p.where = where;
    p.name = std::move(name);
    if (is_builtin(p.name)) {
      p.op = Pattern::Op::kBuiltin;
    } else if (is_macro_name(p.name)) {
      p.op = Pattern::Op::kMacro;
    } else {
      p.op = Pattern::Op::kClass;
    }
    return p;
  }

  const SourceText& src_;
  const std::string& s_;
  std::size_t i_ = 0;
};

}  // namespace

class Loader {
 public:
  Loader(std::string data_dir, std::string name) : data_dir_(std::move(data_dir)) {
    g_.name_ = std::move(name);
  }

  Result<Grammar> run() {
    namespace fs = std::filesystem;
    const fs::path folder = fs::path(data_dir_) / "grammars" / g_.name_;
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
      return make_error(ErrorCode::kNotFound,
                        "no grammar '" + g_.name_ + "': no folder " + folder.string());
    }
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(folder, ec)) {
      if (e.path().extension() == ".grammar") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
      return make_error(ErrorCode::kNotFound, "no *.grammar file in " + folder.string());
    }
    hash_ = fnv1a(14695981039346656037ull, g_.name_);
    for (const fs::path& f : files) {
      const std::string display = "grammars/" + g_.name_ + "/" + f.filename().string();
      if (Status s = read_grammar_file(f.string(), display); !s) return s.error();
    }
    if (Status s = finish_rule(); !s) return s.error();
    if (Status s = finish_settings(); !s) return s.error();
    if (Status s = compile(); !s) return s.error();
    g_.data_hash_ = hash_;
    return std::move(g_);
  }

 private:
  struct Property {
    std::string key;
    SourceText value;
  };

  Status read_grammar_file(const std::string& path, const std::string& display) {
    std::string content;
    if (Status s = read_file(path, content); !s) return s;
    hash_ = fnv1a(fnv1a(hash_, display), content);
    g_.files_.push_back(display);
    std::string_view rest = content;
    std::uint32_t line_no = 0;
    while (!rest.empty()) {
      ++line_no;
      const std::size_t eol = rest.find('\n');
      std::string line(rest.substr(0, eol));
      rest.remove_prefix(eol == std::string_view::npos ? rest.size() : eol + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      // Strip a comment: '#' outside double quotes.
      bool quoted = false;
      for (std::size_t k = 0; k < line.size(); ++k) {
        if (line[k] == '"' && (k == 0 || line[k - 1] != '\\')) quoted = !quoted;
        if (line[k] == '#' && !quoted) {
          line.resize(k);
          break;
        }
      }
      while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
      if (line.empty()) continue;
      std::size_t indent = 0;
      while (indent < line.size() && (line[indent] == ' ' || line[indent] == '\t')) ++indent;
      const Location here{display, line_no, static_cast<std::uint32_t>(indent + 1)};
      if (indent == 0) {
        if (Status s = finish_rule(); !s) return s;
        if (Status s = top_level(line, here); !s) return s;
      } else {
        if (Status s = rule_line(line, indent, here); !s) return s;
      }
    }
    return Status::Ok();
  }

  // "keyword rest..." at column 1.
  Status top_level(const std::string& line, const Location& here) {
    const std::size_t space = line.find(' ');
    const std::string keyword = line.substr(0, space);
    std::string rest = space == std::string::npos ? std::string() : line.substr(space + 1);
    const auto rest_col =
        static_cast<std::uint32_t>(space == std::string::npos ? line.size() + 1 : space + 2);
    Location rest_at{here.file, here.line, rest_col};
    if (keyword == "lexicon") {
      // lexicon NAME = PATH [trigger]
      char name[128], path[512], flag[32] = {0};
      const int n = std::sscanf(rest.c_str(), "%127s = %511s %31s", name, path, flag);
      if (n < 2) return error_at(rest_at, "expected 'lexicon NAME = PATH [trigger]'");
      const std::string cls = name;
      if (is_macro_name(cls) || is_builtin(cls)) {
        return error_at(rest_at, "a lexicon class name is lower case: '" + cls + "'");
      }
      if (g_.lexicon_.class_index(cls) >= 0) {
        return error_at(rest_at, "lexicon class '" + cls + "' is declared twice");
      }
      const bool trigger = n == 3 && std::string(flag) == "trigger";
      if (n == 3 && !trigger) return error_at(rest_at, "expected 'trigger' after the path");
      const std::string file = (std::filesystem::path(data_dir_) / "lexicons" / path).string();
      std::string content;
      if (Status s = read_file(file, content); s) hash_ = fnv1a(fnv1a(hash_, path), content);
      return g_.lexicon_.add_class(cls, file, std::string("lexicons/") + path, trigger);
    }
    if (keyword == "markers") {
      // markers PATH: words typical of the texts this grammar reads (grammars/README.md).
      char path[512], extra[8];
      if (std::sscanf(rest.c_str(), "%511s %7s", path, extra) != 1) {
        return error_at(rest_at, "expected 'markers PATH'");
      }
      if (!g_.markers_.classes().empty()) return error_at(rest_at, "markers are declared twice");
      const std::string file = (std::filesystem::path(data_dir_) / "lexicons" / path).string();
      std::string content;
      if (Status s = read_file(file, content); s) hash_ = fnv1a(fnv1a(hash_, path), content);
      if (Status s = g_.markers_.add_class("markers", file, std::string("lexicons/") + path, true);
          !s) {
        return s;
      }
      g_.markers_.index();
      return Status::Ok();
    }
    if (keyword == "window") {
      int back = 0, fwd = 0;
      char extra;
      if (std::sscanf(rest.c_str(), "%d %d%c", &back, &fwd, &extra) != 2 || back < 0 || fwd < 16 ||
          back > 4096 || fwd > 4096) {
        return error_at(rest_at, "expected 'window BACK FORWARD' in bytes (0-4096, 16-4096)");
      }
      g_.window_back_ = back;
      g_.window_forward_ = fwd;
      return Status::Ok();
    }
    if (keyword == "partitions") {
      const int cls = g_.lexicon_.class_index(rest);
      if (cls < 0) return error_at(rest_at, "no lexicon class '" + rest + "' declared before");
      const auto& c = g_.lexicon_.classes()[static_cast<std::size_t>(cls)];
      for (const char* col : {"id", "rank", "value", "parent", "plural"}) {
        if (c.column(col) < 0) {
          return error_at(rest_at, "the partitions class needs a column '" + std::string(col) +
                                       "' (" + c.file + ")");
        }
      }
      g_.partitions_class_ = cls;
      return Status::Ok();
    }
    if (keyword == "set") {
      const std::size_t eq = rest.find(" = ");
      if (eq == std::string::npos) return error_at(rest_at, "expected 'set KEY = VALUE'");
      const Location value_at{here.file, here.line, static_cast<std::uint32_t>(rest_col + eq + 3)};
      return settings_.read(std::string_view(rest).substr(0, eq),
                            std::string_view(rest).substr(eq + 3), rest_at, value_at);
    }
    if (keyword == "define") {
      const std::size_t eq = rest.find(" = ");
      if (eq == std::string::npos) return error_at(rest_at, "expected 'define NAME = PATTERN'");
      const std::string name = rest.substr(0, eq);
      if (!is_macro_name(name) || is_builtin(name)) {
        return error_at(rest_at, "a macro name is upper case and not a builtin: '" + name + "'");
      }
      if (macros_.count(name) != 0) return error_at(rest_at, "macro '" + name + "' defined twice");
      SourceText src;
      src.file = here.file;
      src.append(rest.substr(eq + 3), here.line, static_cast<std::uint32_t>(rest_col + eq + 3));
      PatternParser parser(src);
      auto p = parser.parse();
      if (!p) return p.error();
      if (Status s = check_macro_body(*p, name); !s) return s;
      macros_.emplace(name, std::move(*p));
      return Status::Ok();
    }
    if (keyword == "rule") {
      if (rest.empty() || rest.find(' ') != std::string::npos) {
        return error_at(rest_at, "expected 'rule NAME' (one word)");
      }
      for (const Rule& r : g_.rules_) {
        if (r.name == rest) return error_at(rest_at, "rule '" + rest + "' defined twice");
      }
      in_rule_ = true;
      rule_ = Rule{};
      rule_.name = rest;
      rule_.where = here;
      properties_.clear();
      refers_src_ = SourceText{};
      defines_src_ = SourceText{};
      return Status::Ok();
    }
    return error_at(here, "unknown declaration '" + keyword +
                              "' (expected lexicon, window, partitions, set, define or rule)");
  }

  Status check_macro_body(const Pattern& p, const std::string& macro) {
    if (p.op == Pattern::Op::kCapture) {
      return error_at(p.where, "captures are not allowed inside a macro ('" + macro +
                                   "'): capture the macro where it is used");
    }
    if (p.op == Pattern::Op::kMacro && macros_.count(p.name) == 0) {
      return error_at(p.where, "macro '" + p.name + "' is not defined before '" + macro + "'");
    }
    for (const Pattern& c : p.children) {
      if (Status s = check_macro_body(c, macro); !s) return s;
    }
    return Status::Ok();
  }

  Status rule_line(const std::string& line, std::size_t indent, const Location& here) {
    if (!in_rule_) return error_at(here, "an indented line belongs to a rule: no 'rule' before");
    const std::string body = line.substr(indent);
    const std::size_t colon = body.find(':');
    std::string key = colon == std::string::npos ? std::string() : body.substr(0, colon);
    bool is_key = !key.empty() && key.find(' ') == std::string::npos;
    static const std::set<std::string> kKeys = {"doc",     "match",     "emit",    "refers",
                                                "defines", "continues", "heading", "complete",
                                                "years",   "example",   "counter"};
    if (is_key && kKeys.count(key) == 0) {
      // "x:y" at the start of a continuation line is a capture, not a key.
      if (properties_.empty() || indent <= last_indent_) {
        return error_at(here, "unknown rule property '" + key +
                                  "' (expected doc, match, emit, refers, defines, continues, "
                                  "heading, complete, years, example, counter)");
      }
      is_key = false;
    }
    if (is_key) {
      std::size_t v = colon + 1;
      while (v < body.size() && body[v] == ' ') ++v;
      Property p;
      p.key = key;
      p.value.file = here.file;
      p.value.append(body.substr(v), here.line, static_cast<std::uint32_t>(indent + v + 1));
      properties_.push_back(std::move(p));
      last_indent_ = indent;
      return Status::Ok();
    }
    if (properties_.empty() || indent <= last_indent_) {
      return error_at(here, "expected 'key: value' (a continuation line is indented further)");
    }
    Property& last = properties_.back();
    if (last.key == "example" || last.key == "counter") {
      return error_at(here, "examples and counter-examples are one line each");
    }
    last.value.append(body, here.line, static_cast<std::uint32_t>(indent + 1));
    return Status::Ok();
  }

  // The rule read so far, its properties read and checked, added to the grammar.
  Status finish_rule() {
    if (!in_rule_) return Status::Ok();
    in_rule_ = false;
    bool has_match = false;
    for (Property& p : properties_) {
      if (Status s = read_property(p, has_match); !s) return s;
    }
    if (Status s = check_rule(has_match); !s) return s;
    if (Status s = read_templates(); !s) return s;
    g_.rules_.push_back(std::move(rule_));
    return Status::Ok();
  }

  // One property of the rule being read.
  Status read_property(Property& p, bool& has_match) {
    const Location at = p.value.at(0);
    if (p.key == "doc") {
      rule_.doc = p.value.text;
    } else if (p.key == "match") {
      if (has_match) return error_at(at, "a rule has one 'match'");
      PatternParser parser(p.value);
      auto pattern = parser.parse();
      if (!pattern) return pattern.error();
      rule_.match = std::move(*pattern);
      has_match = true;
    } else if (p.key == "emit") {
      rule_.emit = p.value.text;
      emit_src_ = p.value;
    } else if (p.key == "refers") {
      return read_refers(p, at);
    } else if (p.key == "defines") {
      rule_.defines = true;
      defines_src_ = p.value;
    } else if (p.key == "continues") {
      char extra;
      if (std::sscanf(p.value.text.c_str(), "%d%c", &rule_.continues, &extra) != 1 ||
          rule_.continues < 1 || rule_.continues > 16) {
        return error_at(at, "expected the number of units allowed between the citations (1-16)");
      }
    } else if (p.key == "years") {
      return read_years(p, at);
    } else if (p.key == "heading") {
      if (p.value.text != "yes" && p.value.text != "no") {
        return error_at(at, "expected 'yes' or 'no'");
      }
      rule_.heading = p.value.text == "yes";
    } else if (p.key == "complete") {
      const int cls = g_.lexicon_.class_index(p.value.text);
      if (cls < 0) return error_at(at, "no lexicon class '" + p.value.text + "' declared");
      if (g_.lexicon_.classes()[static_cast<std::size_t>(cls)].column("work") < 0) {
        return error_at(at, "lexicon class '" + p.value.text + "' has no column 'work'");
      }
      rule_.complete_class = cls;
    } else if (p.key == "example" || p.key == "counter") {
      return read_example(p, at);
    }
    return Status::Ok();
  }

  // "refers: self", "self {capture.attribute}", "previous" or "previous {capture.attribute}".
  Status read_refers(const Property& p, const Location& at) {
    const std::string& v = p.value.text;
    if (v == "self") {
      rule_.refers = Rule::Refers::kSelf;
    } else if (v.rfind("self ", 0) == 0) {
      rule_.refers = Rule::Refers::kSelf;
      refers_src_ = p.value;
    } else if (v == "previous") {
      rule_.refers = Rule::Refers::kPrevious;
    } else if (v.rfind("previous ", 0) == 0) {
      rule_.refers = Rule::Refers::kPreviousMeasure;
      refers_src_ = p.value;
    } else {
      return error_at(at,
                      "expected 'self', 'self {capture.attribute}', 'previous' or 'previous "
                      "{capture.attribute}'");
    }
    return Status::Ok();
  }

  // "years: CAPTURE FROM-TO".
  Status read_years(const Property& p, const Location& at) {
    // "y 2000-", "y 1921-1972", "y -1972"
    const std::string& v = p.value.text;
    const std::size_t space = v.find(' ');
    const std::size_t dash = v.find('-', space == std::string::npos ? 0 : space);
    auto year_at = [&](std::string_view t, int& out) {
      if (t.empty()) return true;
      if (t.size() != 4) return false;
      out = 0;
      for (char c : t) {
        if (c < '0' || c > '9') return false;
        out = out * 10 + (c - '0');
      }
      return true;
    };
    if (space == std::string::npos || space == 0 || dash == std::string::npos ||
        !year_at(std::string_view(v).substr(space + 1, dash - space - 1), rule_.years_from) ||
        !year_at(std::string_view(v).substr(dash + 1), rule_.years_to) ||
        rule_.years_from > rule_.years_to || (dash == v.size() - 1 && dash == space + 1)) {
      return error_at(at,
                      "expected 'CAPTURE FROM-TO' with four-digit years, either one "
                      "left out ('y 2000-', 'y 1921-1972', 'y -1972')");
    }
    rule_.years_capture = v.substr(0, space);
    years_at_ = at;
    return Status::Ok();
  }

  // "example: TEXT => URN [; URN]" or "counter: TEXT".
  Status read_example(const Property& p, const Location& at) {
    Example ex;
    ex.line = at.line;
    const std::string& v = p.value.text;
    const std::size_t arrow = v.find("=>");
    if (p.key == "example") {
      if (arrow == std::string::npos) return error_at(at, "expected 'TEXT => URN [; URN]'");
      ex.text = v.substr(0, arrow);
      while (!ex.text.empty() && ex.text.back() == ' ') ex.text.pop_back();
      std::string urns = v.substr(arrow + 2);
      std::size_t start = 0;
      while (start <= urns.size()) {
        std::size_t semi = urns.find(';', start);
        // ';' also appears inside URNs: a separator is "; " followed by "urn:".
        while (semi != std::string::npos && urns.compare(semi, 6, "; urn:") != 0) {
          semi = urns.find(';', semi + 1);
        }
        std::string one = urns.substr(start, semi == std::string::npos ? semi : semi - start);
        while (!one.empty() && one.front() == ' ') one.erase(0, 1);
        while (!one.empty() && one.back() == ' ') one.pop_back();
        if (!one.empty()) ex.urns.push_back(one);
        if (semi == std::string::npos) break;
        start = semi + 1;
      }
      rule_.examples.push_back(std::move(ex));
    } else {
      if (arrow != std::string::npos) {
        return error_at(at, "a counter-example is only a text (it must give nothing)");
      }
      ex.text = v;
      rule_.counters.push_back(std::move(ex));
    }
    // "\n" in an example's text is a line break (grammars whose `line-break` setting
    // makes lines blocks test it so).
    std::string& text =
        p.key == "example" ? rule_.examples.back().text : rule_.counters.back().text;
    for (std::size_t i = text.find("\\n"); i != std::string::npos; i = text.find("\\n", i)) {
      text.replace(i, 2, "\n");
      ++i;
    }
    return Status::Ok();
  }

  // What every rule must have: a doc, a match that cannot match nothing, a citation to give
  // (emit or refers, or defines), an example, captures named once.
  Status check_rule(bool has_match) {
    if (rule_.doc.empty()) return error_at(rule_.where, "rule '" + rule_.name + "' has no doc");
    if (!has_match) return error_at(rule_.where, "rule '" + rule_.name + "' has no match");
    if (rule_.emit.empty() && rule_.refers == Rule::Refers::kNone && !rule_.defines) {
      return error_at(rule_.where, "rule '" + rule_.name + "' has neither emit nor refers");
    }
    if (rule_.examples.empty()) {
      return error_at(rule_.where, "rule '" + rule_.name + "' has no example");
    }
    // A rule that matches nothing at all would loop.
    if (matches_empty(rule_.match, 0)) {
      return error_at(rule_.where, "rule '" + rule_.name + "' matches empty text");
    }
    collect_captures(rule_.match, rule_.captures);
    std::set<std::string> seen;
    for (const std::string& c : rule_.captures) {
      if (!seen.insert(c).second) {
        return error_at(rule_.where,
                        "capture '" + c + "' appears twice in rule '" + rule_.name + "'");
      }
    }
    if (!rule_.years_capture.empty() && seen.count(rule_.years_capture) == 0) {
      return error_at(years_at_,
                      "no capture '" + rule_.years_capture + "' in rule '" + rule_.name + "'");
    }
    return Status::Ok();
  }

  // The templates of emit, refers and defines, read now that the captures are known.
  Status read_templates() {
    if (!rule_.emit.empty()) {
      auto parts = parse_template(emit_src_, rule_);
      if (!parts) return parts.error();
      rule_.emit_parts = std::move(*parts);
    }
    if (rule_.refers == Rule::Refers::kSelf && !refers_src_.text.empty()) {
      // "self {s.measure}": the document itself, when its measure type is that value.
      const SourceText t = refers_src_.after(5);  // after "self "
      auto parts = parse_template(t, rule_);
      if (!parts) return parts.error();
      if (parts->size() != 1 || parts->front().choices.empty()) {
        return error_at(t.at(0), "expected one placeholder such as {s.measure}");
      }
      rule_.refers_measure = std::move(parts->front());
    }
    if (rule_.refers == Rule::Refers::kPreviousMeasure) {
      const SourceText t = refers_src_.after(9);  // after "previous "
      auto parts = parse_template(t, rule_);
      if (!parts) return parts.error();
      // "{type.measure}", or "{type.measure} {y:year}": the last act of that type and year.
      const bool one = parts->size() == 1 && !parts->front().choices.empty();
      const bool two = measure_and_year(*parts);
      // "code": the last act of that measure type, written out.
      const bool literal = parts->size() == 1 && parts->front().choices.empty();
      if (!one && !two && !literal) {
        return error_at(t.at(0),
                        "expected a placeholder such as {type.measure}, and maybe one for the "
                        "year: {type.measure} {y:year}, or a measure type");
      }
      if (two) rule_.refers_year = std::move((*parts)[2]);
      rule_.refers_measure = std::move(parts->front());
    }
    if (rule_.defines) {
      if (rule_.refers != Rule::Refers::kNone || !rule_.emit.empty() || rule_.heading ||
          rule_.continues > 0) {
        return error_at(defines_src_.at(0),
                        "a 'defines' rule gives no citation: no 'emit', 'refers', 'continues' "
                        "nor 'heading'");
      }
      rule_.defines_next = defines_src_.text.rfind("next ", 0) == 0;
      const SourceText t = rule_.defines_next ? defines_src_.after(5) : defines_src_;
      auto parts = parse_template(t, rule_);
      if (!parts) return parts.error();
      if (!measure_and_year(*parts)) {
        return error_at(defines_src_.at(0),
                        "expected the measure type and the year: {type.measure} {y:year}");
      }
      rule_.refers_year = std::move((*parts)[2]);
      rule_.refers_measure = std::move(parts->front());
    }
    return Status::Ok();
  }

  // Whether `p` matches the empty sequence of units.
  bool matches_empty(const Pattern& p, int depth) const {
    if (depth > 64) return false;  // a macro loop: emit_regex reports it
    switch (p.op) {
      case Pattern::Op::kSeq:
        return std::all_of(p.children.begin(), p.children.end(),
                           [&](const Pattern& c) { return matches_empty(c, depth + 1); });
      case Pattern::Op::kAlt:
        return std::any_of(p.children.begin(), p.children.end(),
                           [&](const Pattern& c) { return matches_empty(c, depth + 1); });
      case Pattern::Op::kRepeat: return p.min == 0 || matches_empty(p.children[0], depth + 1);
      case Pattern::Op::kCapture: return matches_empty(p.children[0], depth + 1);
      case Pattern::Op::kMacro: {
        auto it = macros_.find(p.name);
        return it != macros_.end() && matches_empty(it->second, depth + 1);
      }
      case Pattern::Op::kClass:
      case Pattern::Op::kLiteral:
      case Pattern::Op::kBuiltin: return false;
    }
    return false;
  }

  static void collect_captures(const Pattern& p, std::vector<std::string>& out) {
    if (p.op == Pattern::Op::kCapture) out.push_back(p.name);
    for (const Pattern& c : p.children) collect_captures(c, out);
  }

  // The lexicon classes a capture's pattern can be (empty when it can be something else).
  std::vector<int> capture_classes(const Pattern& p) const {
    std::vector<int> out;
    std::function<bool(const Pattern&)> walk = [&](const Pattern& q) -> bool {
      switch (q.op) {
        case Pattern::Op::kClass: {
          const int c = g_.lexicon_.class_index(q.name);
          if (c < 0) return false;
          out.push_back(c);
          return true;
        }
        case Pattern::Op::kAlt:
          for (const Pattern& c : q.children) {
            if (!walk(c)) return false;
          }
          return true;
        case Pattern::Op::kRepeat: return q.max == 1 && walk(q.children[0]);
        default: return false;
      }
    };
    if (!walk(p)) out.clear();
    return out;
  }

  const Pattern* find_capture(const Pattern& p, const std::string& name) const {
    if (p.op == Pattern::Op::kCapture && p.name == name) return &p;
    for (const Pattern& c : p.children) {
      if (const Pattern* f = find_capture(c, name)) return f;
    }
    return nullptr;
  }

  Result<std::vector<TemplatePart>> parse_template(const SourceText& src, const Rule& rule) {
    std::vector<TemplatePart> parts;
    const std::string& s = src.text;
    std::size_t i = 0;
    std::string literal;
    while (i < s.size()) {
      if (s[i] != '{') {
        if (s[i] == '}') return error_at(src.at(i), "'}' without '{'");
        literal += s[i++];
        continue;
      }
      if (!literal.empty()) {
        parts.push_back(TemplatePart{literal, {}});
        literal.clear();
      }
      const std::size_t close = s.find('}', i);
      if (close == std::string::npos) return error_at(src.at(i), "'{' without '}'");
      TemplatePart part;
      std::size_t k = i + 1;
      while (k <= close) {
        std::size_t bar = s.find('|', k);
        if (bar == std::string::npos || bar > close) bar = close;
        std::string choice = s.substr(k, bar - k);
        const Location at = src.at(k);
        TemplatePart::Choice c;
        if (!choice.empty() && choice[0] == '!') {
          c.literal = choice.substr(1);
          c.partial = true;
        } else {
          const std::size_t colon = choice.find(':');
          if (colon != std::string::npos) {
            c.interpreter = choice.substr(colon + 1);
            choice = choice.substr(0, colon);
            bool ok = false;
            for (const char* known : kInterpreters) ok = ok || c.interpreter == known;
            using Read = TemplatePart::Choice::Read;
            c.read = c.interpreter == "date"     ? Read::kDate
                     : c.interpreter == "year"   ? Read::kYear
                     : c.interpreter == "digits" ? Read::kDigits
                     : c.interpreter == "roman"  ? Read::kRoman
                     : c.interpreter == "text"   ? Read::kText
                                                 : Read::kNumber;
            if (!ok) {
              return error_at(at, "unknown interpreter '" + c.interpreter +
                                      "' (known: date, year, number, digits, roman, text)");
            }
          }
          const std::size_t dot = choice.find('.');
          c.capture = choice.substr(0, dot);
          if (dot != std::string::npos) c.attribute = choice.substr(dot + 1);
          const Pattern* cap = find_capture(rule.match, c.capture);
          if (cap == nullptr && rule.continues == 0) {
            return error_at(at, "no capture '" + c.capture + "' in rule '" + rule.name + "'");
          }
          if (cap != nullptr && !c.attribute.empty()) {
            const std::vector<int> classes = capture_classes(cap->children[0]);
            if (classes.empty()) {
              return error_at(at, "'" + c.capture + "." + c.attribute + "': capture '" + c.capture +
                                      "' is not a lexicon class, it has no attributes");
            }
            for (int cls : classes) {
              const auto& lc = g_.lexicon_.classes()[static_cast<std::size_t>(cls)];
              if (lc.column(c.attribute) < 0) {
                return error_at(at, "class '" + lc.name + "' (" + lc.file + ") has no column '" +
                                        c.attribute + "'");
              }
            }
          }
        }
        part.choices.push_back(std::move(c));
        k = bar + 1;
      }
      parts.push_back(std::move(part));
      i = close + 1;
    }
    if (!literal.empty()) parts.push_back(TemplatePart{literal, {}});
    return parts;
  }

  // --- compilation to symbol regexes -------------------------------------------------------

  // An error of the grammar as a whole, located at its folder (as the extractor's "declares no
  // trigger" is).
  Error folder_error(std::string message) const {
    Error e = make_error(ErrorCode::kDataError, std::move(message));
    e.file = "grammars/" + g_.name_;
    return e;
  }

  Status compile() {
    if (g_.rules_.empty()) {
      return folder_error("grammar '" + g_.name_ + "' has no rule");
    }
    // Symbols: fixed, then one per lexicon class, then one per literal.
    g_.symbol_names_ = {"BREAK",         "NUM1",   "NUM2",  "NUM3", "NUM4",  "NUM5+",
                        "LETTER(roman)", "LETTER", "ROMAN", "WORD", "PUNCT", "TITLE"};
    std::size_t next = symbol::kFirstDynamic;
    for (const auto& c : g_.lexicon_.classes()) {
      g_.class_symbol_.push_back(static_cast<std::uint8_t>(next++));
      g_.symbol_names_.push_back(c.name);
    }
    // `PLURAL`: the partition words that announce a list get a symbol of their own, which the
    // partitions class's element also matches.
    const Pattern* plural = nullptr;
    for (const auto& [name, m] : macros_) plural = plural ? plural : find_builtin(m, "PLURAL");
    for (const Rule& r : g_.rules_) plural = plural ? plural : find_builtin(r.match, "PLURAL");
    if (plural != nullptr) {
      if (g_.partitions_class_ < 0) {
        return error_at(plural->where, "PLURAL needs a 'partitions' class");
      }
      if (next > 255) {
        return folder_error("grammar '" + g_.name_ + "' uses more than 244 classes and literals");
      }
      const auto& pc = g_.lexicon_.classes()[static_cast<std::size_t>(g_.partitions_class_)];
      const int c_plural = pc.column("plural");
      g_.plural_row_.assign(pc.rows.size(), 0);
      for (std::size_t r = 0; r < pc.rows.size(); ++r) {
        g_.plural_row_[r] = pc.rows[r][static_cast<std::size_t>(c_plural)] == "yes" ? 1 : 0;
      }
      g_.plural_symbol_ = static_cast<std::uint8_t>(next++);
      g_.symbol_names_.push_back(pc.name + "(plural)");
    }
    // `SUFFIX`: the short words written against a number get a symbol of their own, which
    // WORD also matches.
    bool suffix = false;
    for (const auto& [name, m] : macros_) suffix = suffix || find_builtin(m, "SUFFIX") != nullptr;
    for (const Rule& r : g_.rules_) suffix = suffix || find_builtin(r.match, "SUFFIX") != nullptr;
    if (suffix) {
      if (next > 255) {
        return folder_error("grammar '" + g_.name_ + "' uses more than 244 classes and literals");
      }
      g_.suffix_symbol_ = static_cast<std::uint8_t>(next++);
      g_.symbol_names_.push_back("SUFFIX");
    }
    std::set<std::string> literals;
    for (const auto& [name, m] : macros_) collect_literals(m, literals);
    for (const Rule& r : g_.rules_) collect_literals(r.match, literals);
    for (const std::string& lit : literals) {
      if (next > 255) {
        return folder_error("grammar '" + g_.name_ + "' uses more than 244 classes and literals");
      }
      g_.literal_symbol_.emplace(lit, static_cast<std::uint8_t>(next++));
      g_.symbol_names_.push_back("\"" + lit + "\"");
    }
    for (const auto& [lit, sym] : g_.literal_symbol_) g_.literal_index_.add(lit, sym);
    g_.literal_index_.build();
    {
      std::vector<std::string> words;
      for (const auto& [lit, sym] : g_.literal_symbol_) words.push_back(lit);
      g_.lexicon_.add_words(words);
      g_.lexicon_.index();
    }
    g_.literal_by_word_.assign(g_.lexicon_.word_count(), -1);
    for (const auto& [lit, sym] : g_.literal_symbol_) {
      g_.literal_by_word_[g_.lexicon_.word_id(lit)] = sym;
    }
    g_.word_code_.assign(g_.lexicon_.word_count(), Grammar::kCodeShape);
    for (std::uint32_t id = 0; id < g_.lexicon_.word_count(); ++id) {
      const std::int16_t lit = g_.literal_by_word_[id];
      if (g_.lexicon_.may_start_phrase(id)) {
        g_.word_code_[id] = Grammar::kCodePhrase;
      } else if (lit >= 0) {
        g_.word_code_[id] = static_cast<std::uint8_t>(lit);
      }
    }
    for (Rule& r : g_.rules_) {
      std::string regex;
      if (Status s = emit_regex(r.match, regex, 0); !s) return s;
      r.regex = std::move(regex);
    }
    return Status::Ok();
  }

  // The first element of `p` that is the builtin `name`, or null.
  static const Pattern* find_builtin(const Pattern& p, std::string_view name) {
    if (p.op == Pattern::Op::kBuiltin && p.name == name) return &p;
    for (const Pattern& c : p.children) {
      if (const Pattern* f = find_builtin(c, name)) return f;
    }
    return nullptr;
  }

  void collect_literals(const Pattern& p, std::set<std::string>& out) {
    if (p.op == Pattern::Op::kLiteral) out.insert(p.name);
    for (const Pattern& c : p.children) collect_literals(c, out);
  }

  // "\xHH" (lower-case hex): by hand, as snprintf was a fifth of a warm load's instructions.
  static void append_byte(std::string& out, std::uint8_t b) {
    constexpr char kHex[] = "0123456789abcdef";
    const char buf[4] = {'\\', 'x', kHex[b >> 4], kHex[b & 15]};
    out.append(buf, 4);
  }

  // The symbols a builtin stands for, literals included.
  std::vector<std::uint8_t> builtin_symbols(const std::string& name) const {
    using namespace symbol;
    std::vector<std::uint8_t> out;
    auto literal_if = [&](auto pred) {
      for (const auto& [lit, sym] : g_.literal_symbol_) {
        if (pred(lit)) out.push_back(sym);
      }
    };
    auto digits = [](const std::string& s) {
      return !s.empty() &&
             std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    auto word = [](const std::string& s) {
      const auto c = static_cast<unsigned char>(s[0]);
      return (c >= 'a' && c <= 'z') || c >= 0x80;
    };
    auto punct = [&](const std::string& s) { return !digits(s) && !word(s); };
    if (name == "ANY") {
      for (int b = 1; b < 256; ++b) out.push_back(static_cast<std::uint8_t>(b));
      return out;
    }
    if (name == "NUM") {
      out = {kNum1, kNum2, kNum3, kNum4, kNum5};
      literal_if(digits);
    } else if (name.rfind("NUM", 0) == 0) {
      const int n = name[3] - '0';
      out = {static_cast<std::uint8_t>(n)};
      literal_if([&](const std::string& s) {
        return digits(s) && (n == 5 ? s.size() >= 5 : s.size() == static_cast<std::size_t>(n));
      });
    } else if (name == "DAY") {
      out = {kNum1, kNum2};
      literal_if([&](const std::string& s) { return digits(s) && s.size() <= 2; });
    } else if (name == "YEAR") {
      out = {kNum4};
      literal_if([&](const std::string& s) { return digits(s) && s.size() == 4; });
    } else if (name == "WORD") {
      out = {kLetterRoman, kLetter, kRoman, kWord, kTitle};
      if (g_.suffix_symbol_ != 0) out.push_back(g_.suffix_symbol_);
      literal_if(word);
    } else if (name == "TITLE") {
      out = {kTitle};
    } else if (name == "LETTER") {
      out = {kLetterRoman, kLetter};
      literal_if([&](const std::string& s) {
        return word(s) && lexicon::normalize_phrase(s).size() == 1;
      });
    } else if (name == "ROMAN") {
      out = {kLetterRoman, kRoman};
      literal_if([&](const std::string& s) { return Grammar::is_roman(s); });
    } else if (name == "PUNCT") {
      out = {kPunct};
      literal_if(punct);
    } else if (name == "PLURAL") {
      out = {g_.plural_symbol_};
    } else if (name == "SUFFIX") {
      out = {g_.suffix_symbol_};
    }
    return out;
  }

  Status emit_regex(const Pattern& p, std::string& out, int depth) {
    if (depth > 64) return error_at(p.where, "patterns nest too deeply (macro loop?)");
    switch (p.op) {
      case Pattern::Op::kSeq:
        for (const Pattern& c : p.children) {
          if (Status s = emit_regex(c, out, depth + 1); !s) return s;
        }
        return Status::Ok();
      case Pattern::Op::kAlt:
        out += "(?:";
        for (std::size_t i = 0; i < p.children.size(); ++i) {
          if (i > 0) out += '|';
          if (Status s = emit_regex(p.children[i], out, depth + 1); !s) return s;
        }
        out += ')';
        return Status::Ok();
      case Pattern::Op::kRepeat: {
        out += "(?:";
        if (Status s = emit_regex(p.children[0], out, depth + 1); !s) return s;
        out += ')';
        if (p.min == 0 && p.max == 1) {
          out += '?';
        } else if (p.min == 0 && p.max == -1) {
          out += '*';
        } else if (p.min == 1 && p.max == -1) {
          out += '+';
        } else {
          out += '{' + std::to_string(p.min) + ',' + (p.max < 0 ? "" : std::to_string(p.max)) + '}';
        }
        return Status::Ok();
      }
      case Pattern::Op::kCapture:
        out += "(?P<" + p.name + ">";
        if (Status s = emit_regex(p.children[0], out, depth + 1); !s) return s;
        out += ')';
        return Status::Ok();
      case Pattern::Op::kClass: {
        const int c = g_.lexicon_.class_index(p.name);
        if (c < 0) return error_at(p.where, "no lexicon class '" + p.name + "' declared");
        if (c == g_.partitions_class_ && g_.plural_symbol_ != 0) {  // both kinds of level word
          out += "(?:";
          append_byte(out, g_.class_symbol_[static_cast<std::size_t>(c)]);
          out += '|';
          append_byte(out, g_.plural_symbol_);
          out += ')';
          return Status::Ok();
        }
        append_byte(out, g_.class_symbol_[static_cast<std::size_t>(c)]);
        return Status::Ok();
      }
      case Pattern::Op::kLiteral: {
        // A literal that is a lexicon phrase would never be a unit of its own.
        lexicon::Tokens t;
        lexicon::tokenize(p.name, t);
        const lexicon::PhraseMatch m = g_.lexicon_.longest_at(t, 0);
        if (m.cls >= 0 && m.count == 1) {
          const auto& lc = g_.lexicon_.classes()[static_cast<std::size_t>(m.cls)];
          return error_at(p.where, "the literal \"" + p.name + "\" is a phrase of class '" +
                                       lc.name + "' (" + lc.file + "): use the class");
        }
        append_byte(out, g_.literal_symbol_.at(p.name));
        return Status::Ok();
      }
      case Pattern::Op::kBuiltin: {
        const auto syms = builtin_symbols(p.name);
        if (p.name == "ANY") {
          out += "[\\x01-\\xff]";
          return Status::Ok();
        }
        out += '[';
        for (std::uint8_t b : syms) append_byte(out, b);
        out += ']';
        return Status::Ok();
      }
      case Pattern::Op::kMacro: {
        auto it = macros_.find(p.name);
        if (it == macros_.end()) return error_at(p.where, "no macro '" + p.name + "' defined");
        out += "(?:";
        if (Status s = emit_regex(it->second, out, depth + 1); !s) return s;
        out += ')';
        return Status::Ok();
      }
    }
    return Status::Ok();
  }

  // The settings name levels of the partitions class, which may be declared after them.
  Status finish_settings() {
    std::vector<std::string> ids;
    const bool has_partitions = g_.partitions_class_ >= 0;
    if (has_partitions) {
      const auto& c = g_.lexicon_.classes()[static_cast<std::size_t>(g_.partitions_class_)];
      const auto col = static_cast<std::size_t>(c.column("id"));
      for (const auto& row : c.rows) ids.push_back(col < row.size() ? row[col] : std::string());
    }
    if (Status s = settings_.finish(ids, has_partitions); !s) return s;
    g_.settings_ = settings_.settings();
    return Status::Ok();
  }

  std::string data_dir_;
  Grammar g_;
  SettingsReader settings_;
  std::map<std::string, Pattern> macros_;
  bool in_rule_ = false;
  Rule rule_;
  std::vector<Property> properties_;
  std::size_t last_indent_ = 0;
  SourceText emit_src_;
  SourceText refers_src_;
  SourceText defines_src_;
  Location years_at_;
  std::uint64_t hash_ = 0;
};

Result<Grammar> Grammar::load(const std::string& data_dir, const std::string& name) {
  return Loader(data_dir, name).run();
}

}  // namespace lexlink::grammar

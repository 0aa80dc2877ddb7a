// The URN:LEX recursive-descent parser. One template serves `parse` (builds the tree) and
// `validate` (builds nothing); every production is one member function named after it.
#include <unicode/uchar.h>

#include <array>
#include <cstdio>

#include "common/utf8.h"
#include "urn/percent.h"
#include "urn/urn.h"

namespace lexlink::urn {

const char* to_string(Kind kind) {
  switch (kind) {
    case Kind::kReference: return "URN-reference";
    case Kind::kJurisdiction: return "jurisdiction";
    case Kind::kJurisdictionCode: return "jurisdiction-code";
    case Kind::kJurisdictionUnit: return "jurisdiction-unit";
    case Kind::kWork: return "work";
    case Kind::kAuthority: return "authority";
    case Kind::kIssuer: return "issuer";
    case Kind::kInstitution: return "institution";
    case Kind::kBodyFunction: return "body-function";
    case Kind::kMeasure: return "measure";
    case Kind::kMeasureType: return "measure-type";
    case Kind::kSpecification: return "specification";
    case Kind::kDetails: return "details";
    case Kind::kDates: return "dates";
    case Kind::kDate: return "date";
    case Kind::kDateIso: return "date-iso";
    case Kind::kDateLocal: return "date-loc";
    case Kind::kPeriod: return "period";
    case Kind::kNumbers: return "numbers";
    case Kind::kDocumentId: return "document-id";
    case Kind::kNumberLex: return "number-lex";
    case Kind::kAnnex: return "annex";
    case Kind::kAnnexId: return "annex-id";
    case Kind::kExpression: return "expression";
    case Kind::kVersion: return "version";
    case Kind::kEvent: return "event";
    case Kind::kLanguage: return "language";
    case Kind::kManifestation: return "manifestation";
    case Kind::kFormat: return "format";
    case Kind::kMime: return "mime";
    case Kind::kEditor: return "editor";
    case Kind::kPublisher: return "publisher";
    case Kind::kComponent: return "component";
    case Kind::kPart: return "part";
    case Kind::kFeature: return "feature";
    case Kind::kAttribute: return "attribute";
    case Kind::kPartition: return "partition-id";
    case Kind::kQuery: return "query";
    case Kind::kFragment: return "fragment";
  }
  return "?";
}

namespace {

// Character classes of the ABNF, one table lookup per byte.
enum : std::uint8_t {
  kAlnum = 1,        // alfa / DIGIT
  kDot = 2,          // "."
  kOther = 4,        // "-" / "_" / "'" / "=" / "(" / ")"
  kHex = 8,          // HEXDIG
  kAlpha = 16,       // alfa
  kDigit = 32,       // DIGIT
  kUnreserved = 64,  // RFC 3986 unreserved: ALPHA DIGIT - . _ ~
  kSubDelim = 128,   // RFC 3986 sub-delims: ! $ & ' ( ) * + , ; =
};

constexpr std::array<std::uint8_t, 256> make_classes() {
  std::array<std::uint8_t, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] |= kAlnum | kAlpha | kUnreserved;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] |= kAlnum | kAlpha | kUnreserved;
  for (int c = '0'; c <= '9'; ++c) t[c] |= kAlnum | kDigit | kHex | kUnreserved;
  for (int c = 'a'; c <= 'f'; ++c) t[c] |= kHex;
  for (int c = 'A'; c <= 'F'; ++c) t[c] |= kHex;
  t['.'] |= kDot | kUnreserved;
  for (char c : {'-', '_', '\'', '=', '(', ')'}) t[static_cast<unsigned char>(c)] |= kOther;
  for (char c : {'-', '_', '~'}) t[static_cast<unsigned char>(c)] |= kUnreserved;
  for (char c : {'!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '='}) {
    t[static_cast<unsigned char>(c)] |= kSubDelim;
  }
  return t;
}
constexpr std::array<std::uint8_t, 256> kClass = make_classes();

inline std::uint8_t cls(char c) {
  return kClass[static_cast<unsigned char>(c)];
}

bool is_leap(int y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int days_in_month(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m - 1];
}

// Which extra characters a word may contain after its first alfanum.
enum class Word : std::uint8_t {
  kAlfDot,     // alfanum *alfadot
  kAlfDotHyp,  // alfanum *(alfadot / "-")
  kAlfDotOth,  // alfanum *(alfadot / other)
};

struct NullTree {
  static int open(Kind, std::size_t) { return -1; }
  static void close(int, std::size_t) {}
  static void set_kind(int, Kind) {}
};

struct VectorTree {
  std::vector<Node>* nodes;
  int current = -1;
  int open(Kind kind, std::size_t begin) {
    nodes->push_back(
        Node{kind, current, static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(begin)});
    current = static_cast<int>(nodes->size()) - 1;
    return current;
  }
  void close(int index, std::size_t end) {
    Node& n = (*nodes)[static_cast<std::size_t>(index)];
    n.end = static_cast<std::uint32_t>(end);
    current = n.parent;
  }
  void set_kind(int index, Kind kind) { (*nodes)[static_cast<std::size_t>(index)].kind = kind; }
};

template <class Tree>
class Parser {
 public:
  Parser(std::string_view s, const ParseOptions& options, Tree& tree, ParseError* error)
      : s_(s), n_(s.size()), options_(options), tree_(tree), error_(error) {}

  bool reference();

 private:
  // --- productions -------------------------------------------------------------------------
  bool jurisdiction();
  bool work();
  bool authority();
  bool measure();
  bool details();
  bool dates();
  bool date();
  bool numbers();
  bool annex();
  bool expression();
  bool language();
  bool manifestation();
  bool qualified(Kind outer, Kind head, Word head_set, const char* expected);
  bool partition();
  bool query();
  bool fragment();

  // --- lexical helpers -----------------------------------------------------------------------
  bool at(char c) const { return p_ < n_ && s_[p_] == c; }
  bool looks_like_date() const {
    return p_ + 4 < n_ && (cls(s_[p_]) & kDigit) && (cls(s_[p_ + 1]) & kDigit) &&
           (cls(s_[p_ + 2]) & kDigit) && (cls(s_[p_ + 3]) & kDigit) && s_[p_ + 4] == '-';
  }
  // Consumes one alfanum (ASCII letter or digit, a percent-encoded character, or with allow_iri
  // a raw non-ASCII letter or digit). Returns 1 when consumed, 0 when the byte is not an
  // alfanum (nothing reported), -1 after reporting an error.
  int alfanum();
  // Consumes one percent-encoded character (one to four %HH triplets forming one UTF-8 char).
  int encoded();
  // Consumes `alfanum *(alfadot / extras)` as node `kind` (its index in `*node` when given).
  bool word(Kind kind, Word set, const char* expected, int* node = nullptr);
  // Consumes `*(alfadot / other)` (possibly empty), as in date-loc.
  bool loose_run();
  bool pct_hex_only();  // "%" 2HEXDIG (not %00) in query and fragment

  // --- errors --------------------------------------------------------------------------------
  bool fail(std::size_t pos, const char* expected, const char* production);
  bool fail_message(std::size_t pos, const char* expected, const char* production,
                    std::string message);
  std::string describe(std::size_t pos) const;
  std::string hint(std::size_t pos) const;

  std::string_view s_;
  std::size_t n_;
  std::size_t p_ = 0;
  const ParseOptions& options_;
  Tree& tree_;
  ParseError* error_;
  const char* production_ = "URN-reference";  // innermost production, for messages
};

template <class Tree>
std::string Parser<Tree>::describe(std::size_t pos) const {
  if (pos >= n_) return "the end of the name";
  const auto c = static_cast<unsigned char>(s_[pos]);
  char buf[48];
  if (c == ' ') return "a space";
  if (c == '\t') return "a tab";
  if (c == 0) return "a NUL byte";
  if (c < 0x20 || c == 0x7F) {
    std::snprintf(buf, sizeof buf, "the control character U+%04X", c);
    return buf;
  }
  if (c < 0x80) return std::string("'") + static_cast<char>(c) + "'";
  std::size_t len;
  const char32_t cp = utf8::decode(s_, pos, len);
  if (cp == utf8::kInvalid) {
    std::snprintf(buf, sizeof buf, "the invalid UTF-8 byte 0x%02X", c);
    return buf;
  }
  return "'" + std::string(s_.substr(pos, len)) + "' (" + utf8::code_point_name(cp) + ")";
}

template <class Tree>
std::string Parser<Tree>::hint(std::size_t pos) const {
  if (pos >= n_) return {};
  switch (s_[pos]) {
    case ' ': return "; words are joined with '.' in URN:LEX names (spec 4.1)";
    case '/': return "; '/' is not allowed in URN:LEX names: write '-' (spec 3.2)";
    case '!':
      return "; '!' is reserved for future use: a partition follows '~' (LexML's '!' becomes "
             "'~')";
    case '*': return "; '*' is reserved for future use (spec 3.2)";
    case '\0': return "; NUL bytes are never allowed in a URN";
    case '|': return "; '|' may only follow a date, to give the date in local form (spec 3.6)";
    case ',': return "; ',' only separates repeated dates or numbers (spec 3.2)";
    case '+': return "; '+' only separates the issuers of a multiple authority (spec 6.1.2)";
    case '"':
    case '<':
    case '>':
    case '\\':
    case '^':
    case '`':
    case '{':
    case '}':
    case '[':
    case ']': return "; this character is excluded from URNs (RFC 8141): percent-encode it";
    default: return {};
  }
}

template <class Tree>
bool Parser<Tree>::fail(std::size_t pos, const char* expected, const char* production) {
  return fail_message(pos, expected, production,
                      std::string("expected ") + expected + ", found " + describe(pos) + hint(pos));
}

template <class Tree>
bool Parser<Tree>::fail_message(std::size_t pos, const char* expected, const char* production,
                                std::string message) {
  if (error_ != nullptr) {
    error_->position = pos;
    error_->expected = expected;
    error_->production = production;
    error_->code = ErrorCode::kInvalidArgument;
    error_->message = "byte " + std::to_string(pos) + " (" + production + "): " + message;
  }
  return false;
}

template <class Tree>
int Parser<Tree>::encoded() {
  const std::size_t start = p_;
  auto octet = [&](std::size_t at, int& value) -> bool {
    if (at >= n_ || s_[at] != '%') return false;
    if (at + 2 >= n_ || !(cls(s_[at + 1]) & kHex) || !(cls(s_[at + 2]) & kHex)) {
      fail_message(at, "two hex digits after '%'", "encoded",
                   "'%' must be followed by two hex digits (write a literal '%' as %25), found " +
                       describe(at + 1 < n_ && (cls(s_[at + 1]) & kHex) ? at + 2 : at + 1));
      value = -1;
      return true;
    }
    value = hex_value(s_[at + 1]) * 16 + hex_value(s_[at + 2]);
    return true;
  };
  int b0;
  octet(p_, b0);
  if (b0 < 0) return -1;
  if (b0 == 0) {
    fail_message(start, "a percent-encoded character", "encoded",
                 "%00 encodes NUL, which is never allowed in a URN (RFC 8141)");
    return -1;
  }
  if (b0 < 0x80) {
    const char c = static_cast<char>(b0);
    if ((cls(c) & (kAlnum | kDot | kOther))) {
      fail_message(start, "a character written literally", "encoded",
                   std::string("%") + std::string(s_.substr(start + 1, 2)) + " encodes '" + c +
                       "', which must be written literally: only reserved and excluded "
                       "characters are percent-encoded (RFC 8141 2.5.2)");
      return -1;
    }
    p_ += 3;
    return 1;
  }
  std::size_t need;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 1;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3;
  } else {
    char buf[96];
    std::snprintf(buf, sizeof buf, "percent-encoded byte 0x%02X cannot start a UTF-8 character",
                  b0);
    fail_message(start, "percent-encoded UTF-8", "encoded", buf);
    return -1;
  }
  char bytes[4] = {static_cast<char>(b0), 0, 0, 0};
  std::size_t q = p_ + 3;
  for (std::size_t k = 1; k <= need; ++k, q += 3) {
    int b;
    if (!octet(q, b)) {
      fail_message(q, "a percent-encoded UTF-8 continuation byte", "encoded",
                   "percent-encoded UTF-8 character is cut short: expected another %HH, found " +
                       describe(q));
      return -1;
    }
    if (b < 0) return -1;
    if ((b & 0xC0) != 0x80) {
      char buf[96];
      std::snprintf(buf, sizeof buf,
                    "percent-encoded bytes are not valid UTF-8: 0x%02X is not a continuation byte",
                    b);
      fail_message(q, "a percent-encoded UTF-8 continuation byte", "encoded", buf);
      return -1;
    }
    bytes[k] = static_cast<char>(b);
  }
  std::size_t len;
  if (utf8::decode(std::string_view(bytes, need + 1), 0, len) == utf8::kInvalid) {
    fail_message(start, "percent-encoded UTF-8", "encoded",
                 "percent-encoded bytes are not valid UTF-8 (overlong form or surrogate)");
    return -1;
  }
  p_ = q;
  return 1;
}

template <class Tree>
int Parser<Tree>::alfanum() {
  if (p_ >= n_) return 0;
  const char c = s_[p_];
  if (cls(c) & kAlnum) {
    ++p_;
    return 1;
  }
  if (c == '%') return encoded();
  if (static_cast<unsigned char>(c) < 0x80) return 0;
  std::size_t len;
  const char32_t cp = utf8::decode(s_, p_, len);
  if (cp == utf8::kInvalid) {
    fail_message(p_, "valid UTF-8", production_, "invalid UTF-8: found " + describe(p_));
    return -1;
  }
  if (!options_.allow_iri) {
    std::string enc;
    for (std::size_t k = 0; k < len; ++k) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(s_[p_ + k]));
      enc += buf;
    }
    fail_message(p_, "an ASCII letter or digit", production_,
                 "non-ASCII character " + describe(p_) + " must be percent-encoded (" + enc +
                     ") or folded to ASCII; `lexlink urn normalize [--fold]` does either");
    return -1;
  }
  // In the IRI form a raw character stands for its percent-encoding, which the ABNF counts as
  // an alfanum: anything goes but white space, controls, format characters and unassigned ones.
  const auto gc = U_GET_GC_MASK(static_cast<UChar32>(cp));
  if ((gc & (U_GC_Z_MASK | U_GC_CC_MASK | U_GC_CF_MASK | U_GC_CN_MASK | U_GC_CS_MASK)) != 0) {
    fail_message(p_, "a printable character", production_,
                 describe(p_) +
                     " is white space, a control or an invisible character: it is not "
                     "allowed in a name, not even percent-encoded by normalisation");
    return -1;
  }
  p_ += len;
  return 1;
}

template <class Tree>
bool Parser<Tree>::word(Kind kind, Word set, const char* expected, int* node_out) {
  const char* saved = production_;
  production_ = to_string(kind);
  const int node = tree_.open(kind, p_);
  if (node_out != nullptr) *node_out = node;
  int r = alfanum();
  if (r < 0) return false;
  if (r == 0) return fail(p_, expected, production_);
  const std::uint8_t mask = kAlnum | kDot | (set == Word::kAlfDotOth ? kOther : 0);
  const bool hyphen = set == Word::kAlfDotHyp;
  while (p_ < n_) {
    // Fast path: plain ASCII bytes of the word, one table lookup each.
    while (p_ < n_ && ((cls(s_[p_]) & mask) || (hyphen && s_[p_] == '-'))) ++p_;
    if (p_ >= n_ || (s_[p_] != '%' && static_cast<unsigned char>(s_[p_]) < 0x80)) break;
    r = alfanum();  // a percent-encoded or raw non-ASCII character
    if (r < 0) return false;
    if (r == 0) break;
  }
  tree_.close(node, p_);
  production_ = saved;
  return true;
}

template <class Tree>
bool Parser<Tree>::loose_run() {
  while (p_ < n_) {
    const char c = s_[p_];
    if (c == '.' || (cls(c) & kOther)) {
      ++p_;
      continue;
    }
    const int r = alfanum();
    if (r < 0) return false;
    if (r == 0) break;
  }
  return true;
}

template <class Tree>
bool Parser<Tree>::reference() {
  const int root = tree_.open(Kind::kReference, 0);
  auto ieq = [&](std::size_t at, const char* lit) {
    for (std::size_t k = 0; lit[k] != 0; ++k) {
      if (at + k >= n_ || (s_[at + k] | 0x20) != lit[k]) return false;
    }
    return true;
  };
  if (!ieq(0, "urn:")) return fail(0, "'urn:'", "URN-lex");
  p_ = 4;
  if (!ieq(4, "lex:")) {
    const std::size_t colon = s_.find(':', 4);
    if (colon != std::string_view::npos && colon > 4 && colon < 40) {
      std::string nid(s_.substr(4, colon - 4));
      std::string msg = "not a URN:LEX name: the namespace is '" + nid + "', expected 'lex'";
      if (nid == "nir" || nid == "NIR") {
        msg += "; urn:nir:X names the same act as urn:lex:it:X";
      }
      return fail_message(4, "'lex:'", "NID-lex", std::move(msg));
    }
    return fail(4, "'lex:'", "NID-lex");
  }
  p_ = 8;
  if (!jurisdiction()) return false;
  if (!at(':')) return fail(p_, "':' after the jurisdiction", "NSS-lex");
  ++p_;
  if (!work()) return false;
  if (at('@') && !expression()) return false;
  if (at('$') && !manifestation()) return false;
  if (at('~') && !partition()) return false;
  if (at('?') && !query()) return false;
  if (at('#') && !fragment()) return false;
  if (p_ != n_) {
    return fail(p_,
                "':' (annex), '@' (expression), '$' (manifestation), '~' (partition), or the "
                "end of the name",
                "URN-reference");
  }
  tree_.close(root, p_);
  return true;
}

template <class Tree>
bool Parser<Tree>::jurisdiction() {
  const int node = tree_.open(Kind::kJurisdiction, p_);
  const std::size_t start = p_;
  if (!word(Kind::kJurisdictionCode, Word::kAlfDot,
            "a jurisdiction code such as 'it' or 'eu' (ISO 3166 / domain name)")) {
    return false;
  }
  if (p_ - start < 2) {
    return fail_message(start, "a jurisdiction code of at least two characters",
                        "jurisdiction-code",
                        "the jurisdiction code '" + std::string(s_.substr(start, p_ - start)) +
                            "' is too short: it has at least two characters (spec 2.2)");
  }
  while (at(';')) {
    ++p_;
    if (!word(Kind::kJurisdictionUnit, Word::kAlfDot,
              "a jurisdiction unit such as 'sao.paulo' after ';'")) {
      return false;
    }
  }
  tree_.close(node, p_);
  return true;
}

template <class Tree>
bool Parser<Tree>::work() {
  const int node = tree_.open(Kind::kWork, p_);
  if (!authority()) return false;
  if (!at(':')) return fail(p_, "':' after the authority", "work");
  ++p_;
  if (!measure()) return false;
  if (!at(':')) return fail(p_, "':' after the measure", "work");
  ++p_;
  if (!details()) return false;
  while (at(':')) {
    ++p_;
    if (!annex()) return false;
  }
  tree_.close(node, p_);
  return true;
}

template <class Tree>
bool Parser<Tree>::authority() {
  const int node = tree_.open(Kind::kAuthority, p_);
  if (options_.allow_empty_authority && at(':')) {
    tree_.close(node, p_);
    return true;
  }
  do {
    if (at('+')) ++p_;
    const int issuer = tree_.open(Kind::kIssuer, p_);
    if (!word(Kind::kInstitution, Word::kAlfDot,
              "an issuing authority such as 'stato' or 'ministry.justice'")) {
      return false;
    }
    while (at(';')) {
      ++p_;
      if (!word(Kind::kBodyFunction, Word::kAlfDot, "a body or function after ';'")) return false;
    }
    tree_.close(issuer, p_);
  } while (at('+'));
  tree_.close(node, p_);
  return true;
}

template <class Tree>
bool Parser<Tree>::measure() {
  const int node = tree_.open(Kind::kMeasure, p_);
  if (!word(Kind::kMeasureType, Word::kAlfDot, "a type of measure such as 'legge' or 'act'")) {
    return false;
  }
  while (at(';')) {
    ++p_;
    if (!word(Kind::kSpecification, Word::kAlfDot, "a specification of the measure after ';'")) {
      return false;
    }
  }
  tree_.close(node, p_);
  return true;
}

template <class Tree>
bool Parser<Tree>::details() {
  const int node = tree_.open(Kind::kDetails, p_);
  if (looks_like_date()) {
    if (!dates()) return false;
  } else if (!word(Kind::kPeriod, Word::kAlfDot,
                   "the date (yyyy-mm-dd) or period (such as '14.legislature') of the measure")) {
    return false;
  }
  if (!at(';')) {
    const bool ends = p_ == n_ || at(':') || at('@') || at('$') || at('~') || at('?') || at('#');
    if (ends && options_.allow_unnumbered) {
      tree_.close(node, p_);
      return true;
    }
    if (ends) {
      return fail_message(p_, "';' and the number of the measure", "details",
                          "the details end without ';' and a number: URN:LEX requires one "
                          "(spec 6.3.3: an unnumbered measure gets 'lex-N'); found " +
                              describe(p_));
    }
    return fail(p_, "';' between the date and the number", "details");
  }
  ++p_;
  if (!numbers()) return false;
  tree_.close(node, p_);
  return true;
}

template <class Tree>
bool Parser<Tree>::dates() {
  const int node = tree_.open(Kind::kDates, p_);
  if (!date()) return false;
  while (at(',')) {
    ++p_;
    if (!date()) return false;
  }
  tree_.close(node, p_);
  return true;
}

template <class Tree>
bool Parser<Tree>::date() {
  const int node = tree_.open(Kind::kDate, p_);
  const int iso = tree_.open(Kind::kDateIso, p_);
  const std::size_t start = p_;
  auto digits = [&](std::size_t at, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) {
      if (at + k >= n_ || !(cls(s_[at + k]) & kDigit)) return false;
    }
    return true;
  };
  static constexpr const char* kShape = "a date yyyy-mm-dd (4-digit year, 2-digit month and day)";
  if (!digits(p_, 4)) return fail(p_, kShape, "date-iso");
  if (p_ + 4 >= n_ || s_[p_ + 4] != '-') return fail(p_ + 4, kShape, "date-iso");
  if (!digits(p_ + 5, 2)) {
    std::size_t bad = p_ + 5;
    while (bad < p_ + 7 && bad < n_ && (cls(s_[bad]) & kDigit)) ++bad;
    return fail(bad, kShape, "date-iso");
  }
  if (p_ + 7 >= n_ || s_[p_ + 7] != '-') return fail(p_ + 7, kShape, "date-iso");
  if (!digits(p_ + 8, 2)) {
    std::size_t bad = p_ + 8;
    while (bad < p_ + 10 && bad < n_ && (cls(s_[bad]) & kDigit)) ++bad;
    return fail(bad, kShape, "date-iso");
  }
  auto num = [&](std::size_t at, std::size_t count) {
    int v = 0;
    for (std::size_t k = 0; k < count; ++k) v = v * 10 + (s_[at + k] - '0');
    return v;
  };
  const int y = num(start, 4), m = num(start + 5, 2), d = num(start + 8, 2);
  if (m < 1 || m > 12) {
    return fail_message(start + 5, "a month 01-12", "date-iso",
                        "month " + std::string(s_.substr(start + 5, 2)) + " does not exist");
  }
  if (d < 1 || d > days_in_month(y, m)) {
    return fail_message(start + 8, "a day of the month", "date-iso",
                        "day " + std::string(s_.substr(start + 8, 2)) + " does not exist in " +
                            std::string(s_.substr(start, 7)));
  }
  p_ += 10;
  tree_.close(iso, p_);
  if (at('|')) {
    ++p_;
    const int loc = tree_.open(Kind::kDateLocal, p_);
    const char* saved = production_;
    production_ = "date-loc";
    if (!loose_run()) return false;
    production_ = saved;
    tree_.close(loc, p_);
  }
  tree_.close(node, p_);
  return true;
}

template <class Tree>
bool Parser<Tree>::numbers() {
  const int node = tree_.open(Kind::kNumbers, p_);
  std::size_t count = 0;
  int first = -1;
  const std::size_t first_begin = p_;
  do {
    if (at(',')) ++p_;
    int id = -1;
    if (!word(Kind::kDocumentId, Word::kAlfDotOth,
              "the number of the measure (letters, digits, '.', '-', '_'); '/' becomes '-'", &id)) {
      return false;
    }
    if (count++ == 0) first = id;
  } while (at(','));
  // number-lex = "lex-" 1*DIGIT, alone (ABNF strings are case-insensitive).
  if (count == 1) {
    std::string_view id = s_.substr(first_begin, p_ - first_begin);
    bool is_lex = id.size() > 4 && (id[0] | 0x20) == 'l' && (id[1] | 0x20) == 'e' &&
                  (id[2] | 0x20) == 'x' && id[3] == '-';
    for (std::size_t k = 4; is_lex && k < id.size(); ++k) is_lex = (cls(id[k]) & kDigit) != 0;
    if (is_lex) tree_.set_kind(first, Kind::kNumberLex);
  }
  tree_.close(node, p_);
  return true;
}

template <class Tree>
bool Parser<Tree>::annex() {
  const int node = tree_.open(Kind::kAnnex, p_);
  if (!word(Kind::kAnnexId, Word::kAlfDot, "an annex id such as 'annex.a' after ':'")) {
    return false;
  }
  while (at(';')) {
    ++p_;
    if (!word(Kind::kSpecification, Word::kAlfDot, "a specification of the annex after ';'")) {
      return false;
    }
  }
  tree_.close(node, p_);
  return true;
}

template <class Tree>
bool Parser<Tree>::expression() {
  ++p_;  // '@'
  const int node = tree_.open(Kind::kExpression, p_);
  const int version = tree_.open(Kind::kVersion, p_);
  if (looks_like_date()) {
    if (!date()) return false;
  } else if (!word(Kind::kSpecification, Word::kAlfDot,
                   "a version after '@': the date of the last amendment (yyyy-mm-dd) or a "
                   "specification such as 'original'")) {
    return false;
  }
  while (at(';')) {
    ++p_;
    if (looks_like_date()) {
      if (!date()) return false;
    } else if (!word(Kind::kEvent, Word::kAlfDot, "an event date or event name after ';'")) {
      return false;
    }
  }
  tree_.close(version, p_);
  if (at(':')) {
    ++p_;
    if (!language()) return false;
  }
  tree_.close(node, p_);
  if (p_ < n_ && !at('$') && !at('~') && !at('?') && !at('#')) {
    return fail(p_, "':' (language), '$' (manifestation), '~' (partition), or the end of the name",
                "expression");
  }
  return true;
}

template <class Tree>
bool Parser<Tree>::language() {
  const int node = tree_.open(Kind::kLanguage, p_);
  auto letters = [&]() {
    std::size_t k = 0;
    while (p_ + k < n_ && (cls(s_[p_ + k]) & kAlpha)) ++k;
    return k;
  };
  static constexpr const char* kExpected =
      "a language tag: 2-3 letters (optionally '-' and 3-letter extlang subtags) or 4-8 letters";
  const std::size_t first = letters();
  if (first >= 2 && first <= 3) {
    p_ += first;
    while (at('-')) {
      ++p_;
      const std::size_t ext = letters();
      if (ext != 3) {
        return fail_message(p_, "a 3-letter extlang subtag", "language",
                            "the URN:LEX ABNF allows only 3-letter extlang subtags after '-' "
                            "(extlang = 3alfa), found " +
                                (ext == 0 ? describe(p_)
                                          : "'" + std::string(s_.substr(p_, ext)) + "' (" +
                                                std::to_string(ext) + " letters)"));
      }
      p_ += 3;
    }
  } else if (first >= 4 && first <= 8) {
    p_ += first;
  } else if (first == 0) {
    return fail(p_, kExpected, "language");
  } else {
    return fail_message(p_, kExpected, "language",
                        "a language tag has 2-3 or 4-8 letters, found " + std::to_string(first));
  }
  tree_.close(node, p_);
  return true;
}

template <class Tree>
bool Parser<Tree>::qualified(Kind outer, Kind head, Word head_set, const char* expected) {
  const int node = tree_.open(outer, p_);
  if (!word(head, head_set, expected)) return false;
  while (at(';')) {
    ++p_;
    if (!word(Kind::kSpecification, Word::kAlfDot, "a specification after ';'")) return false;
  }
  tree_.close(node, p_);
  return true;
}

template <class Tree>
bool Parser<Tree>::manifestation() {
  ++p_;  // '$'
  const int node = tree_.open(Kind::kManifestation, p_);
  if (!qualified(Kind::kFormat, Kind::kMime, Word::kAlfDotHyp,
                 "a format after '$', such as 'pdf' or 'text-html' ('/' becomes '-')")) {
    return false;
  }
  if (!at(':')) return fail(p_, "':' then the editor", "manifestation");
  ++p_;
  if (!qualified(Kind::kEditor, Kind::kPublisher, Word::kAlfDotHyp,
                 "an editor (publisher's domain name, such as 'senato.it')")) {
    return false;
  }
  if (at(':')) {
    ++p_;
    if (!qualified(Kind::kComponent, Kind::kPart, Word::kAlfDotHyp,
                   "a component such as 'all' or 'body'")) {
      return false;
    }
    if (at(':')) {
      ++p_;
      if (!qualified(Kind::kFeature, Kind::kAttribute, Word::kAlfDotHyp,
                     "a feature such as 'anonymized'")) {
        return false;
      }
    }
  }
  tree_.close(node, p_);
  if (p_ < n_ && !at('~') && !at('?') && !at('#')) {
    return fail(p_, "':' (component or feature), '~' (partition), or the end of the name",
                "manifestation");
  }
  return true;
}

template <class Tree>
bool Parser<Tree>::partition() {
  ++p_;  // '~'
  const int node = tree_.open(Kind::kPartition, p_);
  const std::size_t start = p_;
  const char* saved = production_;
  production_ = "partition-id";
  while (p_ < n_) {
    const char c = s_[p_];
    if (c == '.' || c == ';' || (cls(c) & kOther)) {
      ++p_;
      continue;
    }
    const int r = alfanum();
    if (r < 0) return false;
    if (r == 0) break;
  }
  production_ = saved;
  if (p_ == start) {
    return fail(p_, "a partition id after '~', such as 'art3-com2'", "partition-id");
  }
  tree_.close(node, p_);
  if (p_ < n_ && !at('?') && !at('#')) {
    return fail(p_, "letters, digits, '.', ';', '-', '_' in the partition id, or its end",
                "partition-id");
  }
  return true;
}

template <class Tree>
bool Parser<Tree>::pct_hex_only() {
  if (p_ + 2 >= n_ || !(cls(s_[p_ + 1]) & kHex) || !(cls(s_[p_ + 2]) & kHex)) {
    return fail_message(p_, "two hex digits after '%'", production_,
                        "'%' must be followed by two hex digits (write a literal '%' as %25)");
  }
  if (s_[p_ + 1] == '0' && s_[p_ + 2] == '0') {
    return fail_message(p_, "a percent-encoded character", production_,
                        "%00 encodes NUL, which is never allowed in a URN (RFC 8141)");
  }
  p_ += 3;
  return true;
}

template <class Tree>
bool Parser<Tree>::query() {
  ++p_;  // '?'
  const int node = tree_.open(Kind::kQuery, p_);
  production_ = "query";
  // urn-query = directive *("&" directive); directive = keywd "=" value
  do {
    if (at('&')) ++p_;
    if (!(p_ < n_ && (cls(s_[p_]) & kAlpha))) {
      return fail(p_, "a query keyword (letters, digits, '-') such as 's'", "query");
    }
    ++p_;
    while (p_ < n_) {
      if (cls(s_[p_]) & kAlnum) {
        ++p_;
      } else if (s_[p_] == '-' && p_ + 1 < n_ && (cls(s_[p_ + 1]) & kAlnum)) {
        p_ += 2;
      } else {
        break;
      }
    }
    if (!at('=')) return fail(p_, "'=' after the query keyword", "query");
    ++p_;
    while (p_ < n_) {
      const char c = s_[p_];
      if (c == '%') {
        if (!pct_hex_only()) return false;
      } else if ((cls(c) & kUnreserved) || ((cls(c) & kSubDelim) && c != '&') || c == ':' ||
                 c == '@' || c == '/' || c == '?') {
        ++p_;
      } else {
        break;
      }
    }
  } while (at('&'));
  tree_.close(node, p_);
  if (p_ < n_ && !at('#')) return fail(p_, "a query value character, '&', '#' or the end", "query");
  return true;
}

template <class Tree>
bool Parser<Tree>::fragment() {
  ++p_;  // '#'
  const int node = tree_.open(Kind::kFragment, p_);
  production_ = "fragment";
  while (p_ < n_) {
    const char c = s_[p_];
    if (c == '%') {
      if (!pct_hex_only()) return false;
    } else if ((cls(c) & (kUnreserved | kSubDelim)) || c == ':' || c == '@' || c == '/' ||
               c == '?') {
      ++p_;
    } else {
      return fail(p_, "a fragment character (RFC 3986 pchar, '/' or '?')", "fragment");
    }
  }
  tree_.close(node, p_);
  return true;
}

bool check_length(std::string_view text, const ParseOptions& options, ParseError* error) {
  if (text.empty()) {
    if (error != nullptr) {
      *error = ParseError{0, "'urn:lex:'", "URN-lex", "byte 0 (URN-lex): the name is empty",
                          ErrorCode::kInvalidArgument};
    }
    return false;
  }
  if (text.size() > options.max_length || text.size() >= 0xFFFFFFFFu) {
    if (error != nullptr) {
      *error = ParseError{options.max_length, "a shorter name", "URN-lex",
                          "the name is " + std::to_string(text.size()) +
                              " bytes long; the limit is " + std::to_string(options.max_length),
                          ErrorCode::kLimitExceeded};
    }
    return false;
  }
  return true;
}

}  // namespace

bool validate(std::string_view text, const ParseOptions& options, ParseError* error) {
  if (!check_length(text, options, error)) return false;
  NullTree tree;
  return Parser<NullTree>(text, options, tree, error).reference();
}

bool parse_into(std::string_view text, const ParseOptions& options, Urn& out, ParseError* error) {
  out.nodes_.clear();
  out.text_.clear();
  if (!check_length(text, options, error)) return false;
  out.text_.assign(text);
  out.nodes_.reserve(32);  // typical names have 15-25 nodes: one allocation
  VectorTree tree{&out.nodes_};
  if (!Parser<VectorTree>(out.text_, options, tree, error).reference()) {
    out.nodes_.clear();
    out.text_.clear();
    return false;
  }
  return true;
}

Result<Urn, ParseError> parse(std::string_view text, const ParseOptions& options) {
  Urn urn;
  ParseError error;
  if (!parse_into(text, options, urn, &error)) return error;
  return urn;
}

Error to_error(const ParseError& e) {
  return make_error(e.code, e.message);
}

// --- Urn accessors ---------------------------------------------------------------------------

const Node* Urn::find(Kind kind) const {
  for (const Node& n : nodes_) {
    if (n.kind == kind) return &n;
  }
  return nullptr;
}

std::string_view Urn::get(Kind kind) const {
  const Node* n = find(kind);
  return n == nullptr ? std::string_view() : view(*n);
}

std::vector<std::string_view> Urn::all(Kind kind, const Node* parent) const {
  std::vector<std::string_view> out;
  const std::int32_t want =
      parent == nullptr ? -2 : static_cast<std::int32_t>(parent - nodes_.data());
  for (const Node& n : nodes_) {
    if (n.kind == kind && (want == -2 || n.parent == want)) out.push_back(view(n));
  }
  return out;
}

std::vector<std::size_t> Urn::children(std::size_t index) const {
  std::vector<std::size_t> out;
  for (std::size_t i = index + 1; i < nodes_.size(); ++i) {
    if (nodes_[i].parent == static_cast<std::int32_t>(index)) out.push_back(i);
    if (nodes_[i].begin > nodes_[index].end) break;
  }
  return out;
}

std::string_view Urn::document_name() const {
  std::size_t end = text_.size();
  for (const Node& n : nodes_) {
    if (n.kind == Kind::kPartition || n.kind == Kind::kQuery || n.kind == Kind::kFragment) {
      end = n.begin - 1;  // the '~', '?' or '#' before the node
      break;
    }
  }
  return std::string_view(text_).substr(0, end);
}

std::string Urn::work_name() const {
  const Node* w = find(Kind::kWork);
  return w == nullptr ? std::string() : text_.substr(0, w->end);
}

std::string_view Urn::year() const {
  const Node* details = find(Kind::kDetails);
  if (details != nullptr) {
    // Only a date of the details counts (not one of the expression).
    for (const Node& n : nodes_) {
      if (n.kind == Kind::kDateIso && n.begin >= details->begin && n.end <= details->end) {
        return view(n).substr(0, 4);
      }
    }
  }
  if (year_only()) return get(Kind::kPeriod);
  return {};
}

bool Urn::year_only() const {
  std::string_view period = get(Kind::kPeriod);
  if (period.size() != 4) return false;
  for (char c : period) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace lexlink::urn

#include "scan/trigger_scanner.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <hs/hs.h>
#include <re2/re2.h>
#include <re2/set.h>
#include <unicode/uchar.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <type_traits>

#include "common/tsv.h"
#include "common/utf8.h"
#include "lexicon/tokenizer.h"

namespace lexlink::scan {
namespace {

// White space the tokenizer skips (see lexicon/tokenizer.h), as a class.
constexpr const char* kSpaceClass =
    "[\\x{9}-\\x{d} \\x{85}\\x{a0}\\x{ad}\\x{1680}\\x{2000}-\\x{200d}\\x{2028}\\x{2029}"
    "\\x{202f}\\x{205f}\\x{2060}\\x{3000}\\x{feff}]";

void append_cp(std::string& out, char32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\x{%x}", static_cast<unsigned>(cp));
  out += buf;
}

enum class Kind : std::uint8_t { kWord, kNumber, kPunct };

Kind kind_of(const std::string& token) {
  std::size_t len;
  const char32_t cp = utf8::decode(token, 0, len);
  if (cp >= '0' && cp <= '9') return Kind::kNumber;
  return lexicon::is_word_char(cp) ? Kind::kWord : Kind::kPunct;
}

// Per pattern: what must not touch the match on either side.
struct Edges {
  Kind first = Kind::kPunct;
  Kind last = Kind::kPunct;
};

Edges edges_of(const std::vector<std::string>& tokens) {
  return Edges{kind_of(tokens.front()), kind_of(tokens.back())};
}

bool is_digit(char32_t cp) {
  return cp >= '0' && cp <= '9';
}

// The code point ending just before `pos` (kInvalid at the start).
char32_t cp_before(std::string_view text, std::size_t pos) {
  if (pos == 0) return utf8::kInvalid;
  std::size_t k = pos - 1;
  while (k > 0 && pos - k < 4 && (static_cast<unsigned char>(text[k]) & 0xC0) == 0x80) --k;
  std::size_t len;
  return utf8::decode(text, k, len);
}

char32_t cp_at(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return utf8::kInvalid;
  std::size_t len;
  return utf8::decode(text, pos, len);
}

// The same check for both engines: a match must start and end on token boundaries.
bool on_boundaries_slow(std::string_view text, std::size_t from, std::size_t to, const Edges& e) {
  const char32_t before = cp_before(text, from);
  if (before != utf8::kInvalid) {
    if (e.first == Kind::kWord && lexicon::is_word_char(before) && !is_digit(before)) return false;
    if (e.first == Kind::kNumber && is_digit(before)) return false;
  }
  const char32_t after = cp_at(text, to);
  if (after != utf8::kInvalid) {
    if (e.last == Kind::kWord && lexicon::is_word_char(after) && !is_digit(after)) return false;
    if (e.last == Kind::kNumber && is_digit(after)) return false;
  }
  return true;
}

// Whether the byte `b` next to a match (an ASCII one) keeps an edge of kind `k` from being a
// token boundary.
inline bool ascii_joins(Kind k, unsigned char b) {
  if (k == Kind::kWord) return static_cast<unsigned char>((b | 0x20) - 'a') < 26;
  return k == Kind::kNumber && static_cast<unsigned char>(b - '0') < 10;
}

// on_boundaries_slow(), with an ASCII neighbour (the common case) judged from its byte.
inline bool on_boundaries(std::string_view text, std::size_t from, std::size_t to, const Edges& e) {
  if (from > 0 && e.first != Kind::kPunct) {
    const auto b = static_cast<unsigned char>(text[from - 1]);
    if (b < 0x80 ? ascii_joins(e.first, b)
                 : !on_boundaries_slow(text, from, from, Edges{e.first, Kind::kPunct})) {
      return false;
    }
  }
  if (to < text.size() && e.last != Kind::kPunct) {
    const auto b = static_cast<unsigned char>(text[to]);
    if (b < 0x80 ? ascii_joins(e.last, b)
                 : !on_boundaries_slow(text, to, to, Edges{Kind::kPunct, e.last})) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string trigger_regex(const std::vector<std::string>& tokens, std::size_t* length) {
  std::string out;
  std::size_t bytes = 0;
  bool fixed = true;
  for (const std::string& tok : tokens) {
    std::size_t i = 0;
    while (i < tok.size()) {
      std::size_t len;
      const char32_t cp = utf8::decode(tok, i, len);
      i += len;
      if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z')) {
        // Both cases as a class (no engine flag: both engines then agree to the byte, and
        // Hyperscan still sees a case-insensitive literal).
        out += '[';
        out += static_cast<char>(cp | 0x20);
        out += static_cast<char>(cp & ~0x20u);
        out += ']';
        bytes += 1;
      } else if (cp >= 0x80 && lexicon::is_word_char(cp)) {
        const auto lower = static_cast<char32_t>(u_tolower(static_cast<UChar32>(cp)));
        const auto upper = static_cast<char32_t>(u_toupper(static_cast<UChar32>(cp)));
        std::string a, b;
        utf8::append(a, lower);
        utf8::append(b, upper);
        out += '[';
        append_cp(out, lower);
        if (upper != lower && a.size() == b.size()) append_cp(out, upper);
        out += ']';
        bytes += a.size();
      } else {
        append_cp(out, cp);
        bytes += len;
      }
    }
  }
  if (length != nullptr) *length = fixed ? bytes : 0;
  return out;
}

namespace {

// What trigger_regex() matches, byte by byte: text byte j matches when (b | masks[j]) ==
// values[j]; `letters` receives the count of leading ASCII letters. False when some letter's two
// cases differ in more than one bit, or on invalid UTF-8.
bool byte_pattern(const std::vector<std::string>& tokens, std::string& masks, std::string& values,
                  std::size_t& letters) {
  masks.clear();
  values.clear();
  letters = 0;
  bool leading = true;
  for (const std::string& tok : tokens) {
    std::size_t i = 0;
    while (i < tok.size()) {
      std::size_t len;
      const char32_t cp = utf8::decode(tok, i, len);
      i += len;
      if (cp == utf8::kInvalid) return false;
      if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z')) {
        masks += '\x20';
        values += static_cast<char>(cp | 0x20);
        if (leading) ++letters;
        continue;
      }
      leading = false;
      std::string a, b;  // its forms: b empty when one
      if (cp >= 0x80 && lexicon::is_word_char(cp)) {
        const auto lower = static_cast<char32_t>(u_tolower(static_cast<UChar32>(cp)));
        const auto upper = static_cast<char32_t>(u_toupper(static_cast<UChar32>(cp)));
        utf8::append(a, lower);
        if (upper != lower) utf8::append(b, upper);
        if (b.size() != a.size()) b.clear();
      } else {
        utf8::append(a, cp);
      }
      std::size_t differ = 0;
      for (std::size_t j = 0; j < b.size(); ++j) differ += a[j] != b[j] ? 1 : 0;
      if (differ > 1) return false;
      for (std::size_t j = 0; j < a.size(); ++j) {
        const auto diff = static_cast<unsigned char>(b.empty() ? 0 : a[j] ^ b[j]);
        if ((diff & (diff - 1)) != 0) return false;  // more than one bit
        masks += static_cast<char>(diff);
        values += static_cast<char>(a[j] | static_cast<char>(diff));
      }
    }
  }
  return true;
}

// The `k` (at most 8) bytes at p as a little-endian number, the others zero: the whole word is
// read when `readable` allows.
inline std::uint64_t load_le(const char* p, std::size_t k, std::size_t readable) {
  std::uint64_t v = 0;
  if (readable >= 8) {
    std::memcpy(&v, p, 8);
  } else {
    std::memcpy(&v, p, readable);
  }
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return k >= 8 ? v : v & ((std::uint64_t{1} << (8 * k)) - 1);
}

}  // namespace

// What the match callback needs of one pattern, in one place.
struct HsPattern {
  std::uint32_t length = 0;
  std::uint32_t group = 0;
  Edges edges;
};

struct TriggerScanner::Hs {
  hs_database_t* db = nullptr;
  std::vector<HsPattern> patterns;  // by pattern id
  ~Hs() {
    if (db != nullptr) hs_free_database(db);
  }
};

struct TriggerScanner::Re2 {
  std::unique_ptr<re2::RE2::Set> set;
  std::vector<Edges> edges;
  std::vector<std::size_t> lengths;
};

// The word index finds the triggers without Hyperscan (all of them, in the grammars so far).
// - A trigger that starts with an ASCII letter starts a run of ASCII letters in the text (the byte
//   before it, if ASCII, is no letter: a token boundary), and that run is exactly as long as the
//   trigger's leading letters (the byte after them is no ASCII letter, or the trigger ends there
//   and its boundary forbids one). So the scan walks the first letters of runs, 64 bytes at a
//   time; a bit table of the first three bytes (lower-cased) drops most, and the rest look up
//   their run's length and first eight letters in a hash table, whose few triggers are checked
//   byte by byte, then with on_boundaries().
// - Any other trigger ('§', "électoral", a digit first) is checked where its first two bytes
//   are (up to four kinds of them, found 16 bytes at a time).
// The rest goes to Hyperscan. Starts come out in order, one per offset unless by group.
struct WordTrigger {
  std::uint32_t length = 0;   // in bytes
  std::uint32_t letters = 0;  // leading ASCII letters
  std::uint32_t bytes = 0;    // its bytes' offset in Words::masks and Words::values
  std::uint32_t group = 0;
  Edges edges;
};

struct WordBucket {
  std::uint64_t prefix = 0;   // the first (up to) eight letters, lower case, little-endian
  std::uint32_t letters = 0;  // the run length; 0: an empty slot
  std::uint32_t first = 0;    // Words::order[first, first + count): its triggers
  std::uint32_t count = 0;
  // Some trigger here is the run itself (of eight letters at most): the run is one when the bytes
  // around it are ASCII (and no letters, as it is a run).
  bool whole = false;
};

// Where a trigger that does not start with an ASCII letter may start: its first byte, and what
// the second must be (byte b matches when (b | mask) == value; an 0xFF mask lets any through).
struct Lead {
  unsigned char first = 0, mask = 0, value = 0;
  bool operator==(const Lead&) const = default;
};
constexpr std::size_t kMaxLeads = 4;

// The leads as the classifier wants them.
struct LeadBytes {
#if defined(__SSE2__)
  explicit LeadBytes(const std::vector<Lead>& leads) : count(leads.size()) {
    for (std::size_t k = 0; k < count; ++k) {
      first[k] = _mm_set1_epi8(static_cast<char>(leads[k].first));
      mask[k] = _mm_set1_epi8(static_cast<char>(leads[k].mask));
      value[k] = _mm_set1_epi8(static_cast<char>(leads[k].value));
    }
  }
  std::size_t count;
  __m128i first[kMaxLeads], mask[kMaxLeads], value[kMaxLeads];
#else
  explicit LeadBytes(const std::vector<Lead>& l) : leads(l) {}
  const std::vector<Lead>& leads;
#endif
};

// The first k bytes of a little-endian word, for k <= 8.
constexpr std::uint64_t kFirstBytes[9] = {0,
                                          0xFFull,
                                          0xFFFFull,
                                          0xFFFFFFull,
                                          0xFFFFFFFFull,
                                          0xFFFFFFFFFFull,
                                          0xFFFFFFFFFFFFull,
                                          0xFFFFFFFFFFFFFFull,
                                          ~std::uint64_t{0}};

struct TriggerScanner::Words {
  static constexpr int kFilterBits = 16;
  std::vector<std::uint64_t> filter;  // a bit per hash of the first three bytes of a trigger
  std::vector<WordBucket> buckets;    // open addressing; size a power of two
  int shift = 64;                     // 64 - log2(buckets.size())
  std::vector<std::uint32_t> order;
  std::vector<WordTrigger> triggers;
  // Byte j of a trigger matches text byte b when (b | masks[j]) == values[j].
  std::vector<unsigned char> masks, values;
  // The other triggers: where to look for them, and those with first byte b,
  // lead_order[lead_first[b], + lead_count[b]); lead_word[b]: they all start with a word (so
  // none starts right after an ASCII letter).
  std::vector<Lead> leads;
  std::array<std::uint32_t, 256> lead_first{}, lead_count{};
  std::vector<std::uint32_t> lead_order;
  std::array<bool, 256> lead_word{};

  // The three bytes `head` (little-endian, ASCII letters lower-cased as by `| 0x20`).
  static std::size_t filter_bit(std::uint32_t head) {
    return ((head & 0xFFFFFFu) * 0x9E3779B1u) >> (32 - kFilterBits);
  }
  static std::uint64_t hash(std::uint64_t prefix, std::size_t run) {
    return (prefix ^ run) * 0x9E3779B97F4A7C15ull;
  }

  void scan(std::string_view text, bool by_group, std::vector<std::uint32_t>& hits,
            std::vector<std::uint64_t>& keyed_hits) const;
  template <bool kLeads>
  void scan_blocks(std::string_view text, bool by_group, std::vector<std::uint32_t>& hits,
                   std::vector<std::uint64_t>& keyed_hits) const;
  // Whether trigger t matches at p (its first `known` bytes are known to): bytes, boundaries.
  bool matches(std::string_view text, std::size_t p, const WordTrigger& t,
               std::size_t known) const {
    if (t.length > text.size() - p) return false;
    const unsigned char* m = masks.data() + t.bytes;
    const unsigned char* v = values.data() + t.bytes;
    for (std::size_t j = known; j < t.length; ++j) {
      if ((static_cast<unsigned char>(text[p + j]) | m[j]) != v[j]) return false;
    }
    return on_boundaries(text, p, p + t.length, t.edges);
  }
  // The triggers ids[0, count) at p (their first `known` bytes match).
  void check(std::string_view text, std::size_t p, const std::uint32_t* ids, std::size_t count,
             std::size_t known, bool by_group, std::vector<std::uint32_t>& hits,
             std::vector<std::uint64_t>& keyed_hits) const;
};

// Bit i set when p[i] is an ASCII letter, for p[0, 64); with kLeads, `firsts` gets a bit set
// where some lead matches p[i] and p[i + 1] (p[64] is read).
template <bool kLeads>
inline std::uint64_t classify(const char* p, const LeadBytes& leads, std::uint64_t& firsts) {
#if defined(__SSE2__)
  const __m128i to_lower = _mm_set1_epi8(0x20);
  const __m128i a_at_min = _mm_set1_epi8(static_cast<char>(0x80 - 'a'));  // 'a' -> -128
  const __m128i past_z = _mm_set1_epi8(static_cast<char>(-128 + 26));
  std::uint64_t bits = 0;
  firsts = 0;
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const __m128i x = _mm_add_epi8(_mm_or_si128(v, to_lower), a_at_min);
    const auto m = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmplt_epi8(x, past_z)));
    bits |= std::uint64_t{m} << (16 * k);
    if (kLeads) {
      const __m128i v1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k + 1));
      __m128i f = _mm_setzero_si128();
      for (std::size_t l = 0; l < leads.count; ++l) {
        const __m128i first = _mm_cmpeq_epi8(v, leads.first[l]);
        const __m128i second = _mm_cmpeq_epi8(_mm_or_si128(v1, leads.mask[l]), leads.value[l]);
        f = _mm_or_si128(f, _mm_and_si128(first, second));
      }
      firsts |= std::uint64_t{static_cast<std::uint32_t>(_mm_movemask_epi8(f))} << (16 * k);
    }
  }
  return bits;
#else
  std::uint64_t bits = 0;
  firsts = 0;
  for (int i = 0; i < 64; ++i) {
    const auto b = static_cast<unsigned char>(p[i]);
    if (static_cast<unsigned char>((b | 0x20) - 'a') < 26) bits |= std::uint64_t{1} << i;
    for (const auto& lead : leads.leads) {
      if (kLeads && b == lead.first &&
          (static_cast<unsigned char>(p[i + 1]) | lead.mask) == lead.value) {
        firsts |= std::uint64_t{1} << i;
      }
    }
  }
  return bits;
#endif
}

TriggerScanner::~TriggerScanner() = default;

TriggerScanner::Scratch::~Scratch() {
  if (hs_scratch != nullptr) hs_free_scratch(static_cast<hs_scratch_t*>(hs_scratch));
}

void TriggerScanner::Words::check(std::string_view text, std::size_t p, const std::uint32_t* ids,
                                  std::size_t count, std::size_t known, bool by_group,
                                  std::vector<std::uint32_t>& hits,
                                  std::vector<std::uint64_t>& keyed_hits) const {
  for (std::size_t k = 0; k < count; ++k) {
    const WordTrigger& t = triggers[ids[k]];
    if (!matches(text, p, t, known)) continue;
    if (!by_group) {
      hits.push_back(static_cast<std::uint32_t>(p));
      return;  // one start is enough
    }
    keyed_hits.push_back(std::uint64_t{t.group} << 32 | p);
  }
}

// The candidates, 64 bytes at a time: the first letters of runs (`starts`; `letters`, `next`:
// the letters here and in the next 64 bytes) and, kLeads, the first bytes of other triggers
// (`firsts`).
template <bool kLeads>
void TriggerScanner::Words::scan_blocks(std::string_view text, bool by_group,
                                        std::vector<std::uint32_t>& hits,
                                        std::vector<std::uint64_t>& keyed_hits) const {
  const std::size_t n = text.size();
  const char* const s = text.data();
  const std::uint64_t* const bits = filter.data();
  const LeadBytes lead_bytes(leads);
  const auto bits_at = [&](std::size_t at, std::uint64_t& firsts) -> std::uint64_t {
    if (at + 64 < n) return classify<kLeads>(s + at, lead_bytes, firsts);  // reads 65 bytes
    firsts = 0;
    if (at >= n) return 0;
    char tail[80] = {};
    std::memcpy(tail, s + at, n - at);
    std::uint64_t f;
    const std::uint64_t l = classify<kLeads>(tail, lead_bytes, f);
    firsts = f & (~std::uint64_t{0} >> (64 - (n - at)));  // not the zeros past the end
    return l;
  };
  std::uint64_t firsts = 0, next_firsts = 0;
  std::uint64_t letters = bits_at(0, firsts);
  std::uint64_t before = 0;  // 1 when the byte before the block is a letter
  // Without a tail, eight bytes can be read at every candidate.
  const auto block = [&](std::size_t at, std::uint64_t next, auto tail) {
    const std::uint64_t starts = letters & ~(letters << 1 | before);
    for (std::uint64_t candidates = kLeads ? starts | firsts : starts; candidates != 0;
         candidates &= candidates - 1) {
      const auto i = static_cast<unsigned>(std::countr_zero(candidates));
      const std::size_t p = at + i;
      if (kLeads && (firsts >> i & 1) != 0) {
        const auto b = static_cast<unsigned char>(s[p]);
        if (lead_word[b] && p > 0 && static_cast<unsigned char>((s[p - 1] | 0x20) - 'a') < 26) {
          continue;
        }
        check(text, p, lead_order.data() + lead_first[b], lead_count[b], 0, by_group, hits,
              keyed_hits);
        continue;
      }
      std::uint64_t word;
      if (decltype(tail)::value) {
        word = load_le(s + p, 8, n - p);
      } else {
        std::memcpy(&word, s + p, 8);
        if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
      }
      const std::size_t bit = filter_bit(static_cast<std::uint32_t>(word) | 0x202020u);
      if ((bits[bit >> 6] >> (bit & 63) & 1) == 0) continue;
      std::size_t run;
      if (const std::uint64_t rest = ~letters >> i; rest != 0) {
        run = static_cast<std::size_t>(std::countr_zero(rest));
      } else if (next != ~std::uint64_t{0}) {
        run = 64 - i + static_cast<std::size_t>(std::countr_zero(~next));
      } else {  // 64 letters and more
        std::size_t end = at + 128;
        while (end < n && static_cast<unsigned char>((s[end] | 0x20) - 'a') < 26) ++end;
        run = end - p;
      }
      const std::size_t known = run < 8 ? run : 8;
      const std::uint64_t prefix = (word | 0x2020202020202020ull) & kFirstBytes[known];
      for (auto slot = static_cast<std::size_t>(hash(prefix, run) >> shift);;
           slot = (slot + 1) & (buckets.size() - 1)) {
        const WordBucket& b = buckets[slot];
        if (b.letters == run && b.prefix == prefix) {
          if (b.whole && !by_group && (p == 0 || static_cast<unsigned char>(s[p - 1]) < 0x80) &&
              (p + run == n || static_cast<unsigned char>(s[p + run]) < 0x80)) {
            hits.push_back(static_cast<std::uint32_t>(p));
          } else {
            check(text, p, order.data() + b.first, b.count, known, by_group, hits, keyed_hits);
          }
          break;
        }
        if (b.letters == 0) break;
      }
    }
  };
  for (std::size_t at = 0; at < n; at += 64) {
    const std::uint64_t next = bits_at(at + 64, next_firsts);
    if (at + 128 <= n) {
      block(at, next, std::false_type{});
    } else {
      block(at, next, std::true_type{});
    }
    before = letters >> 63;
    letters = next;
    firsts = next_firsts;
  }
}

void TriggerScanner::Words::scan(std::string_view text, bool by_group,
                                 std::vector<std::uint32_t>& hits,
                                 std::vector<std::uint64_t>& keyed_hits) const {
  if (leads.empty()) {
    scan_blocks<false>(text, by_group, hits, keyed_hits);
  } else {
    scan_blocks<true>(text, by_group, hits, keyed_hits);
  }
}

namespace {

// The flags of every pattern.
constexpr unsigned kHsFlags = HS_FLAG_UTF8;

// The cache file of a database: keyed by the data hash and by the patterns themselves (their
// text, flags and order), so a change in how triggers are generated never reuses a stale one.
std::string cache_path(const TriggerOptions& o, const std::vector<std::string>& regexes) {
  std::uint64_t h = (14695981039346656037ull ^ o.data_hash ^ kHsFlags) * 1099511628211ull;
  for (const std::string& r : regexes) {
    for (char c : r) {
      h ^= static_cast<unsigned char>(c);
      h *= 1099511628211ull;
    }
    h ^= 0xFF;
    h *= 1099511628211ull;
  }
  char name[96];
  std::snprintf(name, sizeof name, "triggers-%016llx-%zu-hs%s.db",
                static_cast<unsigned long long>(h), regexes.size(), hs_version());
  std::string n = name;
  for (char& c : n) {
    if (c == ' ') c = '_';
  }
  return (std::filesystem::path(o.cache_dir) / n).string();
}

Error hs_error(const std::string& what, hs_error_t code) {
  return make_error(ErrorCode::kInternal,
                    what + " failed (Hyperscan error " + std::to_string(code) + ")");
}

struct HsContext {
  std::string_view text;
  const HsPattern* patterns;
  std::size_t pattern_count;
  std::vector<std::uint32_t>* hits;        // find_starts(): starts
  std::vector<std::uint64_t>* keyed_hits;  // count_starts(): group << 32 | start
};

int on_match(unsigned int id, unsigned long long, unsigned long long to, unsigned int, void* ctx) {
  const auto* c = static_cast<HsContext*>(ctx);
  if (id >= c->pattern_count) return 1;  // not our database: stop
  const HsPattern& p = c->patterns[id];
  if (to < p.length) return 1;
  const std::size_t from = to - p.length;
  if (on_boundaries(c->text, from, to, p.edges)) {
    if (c->keyed_hits != nullptr) {
      c->keyed_hits->push_back(std::uint64_t{p.group} << 32 | from);
    } else {
      c->hits->push_back(static_cast<std::uint32_t>(from));
    }
  }
  return 0;
}

}  // namespace

Result<std::shared_ptr<const TriggerScanner>> TriggerScanner::compile(
    const std::vector<std::vector<std::string>>& triggers, const TriggerOptions& options,
    const std::vector<std::uint32_t>& groups) {
  if (triggers.empty()) return make_error(ErrorCode::kDataError, "no trigger phrases");
  if (!groups.empty() && groups.size() != triggers.size()) {
    return make_error(ErrorCode::kInvalidArgument, "one group per trigger");
  }
  std::shared_ptr<TriggerScanner> s(new TriggerScanner());
  s->engine_ = options.engine;
  s->groups_ = groups;
  for (std::uint32_t g : groups) s->group_count_ = std::max<std::size_t>(s->group_count_, g + 1);
  std::vector<std::string> regexes;
  std::vector<Edges> edges;
  std::vector<std::size_t> lengths;
  for (const auto& t : triggers) {
    if (t.empty()) return make_error(ErrorCode::kDataError, "empty trigger phrase");
    std::size_t length = 0;
    regexes.push_back(trigger_regex(t, &length));
    if (length == 0) return make_error(ErrorCode::kDataError, "a trigger of no fixed length");
    edges.push_back(edges_of(t));
    lengths.push_back(length);
  }
  if (options.engine == Engine::kRe2) {
    auto r = std::make_unique<Re2>();
    re2::RE2::Options o;
    o.set_log_errors(false);
    r->set = std::make_unique<re2::RE2::Set>(o, re2::RE2::ANCHOR_START);
    for (const std::string& rx : regexes) {
      std::string err;
      if (r->set->Add(rx, &err) < 0) {
        return make_error(ErrorCode::kInternal, "trigger regex rejected by RE2: " + err);
      }
    }
    if (!r->set->Compile()) return make_error(ErrorCode::kInternal, "RE2::Set compile failed");
    r->edges = std::move(edges);
    r->lengths = std::move(lengths);
    s->re2_ = std::move(r);
    return std::shared_ptr<const TriggerScanner>(std::move(s));
  }

  // The word index takes every trigger it can; Hyperscan the others (if any).
  auto words = std::make_unique<Words>();
  std::vector<std::pair<std::pair<std::uint64_t, std::size_t>, std::uint32_t>> keys;
  std::vector<std::pair<unsigned char, std::uint32_t>> firsts;  // first byte, trigger
  std::vector<std::string> rest;
  auto hs = std::make_unique<Hs>();
  std::string masks, values;
  for (std::size_t i = 0; i < triggers.size(); ++i) {
    const std::uint32_t group = groups.empty() ? 0 : groups[i];
    std::size_t letters = 0;
    bool indexed = byte_pattern(triggers[i], masks, values, letters) && !masks.empty() &&
                   masks.size() == lengths[i];
    const auto id = static_cast<std::uint32_t>(words->triggers.size());
    if (indexed && letters == 0) {
      // Found where its first byte and second (in either case) are.
      std::vector<Lead> leads = words->leads;
      const Lead lead{static_cast<unsigned char>(values[0]),
                      static_cast<unsigned char>(masks.size() > 1 ? masks[1] : '\xFF'),
                      static_cast<unsigned char>(masks.size() > 1 ? values[1] : '\xFF')};
      if (std::find(leads.begin(), leads.end(), lead) == leads.end()) leads.push_back(lead);
      indexed = masks[0] == 0 && leads.size() <= kMaxLeads;
      if (indexed) {
        words->leads = std::move(leads);
        firsts.emplace_back(lead.first, id);
      }
    } else if (indexed) {
      const std::size_t known = std::min<std::size_t>(letters, 8);
      keys.push_back({{load_le(values.data(), known, known), letters}, id});
    }
    if (!indexed) {
      rest.push_back(regexes[i]);
      hs->patterns.push_back(HsPattern{static_cast<std::uint32_t>(lengths[i]), group, edges[i]});
      continue;
    }
    words->triggers.push_back(
        WordTrigger{static_cast<std::uint32_t>(masks.size()), static_cast<std::uint32_t>(letters),
                    static_cast<std::uint32_t>(words->masks.size()), group, edges[i]});
    words->masks.insert(words->masks.end(), masks.begin(), masks.end());
    words->values.insert(words->values.end(), values.begin(), values.end());
  }
  if (!words->triggers.empty()) {
    Words& w = *words;
    // The filter: every first three bytes (lower-cased) the text may show where a trigger
    // starting with a letter matches: its bytes in either case, then what its last edge lets
    // follow it (or the zero read past the end), then anything.
    w.filter.assign((std::size_t{1} << Words::kFilterBits) / 64, 0);
    for (const auto& key : keys) {
      const WordTrigger& t = w.triggers[key.second];
      std::vector<std::uint32_t> heads = {0};
      for (std::size_t j = 0; j < 3; ++j) {
        std::vector<unsigned char> byte;
        if (j < t.length) {
          const unsigned char m = w.masks[t.bytes + j], v = w.values[t.bytes + j];
          byte = {v, static_cast<unsigned char>(v & ~m)};
        } else {
          for (unsigned b = 0; b < 256; ++b) {
            const auto c = static_cast<unsigned char>(b);
            if (j > t.length || c >= 0x80 || !ascii_joins(t.edges.last, c)) byte.push_back(c);
          }
        }
        std::vector<std::uint32_t> longer;
        for (std::uint32_t h : heads) {
          for (unsigned char c : byte) longer.push_back(h | std::uint32_t{c | 0x20u} << (8 * j));
        }
        std::sort(longer.begin(), longer.end());
        longer.erase(std::unique(longer.begin(), longer.end()), longer.end());
        heads = std::move(longer);
      }
      for (std::uint32_t h : heads) {
        const std::size_t bit = Words::filter_bit(h);
        w.filter[bit >> 6] |= std::uint64_t{1} << (bit & 63);
      }
    }
    // The table: a bucket per key, in order of the keys.
    std::sort(keys.begin(), keys.end());
    std::size_t size = 16;
    while (size < 2 * keys.size()) size *= 2;
    w.buckets.assign(size, WordBucket{});
    w.shift = 64 - std::countr_zero(size);
    for (std::size_t k = 0; k < keys.size();) {
      const auto [prefix, letters] = keys[k].first;
      WordBucket b{prefix, static_cast<std::uint32_t>(letters),
                   static_cast<std::uint32_t>(w.order.size()), 0};
      for (; k < keys.size() && keys[k].first == std::make_pair(prefix, letters); ++k) {
        w.order.push_back(keys[k].second);
        ++b.count;
        const WordTrigger& t = w.triggers[keys[k].second];
        if (t.length == t.letters && t.length <= 8) b.whole = true;
      }
      auto h = static_cast<std::size_t>(Words::hash(prefix, letters) >> w.shift);
      while (w.buckets[h].letters != 0) h = (h + 1) & (size - 1);
      w.buckets[h] = b;
    }
    std::stable_sort(firsts.begin(), firsts.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    w.lead_word.fill(true);
    for (const auto& [byte, id] : firsts) {
      if (w.triggers[id].edges.first != Kind::kWord) w.lead_word[byte] = false;
    }
    for (const auto& [byte, id] : firsts) {
      if (w.lead_count[byte]++ == 0) {
        w.lead_first[byte] = static_cast<std::uint32_t>(w.lead_order.size());
      }
      w.lead_order.push_back(id);
    }
    s->words_ = std::move(words);
  }
  if (rest.empty()) {
    s->from_cache_ = true;  // nothing to compile
    return std::shared_ptr<const TriggerScanner>(std::move(s));
  }
  regexes = std::move(rest);
  // A cached database, if its data hash matches.
  if (!options.cache_dir.empty()) {
    std::string bytes;
    if (read_file(cache_path(options, regexes), bytes) &&
        hs_deserialize_database(bytes.data(), bytes.size(), &hs->db) == HS_SUCCESS) {
      s->from_cache_ = true;  // the file name holds the patterns' hash and count
    } else {
      hs->db = nullptr;
    }
  }
  if (hs->db == nullptr) {
    std::vector<const char*> exprs;
    std::vector<unsigned> flags, ids;
    for (std::size_t i = 0; i < regexes.size(); ++i) {
      exprs.push_back(regexes[i].c_str());
      flags.push_back(kHsFlags);
      ids.push_back(static_cast<unsigned>(i));
    }
    hs_compile_error_t* err = nullptr;
    if (hs_compile_multi(exprs.data(), flags.data(), ids.data(),
                         static_cast<unsigned>(exprs.size()), HS_MODE_BLOCK, nullptr, &hs->db,
                         &err) != HS_SUCCESS) {
      std::string msg = err != nullptr && err->message != nullptr ? err->message : "?";
      const int at = err != nullptr ? err->expression : -1;
      hs_free_compile_error(err);
      return make_error(ErrorCode::kInternal,
                        "Hyperscan rejected trigger " + std::to_string(at) + ": " + msg +
                            (at >= 0 ? " (" + regexes[static_cast<std::size_t>(at)] + ")" : ""));
    }
    if (!options.cache_dir.empty()) {
      // Best effort: a cache that cannot be written only costs start-up time.
      char* bytes = nullptr;
      std::size_t length = 0;
      if (hs_serialize_database(hs->db, &bytes, &length) == HS_SUCCESS) {
        std::error_code ec;
        std::filesystem::create_directories(options.cache_dir, ec);
        const std::string path = cache_path(options, regexes);
        const std::string tmp =
            path + ".tmp" + std::to_string(reinterpret_cast<std::uintptr_t>(bytes));
        if (std::FILE* f = std::fopen(tmp.c_str(), "wb")) {
          const bool ok = std::fwrite(bytes, 1, length, f) == length;
          if (std::fclose(f) == 0 && ok) {
            std::filesystem::rename(tmp, path, ec);
          }
          std::filesystem::remove(tmp, ec);
        }
        std::free(bytes);
      }
    }
  }
  s->hs_ = std::move(hs);
  return std::shared_ptr<const TriggerScanner>(std::move(s));
}

std::unique_ptr<TriggerScanner::Scratch> TriggerScanner::make_scratch() const {
  std::unique_ptr<Scratch> scratch(new Scratch());
  if (hs_ != nullptr && hs_->db != nullptr) {
    hs_scratch_t* sc = nullptr;
    if (hs_alloc_scratch(hs_->db, &sc) == HS_SUCCESS) scratch->hs_scratch = sc;
  }
  return scratch;
}

// Every trigger match on token boundaries in `text`: its start into scratch.hits, or, when
// `by_group`, its group << 32 | start into scratch.keyed_hits (cleared first).
Status TriggerScanner::collect(std::string_view text, Scratch& scratch, bool by_group) const {
  scratch.hits.clear();
  scratch.hs_hits.clear();
  scratch.keyed_hits.clear();
  if (text.size() >= 0xFFFFFFFFu) {
    return make_error(ErrorCode::kLimitExceeded, "text chunk of 4 GB or more");
  }
  if (words_ != nullptr) words_->scan(text, by_group, scratch.hits, scratch.keyed_hits);
  if (hs_ != nullptr) {
    if (scratch.hs_scratch == nullptr) {
      return make_error(ErrorCode::kInternal, "Hyperscan scratch could not be allocated");
    }
    HsContext ctx{text, hs_->patterns.data(), hs_->patterns.size(), &scratch.hs_hits,
                  by_group ? &scratch.keyed_hits : nullptr};
    const hs_error_t rc = hs_scan(hs_->db, text.data(), static_cast<unsigned>(text.size()), 0,
                                  static_cast<hs_scratch_t*>(scratch.hs_scratch), on_match, &ctx);
    if (rc == HS_SCAN_TERMINATED) {
      return make_error(ErrorCode::kInternal,
                        "the trigger database does not match its patterns (remove the cache)");
    }
    if (rc != HS_SUCCESS) return hs_error("hs_scan", rc);
  }
  if (engine_ != Engine::kRe2) return Status::Ok();
  std::vector<int> matched;
  for (std::size_t p = 0; p < text.size(); ++p) {
    if ((static_cast<unsigned char>(text[p]) & 0xC0) == 0x80) continue;  // inside a char
    const re2::StringPiece rest(text.data() + p, text.size() - p);
    matched.clear();
    if (!re2_->set->Match(rest, &matched)) continue;
    for (int id : matched) {
      const auto i = static_cast<std::size_t>(id);
      if (!on_boundaries(text, p, p + re2_->lengths[i], re2_->edges[i])) continue;
      if (!by_group) {
        scratch.hits.push_back(static_cast<std::uint32_t>(p));
        break;  // one start is enough
      }
      const std::uint64_t group = groups_.empty() ? 0 : groups_[i];
      scratch.keyed_hits.push_back(group << 32 | p);
    }
  }
  return Status::Ok();
}

Status TriggerScanner::find_starts(std::string_view text, Scratch& scratch,
                                   std::vector<std::uint32_t>& starts) const {
  if (Status s = collect(text, scratch, false); !s) return s;
  // The word index (and RE2) give starts in order; Hyperscan reports by end offset, so its starts
  // are nearly in order: insertion sort, then a merge.
  std::vector<std::uint32_t>& h = scratch.hs_hits;
  for (std::size_t i = 1; i < h.size(); ++i) {
    const std::uint32_t v = h[i];
    std::size_t j = i;
    for (; j > 0 && h[j - 1] > v; --j) h[j] = h[j - 1];
    h[j] = v;
  }
  const std::size_t from = starts.size();
  if (h.empty()) {
    starts.insert(starts.end(), scratch.hits.begin(), scratch.hits.end());
  } else {
    std::merge(scratch.hits.begin(), scratch.hits.end(), h.begin(), h.end(),
               std::back_inserter(starts));
  }
  starts.erase(std::unique(starts.begin() + static_cast<std::ptrdiff_t>(from), starts.end()),
               starts.end());
  return Status::Ok();
}

Status TriggerScanner::count_starts(std::string_view text, Scratch& scratch,
                                    std::vector<std::size_t>& counts) const {
  counts.assign(group_count_, 0);
  if (Status s = collect(text, scratch, true); !s) return s;
  std::vector<std::uint64_t>& keyed = scratch.keyed_hits;
  std::sort(keyed.begin(), keyed.end());
  keyed.erase(std::unique(keyed.begin(), keyed.end()), keyed.end());
  for (std::uint64_t k : keyed) ++counts[static_cast<std::size_t>(k >> 32)];
  return Status::Ok();
}

}  // namespace lexlink::scan

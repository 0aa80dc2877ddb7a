#include "lexicon/tokenizer.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/utf8.h"
#include "lexicon/word_index.h"

namespace lexlink::lexicon {
namespace {

enum ByteClass : std::uint8_t { kSpace, kNewline, kLetter, kDigit, kPunct, kHigh };

constexpr std::array<std::uint8_t, 256> make_byte_classes() {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = c >= 0x80 ? kHigh : kPunct;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = kLetter;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = kLetter;
  for (int c = '0'; c <= '9'; ++c) t[c] = kDigit;
  t[' '] = t['\t'] = t['\r'] = t['\f'] = t['\v'] = kSpace;
  t['\n'] = kNewline;
  for (int c = 0; c < 0x20; ++c) {
    if (t[c] == kPunct) t[c] = kSpace;  // other control characters separate tokens
  }
  return t;
}
constexpr std::array<std::uint8_t, 256> kByteClass = make_byte_classes();

// What a non-ASCII code point is to the tokenizer.
enum class Role : std::uint8_t { kLetter, kMark, kSpace, kNewline, kIgnore, kPunct };

Role role_of(char32_t cp) {
  switch (cp) {
    case 0x00A0:
    case 0x1680:
    case 0x202F:
    case 0x205F:
    case 0x3000:
    case 0x200B:
    case 0xFEFF: return Role::kSpace;
    case 0x0085:
    case 0x2028:
    case 0x2029: return Role::kNewline;
    case 0x00AD:
    case 0x200C:
    case 0x200D:
    case 0x2060: return Role::kIgnore;
    case 0x00BA:
    case 0x00AA: return Role::kLetter;  // º ª: ordinal indicators
    default: break;
  }
  if (cp >= 0x2000 && cp <= 0x200A) return Role::kSpace;
  const auto gc = U_GET_GC_MASK(static_cast<UChar32>(cp));
  if (gc & U_GC_L_MASK) return Role::kLetter;
  if (gc & U_GC_M_MASK) return Role::kMark;
  if (gc & U_GC_ND_MASK) return Role::kLetter;  // non-ASCII digits: part of words
  return Role::kPunct;
}

// Folded forms of U+0000..U+024F computed once with ICU (NFD base letter, lower case) plus the
// letters that do not decompose.
struct FoldTable {
  std::array<std::string, 0x250> folded;
  FoldTable() {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(status);
    for (char32_t cp = 0xC0; cp < 0x250; ++cp) {
      const auto gc = U_GET_GC_MASK(static_cast<UChar32>(cp));
      if (!(gc & U_GC_L_MASK)) continue;
      icu::UnicodeString d;
      if (U_SUCCESS(status)) {
        UErrorCode s2 = U_ZERO_ERROR;
        d = nfd->normalize(icu::UnicodeString(static_cast<UChar32>(cp)), s2);
      }
      const UChar32 base = d.isEmpty() ? static_cast<UChar32>(cp) : d.char32At(0);
      const UChar32 lower = u_tolower(base);
      std::string s;
      if (lower < 0x80) {
        s += static_cast<char>(lower);
      } else {
        utf8::append(s, static_cast<char32_t>(lower));
      }
      folded[cp] = s;
    }
    auto set = [&](char32_t cp, const char* s) { folded[cp] = s; };
    set(0xDF, "ss");        // ß
    set(0xC6, "ae");        // Æ
    set(0xE6, "ae");        // æ
    set(0x152, "oe");       // Œ
    set(0x153, "oe");       // œ
    set(0xD8, "o");         // Ø
    set(0xF8, "o");         // ø
    set(0x110, "d");        // Đ
    set(0x111, "d");        // đ
    set(0x141, "l");        // Ł
    set(0x142, "l");        // ł
    set(0xDE, "th");        // Þ
    set(0xFE, "th");        // þ
    set(0xD0, "d");         // Ð
    set(0xF0, "d");         // ð
    set(0x131, "i");        // ı
    set(0xAA, "\xC2\xAA");  // ª stays
    set(0xBA, "\xC2\xBA");  // º stays
  }
};

const FoldTable& fold_table() {
  static const FoldTable table;
  return table;
}

// Writes the normal form of the punctuation `cp` (written `raw`) at `out`; returns its end (at
// most raw.size() bytes are written).
char* write_punct_norm(char32_t cp, std::string_view raw, char* out) {
  if ((cp >= 0x2010 && cp <= 0x2015) || cp == 0x2212 || cp == 0xFE63 || cp == 0xFF0D) {
    *out = '-';
    return out + 1;
  }
  if (cp == 0x2018 || cp == 0x2019 || cp == 0x201A || cp == 0x201B || cp == 0x2032 ||
      cp == 0x00B4 || cp == 0x02BC) {
    *out = '\'';
    return out + 1;
  }
  if (cp == 0x201C || cp == 0x201D || cp == 0x201E || cp == 0x201F || cp == 0x2033) {
    *out = '"';
    return out + 1;
  }
  std::memcpy(out, raw.data(), raw.size());
  return out + raw.size();
}

// The length of the run of ASCII letters that starts [p, p + n); `upper` is set when the run
// holds a capital. Sixteen bytes at a time where SSE2 is there.
inline std::size_t letter_run(const char* p, std::size_t n, bool& upper) {
  std::size_t k = 0;
#if defined(__SSE2__)
  const __m128i a = _mm_set1_epi8('a');
  const __m128i A = _mm_set1_epi8('A');
  const __m128i last = _mm_set1_epi8(25);
  const __m128i to_lower = _mm_set1_epi8(0x20);
  for (; k + 16 <= n; k += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k));
    const __m128i d = _mm_sub_epi8(_mm_or_si128(v, to_lower), a);  // a letter: 0..25 unsigned
    const __m128i in = _mm_cmpeq_epi8(_mm_min_epu8(d, last), d);
    const __m128i u = _mm_sub_epi8(v, A);
    const __m128i caps = _mm_cmpeq_epi8(_mm_min_epu8(u, last), u);
    const unsigned out = ~static_cast<unsigned>(_mm_movemask_epi8(in)) & 0xFFFFu;
    const unsigned cap = static_cast<unsigned>(_mm_movemask_epi8(caps));
    if (out != 0) {
      upper |= (cap & (out - 1)) != 0;  // capitals before the end (capitals are not in `out`)
      return k + static_cast<std::size_t>(__builtin_ctz(out));
    }
    upper |= cap != 0;
  }
#endif
  for (; k < n; ++k) {
    const auto c = static_cast<unsigned char>(p[k]);
    if (static_cast<unsigned char>((c | 0x20) - 'a') >= 26) break;
    upper = upper || c < 'a';
  }
  return k;
}

// Lower-cases the ASCII letters of q[0, len) in place (other bytes are kept).
inline void lower_ascii_letters(char* q, std::size_t len) {
  for (char* const end = q + len; q != end; ++q) {
    *q = static_cast<char>(*q | (static_cast<unsigned char>(*q - 'A') < 26 ? 0x20 : 0));
  }
}

}  // namespace

bool fold_letter(char32_t cp, std::string& out) {
  if (cp < 0x80) {
    if (cp >= 'A' && cp <= 'Z') {
      out += static_cast<char>(cp + 32);
      return true;
    }
    if (cp >= 'a' && cp <= 'z') {
      out += static_cast<char>(cp);
      return true;
    }
    return false;
  }
  if (role_of(cp) != Role::kLetter) return false;
  if (cp < 0x250) {
    const std::string& f = fold_table().folded[cp];
    if (!f.empty()) {
      out += f;
      return true;
    }
  }
  utf8::append(out, static_cast<char32_t>(u_tolower(static_cast<UChar32>(cp))));
  return true;
}

bool is_word_char(char32_t cp) {
  if (cp < 0x80) {
    return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
  }
  const Role r = role_of(cp);
  return r == Role::kLetter || r == Role::kMark || r == Role::kIgnore;
}

const std::vector<char32_t>& letters_folding_to(char c) {
  static const std::array<std::vector<char32_t>, 26> table = [] {
    std::array<std::vector<char32_t>, 26> t;
    for (char32_t cp = 'A'; cp < 0x250; ++cp) {
      std::string f;
      if (!fold_letter(cp, f) || f.size() != 1 || f[0] < 'a' || f[0] > 'z') continue;
      t[static_cast<std::size_t>(f[0] - 'a')].push_back(cp);
    }
    return t;
  }();
  static const std::vector<char32_t> kNone;
  if (c < 'a' || c > 'z') return kNone;
  return table[static_cast<std::size_t>(c - 'a')];
}

namespace {

// The code points U+0080..U+027F (Latin-1 and Latin Extended: the accented letters of the
// European languages), written in two bytes with a lead byte C2..C9: their role and folded form
// computed once, so that the commonest non-ASCII letters cost a table lookup instead of a
// decode, a Unicode property lookup and a fold.
struct LatinChar {
  Role role = Role::kPunct;
  // Letters: the folded form, as fold_letter() gives it: an ASCII pair ("ss") or one lower-case
  // letter of the Basic Multilingual Plane (Ⱥ U+023A -> ⱥ U+2C65), so at most three bytes.
  std::uint8_t fold_len = 0;
  char fold[3] = {};
};
constexpr char32_t kLatinEnd = 0x280;

struct LatinTable {
  std::array<LatinChar, kLatinEnd> chars;
  LatinTable() {
    for (char32_t cp = 0x80; cp < kLatinEnd; ++cp) {
      LatinChar& c = chars[cp];
      c.role = role_of(cp);
      if (c.role != Role::kLetter) continue;
      std::string f;
      fold_letter(cp, f);
      c.fold_len = static_cast<std::uint8_t>(std::min(f.size(), sizeof c.fold));
      for (std::size_t k = 0; k < c.fold_len; ++k) c.fold[k] = f[k];
    }
  }
};

const LatinTable& latin_table() {
  static const LatinTable table;
  return table;
}

// The code point of a two-byte sequence at p[0] below kLatinEnd, or 0 when p does not start one
// (p[1] must be readable when it is).
inline char32_t latin_at(const char* p, std::size_t left) {
  const auto b0 = static_cast<unsigned char>(p[0]);
  if (b0 < 0xC2 || b0 > 0xC9 || left < 2) return 0;
  const auto b1 = static_cast<unsigned char>(p[1]);
  if ((b1 & 0xC0) != 0x80) return 0;
  return static_cast<char32_t>((b0 & 0x1Fu) << 6 | (b1 & 0x3Fu));
}

// Writes a token whole, in three stores where the layout allows (else the compiler writes each
// field on its own).
inline void store_token(Token* t, std::uint32_t begin, std::uint32_t end, std::uint32_t norm_begin,
                        std::uint16_t norm_len, TokenKind kind, bool in_source,
                        std::uint8_t newlines, std::uint8_t shape) {
  if constexpr (std::endian::native == std::endian::little && sizeof(Token) == 20 &&
                offsetof(Token, end) == 4 && offsetof(Token, norm_begin) == 8 &&
                offsetof(Token, norm_len) == 12 && offsetof(Token, kind) == 14 &&
                offsetof(Token, norm_in_source) == 15 && offsetof(Token, newlines_before) == 16 &&
                offsetof(Token, shape) == 17) {
    const std::uint64_t span = begin | std::uint64_t{end} << 32;
    const std::uint64_t norm = norm_begin | std::uint64_t{norm_len} << 32 |
                               std::uint64_t{static_cast<std::uint8_t>(kind)} << 48 |
                               std::uint64_t{in_source} << 56;
    const std::uint32_t rest = newlines | std::uint32_t{shape} << 8;  // and the padding: zero
    char* const q = reinterpret_cast<char*>(t);
    std::memcpy(q, &span, 8);
    std::memcpy(q + 8, &norm, 8);
    std::memcpy(q + 16, &rest, 4);
  } else {
    *t = Token{begin, end, norm_begin, norm_len, kind, in_source, newlines, shape};
  }
}

// Whether the ASCII letter `c` (either case) is a roman digit: i v x l c d m.
inline bool is_roman_digit(char c) {
  constexpr std::uint32_t kRomanDigits = 1u << ('i' - 'a') | 1u << ('v' - 'a') | 1u << ('x' - 'a') |
                                         1u << ('l' - 'a') | 1u << ('c' - 'a') | 1u << ('d' - 'a') |
                                         1u << ('m' - 'a');
  return (kRomanDigits >> ((static_cast<unsigned char>(c) | 0x20u) - 'a') & 1u) != 0;
}

// The shape (tokenizer.h) of an ASCII word by its first letter: [b] for a word of two letters or
// more, [256 + b] for a one-letter word (a word of two to four letters written right after a
// digit is told apart by the caller).
constexpr std::array<std::uint8_t, 512> make_word_shapes() {
  std::array<std::uint8_t, 512> t{};
  for (int c = 'A'; c <= 'z'; ++c) {
    const int lower = c | 0x20;
    if (lower < 'a' || lower > 'z') continue;
    const bool roman = lower == 'i' || lower == 'v' || lower == 'x' || lower == 'l' ||
                       lower == 'c' || lower == 'd' || lower == 'm';
    t[static_cast<std::size_t>(c)] = roman     ? shape::kOther
                                     : c < 'a' ? shape::kCapital
                                               : shape::kLower;
    t[static_cast<std::size_t>(256 + c)] = roman ? shape::kRomanLetter : shape::kLetter;
  }
  return t;
}
constexpr std::array<std::uint8_t, 512> kWordShape = make_word_shapes();

// tokenize(), and with `kIds` the word id of each token in `index` appended to `ids` as it is
// read (the hot path: the text's bytes are looked up while they are at hand).
// With `line_starts`, the index in out.tokens of each token after a line break is appended to it.
// long-function: the tokenizer's byte loop, one branch per byte class (an ASCII word, a space, a
// line break, digits, punctuation, another character, the rest of a word), each named by its
// comment. Its write cursors (tok, nq, id) are locals of this one frame, shared by the branches
// through inlined lambdas, so that they stay in registers: split into functions or members,
// the char stores through `nq` may alias the cursors and force a reload per byte (a split was
// not tried). Its weight: `extract --jurisdiction it` of the 491 KB Normattiva decree of
// bench/results/2026-12-02-vm-engine-chain-splits-callgrind.txt spends 3.95 M of its 113 M
// instructions here (about 65 M of the 113 M are loading), the most of any function of ours
// outside loading.
template <bool kIds>
void tokenize_impl(std::string_view text, Tokens& out, std::uint32_t base, const WordIndex* index,
                   PodVector<std::uint32_t>* ids, std::vector<std::uint32_t>* line_starts) {
  const std::size_t n = text.size();
  const char* const p = text.data();
  // The worst case up front: a token per byte, a normal form of at most three bytes per byte (an
  // invalid byte reads as U+FFFD; a folded letter is at most twice as long as the letter read,
  // ASCII letters and the Latin table's letters at most 3 bytes for 2). Tokens, ids and normal
  // forms are written through pointers into buffers grown to that (tokens and ids without
  // writing them: PodVector) and cut to what was written at the end.
  const std::size_t first_norm = out.norms.size();
  make_room(out.norms, 3 * n);
  out.norms.resize(first_norm + 3 * n);
  char* const norms = out.norms.data();
  char* nq = norms + first_norm;  // where the next normal form is written
  make_room(out.tokens, n);
  const std::size_t first_token = out.tokens.size();
  out.tokens.resize(first_token + n);
  Token* tok = out.tokens.data() + first_token;
  std::uint32_t* id = nullptr;
  std::size_t first_id = 0;
  if constexpr (kIds) {
    first_id = ids->size();
    make_room(*ids, n);
    ids->resize(first_id + n);
    id = ids->data() + first_id;
  }
  const char* const end_of_text = p + n;
  const std::array<LatinChar, kLatinEnd>& latin = latin_table().chars;
  std::size_t i = 0;
  std::uint8_t newlines = 0;
  // Where the last number read ends (0 at first: the byte before the text is not known).
  std::size_t digits_end = 0;
  // The next token starts a line (called at the first line break after a token).
  auto note_line_start = [&] {
    if constexpr (kIds) {
      if (line_starts != nullptr) {
        line_starts->push_back(static_cast<std::uint32_t>(tok - out.tokens.data()));
      }
    }
  };
  // Appends the token [at, end) whose normal form is the text itself.
  auto push_source = [&](std::size_t at, std::size_t end, TokenKind kind, std::uint8_t sh) {
    store_token(tok++, static_cast<std::uint32_t>(base + at),
                static_cast<std::uint32_t>(base + end), 0, 0, kind, true, newlines, sh);
    newlines = 0;
  };
  // Appends the token [at, end) whose normal form was written at norms[norm_begin, nq).
  auto push_norm = [&](std::size_t at, std::size_t end, TokenKind kind, std::size_t norm_begin,
                       std::uint8_t sh) {
    store_token(tok++, static_cast<std::uint32_t>(base + at),
                static_cast<std::uint32_t>(base + end), static_cast<std::uint32_t>(norm_begin),
                static_cast<std::uint16_t>(std::min<std::size_t>(
                    static_cast<std::size_t>(nq - norms) - norm_begin, 0xFFFF)),
                kind, false, newlines, sh);
    newlines = 0;
  };
  // The normal form written from `norm_begin`.
  auto norm_from = [&](std::size_t norm_begin) {
    return std::string_view(norms + norm_begin, static_cast<std::size_t>(nq - norms) - norm_begin);
  };
  // Copies the ASCII letters p[from, to) as the next bytes of a normal form, lower-cased when
  // `upper` says they hold a capital: up to 16 letters as one 16-byte block where the text and
  // the buffer have the room (the bytes past the word are written over by what comes next, or
  // cut).
  char* const norms_end = norms + first_norm + 3 * n;
  auto write_letters = [&](std::size_t from, std::size_t to, bool upper) {
    const std::size_t len = to - from;
#if defined(__SSE2__)
    if (len <= 16 && n - from >= 16 && norms_end - nq >= 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + from));
      if (upper) {  // 0x20 added to the bytes A..Z
        const __m128i caps =
            _mm_cmpeq_epi8(_mm_min_epu8(_mm_sub_epi8(v, _mm_set1_epi8('A')), _mm_set1_epi8(25)),
                           _mm_sub_epi8(v, _mm_set1_epi8('A')));
        v = _mm_or_si128(v, _mm_and_si128(caps, _mm_set1_epi8(0x20)));
      }
      _mm_storeu_si128(reinterpret_cast<__m128i*>(nq), v);
      nq += len;
      return;
    }
#endif
    std::memcpy(nq, p + from, len);
    if (upper) lower_ascii_letters(nq, len);
    nq += len;
  };
  while (i < n) {
    std::size_t word_begin, word_norm;  // a word read on at read_word below
    const auto b = static_cast<unsigned char>(p[i]);
    const std::uint8_t cls = kByteClass[b];
    if (cls == kLetter) {
      // A run of ASCII letters not continued by a non-ASCII character: a word read here (the
      // commonest token), lower-cased into `norms` when it holds capitals. Else the run starts
      // a word read on at read_word.
      bool upper = b < 'a';
      const std::size_t k = i + 1 + letter_run(p + i + 1, n - i - 1, upper);
      const std::uint8_t next =
          k < n ? kByteClass[static_cast<unsigned char>(p[k])] : static_cast<std::uint8_t>(kSpace);
      if (next != kHigh) {
        // A short word right after a digit may be a suffix ("300gg"): the caller reads it.
        std::uint8_t sh = k - i <= 4 && i == digits_end
                              ? shape::kOther
                              : kWordShape[b | static_cast<std::size_t>(k - i == 1) << 8];
        if (sh == shape::kOther && k - i >= 2 && (k - i > 4 || i != digits_end)) {
          // A word that starts with a roman digit is no roman numeral when a letter after is
          // none ("della", "Legge"); else the caller reads it.
          std::size_t j = i + 1;
          while (j < k && is_roman_digit(p[j])) ++j;
          if (j < k) sh = b < 'a' ? shape::kCapital : shape::kLower;
        }
        if (!upper) {
          push_source(i, k, TokenKind::kWord, sh);
        } else {
          const auto norm_begin = static_cast<std::size_t>(nq - norms);
          write_letters(i, k, true);
          push_norm(i, k, TokenKind::kWord, norm_begin, sh);
        }
        if constexpr (kIds) *id++ = index->find_ascii(p + i, k - i, end_of_text);
        i = k + (k < n && p[k] == ' ');  // the commonest separator, skipped here
        continue;
      }
      // Continued by a non-ASCII character: the run read is the start of a word read on below.
      word_begin = i;
      word_norm = static_cast<std::size_t>(nq - norms);
      write_letters(i, k, upper);
      i = k;
      goto read_word;
    }
    if (cls == kSpace) {
      ++i;
      continue;
    }
    if (cls == kNewline) {
      if (newlines == 0) note_line_start();
      if (newlines < 255) ++newlines;
      ++i;
      continue;
    }
    if (cls == kDigit) {
      std::size_t e = i + 1;
      while (e < n && kByteClass[static_cast<unsigned char>(p[e])] == kDigit) ++e;
      // Digits are their own normal form.
      push_source(i, e, TokenKind::kNumber, static_cast<std::uint8_t>(e - i >= 5 ? 5 : e - i));
      digits_end = e;
      if constexpr (kIds) *id++ = index->find_ascii(p + i, e - i, end_of_text);
      i = e + (e < n && p[e] == ' ');
      continue;
    }
    if (cls == kPunct) {
      push_source(i, i + 1, TokenKind::kPunct, shape::kPunct);
      if constexpr (kIds) *id++ = index->find_byte(b);
      i += 1 + (i + 1 < n && p[i + 1] == ' ');
      continue;
    }
    {
      // A non-ASCII character (a word starting with an ASCII letter is read above).
      std::size_t len = 1;
      char32_t cp = b;
      Role role = Role::kLetter;
      if (cls == kHigh) {
        if (const char32_t c = latin_at(p + i, n - i); c != 0) {
          cp = c;
          len = 2;
          role = latin[c].role;
        } else {
          cp = utf8::decode(text, i, len);
          role = cp == utf8::kInvalid ? Role::kPunct : role_of(cp);
        }
      }
      if (role == Role::kSpace || role == Role::kIgnore) {
        i += len;
        continue;
      }
      if (role == Role::kNewline) {
        if (newlines == 0) note_line_start();
        if (newlines < 255) ++newlines;
        i += len;
        continue;
      }
      if (role == Role::kPunct || role == Role::kMark) {
        const auto norm_begin = static_cast<std::size_t>(nq - norms);
        if (cp == utf8::kInvalid) {
          std::memcpy(nq, "\xEF\xBF\xBD", 3);
          nq += 3;
        } else {
          nq = write_punct_norm(cp, text.substr(i, len), nq);
        }
        push_norm(i, i + len, TokenKind::kPunct, norm_begin, shape::kPunct);
        if constexpr (kIds) *id++ = index->find(norm_from(norm_begin));
        i += len;
        continue;
      }
      // A word with non-ASCII letters, marks or ignorable characters.
      word_begin = i;
      word_norm = static_cast<std::size_t>(nq - norms);
    }
  read_word:  // reads on the word from word_begin, its normal form so far from word_norm
    while (i < n) {
      const auto c = static_cast<unsigned char>(p[i]);
      const std::uint8_t k = kByteClass[c];
      if (k == kLetter) {
        // A run of ASCII letters, copied, then lower-cased in place when it holds a capital.
        bool upper = c < 'a';
        const std::size_t e = i + 1 + letter_run(p + i + 1, n - i - 1, upper);
        write_letters(i, e, upper);
        i = e;
        continue;
      }
      if (k != kHigh) break;
      if (const char32_t lcp = latin_at(p + i, n - i); lcp != 0) {
        const LatinChar& lc = latin[lcp];
        if (lc.role == Role::kLetter) {
          std::memcpy(nq, lc.fold, sizeof lc.fold);  // fold_len bytes count
          nq += lc.fold_len;
        } else if (lc.role != Role::kMark && lc.role != Role::kIgnore) {
          break;
        }
        i += 2;
        continue;
      }
      std::size_t l;
      const char32_t q = utf8::decode(text, i, l);
      if (q == utf8::kInvalid) break;
      const Role r = role_of(q);
      if (r == Role::kLetter) {
        // (Rare: letters past the Latin table. At most 4 bytes for the 2 to 4 read.)
        std::string folded;
        fold_letter(q, folded);
        std::memcpy(nq, folded.data(), std::min<std::size_t>(folded.size(), 2 * l));
        nq += std::min<std::size_t>(folded.size(), 2 * l);
      } else if (r != Role::kMark && r != Role::kIgnore) {
        break;
      }
      i += l;
    }
    push_norm(word_begin, i, TokenKind::kWord, word_norm, shape::kOther);
    if constexpr (kIds) *id++ = index->find(norm_from(word_norm));
  }
  out.norms.resize(static_cast<std::size_t>(nq - norms));
  // A line break after the last token starts no token.
  if (line_starts != nullptr && newlines != 0) line_starts->pop_back();
  const auto written = static_cast<std::size_t>(tok - (out.tokens.data() + first_token));
  out.tokens.resize(first_token + written);
  if constexpr (kIds) ids->resize(first_id + written);
}

}  // namespace

void tokenize(std::string_view text, Tokens& out, std::uint32_t base) {
  if (out.source.empty() && base == 0) out.source = text;
  tokenize_impl<false>(text, out, base, nullptr, nullptr, nullptr);
}

void tokenize(std::string_view text, Tokens& out, std::uint32_t base, const WordIndex& index,
              PodVector<std::uint32_t>& ids) {
  if (out.source.empty() && base == 0) out.source = text;
  tokenize_impl<true>(text, out, base, &index, &ids, nullptr);
}

void tokenize(std::string_view text, Tokens& out, std::uint32_t base, const WordIndex& index,
              PodVector<std::uint32_t>& ids, std::vector<std::uint32_t>& line_starts) {
  if (out.source.empty() && base == 0) out.source = text;
  tokenize_impl<true>(text, out, base, &index, &ids, &line_starts);
}

std::string normalize_phrase(std::string_view text) {
  Tokens t;
  tokenize(text, t);
  std::string out;
  for (const Token& tok : t.tokens) {
    if (!out.empty()) out += ' ';
    out += t.norm(tok);
  }
  return out;
}

}  // namespace lexlink::lexicon

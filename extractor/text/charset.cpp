#include "text/charset.h"

#include <uchardet/uchardet.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "common/utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lexlink::text {

namespace {

std::string lower_trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' ||
                        s.front() == '\r' || s.front() == '\f')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' ||
                        s.back() == '\r' || s.back() == '\f')) {
    s.remove_suffix(1);
  }
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool one_of(const std::string& s, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), std::string_view(s)) != names.end();
}

// Windows-1252 0x80..0x9F (WHATWG index-windows-1252; the five undefined bytes map to
// themselves).
constexpr std::array<char16_t, 32> kWindows1252C1 = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

char32_t iso_8859_15(unsigned char b) {
  switch (b) {
    case 0xA4: return 0x20AC;
    case 0xA6: return 0x0160;
    case 0xA8: return 0x0161;
    case 0xB4: return 0x017D;
    case 0xB8: return 0x017E;
    case 0xBC: return 0x0152;
    case 0xBD: return 0x0153;
    case 0xBE: return 0x0178;
    default: return b;
  }
}

std::uint8_t utf8_width(char32_t cp) {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

constexpr std::uint32_t kMaxRunBytes = 1u << 30;

}  // namespace

std::optional<Encoding> encoding_from_label(std::string_view label, bool html) {
  const std::string s = lower_trimmed(label);
  if (one_of(s, {"utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8",
                 "x-unicode20utf8"})) {
    return Encoding::kUtf8;
  }
  if (one_of(s, {"windows-1252", "cp1252", "x-cp1252"})) return Encoding::kWindows1252;
  if (one_of(s, {"us-ascii", "ascii", "ansi_x3.4-1968", "iso-ir-6", "us"})) {
    return Encoding::kWindows1252;  // a superset: lenient with mislabelled 8-bit text
  }
  if (one_of(s, {"iso-8859-1", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "latin1",
                 "l1", "cp819", "ibm819", "csisolatin1", "iso-ir-100"})) {
    return html ? Encoding::kWindows1252 : Encoding::kIso8859_1;
  }
  if (one_of(s, {"iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15", "l9", "latin-9", "latin9",
                 "csisolatin9"})) {
    return Encoding::kIso8859_15;
  }
  if (one_of(s, {"utf-16", "utf-16le", "ucs-2", "unicode", "csunicode", "iso-10646-ucs-2",
                 "unicodefeff"})) {
    return html ? Encoding::kUtf8 : Encoding::kUtf16Le;
  }
  if (one_of(s, {"utf-16be", "unicodefffe"})) return html ? Encoding::kUtf8 : Encoding::kUtf16Be;
  return std::nullopt;
}

std::size_t bom_length(std::string_view b, Encoding* encoding) {
  if (b.size() >= 3 && b.substr(0, 3) == "\xEF\xBB\xBF") {
    if (encoding) *encoding = Encoding::kUtf8;
    return 3;
  }
  if (b.size() >= 2 && b.substr(0, 2) == "\xFF\xFE") {
    if (encoding) *encoding = Encoding::kUtf16Le;
    return 2;
  }
  if (b.size() >= 2 && b.substr(0, 2) == "\xFE\xFF") {
    if (encoding) *encoding = Encoding::kUtf16Be;
    return 2;
  }
  return 0;
}

std::optional<Encoding> detect_utf16_without_bom(std::string_view head) {
  using namespace std::string_view_literals;
  if (head.substr(0, 4) == "<\0?\0"sv) return Encoding::kUtf16Le;
  if (head.substr(0, 4) == "\0<\0?"sv) return Encoding::kUtf16Be;
  const std::size_t pairs = std::min<std::size_t>(head.size(), 4096) / 2;
  if (pairs < 8) return std::nullopt;
  std::size_t le = 0, be = 0;
  std::size_t i = 0;
#if defined(__SSE2__)
  // Eight pairs at a time; a block without a NUL byte (any 8-bit text) counts for neither.
  const __m128i zero = _mm_setzero_si128();
  for (; i + 8 <= pairs; i += 8) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(head.data() + 2 * i));
    const auto z = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)));
    if (z == 0) continue;
    const unsigned za = z & 0x5555u;         // first byte of the pair is NUL
    const unsigned zb = (z >> 1) & 0x5555u;  // second byte of the pair is NUL
    le += static_cast<std::size_t>(__builtin_popcount(~za & zb & 0x5555u));
    be += static_cast<std::size_t>(__builtin_popcount(za & ~zb & 0x5555u));
  }
#endif
  for (; i < pairs; ++i) {
    const char a = head[2 * i], b = head[2 * i + 1];
    if (a != 0 && b == 0) ++le;
    if (a == 0 && b != 0) ++be;
  }
  if (le * 10 >= pairs * 9) return Encoding::kUtf16Le;
  if (be * 10 >= pairs * 9) return Encoding::kUtf16Be;
  return std::nullopt;
}

Encoding guess_single_byte(std::string_view sample) {
  bool has_c1 = false;
  for (char c : sample) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x80 && b <= 0x9F) {
      has_c1 = true;
      break;
    }
  }
  uchardet_t detector = uchardet_new();
  if (detector == nullptr) return Encoding::kWindows1252;
  std::string charset;
  if (uchardet_handle_data(detector, sample.data(), sample.size()) == 0) {
    uchardet_data_end(detector);
    const char* name = uchardet_get_charset(detector);
    if (name != nullptr) charset = name;
  }
  uchardet_delete(detector);
  const std::string s = lower_trimmed(charset);
  // Bytes 0x80..0x9F are C1 controls in the ISO charsets and never text: Windows-1252 then.
  if (s == "iso-8859-1" && !has_c1) return Encoding::kIso8859_1;
  if (s == "iso-8859-15" && !has_c1) return Encoding::kIso8859_15;
  return Encoding::kWindows1252;
}

char32_t windows_1252_c1(char32_t c) {
  if (c >= 0x80 && c <= 0x9F) return kWindows1252C1[c - 0x80];
  return c;
}

char32_t single_byte_to_code_point(Encoding encoding, unsigned char b) {
  switch (encoding) {
    case Encoding::kWindows1252: return windows_1252_c1(b);
    case Encoding::kIso8859_15: return iso_8859_15(b);
    default: return b;
  }
}

// ---------------------------------------------------------------------------------------------
// RunMap

std::size_t RunMap::run_index(std::uint64_t mid) const {
  const std::size_t n = runs_.size();
  if (first_ >= n || mid < runs_[first_].mid_begin) return static_cast<std::size_t>(-1);
  std::size_t c = std::max(cursor_, first_);
  if (c < n && runs_[c].mid_begin <= mid) {
    // Forward from the cursor: lookups come in increasing order.
    for (std::size_t k = 0; k < 4 && c + 1 < n && runs_[c + 1].mid_begin <= mid; ++k) ++c;
    if (c + 1 >= n || runs_[c + 1].mid_begin > mid) {
      cursor_ = c;
      return c;
    }
  }
  auto it = std::upper_bound(runs_.begin() + static_cast<std::ptrdiff_t>(first_), runs_.end(), mid,
                             [](std::uint64_t m, const MidRun& r) { return m < r.mid_begin; });
  cursor_ = static_cast<std::size_t>(it - runs_.begin()) - 1;
  return cursor_;
}

std::uint64_t RunMap::orig_at(std::uint64_t mid) const {
  if (identity_) return mid;
  const std::size_t i = run_index(mid);
  if (i == static_cast<std::size_t>(-1)) {
    // Before the first run: the origin (the end of the runs dropped, or the end of a BOM).
    return origin_orig_;
  }
  const MidRun& r = runs_[i];
  const std::uint64_t off = mid - r.mid_begin;
  if (off >= r.mid_len) return r.orig_begin + r.orig_len;
  switch (r.kind) {
    case PieceKind::kCopy: return r.orig_begin + off;
    case PieceKind::kTranscoded: return r.orig_begin + off / r.char_mid_len * r.char_orig_len;
    default: return off == 0 ? r.orig_begin : r.orig_begin + r.orig_len;
  }
}

void RunMap::append_pieces(std::uint64_t mid_begin, std::uint64_t mid_end, std::uint64_t text_begin,
                           std::vector<Piece>& out) const {
  if (mid_begin >= mid_end) return;
  std::size_t i = run_index(mid_begin);
  if (i == static_cast<std::size_t>(-1)) i = first_;
  for (; i < runs_.size() && runs_[i].mid_begin < mid_end; ++i) {
    const MidRun& r = runs_[i];
    const std::uint64_t s = std::max(mid_begin, r.mid_begin);
    const std::uint64_t e = std::min(mid_end, r.mid_begin + r.mid_len);
    if (s >= e) continue;
    Piece p;
    p.text_begin = text_begin + (s - mid_begin);
    p.kind = r.kind;
    switch (r.kind) {
      case PieceKind::kCopy:
        p.orig_begin = r.orig_begin + (s - r.mid_begin);
        p.text_len = p.orig_len = static_cast<std::uint32_t>(e - s);
        break;
      case PieceKind::kTranscoded:
        p.orig_begin = r.orig_begin + (s - r.mid_begin) / r.char_mid_len * r.char_orig_len;
        p.text_len = static_cast<std::uint32_t>(e - s);
        p.orig_len = static_cast<std::uint32_t>((e - s) / r.char_mid_len * r.char_orig_len);
        p.char_text_len = r.char_mid_len;
        p.char_orig_len = r.char_orig_len;
        break;
      default:
        p.orig_begin = r.orig_begin;
        p.text_len = static_cast<std::uint32_t>(e - s);
        p.orig_len = r.orig_len;
        break;
    }
    if (!out.empty() && p.kind != PieceKind::kDecoded && p.kind != PieceKind::kSynthetic) {
      Piece& last = out.back();
      if (last.kind == p.kind && last.char_text_len == p.char_text_len &&
          last.char_orig_len == p.char_orig_len &&
          last.text_begin + last.text_len == p.text_begin &&
          last.orig_begin + last.orig_len == p.orig_begin &&
          std::uint64_t{last.text_len} + p.text_len < kMaxRunBytes) {
        last.text_len += p.text_len;
        last.orig_len += p.orig_len;
        continue;
      }
    }
    out.push_back(p);
  }
}

void RunMap::drop_before(std::uint64_t mid) {
  if (identity_) return;
  while (first_ < runs_.size() && runs_[first_].mid_begin + runs_[first_].mid_len <= mid) {
    origin_mid_ = runs_[first_].mid_begin + runs_[first_].mid_len;
    origin_orig_ = runs_[first_].orig_begin + runs_[first_].orig_len;
    ++first_;
  }
  if (first_ > 1024 && first_ * 2 > runs_.size()) {
    runs_.erase(runs_.begin(), runs_.begin() + static_cast<std::ptrdiff_t>(first_));
    cursor_ = cursor_ > first_ ? cursor_ - first_ : 0;
    first_ = 0;
  }
}

void RunMap::set_origin(std::uint64_t mid, std::uint64_t orig) {
  origin_mid_ = mid;
  origin_orig_ = orig;
}

// ---------------------------------------------------------------------------------------------
// Transcoder

void Transcoder::add(std::vector<MidRun>& runs, std::uint64_t mid_begin, std::uint64_t orig_begin,
                     std::uint32_t mid_len, std::uint32_t orig_len, PieceKind kind) {
  if (kind != PieceKind::kDecoded && !runs.empty()) {
    MidRun& last = runs.back();
    const bool same_width = kind == PieceKind::kCopy ||
                            (last.char_mid_len == mid_len && last.char_orig_len == orig_len);
    if (last.kind == kind && same_width && last.mid_begin + last.mid_len == mid_begin &&
        last.orig_begin + last.orig_len == orig_begin && last.mid_len < kMaxRunBytes) {
      last.mid_len += mid_len;
      last.orig_len += orig_len;
      return;
    }
  }
  MidRun r;
  r.mid_begin = mid_begin;
  r.orig_begin = orig_begin;
  r.mid_len = mid_len;
  r.orig_len = orig_len;
  r.kind = kind;
  if (kind == PieceKind::kTranscoded) {
    r.char_mid_len = static_cast<std::uint8_t>(mid_len);
    r.char_orig_len = static_cast<std::uint8_t>(orig_len);
  }
  runs.push_back(r);
}

std::uint64_t Transcoder::decode(std::string_view in, std::uint64_t orig_pos, std::uint64_t mid_pos,
                                 bool eof, std::string& mid, std::vector<MidRun>& runs) {
  if (encoding_ == Encoding::kIso8859_1 || encoding_ == Encoding::kWindows1252 ||
      encoding_ == Encoding::kIso8859_15) {
    std::size_t i = 0;
    const std::size_t n = in.size();
    while (i < n) {
      // An ASCII stretch: copied as is.
      std::size_t j = i;
      while (j + 8 <= n) {
        std::uint64_t w;
        std::memcpy(&w, in.data() + j, 8);
        if (w & 0x8080808080808080ull) break;
        j += 8;
      }
      while (j < n && static_cast<unsigned char>(in[j]) < 0x80) ++j;
      if (j > i) {
        mid.append(in.data() + i, j - i);
        add(runs, mid_pos, orig_pos + i, static_cast<std::uint32_t>(j - i),
            static_cast<std::uint32_t>(j - i), PieceKind::kCopy);
        mid_pos += j - i;
        i = j;
      }
      // Non-ASCII bytes: one character each.
      while (i < n && static_cast<unsigned char>(in[i]) >= 0x80) {
        const char32_t cp = single_byte_to_code_point(encoding_, static_cast<unsigned char>(in[i]));
        const std::size_t before = mid.size();
        utf8::append(mid, cp);
        const auto w = static_cast<std::uint32_t>(mid.size() - before);
        add(runs, mid_pos, orig_pos + i, w, 1, PieceKind::kTranscoded);
        mid_pos += w;
        ++i;
      }
    }
    return mid_pos;
  }

  // UTF-16.
  const bool le = encoding_ == Encoding::kUtf16Le;
  std::string joined;
  std::string_view b = in;
  std::uint64_t base = orig_pos;
  if (!carry_.empty()) {
    joined = carry_;
    joined.append(in);
    b = joined;
    base = carry_orig_;
    carry_.clear();
  }
  auto unit = [&](std::size_t k) -> char32_t {
    const auto x = static_cast<unsigned char>(b[k]), y = static_cast<unsigned char>(b[k + 1]);
    return le ? (char32_t{y} << 8 | x) : (char32_t{x} << 8 | y);
  };
  auto replacement = [&](std::size_t at, std::uint32_t orig_len) {
    utf8::append(mid, 0xFFFD);
    add(runs, mid_pos, base + at, 3, orig_len, PieceKind::kDecoded);
    mid_pos += 3;
  };
  std::size_t i = 0;
  const std::size_t n = b.size();
  while (i + 2 <= n) {
    const char32_t u = unit(i);
    if (u >= 0xD800 && u <= 0xDBFF) {
      if (i + 4 > n) {
        if (!eof) break;
        replacement(i, 2);
        i += 2;
        continue;
      }
      const char32_t u2 = unit(i + 2);
      if (u2 >= 0xDC00 && u2 <= 0xDFFF) {
        utf8::append(mid, 0x10000 + ((u - 0xD800) << 10) + (u2 - 0xDC00));
        add(runs, mid_pos, base + i, 4, 4, PieceKind::kTranscoded);
        mid_pos += 4;
        i += 4;
      } else {
        replacement(i, 2);
        i += 2;
      }
      continue;
    }
    if (u >= 0xDC00 && u <= 0xDFFF) {
      replacement(i, 2);
      i += 2;
      continue;
    }
    const std::uint8_t w = utf8_width(u);
    utf8::append(mid, u);
    add(runs, mid_pos, base + i, w, 2, PieceKind::kTranscoded);
    mid_pos += w;
    i += 2;
  }
  if (i < n) {
    if (eof) {
      replacement(i, static_cast<std::uint32_t>(n - i));
    } else {
      carry_.assign(b.substr(i));
      carry_orig_ = base + i;
    }
  }
  return mid_pos;
}

}  // namespace lexlink::text

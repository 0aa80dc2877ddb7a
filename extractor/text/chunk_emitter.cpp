#include "text/chunk_emitter.h"

#include <cstring>
#include <limits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/utf8.h"

namespace lexlink::text {

namespace {

std::uint32_t hash_name(std::string_view s) {
  std::uint32_t h = 2166136261u;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}

bool is_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The number of leading white space bytes of `s` (is_space; indentation 16 bytes at a time).
std::size_t skip_spaces(std::string_view s) {
  std::size_t k = 0;
#if defined(__SSE2__)
  const __m128i sp = _mm_set1_epi8(' ');
  const __m128i nl = _mm_set1_epi8('\n');
  const __m128i tab = _mm_set1_epi8('\t');
  const __m128i cr = _mm_set1_epi8('\r');
  const __m128i ff = _mm_set1_epi8('\f');
  for (; k + 16 <= s.size(); k += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + k));
    const __m128i ws =
        _mm_or_si128(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, nl)),
                                  _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, cr))),
                     _mm_cmpeq_epi8(v, ff));
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(ws));
    if (mask != 0xFFFF) return k + static_cast<std::size_t>(__builtin_ctz(~mask));
  }
#endif
  while (k < s.size() && is_space(s[k])) ++k;
  return k;
}

// The first p in [from, to] that ends a blank line (s[p-1] is the '\n' closing a line holding
// only white space), or npos.
std::size_t first_blank_line_end(std::string_view s, std::size_t from, std::size_t to) {
  std::size_t q = from > 0 ? from - 1 : 0;
  while (q < to) {
    const void* hit = std::memchr(s.data() + q, '\n', to - q);
    if (hit == nullptr) return std::string_view::npos;
    q = static_cast<std::size_t>(static_cast<const char*>(hit) - s.data());
    std::size_t j = q;
    while (j > 0 && (s[j - 1] == ' ' || s[j - 1] == '\t' || s[j - 1] == '\r' || s[j - 1] == '\f')) {
      --j;
    }
    if (j > 0 && s[j - 1] == '\n' && q + 1 >= from) return q + 1;
    ++q;
  }
  return std::string_view::npos;
}

// The first p in [from, to] right after a line end ("\n", or a "\r" not followed by "\n").
std::size_t first_line_end(std::string_view s, std::size_t from, std::size_t to) {
  for (std::size_t p = from > 0 ? from : 1; p <= to; ++p) {
    const char c = s[p - 1];
    if (c == '\n') return p;
    if (c == '\r' && p < s.size() && s[p] != '\n') return p;
  }
  return std::string_view::npos;
}

std::size_t first_space_end(std::string_view s, std::size_t from, std::size_t to) {
  for (std::size_t p = from > 0 ? from : 1; p <= to; ++p) {
    if (is_space(s[p - 1])) return p;
  }
  return std::string_view::npos;
}

std::size_t first_char_boundary(std::string_view s, std::size_t from, std::size_t to) {
  std::size_t p = from;
  for (int k = 0; k < 3 && p < s.size() && p < to && is_continuation(s[p]); ++k) ++p;
  return p <= to ? p : std::string_view::npos;
}

}  // namespace

ChunkEmitter::ChunkEmitter(const RunMap& map, std::size_t chunk_bytes, std::size_t first_text_bytes)
    : map_(map),
      identity_(map.identity()),
      chunk_bytes_(chunk_bytes),
      first_text_bytes_(first_text_bytes) {
  names_.emplace_back();
  name_slots_.assign(64, 0);
}

void advise_huge_pages(const void* p, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHuge = 2u << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t last = (begin + bytes) & ~(kHuge - 1);
  if (last > first) {
    (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
#else
  (void)p;
  (void)bytes;
#endif
}

void ChunkEmitter::reserve(std::size_t mid_bytes) {
  // Untouched reserved pages cost address space only.
  reserve_large(text_, mid_bytes + 64);
  if (format_ != Format::kText) {
    reserve_large(pieces_, mid_bytes / 24 + 16);
    reserve_large(tags_, mid_bytes / 16 + 16);
  }
}

void ChunkEmitter::set_document(Format format, Encoding encoding, bool bom,
                                std::string xml_profile) {
  format_ = format;
  encoding_ = encoding;
  bom_ = bom;
  xml_profile_ = std::move(xml_profile);
  drop_space_after_break_ = format != Format::kText;
}

void ChunkEmitter::begin_chunk(std::uint64_t mid, std::uint64_t orig) {
  chunk_mid_ = mid;
  chunk_orig_ = orig;
  cut_base_ = mid;
  cut_requested_ = false;
  ++epoch_;
  first_threshold_ = threshold(CutLevel::kBlock);
  // The previous chunk's sizes are the best guess for this one's (chunks are cut at about the
  // same size), with an eighth more: a chunk a few bytes larger than the last (a cut a token
  // further on) then does not reallocate while it fills, which would double the buffer and
  // copy it. Reserved pages that are never written cost address space only.
  auto more = [](std::size_t n) { return n + n / 8; };
  reserve_large(text_, more(last_sizes_[0]));
  reserve_large(pieces_, more(last_sizes_[1]));
  reserve_large(tags_, more(last_sizes_[2]));
  if (zone_depth_ > 0) zone_start_ = text_base_;  // a zone continued from the previous chunk
}

TextView ChunkEmitter::end_chunk(std::uint64_t /*mid*/, std::uint64_t orig, std::string original,
                                 bool last) {
  TextView v;
  v.format = format_;
  v.encoding = encoding_;
  v.bom = bom_;
  v.xml_profile = xml_profile_;
  v.orig_begin = chunk_orig_;
  v.orig_end = orig;
  v.original = std::move(original);
  v.text_begin = text_base_;
  if (zone_depth_ > 0) {
    zones_.push_back(Zone{zone_start_, text_offset(), zone_reason_});
  }
  text_base_ += text_.size();
  if (!text_.empty()) last_text_byte_ = text_.back();
  if (!last) last_sizes_ = {text_.size(), pieces_.size(), tags_.size()};
  v.text = std::move(text_);
  v.map = OffsetMap(std::move(pieces_), chunk_orig_);
  v.tags = std::move(tags_);
  v.names = std::move(names_);
  v.no_link = std::move(zones_);
  v.warnings = std::move(warnings_);
  v.last = last;
  text_.clear();
  pieces_.clear();
  tags_.clear();
  names_.clear();
  names_.emplace_back();
  name_slots_.assign(64, 0);
  zones_.clear();
  warnings_.clear();
  cut_requested_ = false;
  return v;
}

void ChunkEmitter::valid_text_general(std::uint64_t mid, std::string_view bytes) {
  if (discard_) return;
  if (after_break_ && drop_space_after_break_) {
    const std::size_t k = skip_spaces(bytes);
    bytes.remove_prefix(k);
    mid += k;
  }
  if (bytes.empty()) return;
  if (!identity_) {
    map_.append_pieces(mid, mid + bytes.size(), text_offset(), pieces_);
    text_.append(bytes);
    after_break_ = false;
    return;
  }
  while (!bytes.empty()) {
    std::size_t n = bytes.size();
    if (n > kMaxPieceBytes) {
      n = kMaxPieceBytes;
      while (n > 0 && is_continuation(bytes[n])) --n;
    }
    Piece p;
    p.text_begin = text_offset();
    p.orig_begin = mid;
    p.text_len = p.orig_len = static_cast<std::uint32_t>(n);
    p.kind = PieceKind::kCopy;
    push_piece(p);
    text_.append(bytes.substr(0, n));
    bytes.remove_prefix(n);
    mid += n;
  }
  after_break_ = false;
}

void ChunkEmitter::text(std::uint64_t mid, std::string_view bytes) {
  if (discard_) return;
  if (!identity_) {
    valid_text(mid, bytes);
    return;
  }
  while (!bytes.empty()) {
    const std::size_t bad = utf8::find_invalid(bytes);
    if (bad == std::string_view::npos) {
      valid_text(mid, bytes);
      return;
    }
    valid_text(mid, bytes.substr(0, bad));
    decoded(mid + bad, mid + bad + 1, "\xEF\xBF\xBD");
    bytes.remove_prefix(bad + 1);
    mid += bad + 1;
  }
}

void ChunkEmitter::decoded(std::uint64_t mid_begin, std::uint64_t mid_end, std::string_view utf8,
                           char32_t code_point) {
  if (discard_) return;
  Piece p;
  p.text_begin = text_offset();
  p.orig_begin = orig(mid_begin);
  p.orig_len = static_cast<std::uint32_t>(orig(mid_end) - p.orig_begin);
  const std::size_t before = text_.size();
  if (utf8.empty()) {
    utf8::append(text_, code_point);
  } else {
    text_.append(utf8);
  }
  p.text_len = static_cast<std::uint32_t>(text_.size() - before);
  p.kind = PieceKind::kDecoded;
  pieces_.push_back(p);
  after_break_ = false;
}

void ChunkEmitter::name_table_insert(std::uint32_t index) {
  const std::size_t mask = name_slots_.size() - 1;
  std::size_t slot = hash_name(names_[index]) & mask;
  while (name_slots_[slot] != 0) slot = (slot + 1) & mask;
  name_slots_[slot] = index + 1;
}

std::uint32_t ChunkEmitter::name(std::string_view n) {
  if (n.empty() || discard_) return 0;
  std::size_t mask = name_slots_.size() - 1;
  for (std::size_t slot = hash_name(n) & mask;; slot = (slot + 1) & mask) {
    const std::uint32_t v = name_slots_[slot];
    if (v == 0) break;
    if (names_[v - 1] == n) return v - 1;
  }
  const auto index = static_cast<std::uint32_t>(names_.size());
  names_.emplace_back(n);
  if (names_.size() * 2 > name_slots_.size()) {
    name_slots_.assign(name_slots_.size() * 2, 0);
    for (std::uint32_t i = 1; i < names_.size(); ++i) name_table_insert(i);
  } else {
    name_table_insert(index);
  }
  return index;
}

void ChunkEmitter::zone_begin(Zone::Reason reason) {
  if (discard_) return;
  if (zone_depth_++ == 0) {
    zone_start_ = text_offset();
    zone_reason_ = reason;
  }
}

void ChunkEmitter::zone_end() {
  if (discard_) return;
  if (zone_depth_ == 0) return;
  if (--zone_depth_ == 0) zones_.push_back(Zone{zone_start_, text_offset(), zone_reason_});
}

std::uint64_t ChunkEmitter::threshold(CutLevel level) const {
  if (chunk_bytes_ == 0) return std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t s = chunk_bytes_;
  switch (level) {
    case CutLevel::kBlock: return cut_base_ + s;
    case CutLevel::kLine: return cut_base_ + s + s / 4;
    case CutLevel::kSafeSpace: return advisor_ ? cut_base_ + s + s / 2 : UINT64_MAX;
    case CutLevel::kSpace: return cut_base_ + s + 3 * s / 4;
    case CutLevel::kAny: return cut_base_ + 2 * s;
  }
  return std::numeric_limits<std::uint64_t>::max();
}

std::size_t ChunkEmitter::safe_space_end(std::string_view s, std::size_t a, std::size_t b,
                                         std::size_t from, std::size_t to) {
  if (advisor_ == nullptr || from > to || from < a || to > b) return std::string_view::npos;
  // The advisor sees what comes before the run in this chunk (a window reaches back that far)
  // and the whole run (what follows the cut).
  constexpr std::size_t kBehind = 4096;
  const std::size_t behind = std::min(text_.size(), kBehind);
  advice_text_.assign(text_, text_.size() - behind, behind);
  advice_text_.append(s.substr(a, b - a));
  const std::size_t q = advisor_->find_cut(advice_text_, behind + (from - a));
  if (q == std::string_view::npos || q < behind + (from - a) || q > behind + (to - a)) {
    return std::string_view::npos;
  }
  return q - behind + a;
}

bool ChunkEmitter::offer_cut_slow(CutLevel level, std::uint64_t mid) {
  if (chunk_bytes_ == 0 || mid <= chunk_mid_) return false;
  if (first_text_bytes_ != 0) {  // the first chunk, waiting for its text
    if (text_.size() < first_text_bytes_ && mid < chunk_mid_ + 4 * std::uint64_t{chunk_bytes_}) {
      return false;
    }
    first_text_bytes_ = 0;
    // The thresholds count from here: a block boundary is accepted now, a line end from
    // chunk_bytes / 4 further on, and so on (not a cut anywhere at once).
    if (mid > cut_base_ + chunk_bytes_) cut_base_ = mid - chunk_bytes_;
    first_threshold_ = threshold(CutLevel::kBlock);
  }
  if (level != CutLevel::kAny && zone_depth_ > 0) return false;
  if (mid < threshold(level)) return false;
  cut_requested_ = true;
  return true;
}

CutLevel ChunkEmitter::token_cut_level() const {
  if (zone_depth_ > 0) return CutLevel::kAny;  // the only cut accepted inside a link zone
  if (after_break_) return CutLevel::kBlock;
  const char c = text_.empty() ? last_text_byte_ : text_.back();
  if (c == '\n') return CutLevel::kLine;
  return is_space(c) ? CutLevel::kSpace : CutLevel::kAny;
}

// ---------------------------------------------------------------------------------------------

std::size_t complete_utf8_prefix(std::string_view s, std::size_t to) {
  for (std::size_t k = 1; k <= 3 && k <= to; ++k) {
    const auto b = static_cast<unsigned char>(s[to - k]);
    if (b < 0x80) return to;
    if (b >= 0xC0) {
      const std::size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
      return k < need ? to - k : to;
    }
  }
  return to;
}

std::size_t emit_text_run_cutting(ChunkEmitter& e, std::string_view s, std::uint64_t base,
                                  std::size_t a, std::size_t b, bool blank_line_is_block,
                                  bool known_valid, bool may_wait) {
  if (a >= b) return b;
  auto emit = [&](std::size_t from, std::size_t to) {
    emit_text(e, s, base, from, to, known_valid);
  };
  const bool zone = e.in_zone();
  const std::uint64_t t_block = blank_line_is_block && !zone
                                    ? e.threshold(CutLevel::kBlock)
                                    : std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t t_line =
      zone ? std::numeric_limits<std::uint64_t>::max() : e.threshold(CutLevel::kLine);
  const std::uint64_t t_safe =
      zone ? std::numeric_limits<std::uint64_t>::max() : e.threshold(CutLevel::kSafeSpace);
  const std::uint64_t t_space =
      zone ? std::numeric_limits<std::uint64_t>::max() : e.threshold(CutLevel::kSpace);
  const std::uint64_t t_any = e.threshold(CutLevel::kAny);
  const std::uint64_t end = base + b;
  if (end < t_block && end < t_line && end < t_safe && end < t_space && end < t_any) {
    emit(a, b);
    return b;
  }
  auto rel = [&](std::uint64_t t) {
    return t <= base + a ? a : static_cast<std::size_t>(t - base);
  };
  std::size_t best = std::string_view::npos;
  CutLevel level = CutLevel::kAny;
  auto consider = [&](std::size_t p, CutLevel l) {
    if (p != std::string_view::npos && p <= b && (best == std::string_view::npos || p < best)) {
      best = p;
      level = l;
    }
  };
  if (end >= t_block) consider(first_blank_line_end(s, rel(t_block), b), CutLevel::kBlock);
  if (end >= t_line) consider(first_line_end(s, rel(t_line), b), CutLevel::kLine);
  if (end >= t_space) consider(first_space_end(s, rel(t_space), b), CutLevel::kSpace);
  if (end >= t_any) consider(first_char_boundary(s, rel(t_any), b), CutLevel::kAny);
  // Asked last, as it costs a scan of the run: only a cut before those found so far counts.
  if (end >= t_safe) {
    const std::size_t to = best == std::string_view::npos ? b : best;
    consider(e.safe_space_end(s, a, b, rel(t_safe), to), CutLevel::kSafeSpace);
  }
  if (best == std::string_view::npos && may_wait && end >= t_safe) {
    // Keep the run's end for the next call, when what follows it has come (t_safe is reached
    // only with an advisor).
    std::size_t keep = b - a > kAdviceLookahead ? b - kAdviceLookahead : a;
    while (keep > a && (static_cast<unsigned char>(s[keep]) & 0xC0) == 0x80) --keep;
    emit(a, keep);
    return keep;
  }
  if (best == std::string_view::npos || !e.offer_cut(level, base + best)) {
    emit(a, b);
    return b;
  }
  emit(a, best);
  return best;
}

}  // namespace lexlink::text

// text/chunk_emitter: builds TextView chunks from what a tokenizer reports (internal to
// lexlink_text).
//
// Tokenizers work on "mid" bytes (UTF-8; the original bytes themselves for UTF-8 input) and
// report text runs, decoded references, block breaks, tags and link zones at absolute mid
// offsets; the emitter appends the text, composes the RunMap to get original offsets, keeps the
// piece invariants (sorted, tiling, at most one synthetic break in a row, none at the start of
// the document) and decides where chunks may end. In markup formats, white space that directly
// follows a block boundary (or starts the document) is not text: it separates blocks, and
// dropping it keeps the text and the piece list small.
//
// Chunking is forward-only: once a chunk holds chunk_bytes of mid bytes a cut is accepted at a
// block boundary; from 1.25x at a line end in text, from 1.5x at white space that the reader's
// CutAdvisor accepts (judged from the text so far and the run at hand), from 1.75x at any white
// space, from 2x anywhere (inside a link zone or a long comment too). Between two tokens of
// markup (tags, comments, references) the tokenizer offers a cut too, of the level the text's
// end allows there (offer_token_cut): markup without text is cut like text, so a chunk holds
// 2x chunk_bytes at most however dense its tags. A chunk therefore never exceeds 2x
// chunk_bytes plus one token. The first chunk may be asked to hold some text as well
// (first_text_bytes): it is then cut only once it holds that much text, or 4x chunk_bytes of
// mid bytes, and its thresholds count from that point (at most 6x chunk_bytes plus a token).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "text/charset.h"
#include "text/cut_advisor.h"
#include "text/text_view.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lexlink::text {

enum class CutLevel : std::uint8_t { kBlock, kLine, kSafeSpace, kSpace, kAny };

// The longest piece the emitter makes (text_len and orig_len are 32-bit).
inline constexpr std::uint32_t kMaxPieceBytes = 1u << 30;

// ' ', '\t', '\n', '\f', '\r' (the white space of markup formats), as one test.
inline bool is_space(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u <= ' ' && ((1ull << u) & ((1ull << ' ') | (1ull << '\t') | (1ull << '\n') |
                                     (1ull << '\f') | (1ull << '\r'))) != 0;
}

class ChunkEmitter {
 public:
  // `chunk_bytes` 0: a single chunk. `first_text_bytes`: the text the first chunk holds at
  // least (when the document's first 4x chunk_bytes have it).
  ChunkEmitter(const RunMap& map, std::size_t chunk_bytes, std::size_t first_text_bytes = 0);

  // A discarding emitter records nothing and never cuts: a tokenizer run with it only checks
  // the document (the XML validation pass).
  void set_discard() {
    discard_ = true;
    chunk_bytes_ = 0;
    first_threshold_ = UINT64_MAX;
  }
  bool discarding() const { return discard_; }

  // Who says where a stretch of text without block boundaries or line ends may be cut
  // (nullptr: nobody, such stretches are cut at white space from 1.75x). Not owned.
  void set_cut_advisor(const CutAdvisor* advisor) { advisor_ = advisor; }
  // The first p in [from, to] of the text run s[a, b) (the text that follows the chunk's text
  // so far) where the advisor accepts a cut, or npos (also without an advisor).
  std::size_t safe_space_end(std::string_view s, std::size_t a, std::size_t b, std::size_t from,
                             std::size_t to);

  // Reserves room for a chunk made of about `mid_bytes` mid bytes.
  void reserve(std::size_t mid_bytes);
  // A number that changes with every chunk (for caches of name indices).
  std::uint32_t chunk_epoch() const { return epoch_; }

  // Starts a chunk at mid offset `mid`, original offset `orig` (the previous chunk's end).
  void begin_chunk(std::uint64_t mid, std::uint64_t orig);
  // Ends the chunk at mid offset `mid`, original offset `orig`; `original` holds the chunk's
  // original bytes.
  TextView end_chunk(std::uint64_t mid, std::uint64_t orig, std::string original, bool last);

  // Text bytes at mid offset `mid`. With the identity map they are validated: each invalid byte
  // reads U+FFFD through a kDecoded piece.
  void text(std::uint64_t mid, std::string_view bytes);
  // Text bytes known to be valid UTF-8 (mid bytes of a transcoded document, or checked ASCII).
  void valid_text(std::uint64_t mid, std::string_view bytes) {
    // Most runs: UTF-8 input, not starting with white space to drop, one kCopy piece.
    if (identity_ && !discard_ && !bytes.empty() && bytes.size() <= kMaxPieceBytes &&
        !(after_break_ && drop_space_after_break_ && is_space(bytes[0]))) {
      const auto n = static_cast<std::uint32_t>(bytes.size());
      push_piece(Piece{text_offset(), mid, n, n, PieceKind::kCopy, 0, 0});
      text_.append(bytes);
      after_break_ = false;
      return;
    }
    valid_text_general(mid, bytes);
  }
  // A decoded reference: mid bytes [mid_begin, mid_end) read `utf8` (or `code_point` when
  // utf8 is empty).
  void decoded(std::uint64_t mid_begin, std::uint64_t mid_end, std::string_view utf8,
               char32_t code_point = 0);
  // A block boundary caused by markup at mid offset `mid`.
  void block_break(std::uint64_t mid) {
    if (after_break_ || discard_) return;  // at most one in a row
    pieces_.push_back(Piece{text_offset(), orig(mid), 1, 0, PieceKind::kSynthetic, 0, 0});
    text_ += '\n';
    after_break_ = true;
  }
  void tag(Tag::Kind kind, std::uint64_t mid_begin, std::uint64_t mid_end, std::uint32_t name,
           bool is_inline) {
    if (!discard_) tags_.push_back(Tag{orig(mid_begin), orig(mid_end), name, kind, is_inline});
  }
  // The index of `name` in the chunk's names (names[0] is "").
  std::uint32_t name(std::string_view name);

  // Link zones nest: the outermost one is recorded.
  void zone_begin(Zone::Reason reason);
  void zone_end();
  bool in_zone() const { return zone_depth_ > 0; }

  void warn(std::string message) { warnings_.push_back(std::move(message)); }

  // Chunking: the mid offset from which a cut of `level` is accepted (UINT64_MAX: never).
  std::uint64_t threshold(CutLevel level) const;
  // Below this mid offset no cut of any level is accepted.
  std::uint64_t first_threshold() const { return first_threshold_; }
  // True (and the cut is requested) when the tokenizer, standing at `mid`, may end the chunk
  // there with a cut of `level`.
  bool offer_cut(CutLevel level, std::uint64_t mid) {
    return mid >= first_threshold_ && offer_cut_slow(level, mid);
  }
  // The same, standing at `mid` between two tokens of markup (after a tag, a comment, a
  // reference: the next byte starts a token, the text so far is complete): a cut of the level
  // the text allows at its end, the markup left aside (see token_cut_level). A stretch of
  // markup without text, or whose text has neither white space nor a block boundary (ten
  // million empty inline tags in a paragraph that never ends), is so cut as its text would be,
  // and a chunk holds at most 2x chunk_bytes of it plus a token, however dense the tags.
  bool offer_token_cut(std::uint64_t mid) {
    return mid >= first_threshold_ && offer_cut_slow(token_cut_level(), mid);
  }
  bool cut_requested() const { return cut_requested_; }
  // True when white space given to text() now would be dropped (it directly follows a block
  // boundary in a markup format).
  bool drops_space() const { return after_break_ && drop_space_after_break_; }
  std::uint64_t chunk_mid_begin() const { return chunk_mid_; }

  void set_document(Format format, Encoding encoding, bool bom, std::string xml_profile);
  // Plain text: a CR alone (classic Mac OS line ends) reads as a line feed (emit_text), which
  // notes the last byte of each run here (the byte before a run may be gone from its buffer).
  bool lone_cr_is_line_end() const { return format_ == Format::kText; }
  char last_run_byte() const { return last_run_byte_; }
  void set_last_run_byte(char c) { last_run_byte_ = c; }
  // The original offset of mid offset `mid`.
  std::uint64_t orig(std::uint64_t mid) const { return identity_ ? mid : map_.orig_at(mid); }
  std::uint64_t text_offset() const { return text_base_ + text_.size(); }

 private:
  void valid_text_general(std::uint64_t mid, std::string_view bytes);
  // Appends `p`, or extends the last piece when both copy adjacent bytes. Inline: valid_text()
  // calls it for most runs of text.
  void push_piece(const Piece& p) {
    if (p.kind == PieceKind::kCopy && !pieces_.empty()) {
      Piece& last = pieces_.back();
      if (last.kind == PieceKind::kCopy && last.text_begin + last.text_len == p.text_begin &&
          last.orig_begin + last.orig_len == p.orig_begin &&
          std::uint64_t{last.text_len} + p.text_len <= kMaxPieceBytes) {
        last.text_len += p.text_len;
        last.orig_len += p.orig_len;
        return;
      }
    }
    pieces_.push_back(p);
  }
  bool offer_cut_slow(CutLevel level, std::uint64_t mid);
  // What a cut at the end of the text so far is: anywhere inside a link zone (the only cut
  // accepted there); else a block boundary after a synthetic break (or at the start of the
  // document), a line end after "\n", white space after other white space (a "\r" too, as an
  // LF may follow it; kSpace, not kSafeSpace: the advisor judges a place from the text on both
  // sides of it, and what follows is not there yet), anywhere otherwise.
  CutLevel token_cut_level() const;
  void name_table_insert(std::uint32_t index);

  const RunMap& map_;
  bool identity_;
  std::size_t chunk_bytes_;
  std::size_t first_text_bytes_;  // 0 once the first chunk holds them (or gave up waiting)
  std::uint64_t first_threshold_ = UINT64_MAX;
  std::uint64_t cut_base_ = 0;  // thresholds count from here (the chunk's start, see above)
  const CutAdvisor* advisor_ = nullptr;
  std::string advice_text_;  // what the advisor reads: the chunk's last text, then the run
  std::uint32_t epoch_ = 0;
  bool drop_space_after_break_ = false;  // markup formats
  bool discard_ = false;
  Format format_ = Format::kText;
  char last_run_byte_ = 0;
  Encoding encoding_ = Encoding::kUtf8;
  bool bom_ = false;
  std::string xml_profile_;

  std::uint64_t chunk_mid_ = 0;
  std::uint64_t chunk_orig_ = 0;
  std::uint64_t text_base_ = 0;
  std::string text_;
  char last_text_byte_ = 0;  // the last byte of the chunks before this one (0: none)
  std::vector<Piece> pieces_;
  std::vector<Tag> tags_;
  std::vector<std::string> names_;
  std::vector<std::uint32_t> name_slots_;  // open addressing: index + 1, 0 empty
  std::vector<Zone> zones_;
  std::vector<std::string> warnings_;
  bool cut_requested_ = false;
  std::array<std::size_t, 3> last_sizes_{};  // text, pieces, tags of the last full chunk

  bool after_break_ = true;  // the text so far ends with a synthetic break (or is empty)
  int zone_depth_ = 0;
  Zone::Reason zone_reason_ = Zone::Reason::kExistingLink;
  std::uint64_t zone_start_ = 0;
};

// Buffers of at least this many bytes are advised to use transparent huge pages.
inline constexpr std::size_t kHugePageBufferBytes = 4u << 20;

// Asks the kernel to back [p, p + bytes) with transparent huge pages (the 2 MB-aligned part of
// it; a hint, errors ignored). Filling a 32 MB buffer then takes 16 page faults, not 8192.
void advise_huge_pages(const void* p, std::size_t bytes);

// c.reserve(n), and huge pages for a buffer of kHugePageBufferBytes or more (advised before the
// pages are touched: reserved room that is never written costs address space only).
template <class C>
void reserve_large(C& c, std::size_t n) {
  if (n <= c.capacity()) return;
  c.reserve(n);
  const std::size_t bytes = c.capacity() * sizeof(typename C::value_type);
  if (bytes >= kHugePageBufferBytes) advise_huge_pages(c.data(), bytes);
}

// Scanning helpers shared by the tokenizers.

// The index of the first byte equal to `a` or `b` in p[from, to), or `to`. Inline and 16 bytes
// at a time: the runs it scans (attribute values, tag bodies) are short, where a call to memchr
// costs more than the scan.
inline std::size_t find_either(const char* p, std::size_t from, std::size_t to, char a, char b) {
  std::size_t i = from;
#if defined(__SSE2__)
  const __m128i va = _mm_set1_epi8(a);
  const __m128i vb = _mm_set1_epi8(b);
  for (; i + 16 <= to; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const int hit = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)));
    if (hit != 0) return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(hit)));
  }
#endif
  for (; i < to; ++i) {
    if (p[i] == a || p[i] == b) return i;
  }
  return to;
}

// a[0, n) == b[0, n), 8 bytes at a time (element names: mostly one or two words).
inline bool same_bytes(const char* a, const char* b, std::size_t n) {
  while (n >= 8) {
    std::uint64_t x, y;
    std::memcpy(&x, a, 8);
    std::memcpy(&y, b, 8);
    if (x != y) return false;
    a += 8;
    b += 8;
    n -= 8;
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (a[k] != b[k]) return false;
  }
  return true;
}

// The index of the first '<' or '&' in s[from, to), or `to`; sets `non_ascii` when a byte >= 0x80
// was passed over. Inline: it is called for every run of text and the white space between tags.
inline std::size_t find_markup(std::string_view s, std::size_t from, std::size_t to,
                               bool& non_ascii) {
  const char* p = s.data();
  std::size_t i = from;
#if defined(__SSE2__)
  const __m128i lt = _mm_set1_epi8('<');
  const __m128i amp = _mm_set1_epi8('&');
  __m128i high = _mm_setzero_si128();  // the bytes passed over, or-ed: bit 7 of each is non-ASCII
  for (; i + 16 <= to; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const int hit = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(v, amp)));
    if (hit != 0) {
      const int k = __builtin_ctz(static_cast<unsigned>(hit));
      if ((_mm_movemask_epi8(v) & ((1 << k) - 1)) != 0 || _mm_movemask_epi8(high) != 0) {
        non_ascii = true;
      }
      return i + static_cast<std::size_t>(k);
    }
    high = _mm_or_si128(high, v);
  }
  if (_mm_movemask_epi8(high) != 0) non_ascii = true;
#endif
  for (; i < to; ++i) {
    const char c = p[i];
    if (c == '<' || c == '&') return i;
    if (static_cast<unsigned char>(c) >= 0x80) non_ascii = true;
  }
  return to;
}
// The largest k <= to such that s[0, k) does not end inside a UTF-8 sequence that s[k, ...)
// might complete (used when more input may follow).
std::size_t complete_utf8_prefix(std::string_view s, std::size_t to);

// Emits text s[a, b) (s starts at mid offset `base`), stopping early at a cut the emitter
// accepts (a blank line counts as a block boundary when `blank_line_is_block`). Returns where
// it stopped (b unless a cut was requested). `known_valid`: the bytes are known to be valid
// UTF-8 (ASCII seen by find_markup, or checked before), so they are not validated again.
// `may_wait`: more input follows the run, and the caller resumes from the returned position
// without a cut: past the advisor's threshold, a run where the advisor finds no cut is then
// emitted but for its last kAdviceLookahead bytes, which come again with the input that follows
// them (so that the advisor sees what follows every place it judges, wherever feeds end).
inline constexpr std::size_t kAdviceLookahead = 4096;
std::size_t emit_text_run_cutting(ChunkEmitter& e, std::string_view s, std::uint64_t base,
                                  std::size_t a, std::size_t b, bool blank_line_is_block,
                                  bool known_valid, bool may_wait = false);
// Gives s[a, b) to the emitter as text. In plain text a CR that no LF follows and none
// precedes (classic Mac OS line ends; not the CR of CR LF or of LF CR) is a line end and reads
// "\n" (a kDecoded piece: the original byte stays as it is); the byte after s[a, b) must be in
// s when there is one (the text reader holds back a CR that ends its input until the next byte
// comes).
inline void emit_text(ChunkEmitter& e, std::string_view s, std::uint64_t base, std::size_t a,
                      std::size_t b, bool known_valid) {
  auto give = [&](std::size_t from, std::size_t to) {
    if (from >= to) return;
    if (known_valid) {
      e.valid_text(base + from, s.substr(from, to - from));
    } else {
      e.text(base + from, s.substr(from, to - from));
    }
  };
  if (e.lone_cr_is_line_end() && a < b) {
    const char before = e.last_run_byte();  // the byte before s[a]
    const std::size_t first = a;
    e.set_last_run_byte(s[b - 1]);
    for (std::size_t q = a; q < b;) {
      const void* hit = std::memchr(s.data() + q, '\r', b - q);
      if (hit == nullptr) break;
      const auto k = static_cast<std::size_t>(static_cast<const char*>(hit) - s.data());
      q = k + 1;
      if (k + 1 < s.size() && s[k + 1] == '\n') continue;     // CR LF: the LF ends the line
      if ((k > first ? s[k - 1] : before) == '\n') continue;  // LF CR: the LF ended it
      give(a, k);
      e.decoded(base + k, base + k + 1, "\n");
      a = k + 1;
    }
  }
  give(a, b);
}

inline std::size_t emit_text_run(ChunkEmitter& e, std::string_view s, std::uint64_t base,
                                 std::size_t a, std::size_t b, bool blank_line_is_block,
                                 bool known_valid = false, bool may_wait = false) {
  if (a < b && base + b < e.first_threshold()) {  // no cut can fall in it (most runs): all of it
    emit_text(e, s, base, a, b, known_valid);
    return b;
  }
  return emit_text_run_cutting(e, s, base, a, b, blank_line_is_block, known_valid, may_wait);
}

}  // namespace lexlink::text

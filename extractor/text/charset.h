// text/charset: the supported charsets, their labels and detection, and the transcoder that turns
// original bytes into UTF-8 while recording how each decoded byte maps back (internal to
// lexlink_text).
//
// The views never tokenize the original bytes of a non-UTF-8 document directly: the transcoder
// produces "mid" bytes (UTF-8) and a RunMap from mid offsets back to original offsets, the
// tokenizers work on the mid bytes, and ChunkEmitter composes both maps into the view's pieces.
// For UTF-8 input the mid bytes are the original bytes (the identity map; nothing is copied).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/text_view.h"

namespace lexlink::text {

// The encoding a charset label names (case-insensitive, surrounding white space ignored), or
// nullopt when lexlink does not support it. `html`: WHATWG rules for labels met in HTML, where
// iso-8859-1, us-ascii and their aliases mean windows-1252 and utf-16 means utf-8.
std::optional<Encoding> encoding_from_label(std::string_view label, bool html);

// The byte order mark at the start of `bytes`: its length (0 when none) and encoding.
std::size_t bom_length(std::string_view bytes, Encoding* encoding);

// UTF-16 without a BOM, recognised by its every-other-byte-NUL pattern (or an XML declaration
// written in UTF-16); nullopt when `head` does not look like it.
std::optional<Encoding> detect_utf16_without_bom(std::string_view head);

// The best single-byte encoding for `sample` (text that is not valid UTF-8), asking uchardet and
// keeping its answer only when it names a supported charset; Windows-1252 otherwise.
Encoding guess_single_byte(std::string_view sample);

// The code point of byte `b` (>= 0x80) in a single-byte encoding. Windows-1252's five undefined
// bytes map to the C1 controls of the same value, as the WHATWG Encoding Standard says.
char32_t single_byte_to_code_point(Encoding encoding, unsigned char b);

// Windows-1252's code point for 0x80..0x9F (what HTML numeric references in that range mean),
// or the value itself for the five undefined ones.
char32_t windows_1252_c1(char32_t c);

// How a run of mid (UTF-8) bytes relates to the original bytes.
struct MidRun {
  std::uint64_t mid_begin = 0;
  std::uint64_t orig_begin = 0;
  std::uint32_t mid_len = 0;
  std::uint32_t orig_len = 0;
  // kCopy: identical bytes (ASCII of a single-byte charset); kTranscoded: characters of uniform
  // widths char_mid_len / char_orig_len; kDecoded: one character (U+FFFD for invalid UTF-16).
  PieceKind kind = PieceKind::kCopy;
  std::uint8_t char_mid_len = 0;
  std::uint8_t char_orig_len = 0;
};

// Maps mid offsets back to original offsets. Runs are appended in order and tile the mid bytes;
// the identity map (UTF-8 input) holds none.
class RunMap {
 public:
  explicit RunMap(bool identity = true) : identity_(identity) {}
  bool identity() const { return identity_; }

  // The original offset of mid offset `mid` (a character boundary, or the end of the runs).
  std::uint64_t orig_at(std::uint64_t mid) const;
  // Appends the pieces of mid bytes [mid_begin, mid_end) (character boundaries), whose text
  // starts at text offset `text_begin`.
  void append_pieces(std::uint64_t mid_begin, std::uint64_t mid_end, std::uint64_t text_begin,
                     std::vector<Piece>& out) const;
  // Forgets the runs that end at or before `mid`.
  void drop_before(std::uint64_t mid);
  // Where mid offsets before the first run map (the end of a BOM at the start).
  void set_origin(std::uint64_t mid, std::uint64_t orig);

  std::vector<MidRun>& runs() { return runs_; }
  const std::vector<MidRun>& runs() const { return runs_; }

 private:
  std::size_t run_index(std::uint64_t mid) const;  // the run holding `mid`
  bool identity_;
  std::vector<MidRun> runs_;
  std::size_t first_ = 0;  // runs before it are dropped
  std::uint64_t origin_mid_ = 0;
  std::uint64_t origin_orig_ = 0;
  mutable std::size_t cursor_ = 0;
};

// Decodes a non-UTF-8 encoding into mid bytes, incrementally (input may be split anywhere).
class Transcoder {
 public:
  explicit Transcoder(Encoding encoding) : encoding_(encoding) {}
  // Decodes `in`, whose first byte is at original offset `orig_pos`, appending to `mid` (whose
  // end is mid offset `mid_pos`) and to `runs`. Bytes of an incomplete character are kept for the
  // next call; with `eof` they are decoded as U+FFFD. Returns the new mid end offset.
  std::uint64_t decode(std::string_view in, std::uint64_t orig_pos, std::uint64_t mid_pos, bool eof,
                       std::string& mid, std::vector<MidRun>& runs);

 private:
  void add(std::vector<MidRun>& runs, std::uint64_t mid_begin, std::uint64_t orig_begin,
           std::uint32_t mid_len, std::uint32_t orig_len, PieceKind kind);
  Encoding encoding_;
  std::string carry_;  // an incomplete UTF-16 code unit or surrogate pair
  std::uint64_t carry_orig_ = 0;
};

}  // namespace lexlink::text

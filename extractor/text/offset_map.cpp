#include <algorithm>

#include "text/text_view.h"

namespace lexlink::text {

const char* to_string(Format format) {
  switch (format) {
    case Format::kText: return "text";
    case Format::kHtml: return "html";
    case Format::kXml: return "xml";
  }
  return "text";
}

const char* to_string(Encoding encoding) {
  switch (encoding) {
    case Encoding::kUtf8: return "UTF-8";
    case Encoding::kUtf16Le: return "UTF-16LE";
    case Encoding::kUtf16Be: return "UTF-16BE";
    case Encoding::kIso8859_1: return "ISO-8859-1";
    case Encoding::kWindows1252: return "windows-1252";
    case Encoding::kIso8859_15: return "ISO-8859-15";
  }
  return "UTF-8";
}

OffsetMap::OffsetMap(std::vector<Piece> pieces, std::uint64_t orig_begin)
    : pieces_(std::move(pieces)), orig_begin_(orig_begin) {}

std::size_t OffsetMap::piece_at(std::uint64_t t) const {
  if (pieces_.empty()) return 0;
  // The last piece starting at or before t.
  auto it = std::upper_bound(pieces_.begin(), pieces_.end(), t,
                             [](std::uint64_t x, const Piece& p) { return x < p.text_begin; });
  if (it == pieces_.begin()) return 0;
  return static_cast<std::size_t>(it - pieces_.begin()) - 1;
}

std::uint64_t OffsetMap::to_original_begin(std::uint64_t t) const {
  if (pieces_.empty()) return orig_begin_;
  const Piece& first = pieces_.front();
  if (t <= first.text_begin) return first.orig_begin;
  const Piece& p = pieces_[piece_at(t)];
  const std::uint64_t off = t - p.text_begin;
  if (off >= p.text_len) return p.orig_begin + p.orig_len;  // at (or past) the end of the text
  switch (p.kind) {
    case PieceKind::kCopy: return p.orig_begin + off;
    case PieceKind::kTranscoded: return p.orig_begin + off / p.char_text_len * p.char_orig_len;
    case PieceKind::kDecoded:
    case PieceKind::kSynthetic: return p.orig_begin;
  }
  return p.orig_begin;
}

std::uint64_t OffsetMap::to_original_end(std::uint64_t t) const {
  if (pieces_.empty()) return orig_begin_;
  const Piece& first = pieces_.front();
  if (t <= first.text_begin) return first.orig_begin;
  // The piece that ends at or contains t: the last one starting strictly before t.
  std::size_t i = piece_at(t);
  if (pieces_[i].text_begin == t && i > 0) --i;
  const Piece& p = pieces_[i];
  const std::uint64_t off = t - p.text_begin;
  if (off >= p.text_len) return p.orig_begin + p.orig_len;
  switch (p.kind) {
    case PieceKind::kCopy: return p.orig_begin + off;
    case PieceKind::kTranscoded: {
      const std::uint64_t chars = (off + p.char_text_len - 1) / p.char_text_len;  // round up
      return p.orig_begin + chars * p.char_orig_len;
    }
    case PieceKind::kDecoded:
    case PieceKind::kSynthetic: return p.orig_begin + p.orig_len;
  }
  return p.orig_begin + p.orig_len;
}

}  // namespace lexlink::text

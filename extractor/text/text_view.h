// text/text_view: the text the extractor scans, mapped back to the bytes of the original input.
//
// A document (plain text, HTML or XML, in UTF-8, UTF-16 or a legacy single-byte charset) is
// turned into UTF-8 text plus an exact map from every text byte to the original bytes, the
// markup between text runs, and the zones where no link may be placed. A large document comes
// as a sequence of TextView chunks (see view_builder.h): each chunk covers a contiguous range
// of original bytes [orig_begin, orig_end), consecutive chunks tile the input, and every offset
// stored in a chunk is absolute (counted from the start of the whole input, original bytes or
// text bytes), so citations found in different chunks are directly comparable.
//
// Guarantees every builder keeps (tested on every corpus document and on generated ones):
// - `text` is valid UTF-8. Invalid input bytes of a UTF-8 document appear in the text as U+FFFD
//   through a kDecoded piece (one piece per invalid byte), and stay untouched in the original
//   (the output keeps them).
// - Pieces are sorted, do not overlap, and cover `text` exactly: piece k+1 starts in the text
//   where piece k ends. In the original they are increasing and do not overlap; original bytes
//   covered by no piece are markup (tags, comments, declarations, skipped elements), bytes
//   that produce no text (a BOM), or, in HTML and XML, white space right after a block
//   boundary (or at the start of the document, or outside the XML root element).
// - A citation never needs to cross a block boundary: block elements (HTML p, div, li, td, br,
//   h1..h6 ...; XML elements that are not inline per the profile) produce a kSynthetic "\n".
// - Inline elements (HTML b i em strong span sup sub font u small a ...) produce no text: the
//   text of `art. <b>5</b>` is "art. 5", and `tags` tells the rewriter what lies between.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lexlink::text {

enum class Format : std::uint8_t { kText, kHtml, kXml };

enum class Encoding : std::uint8_t {
  kUtf8,
  kUtf16Le,
  kUtf16Be,
  kIso8859_1,
  kWindows1252,
  kIso8859_15,
};

const char* to_string(Format format);
const char* to_string(Encoding encoding);

// How a run of text relates to the original bytes.
enum class PieceKind : std::uint8_t {
  // The text bytes are the original bytes (UTF-8 input, or ASCII bytes of a single-byte
  // charset; no transformation): every byte offset inside maps exactly, text_len == orig_len.
  kCopy,
  // The text is a decoding of the original bytes (an HTML/XML entity or character reference,
  // an invalid UTF-8 byte shown as U+FFFD, or one character transcoded from UTF-16 or a
  // single-byte charset). Atomic: a link may start at its start or end at its end, never inside.
  kDecoded,
  // The text is a run transcoded from UTF-16 or a single-byte charset, character by character,
  // where every character has the same widths: char_text_len UTF-8 bytes in the text and
  // char_orig_len bytes in the original (a run ends where the widths change). A text offset on a
  // character boundary maps to the start of that character's original bytes by arithmetic, so
  // the map needs no copy of the original; an offset inside a character maps to the character's
  // start (span begin) or end (span end).
  kTranscoded,
  // Text the view adds ("\n" at a block boundary); orig_len == 0 at the position of the markup
  // that caused it. No link may contain it.
  kSynthetic,
};

struct Piece {
  std::uint64_t text_begin = 0;  // absolute text offset
  std::uint64_t orig_begin = 0;  // absolute original offset
  std::uint32_t text_len = 0;
  std::uint32_t orig_len = 0;
  PieceKind kind = PieceKind::kCopy;
  std::uint8_t char_text_len = 0;  // kTranscoded only: text bytes of each character (1..4)
  std::uint8_t char_orig_len = 0;  // kTranscoded only: original bytes of each character (1..4)
};

// Maps text offsets to original offsets. Lookups are O(log pieces). Self-contained: it holds
// no pointer into the chunk's bytes, so a TextView can be copied and moved freely.
class OffsetMap {
 public:
  OffsetMap() = default;
  // `pieces` as described above; `orig_begin` is where offsets map when there are no pieces
  // (a chunk holding only markup).
  explicit OffsetMap(std::vector<Piece> pieces, std::uint64_t orig_begin = 0);

  // The original offset where a span that starts at text offset `t` begins. `t` inside an
  // atomic (kDecoded) piece maps to the piece's start; at the end of the text, to the end of
  // the last piece.
  std::uint64_t to_original_begin(std::uint64_t t) const;
  // The original offset where a span that ends (exclusively) at text offset `t` ends. `t` inside
  // an atomic piece maps to the piece's end.
  std::uint64_t to_original_end(std::uint64_t t) const;
  // The index of the piece holding text offset `t` (the last piece when t is at the end; 0 when
  // there are no pieces).
  std::size_t piece_at(std::uint64_t t) const;

  std::span<const Piece> pieces() const { return pieces_; }

 private:
  std::vector<Piece> pieces_;
  std::uint64_t orig_begin_ = 0;
};

// Markup in the original that produces no text (or only a synthetic break), in document order.
struct Tag {
  enum class Kind : std::uint8_t {
    kOpen,   // <b ...>
    kClose,  // </b>
    kEmpty,  // <br>, <img ...>, <x/>: void or self-closing
    kOther,  // comment, processing instruction, doctype, CDATA delimiters, a skipped element's
             // whole extent (<script>...</script>), text-free bytes
  };
  std::uint64_t orig_begin = 0;  // absolute original offsets of the markup's bytes
  std::uint64_t orig_end = 0;
  std::uint32_t name = 0;  // index into TextView::names (0, which is "", for kOther)
  Kind kind = Kind::kOther;
  bool is_inline = false;  // transparent to text (does not break it): inline elements,
                           // comments, processing instructions, inline skipped elements
};

// Where no link may be placed: a citation overlapping a zone is reported, not linked.
struct Zone {
  enum class Reason : std::uint8_t {
    kExistingLink,  // inside <a href>, <ref>, <rif>, <Remissao>, <Citation>... of the input
                    // (and inside the links lexlink inserted itself, marked data-lexlink)
    kCdata,         // inside an XML CDATA section: a tag inserted there would not be markup
  };
  std::uint64_t text_begin = 0;  // absolute text offsets
  std::uint64_t text_end = 0;
  Reason reason = Reason::kExistingLink;
};

// One chunk of a document's view. A small document is one chunk.
struct TextView {
  Format format = Format::kText;
  Encoding encoding = Encoding::kUtf8;
  bool bom = false;         // the input starts with a byte order mark
  std::string xml_profile;  // the XmlProfile used when format is kXml, else ""

  std::uint64_t orig_begin = 0;  // the chunk's original bytes: [orig_begin, orig_end)
  std::uint64_t orig_end = 0;
  std::string original;          // those bytes (a copy), for the rewriter
  std::uint64_t text_begin = 0;  // absolute text offset of text[0]
  std::string text;              // UTF-8

  OffsetMap map;                      // pieces of this chunk
  std::vector<Tag> tags;              // markup of this chunk
  std::vector<std::string> names;     // element names: lower case for HTML, qualified for XML;
                                      // names[0] is "" (the name of kOther tags)
  std::vector<Zone> no_link;          // sorted, non-overlapping
  std::vector<std::string> warnings;  // e.g. "malformed XML at byte 120: read as HTML"

  bool last = false;  // no chunk follows

  std::string_view text_at(std::uint64_t abs_begin, std::uint64_t abs_end) const {
    return std::string_view(text).substr(abs_begin - text_begin, abs_end - abs_begin);
  }
};

}  // namespace lexlink::text

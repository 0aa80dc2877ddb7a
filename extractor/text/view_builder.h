// text/view_builder: turns a document, fed in pieces of any size, into TextView chunks.
//
// Plain text and HTML stream: memory stays bounded by ViewOptions::chunk_bytes (plus the longest
// single tag or entity, itself bounded) whatever the input size. XML is read whole (whether it
// is well-formed, hence whether it is read as XML or as HTML, is known only at its end); its
// size is bounded by ViewOptions::max_document_bytes, beyond which the builder fails with
// kLimitExceeded. chunk_bytes counts decoded (UTF-8) bytes.
//
// Chunk boundaries fall where no citation can cross them. Once a chunk holds chunk_bytes, it
// ends at the next block boundary (HTML/XML block element, plain-text blank line); from 1.25x
// chunk_bytes at a line end; from 1.5x at white space that ViewOptions::cut_advisor accepts
// (the extractor's: white space no reading window reaches); from 1.75x at any white space, and
// from 2x anywhere (a 1 GB line without spaces is cut at a character boundary). Only the last
// two can split a citation: text without line ends so dense in citations (or digits) that no
// window-free white space comes in a quarter of a chunk. Markup counts as the text around it:
// between two tags (or comments, references) a chunk may end with the cut that the end of the
// text so far allows (a block boundary when no text came since the last one), so a stretch of
// markup without text (ten million empty inline tags in a paragraph that never ends) is cut as
// text would be, and a chunk's tags and pieces stay within what 2x chunk_bytes of input holds
// however dense the markup. Chunks never split a character, an entity or a tag shorter than
// 64 KB; they split an existing link, a comment or a skipped element only when it runs past 2x
// chunk_bytes (the zone, or the kOther tag, then comes in two parts).
//
// Plain text has one kind of markup: the links lexlink itself writes into it
// (`<a data-lexlink="" ...>...</a>`). Their tags are tags and their content a no-link zone, so a
// marked-up text reads as the same words as before and `lexlink markup` run twice adds nothing.
//
// Usage:
//   ViewBuilder b(options);
//   while (read(buf)) { b.feed(buf); while (auto chunk = b.next()) use(*chunk); }
//   b.finish(); while (auto chunk = b.next()) use(*chunk);
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "text/cut_advisor.h"
#include "text/text_view.h"

namespace lexlink::text {

// Which XML elements hold text, which are inline, which are existing links. Elements are
// matched by local name (the part after the prefix), case-sensitively; an element in none of
// the lists is a block (it breaks the text). Link elements are inline and their content is a
// kExistingLink zone.
struct XmlProfile {
  std::string name;                          // "akn", "nir", "lexml", "clml", "xhtml", "generic"
  std::vector<std::string> link_elements;    // local names: ref, rif, Remissao, Citation, a ...
  std::vector<std::string> inline_elements;  // local names transparent to text
  std::vector<std::string> skip_elements;    // local names whose content is not text (metadata)
  // Qualified attribute names that make any element carrying them a link (LexML's own linker
  // writes <span xlink:href="urn:lex:br:...">).
  std::vector<std::string> link_attributes;
  // Automatic choice: the profile whose namespace_marks has a substring of the root element's
  // namespace URI, else the one whose root_elements holds the root's local name.
  std::vector<std::string> namespace_marks;
  std::vector<std::string> root_elements;
};

struct ViewOptions {
  enum class FormatChoice : std::uint8_t { kAuto, kText, kHtml, kXml };
  FormatChoice format = FormatChoice::kAuto;
  // Unset: detect (BOM, then <meta charset> / XML declaration, then UTF-8 validity, then
  // uchardet among the supported encodings, Windows-1252 when it names none of them). Detection
  // looks at the first chunk_bytes of the input (the whole of an XML document).
  std::optional<Encoding> encoding;
  // Unset: chosen from the document (root element namespace), else "generic".
  std::optional<XmlProfile> xml_profile;
  std::size_t chunk_bytes = 4 << 20;  // target original bytes per chunk
  // The first chunk holds at least this much text when the document's first 4x chunk_bytes
  // do (a reader that decides something from a document's first text, as the extractor's
  // automatic jurisdiction, then finds it in the first chunk however heavy the markup is).
  std::size_t first_chunk_text_bytes = 0;
  // Where a stretch without block boundaries or line ends may be cut (see above); shared by
  // the builders of every thread.
  std::shared_ptr<const CutAdvisor> cut_advisor;
  std::size_t max_document_bytes = 256u << 20;  // for XML, parsed whole
};

class ViewBuilder {
 public:
  explicit ViewBuilder(ViewOptions options);
  ~ViewBuilder();
  ViewBuilder(ViewBuilder&&) noexcept;
  ViewBuilder& operator=(ViewBuilder&&) noexcept;

  // Feeds the next bytes of the input. May be split anywhere.
  Status feed(std::string_view bytes);
  // No more input.
  Status finish();
  // The next complete chunk, if one is ready.
  std::optional<TextView> next();

  // The format and encoding in use (known once enough input has been fed).
  Format format() const;
  Encoding encoding() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Convenience: the whole document as one TextView (chunk_bytes ignored). For tests and small
// documents; refuses binary input (is_binary on the first kBinaryProbeBytes) with kUnsupported.
// ViewBuilder itself does not refuse anything: a NUL byte it meets is a character of the text.
Result<TextView> make_view(std::string_view document, const ViewOptions& options = {});

// How many leading bytes is_binary needs to decide.
inline constexpr std::size_t kBinaryProbeBytes = 8000;

// True when `head` (the first bytes of a file) looks binary: a NUL byte or many control bytes,
// unless it is UTF-16 text (a BOM, or the unmistakable every-other-byte-NUL pattern). Used to
// refuse binary files with a clear message.
bool is_binary(std::string_view head);

// The built-in XML profiles (akn, nir, lexml, clml, xhtml, generic).
const std::vector<XmlProfile>& xml_profiles();
// The built-in profile called `name`, or nullptr.
const XmlProfile* find_xml_profile(std::string_view name);

}  // namespace lexlink::text

// rewrite/link_markup: the markup of the links lexlink inserts, per output profile, and how
// lexlink recognises its own links again.
//
// Profiles (the element each link is, its href attribute, and the marker):
//   html        <a data-lexlink="" href="H" data-urn="U">...</a>
//   akn         <?lexlink?><ref href="H">...</ref>                       (Akoma Ntoso)
//   nir         <?lexlink?><rif xlink:href="H">...</rif>                 (NormeInRete)
//   lexml       <?lexlink?><Remissao xlink:href="H">...</Remissao>       (LexML XSD remission)
//   lexml-span  <?lexlink?><span xlink:href="H">...</span>               (what LexML's own
//                                                 linker writes: every link in br-lexml-eta)
// For the XML profiles the element takes the prefix the root element binds to the profile's
// namespace (`<akn:ref>` when the root declares xmlns:akn="http://docs.oasis-open.org/..."),
// and `xmlns:xlink="http://www.w3.org/1999/xlink"` is declared on the element itself unless the
// root element already binds `xlink` to that namespace.
//
// The marker. HTML: `data-lexlink=""`, always the first attribute, so a lexlink link starts with
// the exact bytes `<a data-lexlink=""` (valid HTML5: data-* attributes are free). XML: the
// processing instruction `<?lexlink?>` immediately before the element's start tag. A PI is
// allowed anywhere in element content and is ignored by DTD, XSD and RELAX NG validation, so
// the document stays not only well-formed but valid wherever the element itself is allowed (an
// attribute in a foreign namespace would need a namespace declaration and is refused by DTD-based
// schemas such as NormeInRete's). A lexlink link never contains its own element name: its
// content holds neither `<NAME` nor `</NAME>` (markup refuses, or splits, otherwise), so its end
// is the first `</NAME>` after its start tag. Views treat lexlink links as existing links
// (no-link zones), which makes `markup` idempotent; `unmark` removes exactly these.
//
// Attribute values are escaped for their context: HTML `&` `"` `<` `>`; XML also `'` and
// tab/LF/CR as character references (attribute-value normalisation would turn them into spaces).
// In a document that is not UTF-8, non-ASCII characters are written as character references and
// the markup is encoded in the document's encoding (UTF-16 included).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "rewrite/request.h"
#include "text/text_view.h"

namespace lexlink::urn {
class Profiles;
}

namespace lexlink::rewrite {

enum class Profile : std::uint8_t { kHtml, kAkn, kNir, kLexml, kLexmlSpan };

const char* to_string(Profile profile);
// "html", "akn", "nir", "lexml", "lexml-span".
Result<Profile> parse_profile(std::string_view name);

enum class HrefMode : std::uint8_t {
  kUrn,       // the URN itself
  kResolver,  // the jurisdiction's resolver URL (lexicons/<jur>/resolvers.tsv)
};

struct LinkOptions {
  Profile profile = Profile::kHtml;
  HrefMode href = HrefMode::kUrn;
  // How the partition is attached in the href: '~' (the URN as is) or '#'.
  char partition_sep = '~';
  // Needed for HrefMode::kResolver (not owned). Without a rule for the name's jurisdiction the
  // href falls back to the URN and the outcome says so.
  const urn::Profiles* resolvers = nullptr;
  std::size_t max_href_bytes = 16384;
};

// The href of a link to `urn` (before escaping), written into `out` (its content replaced): the
// URN itself, its partition attached with options.partition_sep, or the resolver's URL. Without
// a resolver rule for the name, the URN, and `note` says why. kInvalidArgument when a resolver
// href is asked without resolvers, or (resolver hrefs) `urn` does not parse.
Status href_of(const LinkOptions& options, std::string_view urn, std::string& out,
               std::string& note);

// The signature bytes of lexlink's links (ASCII; encode for UTF-16 documents).
inline constexpr std::string_view kHtmlMarkerPrefix = "<a data-lexlink=\"\"";
inline constexpr std::string_view kXmlMarker = "<?lexlink?>";

// The profile a document gets when none is asked for: by the root element's namespace for XML
// (Akoma Ntoso, NormeInRete, LexML), html otherwise.
Profile default_profile(text::Format format, std::string_view root_start_tag_utf8);

// Appends `value` escaped for a double-quoted attribute value. `xml`: XML rules; `ascii_only`:
// non-ASCII characters as &#N;. Returns false (appending nothing) when `value` is invalid UTF-8
// or holds a character no attribute can carry (NUL; in XML other C0 controls).
bool append_attribute_value(std::string& out, std::string_view value, bool xml, bool ascii_only);

// Encodes ASCII markup for a document in `encoding` (UTF-16 widens; others keep the bytes).
std::string encode_ascii(std::string_view ascii, text::Encoding encoding);

// Renders the links of one document. Built once per document from its first chunk.
class LinkMarkup {
 public:
  // `root_start_tag`: the original bytes of the root element's start tag (XML; may be empty).
  LinkMarkup(const LinkOptions& options, text::Format format, text::Encoding encoding,
             std::string_view root_start_tag);

  // The href of a request (before escaping). Fills `note` when it fell back to the URN.
  Result<std::string> href(const Request& request, std::string& note) const;
  // The same, written into `out` (its content replaced): no allocation once `out` has grown.
  Status href_into(const Request& request, std::string& out, std::string& note) const;

  // The opening markup (marker included), encoded for the document. Errors: kUnrepresentable
  // values (reported as Reason::kUnrepresentable).
  Result<std::string> open(std::string_view href, std::string_view urn) const;
  // The same, written into `out` (its content replaced).
  Status open_into(std::string& out, std::string_view href, std::string_view urn) const;
  // The closing tag, encoded.
  const std::string& close() const { return close_; }

  // The element's qualified name (ASCII) and its local name.
  const std::string& element() const { return element_; }
  std::string_view local_name() const;
  // True when the element names are compared ignoring case (HTML).
  bool fold_case() const { return fold_case_; }
  // True when the link element is also a common inline element (span): an element of that name
  // around a citation is not a link.
  bool generic_element() const { return profile_ == Profile::kLexmlSpan; }
  Profile profile() const { return profile_; }
  text::Encoding encoding() const { return encoding_; }

 private:
  LinkOptions options_;
  Profile profile_;
  text::Format format_;
  text::Encoding encoding_;
  bool xml_ = false;         // escape attribute values by XML rules
  bool ascii_only_ = false;  // document not in UTF-8
  bool fold_case_ = false;
  bool declare_xlink_ = false;
  std::string element_;
  std::string close_;
};

// A start tag's name and attributes, read from ASCII-compatible bytes (quotes honoured).
struct StartTag {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
};
StartTag read_start_tag(std::string_view bytes);

// The bytes of `original` decoded to UTF-8 well enough to read markup: UTF-16 is decoded,
// single-byte encodings keep ASCII and turn other bytes into '?'.
std::string markup_to_utf8(std::string_view original, text::Encoding encoding);

}  // namespace lexlink::rewrite

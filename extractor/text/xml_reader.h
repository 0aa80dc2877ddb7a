// text/xml_reader: the XML view (internal to lexlink_text).
//
// Exact byte ranges come from our own tokenizer over the document's bytes (tags, attributes,
// comments, processing instructions, CDATA sections, the doctype with its internal subset,
// character and entity references). Why not pugixml's DOM for the offsets: it records where a
// node's name or value starts, not where a tag ends nor where an end tag is, so the markup
// between text nodes would need a tokenizer anyway. The tokenizer is also the judge of
// well-formedness: it checks matching end tags, one root, names, quoted attributes separated by
// white space, no '<' in attribute values, references, no text outside the root, no NUL; any
// failure makes the caller read the document as HTML instead, with a warning. It is at least as
// strict as pugixml: every document pugixml refuses, the tokenizer refuses (check_xml runs pugixml;
// the tests and the XML fuzz target hold the tokenizer to it). pugixml is not run on the way:
// on these documents it alone parses at about the speed the whole view must reach.
//
// Text is the content of every element except the profile's skip elements; elements break the
// text unless the profile says they are inline; the profile's link elements (and elements
// carrying one of its link attributes, or right after `<?lexlink?>`) are kExistingLink zones;
// CDATA content is text in a kCdata zone. Nesting depth is unbounded: no recursion.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/chunk_emitter.h"
#include "text/view_builder.h"

namespace lexlink::text {

struct XmlCheck {
  bool ok = false;
  std::string message;     // why not, with the byte offset
  std::size_t offset = 0;  // in the checked bytes
  std::string root_name;   // qualified
  std::string root_namespace;
};

// Parses `doc` (UTF-8) with pugixml (parse_minimal) to check it is well-formed and learn its
// root element: the reference the tokenizer is tested against.
XmlCheck check_xml(std::string_view doc);

// The root element of a document pugixml refused, read leniently from its first start tag (for
// choosing the profile whose link elements the HTML fallback still honours); empty when none.
XmlCheck sniff_xml_root(std::string_view doc);

// The built-in profile for a root element, by namespace then by local name ("generic" else).
const XmlProfile& choose_xml_profile(std::string_view root_name, std::string_view root_namespace);

class XmlTokenizer {
 public:
  explicit XmlTokenizer(const XmlProfile& profile);

  // Tokenizes the whole document s (s[0] at mid offset 0) from `pos`; stops at a cut the emitter
  // accepts, at the end, or at an error. Returns where it stopped.
  std::size_t run(std::string_view s, std::size_t pos, ChunkEmitter& e);
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  std::size_t error_offset() const { return error_offset_; }
  bool done() const { return done_; }

 private:
  enum Class : std::uint8_t { kBlock, kInline, kLink, kSkip };
  struct Open {
    std::size_t name_begin;
    std::size_t name_len;
    Class cls;
    bool zone;
    std::uint32_t name_epoch;  // the chunk (ChunkEmitter::chunk_epoch) of name_index
    std::uint32_t name_index;
  };

  // Classification cache: qualified name -> class and the name's index in the current chunk
  // (keys view the document, stable during run).
  struct Slot {
    std::string_view name;
    Class cls = kBlock;
    bool used = false;
    std::uint32_t epoch = 0;  // ChunkEmitter::chunk_epoch() when `index` was taken
    std::uint32_t index = 0;  // the name's index in that chunk
  };

  std::size_t fail(std::size_t at, std::string message);
  // The slot of `qname` (classified on first sight). `readable`: bytes readable from
  // qname.data() (at least qname.size()), so the hash may load whole words.
  Slot& lookup(std::string_view qname, std::size_t readable);
  std::uint32_t name_index(Slot& slot, ChunkEmitter& e);
  bool is_link_attribute(std::string_view qname) const;
  std::size_t markup(std::string_view s, std::size_t pos, ChunkEmitter& e);
  std::size_t start_tag(std::string_view s, std::size_t pos, ChunkEmitter& e);
  std::size_t end_tag(std::string_view s, std::size_t pos, ChunkEmitter& e);

  const XmlProfile& profile_;
  bool check_ = false;  // the emitter discards: only check well-formedness (no lookups, no text)
  std::vector<Open> stack_;
  bool scanned_for_nul_ = false;
  bool seen_root_ = false;
  bool done_ = false;
  std::size_t skip_depth_ = 0;
  std::size_t skip_begin_ = 0;
  std::size_t lexlink_pi_end_ = SIZE_MAX;
  std::string error_;
  std::size_t error_offset_ = 0;
  std::vector<Slot> slots_;
  std::size_t slot_count_ = 0;
};

}  // namespace lexlink::text

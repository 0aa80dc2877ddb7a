// rewrite/unmark: removes the links lexlink inserted, and nothing else, from a document streamed
// in pieces of any size.
//
// A lexlink link is recognised by its marker (link_markup.h): an HTML start tag beginning with
// the exact bytes `<a data-lexlink=""`, or `<?lexlink?>` followed at once by a start tag
// `<NAME ...>`; its end is the first `</NAME>` after it, and its content holds no other start
// or end tag of NAME (markup guarantees it) and is at most max_link_bytes. Removing the start
// tag (with the marker) and that end tag gives back exactly the bytes markup was given:
// unmark(markup(x)) == x. A marker that does not form such a link (an edited or truncated
// link) is left untouched and counted in unrecognised(). Markers are looked for as bytes and as
// UTF-16 code units of either byte order (aligned on the document's code units), so UTF-16
// documents, with or without a byte order mark, need no encoding guess; every other supported
// encoding is ASCII-compatible.
//
// Memory is bounded: the bytes of one pending link (at most max_tag_bytes + max_link_bytes)
// plus the piece being fed. The work per byte is a memchr-speed search for the marker.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "rewrite/request.h"
#include "rewrite/splice.h"
#include "text/text_view.h"

namespace lexlink::rewrite {

struct UnmarkOptions {
  std::size_t max_link_bytes = 64 << 10;  // content of one link (as markup's)
  std::size_t max_tag_bytes = 64 << 10;   // one start tag with its marker
  // Unset: markers in any of the three forms. Set: only in that encoding's form (the rewriter,
  // which knows the encoding, looks for its own links in plain text this way).
  std::optional<text::Encoding> encoding;
};

class Unmarker {
 public:
  explicit Unmarker(io::Sink& sink, UnmarkOptions options = {});

  // Feeds the next bytes of the document (split anywhere).
  Status feed(std::string_view bytes);
  // No more input: writes what is pending and flushes the sink.
  Status finish();

  // Records the byte range [start of the marker, end of the end tag) of every link removed,
  // counted from the first byte fed.
  void record(std::vector<Span>* links) { record_ = links; }

  std::uint64_t removed() const { return removed_; }
  std::uint64_t unrecognised() const { return unrecognised_; }

 private:
  // Processes the buffer as far as possible; `final`: no more input will come.
  Status process(bool final);
  // Outcome of looking at a marker candidate at buf_[at].
  enum class Look { kLink, kNotOurs, kNeedMore };
  Look look(std::size_t anchor, bool final, std::size_t& start, std::size_t& open_end,
            std::size_t& close_begin, std::size_t& close_end) const;
  char ascii_at(std::size_t i) const;  // the ASCII character of the unit at byte i, or 0x80
  bool match(std::size_t i, std::string_view ascii) const;
  std::size_t find_ascii(std::size_t from, std::size_t to, char c) const;
  // The first marker anchor at or after `from` in any code unit form; sets width_ and
  // little_endian_ to its form.
  std::size_t find_anchor(std::size_t from);

  io::Sink& sink_;
  UnmarkOptions options_;
  std::string buf_;
  std::size_t emitted_ = 0;     // bytes of buf_ already written (or dropped)
  std::size_t scan_ = 0;        // where the next marker search starts
  std::uint64_t consumed_ = 0;  // absolute offset of buf_[0]
  struct Form {
    std::string anchor;  // "lexlink" in this form
    int width = 1;       // 1 bytes, 2 UTF-16
    bool little_endian = true;
    std::size_t next = 0;  // its next occurrence at or after scan_ (cached), npos: none
  };
  static constexpr std::size_t kStale = static_cast<std::size_t>(-2);
  std::vector<Form> forms_;
  int width_ = 1;  // of the marker being looked at
  bool little_endian_ = true;
  std::uint64_t removed_ = 0;
  std::uint64_t unrecognised_ = 0;
  std::vector<Span>* record_ = nullptr;
};

// Convenience: unmarks a whole document in memory.
std::string unmark(std::string_view document, std::uint64_t* removed = nullptr);

}  // namespace lexlink::rewrite

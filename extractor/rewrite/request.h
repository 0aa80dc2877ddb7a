// rewrite/request: what the rewriter is asked to link, what it answers, and where requests come
// from.
//
// A Request is one citation: its span (text offsets of the view, as the extractor gives them,
// and/or original byte offsets, as `lexlink extract` prints them and `--citations` files hold
// them), its URN (`urn:lex:...[~partition]`) and optionally a precomputed href. The rewriter
// answers every request with exactly one Outcome: linked (with the original byte ranges the
// inserted links wrap) or not, with the reason. A request is never dropped silently.
//
// A CitationSource proposes the requests of one view chunk; `lexlink markup` asks it chunk by
// chunk. The extractor implements it; CitationsFile (citations_file.h) reads JSON Lines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "text/text_view.h"

namespace lexlink::rewrite {

// A half-open range [begin, end) of absolute offsets (text bytes or original bytes, as stated).
struct Span {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  friend bool operator==(const Span&, const Span&) = default;
};

struct Request {
  // Absolute text offsets in the view (TextView::text_begin based). Preferred when set.
  std::optional<Span> text;
  // Absolute original byte offsets (`start`/`end` of `lexlink extract` and --citations files).
  // Used when `text` is unset.
  std::optional<Span> original;
  std::string urn;       // urn:lex:...[~partition]; the partition separator is always '~' here
  std::string href;      // precomputed href; empty: computed from the link options
  std::string rule;      // who proposed it (a rule name, "citations:12"), echoed in the report
  std::uint64_t id = 0;  // the caller's number (e.g. the line of a citations file), echoed
  // The act cited on its own words inside a citation of one of its partitions ("Act No. 32 of
  // 2000" in "section 12 of the ... Act, 2000 (Act No. 32 of 2000)": the extractor's
  // partition.act-words): it gives way to the citation holding it, which is linked instead.
  bool inner = false;
  // The source has checked that `urn` parses as URN:LEX (urn::validate with allow_unnumbered,
  // the rewriter's own check), so the rewriter does not parse it again. The extractor's
  // requests are (document/extractor_source.h); a source that cannot tell leaves it false.
  bool urn_checked = false;
};

// Why a request was, or was not, linked. Every value has a stable snake_case name (to_string)
// used in reports.
enum class Reason : std::uint8_t {
  kLinked,            // linked (whole, or one link per text piece)
  kExistingLink,      // overlaps an existing link (a no-link zone, or one of lexlink's own)
  kBlockBreak,        // contains a block boundary (a synthetic break, a block element)
  kForbiddenContext,  // inside CDATA, an HTML <title>/<textarea>, or an element named like
                      // the link element (a link inside a link)
  kInsideMarkup,      // an original offset falls inside a tag, comment or declaration
  kInsideAtomic,      // starts or ends inside an entity / decoded character and snapping
                      // outward runs into a neighbouring citation
  kOverlapsCitation,  // overlaps a citation linked before it (requests are taken in order),
                      // or holds a narrower citation, which is linked instead (unless the
                      // narrower one is an inner request, which gives way to it)
  kNoText,            // the span holds no text (empty, or only markup)
  kOutOfRange,        // the span is reversed or outside the document / chunk
  kCrossesChunk,      // the span runs past the end of its view chunk
  kInvalidUrn,        // the URN does not parse as URN:LEX
  kUnrepresentable,   // the href or URN holds characters the document cannot carry
  kUnsafeContent,     // the text holds the link element's own tag (plain text `</a>`), which
                      // would make the link unrecognisable by `unmark`
  kTooLong,           // the citation or its href exceeds the configured bounds
};

const char* to_string(Reason reason);

struct Outcome {
  Request request;
  bool linked = false;
  Reason reason = Reason::kLinked;
  std::string detail;  // a sentence for people (empty when linked without remark)
  // The citation's span in original bytes after snapping (unset when it could not be mapped).
  std::optional<Span> original;
  // The text of the citation as read in the view (when mapped).
  std::string text;
  // The original byte ranges each inserted link wraps (one, or one per text piece).
  std::vector<Span> links;
  std::string href;      // the href written (escaping aside)
  bool snapped = false;  // the span was widened to a character or entity boundary
  bool split = false;    // markup inside forced one link per text piece
};

// Proposes the citations of one view chunk. Implementations may keep state across chunks
// (chunks come in document order) and must not keep references to `chunk` after returning.
class CitationSource {
 public:
  virtual ~CitationSource() = default;
  // Appends the requests whose span starts in `chunk` to `out` (any order).
  virtual Status find(const text::TextView& chunk, std::vector<Request>& out) = 0;
  // Called once after the last chunk: requests that fell in no chunk (past the end of the
  // document) are appended here, so they are reported rather than lost.
  virtual Status finish(std::vector<Request>& leftover) {
    (void)leftover;
    return Status::Ok();
  }
};

}  // namespace lexlink::rewrite

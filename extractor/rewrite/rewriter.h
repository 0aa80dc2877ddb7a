// rewrite/rewriter: places links for citations into a document, chunk by view chunk, writing the
// original bytes with the links spliced in (splice.h) and answering every request.
//
// Guarantees (tested on every corpus document, on generated documents and by a fuzzer):
// - Output = the original bytes plus inserted link markup; removing the inserted markup (unmark)
//   gives the input back byte for byte.
// - Links are placed only in text: never inside a tag, an attribute value, a comment, a
//   declaration, CDATA, a script or style, an HTML <title>/<textarea>, an existing link (the
//   view's no-link zones), one of lexlink's own links (recognised by their marker, whatever the
//   view says) or an element named like the link element; a citation touching any of these is
//   not linked and says why.
// - Tags never cross: a citation whose range holds balanced inline markup is wrapped whole, the
//   range widened over adjacent closing/opening tags when that balances it
//   (`art. <b>5</b>` -> `<a>art. <b>5</b></a>`); otherwise it gets one link per run of text
//   between tags (`<i>art. <b>5</i></b>` -> `<i><a>art. </a><b><a>5</a></i></b>`).
// - A citation crossing a block boundary (a synthetic break, a block element) is not linked.
//   A span that starts or ends inside a multi-byte character or an entity is widened to its
//   boundaries (`snapped`); one that starts or ends inside a tag is not linked.
// - Requests may come in any order and may overlap: they are taken in document order, the first
//   of two overlapping ones is linked, the other reported.
// - The content of every link holds neither `<NAME` nor `</NAME` of its own element, and is at
//   most max_link_bytes: unmark finds each link's end without parsing (link_markup.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "rewrite/link_markup.h"
#include "rewrite/request.h"
#include "rewrite/splice.h"
#include "text/text_view.h"

namespace lexlink::rewrite {

struct RewriteOptions {
  LinkOptions link;
  // Unset: chosen from the document by default_profile() (link.profile is then ignored).
  std::optional<Profile> profile;
  // The longest link content (original bytes between a link's tags), and so the longest
  // citation; also the bound `unmark` uses.
  std::size_t max_link_bytes = 64 << 10;
  // False: linked outcomes leave `text`, `href` and `links` empty (for a caller that only
  // counts them, such as batch markup: three allocations less per citation). The output is
  // the same.
  bool outcome_details = true;
};

class Rewriter {
 public:
  Rewriter(RewriteOptions options, io::Sink& sink);
  ~Rewriter();
  Rewriter(const Rewriter&) = delete;
  Rewriter& operator=(const Rewriter&) = delete;

  // Writes the chunk's original bytes with links for `requests` (chunks must come in document
  // order and tile the input) and appends one Outcome per request to `outcomes`, in document
  // order. Fails only when writing fails.
  Status rewrite(const text::TextView& chunk, std::vector<Request> requests,
                 std::vector<Outcome>& outcomes);

  // Answers requests that fell in no chunk (kOutOfRange).
  void reject(std::vector<Request> requests, std::vector<Outcome>& outcomes) const;

  // Flushes the sink.
  Status finish();

  // The link markup in use (null before the first chunk).
  const LinkMarkup* markup() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Convenience for tests and small documents: rewrites one whole-document view into a string.
Result<std::string> rewrite_view(const text::TextView& view, std::vector<Request> requests,
                                 const RewriteOptions& options,
                                 std::vector<Outcome>* outcomes = nullptr);

}  // namespace lexlink::rewrite

// document/markup_job: one document marked up, the one way `markup` (one file or a batch),
// `stream` and the library's API do it: the reader's bytes through the view, the citation
// source (the extractor, or a reviewed citations file) and the rewriter, to a sink.
//
// Guarantees (those of rewrite/rewriter.h, plus):
// - The document is fed a chunk's worth at a time, and after each piece the caller receives
//   the outcomes (one per proposed citation, none dropped) and the view's warnings: memory
//   stays bounded by the chunk size, not by the number of citations.
// - On failure nothing more is written to the sink; the caller discards what was written (the
//   CLI writes to a temporary file that is then removed).
// - A MarkupJob is immutable and may be shared by threads; each run needs its own source and
//   sink.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/status.h"
#include "document/reader.h"
#include "extract/extractor.h"
#include "io/sink.h"
#include "rewrite/request.h"
#include "rewrite/rewriter.h"
#include "rewrite/unmark.h"
#include "text/view_builder.h"

namespace lexlink::document {

// Receives the outcomes and view warnings that came since the last call; should take them
// (clear the vectors), else they pile up. A failure stops the run and is returned by run().
using OutcomesFn = std::function<Status(std::vector<rewrite::Outcome>& outcomes,
                                        std::vector<std::string>& warnings)>;

class MarkupJob {
 public:
  // `view`: how documents are to be read; citation_view() sets the chunking, with `extractor`'s
  // cut advisor when the citations come from it (nullptr: from elsewhere).
  MarkupJob(text::ViewOptions view, rewrite::RewriteOptions options,
            const extract::Extractor* extractor);

  Status run(DocumentReader& in, rewrite::CitationSource& source, io::Sink& sink,
             const OutcomesFn& each) const;

  const text::ViewOptions& view() const { return view_; }
  const rewrite::RewriteOptions& options() const { return options_; }

 private:
  text::ViewOptions view_;
  rewrite::RewriteOptions options_;
};

// What unmark_document() removed: links, and markers it left in place (an edited or cut link).
struct UnmarkCounts {
  std::uint64_t removed = 0;
  std::uint64_t unrecognised = 0;
};

// Removes the links lexlink inserted from `in`, writing the rest to `sink`:
// unmark_document(markup(x)) == x (rewrite/unmark.h).
Result<UnmarkCounts> unmark_document(DocumentReader& in, io::Sink& sink,
                                     const rewrite::UnmarkOptions& options = {});

}  // namespace lexlink::document

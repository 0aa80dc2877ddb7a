#include "document/markup_job.h"

#include <utility>

#include "document/options.h"
#include "rewrite/document.h"

namespace lexlink::document {

MarkupJob::MarkupJob(text::ViewOptions view, rewrite::RewriteOptions options,
                     const extract::Extractor* extractor)
    : view_(citation_view(std::move(view), extractor)), options_(std::move(options)) {}

Status MarkupJob::run(DocumentReader& in, rewrite::CitationSource& source, io::Sink& sink,
                      const OutcomesFn& each) const {
  rewrite::DocumentRewriter document(view_, options_, source, sink);
  auto hand_over = [&] { return each(document.outcomes(), document.warnings()); };
  std::string_view block;
  while (true) {
    if (Status s = in.next(block); !s) return s;
    if (block.empty()) break;
    // A chunk's worth at a time: the outcomes (one per citation) then leave after each chunk.
    for (std::size_t at = 0; at < block.size(); at += kCitationChunkBytes) {
      if (Status s = document.feed(block.substr(at, kCitationChunkBytes)); !s) return s;
      if (Status s = hand_over(); !s) return s;
    }
  }
  if (Status s = document.finish(); !s) return s;
  return hand_over();
}

Result<UnmarkCounts> unmark_document(DocumentReader& in, io::Sink& sink,
                                     const rewrite::UnmarkOptions& options) {
  rewrite::Unmarker unmarker(sink, options);
  std::string_view block;
  while (true) {
    if (Status s = in.next(block); !s) return s.error();
    if (block.empty()) break;
    if (Status s = unmarker.feed(block); !s) return s.error();
  }
  if (Status s = unmarker.finish(); !s) return s.error();
  return UnmarkCounts{unmarker.removed(), unmarker.unrecognised()};
}

}  // namespace lexlink::document

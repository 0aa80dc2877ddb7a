// rewrite/document: a whole document through the view builder, a citation source and the
// rewriter, streamed: bytes in (any pieces), the marked-up document out to a sink, one Outcome
// per proposed citation. Memory stays bounded by the view builder's chunk size (XML: the
// document, see text/view_builder.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "rewrite/request.h"
#include "rewrite/rewriter.h"
#include "rewrite/splice.h"
#include "text/view_builder.h"

namespace lexlink::rewrite {

class DocumentRewriter {
 public:
  // `source` and `sink` must outlive this object.
  DocumentRewriter(const text::ViewOptions& view, RewriteOptions options, CitationSource& source,
                   io::Sink& sink);
  ~DocumentRewriter();
  DocumentRewriter(const DocumentRewriter&) = delete;
  DocumentRewriter& operator=(const DocumentRewriter&) = delete;

  // Feeds the next bytes; chunks completed by them are rewritten and written to the sink.
  Status feed(std::string_view bytes);
  // No more input: the rest is written, requests past the end are answered, the sink flushed.
  Status finish();

  // Outcomes and view warnings so far (the caller may take and clear them between calls).
  std::vector<Outcome>& outcomes() { return outcomes_; }
  std::vector<std::string>& warnings() { return warnings_; }

 private:
  Status drain();

  text::ViewBuilder builder_;
  CitationSource& source_;
  Rewriter rewriter_;
  std::vector<Request> requests_;
  std::vector<Outcome> outcomes_;
  std::vector<std::string> warnings_;
};

// Convenience: marks up a whole document in memory.
Result<std::string> markup_document(std::string_view document, const text::ViewOptions& view,
                                    const RewriteOptions& options, CitationSource& source,
                                    std::vector<Outcome>* outcomes = nullptr);

}  // namespace lexlink::rewrite

#include "rewrite/document.h"

namespace lexlink::rewrite {

DocumentRewriter::DocumentRewriter(const text::ViewOptions& view, RewriteOptions options,
                                   CitationSource& source, io::Sink& sink)
    : builder_(view), source_(source), rewriter_(std::move(options), sink) {}

DocumentRewriter::~DocumentRewriter() = default;

Status DocumentRewriter::drain() {
  while (auto chunk = builder_.next()) {
    for (std::string& w : chunk->warnings) warnings_.push_back(std::move(w));
    requests_.clear();
    if (Status s = source_.find(*chunk, requests_); !s) return s;
    if (Status s = rewriter_.rewrite(*chunk, std::move(requests_), outcomes_); !s) return s;
    requests_ = {};
  }
  return Status::Ok();
}

Status DocumentRewriter::feed(std::string_view bytes) {
  if (Status s = builder_.feed(bytes); !s) return s;
  return drain();
}

Status DocumentRewriter::finish() {
  if (Status s = builder_.finish(); !s) return s;
  if (Status s = drain(); !s) return s;
  std::vector<Request> leftover;
  if (Status s = source_.finish(leftover); !s) return s;
  rewriter_.reject(std::move(leftover), outcomes_);
  return rewriter_.finish();
}

Result<std::string> markup_document(std::string_view document, const text::ViewOptions& view,
                                    const RewriteOptions& options, CitationSource& source,
                                    std::vector<Outcome>* outcomes) {
  std::string out;
  out.reserve(document.size() + document.size() / 8);
  io::StringSink sink(out);
  DocumentRewriter d(view, options, source, sink);
  if (Status s = d.feed(document); !s) return s.error();
  if (Status s = d.finish(); !s) return s.error();
  if (outcomes != nullptr) *outcomes = std::move(d.outcomes());
  return out;
}

}  // namespace lexlink::rewrite

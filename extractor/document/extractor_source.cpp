#include "document/extractor_source.h"

#include <utility>

namespace lexlink::document {

ExtractorSource::ExtractorSource(std::shared_ptr<const extract::Extractor> extractor,
                                 const std::string& self_urn)
    : extractor_(std::move(extractor)), self_(self_urn) {}

Status ExtractorSource::find(const text::TextView& chunk, std::vector<rewrite::Request>& out) {
  if (!session_) {  // the first chunk: the document's own name from its metadata, if not given
    if (self_.empty() && chunk.format != text::Format::kText)
      self_ = extractor_->document_name(chunk.original);
    session_ = extractor_->start(self_);
  }
  // The last chunk's citations (their urn and rule moved into requests) are overwritten.
  if (Status s = extractor_->extract_over(chunk, *session_, citations_, spare_); !s) return s;
  found_ += citations_.size();
  if (keep_ != nullptr) keep_->insert(keep_->end(), citations_.begin(), citations_.end());
  for (extract::Citation& c : citations_) {
    rewrite::Request& r = out.emplace_back();
    r.text = rewrite::Span{c.text_begin, c.text_end};
    r.original = rewrite::Span{c.start, c.end};
    r.urn = std::move(c.urn);
    r.rule = std::move(c.rule);
    r.inner = c.inner;
    r.urn_checked = true;  // the extractor names only what parses (Citation::urn)
    // The citation, a spare for the next chunk, gets answered requests' strings instead.
    if (spare_strings_.size() >= 2) {
      c.urn = std::move(spare_strings_.back());
      spare_strings_.pop_back();
      c.rule = std::move(spare_strings_.back());
      spare_strings_.pop_back();
    }
  }
  return Status::Ok();
}

void ExtractorSource::recycle(std::vector<rewrite::Outcome>& done) {
  for (rewrite::Outcome& o : done) {
    spare_strings_.push_back(std::move(o.request.urn));
    spare_strings_.push_back(std::move(o.request.rule));
  }
  done.clear();
}

void ExtractorSource::restart(const std::string& self_urn) {
  session_.reset();
  self_ = self_urn;
  found_ = 0;
}

}  // namespace lexlink::document

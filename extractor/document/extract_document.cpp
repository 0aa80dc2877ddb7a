#include "document/extract_document.h"

#include <utility>

#include "document/options.h"

namespace lexlink::document {

std::string own_name(const extract::Extractor& extractor, const std::string& self,
                     const text::TextView& first_chunk) {
  if (!self.empty() || first_chunk.format == text::Format::kText) return self;
  return extractor.document_name(first_chunk.original);
}

DocumentExtractor::DocumentExtractor(std::shared_ptr<const extract::Extractor> extractor,
                                     text::ViewOptions view)
    : extractor_(std::move(extractor)), view_(citation_view(std::move(view), extractor_.get())) {}

Status DocumentExtractor::run(DocumentReader& in, const std::string& self,
                              const CitationsFn& each_chunk) {
  const extract::Extractor& x = *extractor_;
  text::ViewBuilder builder(view_);
  std::unique_ptr<extract::Extractor::Session> session;
  auto drain = [&]() -> Status {
    while (auto chunk = builder.next()) {
      if (!session) session = x.start(own_name(x, self, *chunk));
      // The last chunk's citations are overwritten (their strings' memory reused in place).
      if (Status s = x.extract_over(*chunk, *session, citations_, spare_); !s) return s;
      if (Status s = each_chunk(citations_); !s) return s;
    }
    return Status::Ok();
  };
  // The reader's own buffer is fed as it is (the view copies what it keeps).
  std::string_view block;
  while (true) {
    if (Status s = in.next(block); !s) return s;
    if (block.empty()) break;
    if (Status s = builder.feed(block); !s) return s;
    if (Status s = drain(); !s) return s;
  }
  if (Status s = builder.finish(); !s) return s;
  return drain();
}

Result<std::vector<extract::Citation>> extract_document(
    std::shared_ptr<const extract::Extractor> extractor, DocumentReader& in,
    const text::ViewOptions& view, const std::string& self) {
  DocumentExtractor reading(std::move(extractor), view);
  std::vector<extract::Citation> all;
  Status s = reading.run(in, self, [&](std::vector<extract::Citation>& chunk) {
    all.insert(all.end(), std::make_move_iterator(chunk.begin()),
               std::make_move_iterator(chunk.end()));
    return Status::Ok();
  });
  if (!s) return s.error();
  return all;
}

}  // namespace lexlink::document

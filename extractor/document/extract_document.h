// document/extract_document: a document's citations, read chunk by chunk, the one way every
// command (extract, eval, stream) and the library's API read them.
//
// Guarantees:
// - The document is read through a DocumentReader (decompression, the binary check, the size
//   limit) and a text::ViewBuilder set up by citation_view(): memory stays bounded by the chunk
//   size whatever the document's size (XML: the document, see text/view_builder.h).
// - Citations come chunk by chunk, in document order, each chunk's sorted by start, with their
//   spans in original bytes and code points (extract::Citation).
// - The document's own name ("del presente decreto") is `self` when given, else the name its
//   metadata gives (extract::Extractor::document_name), plain text having none.
// - A DocumentExtractor is used by one thread at a time; the extractor it holds is shared.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "document/reader.h"
#include "extract/extractor.h"
#include "text/text_view.h"
#include "text/view_builder.h"

namespace lexlink::document {

// The name a document's references to itself get: `self` when given, else (HTML and XML) the
// name the metadata at the start of its first chunk gives; "" when none.
std::string own_name(const extract::Extractor& extractor, const std::string& self,
                     const text::TextView& first_chunk);

// Receives one chunk's citations; may move from them (the vector is reused for the next chunk).
// A failure stops the reading and is returned by run().
using CitationsFn = std::function<Status(std::vector<extract::Citation>& citations)>;

class DocumentExtractor {
 public:
  // `view`: how documents are to be read (format, encoding); citation_view() sets the rest.
  DocumentExtractor(std::shared_ptr<const extract::Extractor> extractor, text::ViewOptions view);

  // Reads `in` to its end and hands each chunk's citations to `each_chunk`. A reader's error
  // (not found, binary, too large) or the view's is returned as it is.
  Status run(DocumentReader& in, const std::string& self, const CitationsFn& each_chunk);

  const extract::Extractor& extractor() const { return *extractor_; }
  const text::ViewOptions& view() const { return view_; }

 private:
  std::shared_ptr<const extract::Extractor> extractor_;
  text::ViewOptions view_;
  // A chunk's citations, overwritten by the next chunk's, and the spares of a chunk with fewer
  // (Extractor::extract_over): the new ones reuse their strings' memory, from document to
  // document.
  std::vector<extract::Citation> citations_;
  std::vector<extract::Citation> spare_;
};

// All the citations of `in` (for small documents: they are held in memory together).
Result<std::vector<extract::Citation>> extract_document(
    std::shared_ptr<const extract::Extractor> extractor, DocumentReader& in,
    const text::ViewOptions& view = {}, const std::string& self = {});

}  // namespace lexlink::document

// document/extractor_source: the extractor as the rewriter's CitationSource, so `lexlink markup`
// (and any library user) links what the extractor finds, chunk by chunk, in one pass.
//
// Every citation becomes one Request with its view text span (exact, no offset guessing), its
// URN and its rule; the rewriter answers each with an Outcome, so nothing found is dropped
// silently. A resolver href, when wanted, is left to the rewriter's link options. The URNs come
// marked urn_checked: the extractor emits only names that parse (Citation::urn), so the rewriter
// does not parse each again (extractor_source_test checks it on every bundled corpus text).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "extract/extractor.h"
#include "rewrite/request.h"

namespace lexlink::document {

class ExtractorSource final : public rewrite::CitationSource {
 public:
  // `self_urn`: the document's own name, for "del presente decreto" (empty: the name its
  // metadata gives, see document_name.h, if any).
  ExtractorSource(std::shared_ptr<const extract::Extractor> extractor,
                  const std::string& self_urn = {});

  Status find(const text::TextView& chunk, std::vector<rewrite::Request>& out) override;

  // A new document, read with the same source after the last one (a batch worker reads many):
  // the last one's session ends, and the memory of the citations read stays, for the new
  // citations' strings (Extractor::extract_over with spares). `self_urn` as in the constructor.
  void restart(const std::string& self_urn = {});
  // Takes back the outcomes of requests it made, once answered (and clears `done`): their urn
  // and rule strings go to the citations whose strings the next requests take, so neither
  // allocates.
  void recycle(std::vector<rewrite::Outcome>& done);

  // Citations found so far (the report counts what the rewriter did with them).
  std::uint64_t found() const { return found_; }
  // Also appends every citation found to `*keep` (nullptr: none kept), e.g. for
  // `lexlink stream`, which returns them with the marked-up document.
  void keep_citations(std::vector<extract::Citation>* keep) { keep_ = keep; }

 private:
  std::shared_ptr<const extract::Extractor> extractor_;
  std::string self_;
  std::unique_ptr<extract::Extractor::Session> session_;  // started at the first chunk
  std::vector<extract::Citation> citations_;              // overwritten per chunk (extract_over)
  std::vector<extract::Citation> spare_;    // citations read, whose memory new ones reuse
  std::vector<std::string> spare_strings_;  // answered requests' urn and rule (recycle)
  std::uint64_t found_ = 0;
  std::vector<extract::Citation>* keep_ = nullptr;
};

}  // namespace lexlink::document

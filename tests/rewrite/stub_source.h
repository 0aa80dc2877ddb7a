// tests/rewrite/stub_source: citation requests at given places, for the rewriter's tests.
//
// A locator names a span the way a test table can: `t:TEXT` (the first occurrence of TEXT in
// the view's text; `t2:TEXT` the second...), `o:BYTES` (in the original bytes), `T:B-E` (text
// offsets), `O:B-E` (original offsets); `inner ` before a locator makes the request inner (the
// act's own words inside a citation of its partition). Several locators are joined by " || ".
// StubSource is a CitationSource proposing fixed requests, routed to the chunk holding them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rewrite/request.h"
#include "text/text_view.h"

namespace lexlink::test {

// The request for `locator` in `view` (unset when the text is not found: the test fails).
std::optional<rewrite::Request> locate(const text::TextView& view, const std::string& locator,
                                       const std::string& urn);
std::vector<rewrite::Request> locate_all(const text::TextView& view, const std::string& locators,
                                         const std::string& urn);

class StubSource final : public rewrite::CitationSource {
 public:
  explicit StubSource(std::vector<rewrite::Request> requests) : requests_(std::move(requests)) {}
  Status find(const text::TextView& chunk, std::vector<rewrite::Request>& out) override;
  Status finish(std::vector<rewrite::Request>& leftover) override;

 private:
  std::vector<rewrite::Request> requests_;
  std::vector<bool> used_;
};

}  // namespace lexlink::test

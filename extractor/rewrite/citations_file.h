// rewrite/citations_file: a CitationSource that reads citations from JSON Lines, as
// `lexlink extract` prints them, so an editor can review extract's output and apply it.
//
// One JSON object per line: "start" and "end" (original byte offsets, end exclusive) and "urn"
// are required; "href" (a precomputed link target) is optional; other keys are ignored. Blank
// lines are skipped. Any malformed line fails the whole load with `file:line:col: message`: a
// reviewed file is applied exactly or not at all.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/status.h"
#include "rewrite/request.h"

namespace lexlink::rewrite {

class CitationsFile final : public CitationSource {
 public:
  // Parses the JSON Lines `content` (`path` names it in messages).
  static Result<CitationsFile> parse(std::string path, std::string_view content);
  static Result<CitationsFile> load(const std::string& path);

  Status find(const text::TextView& chunk, std::vector<Request>& out) override;
  Status finish(std::vector<Request>& leftover) override;

  std::size_t size() const { return requests_.size(); }

 private:
  std::vector<Request> requests_;  // sorted by original start
  std::size_t next_ = 0;
};

}  // namespace lexlink::rewrite

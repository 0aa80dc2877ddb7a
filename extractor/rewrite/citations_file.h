// rewrite/citations_file: a CitationSource that reads citations from JSON Lines, as
// `lexlink extract` prints them, so an editor can review extract's output and apply it.
//
// One JSON object per line: "start" and "end" (original byte offsets, end exclusive) and "urn"
// are required; "href" (a precomputed link target) is optional; other keys are ignored. Blank
// lines are skipped. Any malformed line fails the whole load with `file:line:col: message`: a
// reviewed file is applied exactly or not at all.
//
// Memory: a regular file whose lines are in order of "start" (as extract prints them) is read
// twice, once to check every line and once while the document is rewritten, holding one
// citation and a block of the file at a time, whatever its size. A file out of order, or one
// that cannot be read twice (a pipe), is held whole and sorted (stable: equal starts keep the
// file's order). Both give the same requests in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "rewrite/request.h"

namespace lexlink::rewrite {

class CitationsFile final : public CitationSource {
 public:
  // Parses the JSON Lines `content` (`path` names it in messages).
  static Result<CitationsFile> parse(std::string path, std::string_view content);
  // Reads `path`: checked whole first, then streamed when it is a regular file in order.
  static Result<CitationsFile> load(const std::string& path);

  CitationsFile();
  CitationsFile(CitationsFile&&) noexcept;
  CitationsFile& operator=(CitationsFile&&) noexcept;
  ~CitationsFile() override;

  Status find(const text::TextView& chunk, std::vector<Request>& out) override;
  Status finish(std::vector<Request>& leftover) override;

  // The number of citations in the file.
  std::size_t size() const { return count_; }
  // True when the file is read as the document is rewritten rather than held whole.
  bool streamed() const { return stream_ != nullptr; }

 private:
  class Stream;  // the second reading of a file in order
  // The next request, from the stream or from requests_; false at the end.
  Result<bool> peek(const Request*& next);
  // Moves the requests that start before `end` (all of them without one) to `out`.
  Status take_until(std::optional<std::uint64_t> end, std::vector<Request>& out);

  std::vector<Request> requests_;  // when held whole: sorted by original start
  std::size_t next_ = 0;
  std::size_t count_ = 0;
  std::unique_ptr<Stream> stream_;
};

}  // namespace lexlink::rewrite

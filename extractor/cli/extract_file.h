// cli/extract_file: the citations of one input file, streamed through the view builder chunk by
// chunk (memory does not grow with the input), for `lexlink extract` and `lexlink eval`. A file
// that cannot be read, is binary or is larger than max_size is an error (a Status); what it may
// throw (std::bad_alloc, what each_chunk throws) its callers catch.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "batch/compress.h"
#include "common/status.h"
#include "extract/extractor.h"
#include "text/view_builder.h"

namespace lexlink::cli {

// Extracts the citations of one input (a path or "-"), streaming it through the view builder;
// `each_chunk` receives each chunk's citations (so memory does not grow with the input).
template <class EachChunk>
Status extract_file(const extract::Extractor& x, const text::ViewOptions& view,
                    const std::string& path, const std::string& self, EachChunk&& each_chunk,
                    std::uint64_t max_size = 0, std::uint64_t* bytes = nullptr) {
  // A chunk's citations, overwritten by the next chunk's, and the spares of a chunk with fewer
  // (Extractor::extract_over): the new ones reuse their strings' memory. Kept per thread, from
  // file to file.
  thread_local std::vector<extract::Citation> out, spare;
  batch::InputStream in(batch::RawHash::kNo);
  if (Status s = in.open(path); !s) return s;
  text::ViewBuilder builder(view);
  std::unique_ptr<extract::Extractor::Session> session;
  bool first = true;
  auto drain = [&]() -> Status {
    while (auto chunk = builder.next()) {
      if (!session) {  // the document's own name: --self, else its metadata (document_name.h)
        session = x.start(!self.empty() || chunk->format == text::Format::kText
                              ? self
                              : x.document_name(chunk->original));
      }
      // The last chunk's citations are overwritten (their strings' memory reused in place).
      if (Status s = x.extract_over(*chunk, *session, out, spare); !s) return s;
      each_chunk(out);
    }
    return Status::Ok();
  };
  // The stream's own buffer is fed as it is (the view copies what it keeps); only the first
  // bytes, while there are too few to tell text from binary, are gathered in `head`.
  std::string head;
  std::string_view block;
  while (true) {
    if (Status s = in.read(block); !s) return s;
    if (bytes != nullptr) *bytes = in.bytes();
    if (max_size != 0 && in.bytes() > max_size) {
      return make_error(ErrorCode::kLimitExceeded,
                        "too large: over --max-size " + std::to_string(max_size) + " bytes");
    }
    if (first && !block.empty() && head.size() + block.size() < text::kBinaryProbeBytes) {
      head += block;  // too little to decide: wait for more
      continue;
    }
    if (!head.empty()) {
      head += block;
      block = head;
    }
    if (block.empty()) break;
    if (first) {
      first = false;
      if (text::is_binary(block.substr(0, text::kBinaryProbeBytes))) {
        return make_error(ErrorCode::kUnsupported,
                          "looks like a binary file (NUL or control bytes), not text");
      }
    }
    if (Status s = builder.feed(block); !s) return s;
    head.clear();
    if (Status s = drain(); !s) return s;
  }
  if (Status s = builder.finish(); !s) return s;
  return drain();
}

}  // namespace lexlink::cli

#include "document/reader.h"

#include <utility>

#include "text/view_builder.h"

namespace lexlink::document {

DocumentReader::DocumentReader(ReadOptions options) : options_(std::move(options)) {}
DocumentReader::~DocumentReader() = default;

Status DocumentReader::open(const std::string& path) {
  file_ = std::make_unique<io::InputStream>(options_.raw_hash);
  name_ = path.empty() ? "-" : path;
  return file_->open(path);
}

void DocumentReader::open_buffer(std::string_view bytes, std::string name) {
  file_.reset();
  buffer_ = bytes;
  name_ = std::move(name);
}

bool DocumentReader::compressed() const {
  return file_ && io::compression_of(name_) != io::Compression::kNone && name_ != "-";
}

std::uint64_t DocumentReader::raw_bytes() const {
  return file_ ? file_->raw_bytes() : 0;
}

io::Hash128 DocumentReader::raw_hash() const {
  return file_ ? file_->raw_hash() : io::Hash128{};
}

Status DocumentReader::read_block(std::string_view& block) {
  if (file_) return file_->read(block);
  block = buffer_done_ ? std::string_view() : buffer_;
  buffer_done_ = true;
  return Status::Ok();
}

Status DocumentReader::check_size() const {
  if (options_.max_bytes == 0 || bytes_ <= options_.max_bytes) return Status::Ok();
  Error e =
      make_error(ErrorCode::kLimitExceeded, "too large: over " + options_.limit_name + " " +
                                                std::to_string(options_.max_bytes) + " bytes" +
                                                (compressed() ? " once decompressed" : ""));
  e.file = name_;
  return e;
}

// The first block: gathered until is_binary can decide (the first read, most often the whole
// file, is not copied unless it is shorter than the probe), then checked.
Status DocumentReader::check_first(std::string_view& block) {
  first_ = false;
  if (!block.empty() && block.size() < text::kBinaryProbeBytes) {
    head_.assign(block);
    while (head_.size() < text::kBinaryProbeBytes) {
      if (Status s = read_block(block); !s) return s;
      if (block.empty()) break;
      head_ += block;
    }
    block = head_;
  }
  if (options_.refuse_binary && text::is_binary(block.substr(0, text::kBinaryProbeBytes))) {
    Error e = make_error(ErrorCode::kUnsupported, kBinaryMessage);
    e.file = name_;
    return e;
  }
  return Status::Ok();
}

Status DocumentReader::check() {
  if (!first_) return Status::Ok();
  if (Status s = next(ahead_block_); !s) return s;
  ahead_ = true;
  return Status::Ok();
}

Status DocumentReader::next(std::string_view& block) {
  if (ahead_) {
    ahead_ = false;
    block = ahead_block_;
    return Status::Ok();
  }
  block = {};
  Status s = read_block(block);
  if (s && first_) s = check_first(block);
  if (!s) {
    block = {};
    if (s.error().file.empty()) {
      Error e = s.error();
      e.file = name_;
      return e;
    }
    return s;
  }
  bytes_ += block.size();
  if (Status limit = check_size(); !limit) {
    block = {};
    return limit;
  }
  return Status::Ok();
}

}  // namespace lexlink::document

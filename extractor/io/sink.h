// io/sink: where output bytes go. The rewriter, the unmarker and the batch and CLI writers all
// write through a Sink; the compressed file writer (file_stream.h) is one too.
//
// Guarantees: a Sink reports every failed write as a Status (kIoError with the errno in
// os_error); nothing is dropped silently. FdSink retries interrupted and partial writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace lexlink::io {

// Where output bytes go.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual Status write(std::string_view bytes) = 0;
  virtual Status flush() { return Status::Ok(); }
};

// Appends to a string.
class StringSink final : public Sink {
 public:
  explicit StringSink(std::string& out) : out_(out) {}
  Status write(std::string_view bytes) override {
    out_.append(bytes);
    return Status::Ok();
  }

 private:
  std::string& out_;
};

// Writes to a file descriptor through a 1 MiB buffer; large writes bypass the buffer. Retries
// interrupted and partial writes. Does not own (close) the descriptor.
class FdSink final : public Sink {
 public:
  explicit FdSink(int fd, std::string name = {});
  ~FdSink() override;
  FdSink(const FdSink&) = delete;
  FdSink& operator=(const FdSink&) = delete;
  Status write(std::string_view bytes) override;
  Status flush() override;
  std::uint64_t bytes_written() const { return written_; }

 private:
  Status write_all(std::string_view bytes);
  int fd_;
  std::string name_;
  std::string buffer_;
  std::uint64_t written_ = 0;
};

}  // namespace lexlink::io

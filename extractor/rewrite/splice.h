// rewrite/splice: output = the original bytes with insertions spliced in, streamed to a sink.
//
// Nothing is re-serialised: between insertions the original bytes are written as they are, in
// as few and as large writes as possible (one write per run between insertions; the file sink
// passes runs of 64 KiB and more straight to the system). Splicing is one pass with no per-byte
// work: its cost is that of copying the bytes (bench/rewrite_bench.cpp).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace lexlink::rewrite {

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

// Sorted insertions into one range of original bytes. Offsets are absolute; insertions at the
// same offset keep the order they were added in.
class Insertions {
 public:
  void clear() {
    items_.clear();
    bytes_.clear();
  }
  // Adds `bytes` before the original byte at `offset` (offset == end of range: at the end).
  // Offsets must not decrease.
  void add(std::uint64_t offset, std::string_view bytes);
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  std::uint64_t last_offset() const { return items_.empty() ? 0 : items_.back().offset; }

  struct Item {
    std::uint64_t offset;
    std::size_t begin;  // into bytes()
    std::size_t size;
  };
  const std::vector<Item>& items() const { return items_; }
  std::string_view bytes(const Item& item) const {
    return std::string_view(bytes_).substr(item.begin, item.size);
  }

 private:
  std::vector<Item> items_;
  std::string bytes_;
};

// Writes `original` (whose first byte is at absolute offset `base`) to `sink` with `insertions`
// spliced in. kInvalidArgument when an insertion lies outside [base, base + original.size()] or
// offsets decrease (nothing is written then).
Status splice(std::string_view original, std::uint64_t base, const Insertions& insertions,
              Sink& sink);

}  // namespace lexlink::rewrite

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
#include "io/sink.h"

namespace lexlink::rewrite {

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
              io::Sink& sink);

}  // namespace lexlink::rewrite

// common/string_table: an immutable map from strings to small integers, built once, looked up
// fast (open addressing, one hash per lookup, keys kept in one buffer). For the hot paths that
// look up every token of a text: lexicon phrases, grammar literals.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace lexlink {

class StringTable {
 public:
  static constexpr std::uint32_t kMissing = 0xFFFFFFFF;

  // Adds `key` with `value` (a key added twice keeps its first value). Before build() only.
  void add(std::string_view key, std::uint32_t value);
  // Makes the table ready for lookups.
  void build();

  std::uint32_t find(std::string_view key) const {
    if (slots_.empty()) return kMissing;
    const std::uint64_t h = hash(key);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.value == kMissing) return kMissing;
      if (s.hash == h && s.length == key.size() &&
          std::string_view(keys_).substr(s.offset, s.length) == key) {
        return s.value;
      }
    }
  }
  bool empty() const { return entries_.empty() && slots_.empty(); }

  // Eight bytes at a time (keys are mostly words shorter than that): a multiply and a fold
  // per word of the key.
  static std::uint64_t hash(std::string_view key) {
    constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
    std::uint64_t h = 0x243F6A8885A308D3ull ^ (key.size() * kMul);
    const char* p = key.data();
    std::size_t n = key.size();
    for (; n >= 8; p += 8, n -= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      h = (h ^ w) * kMul;
      h ^= h >> 32;
    }
    if (n > 0) {  // the last 1..7 bytes, read with fixed-size loads
      std::uint64_t w;
      if (n >= 4) {
        std::uint32_t a, b;
        std::memcpy(&a, p, 4);
        std::memcpy(&b, p + n - 4, 4);
        w = a | (static_cast<std::uint64_t>(b) << 32);
      } else {
        w = static_cast<unsigned char>(p[0]) |
            (static_cast<std::uint64_t>(static_cast<unsigned char>(p[n / 2])) << 8) |
            (static_cast<std::uint64_t>(static_cast<unsigned char>(p[n - 1])) << 16);
      }
      h = (h ^ w) * kMul;
      h ^= h >> 32;
    }
    h *= kMul;
    return h ^ (h >> 29);
  }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t offset = 0;
    std::uint32_t length = 0;
    std::uint32_t value = kMissing;
  };
  struct Entry {
    std::uint32_t offset, length, value;
  };
  std::string keys_;
  std::vector<Entry> entries_;
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
};

}  // namespace lexlink

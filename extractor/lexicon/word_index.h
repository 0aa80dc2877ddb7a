// lexicon/word_index: normalised words -> small integer ids, looked up straight from the text.
//
// An immutable open-addressing table built once from a list of normalised words (the tokens of
// every lexicon phrase and grammar literal). find() looks up a normalised word; find_ascii()
// looks up a run of ASCII letters and digits as written in the text, folding its case on the
// fly, without copying it: words of up to 8 bytes are one 64-bit load, one multiply and one
// compare; words of 9 to 16 bytes two of each. Both give the same id for the same normalised
// word.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace lexlink::lexicon {

class WordIndex {
 public:
  static constexpr std::uint32_t kMissing = 0xFFFFFFFF;

  WordIndex() : slots_(1) {}  // one empty slot: lookups need no check before build()

  // `words[k]` gets id k (a word listed twice keeps its first id).
  void build(const std::vector<std::string>& words);

  std::uint32_t find(std::string_view norm) const {
    if (norm.size() == 1) return find_byte(static_cast<unsigned char>(norm[0]));
    if (norm.size() <= 8) return find_short(load(norm.data(), norm.size()), norm.size());
    if (!maybe_long(load(norm.data(), 8), norm.size())) return kMissing;
    return find_long(norm.data(), norm.size(), false, norm.data() + norm.size());
  }

  // The id of the one-byte word `b` (punctuation, a letter, a digit), from a table.
  std::uint32_t find_byte(unsigned char b) const { return byte_ids_[b]; }
  // The id of the normalised form of p[0, len), a run of ASCII letters and digits (lower-cased
  // here); `end` is the end of the buffer p points into (bytes up to it may be read).
  std::uint32_t find_ascii(const char* p, std::size_t len, const char* end) const {
    if (len == 1) return find_byte(static_cast<unsigned char>(*p | 0x20));  // digits have 0x20
    if (len <= 8) {
      // Lower case: 0x20 set in every byte (digits have it), then the bytes past the word cut.
      const std::uint64_t m = ~std::uint64_t{0} >> (64 - 8 * len);  // len is 2..8 here
      return find_short(((end - p >= 8 ? load8(p) : load(p, len)) | kCase) & m, len);
    }
    // A long word: at least 9 bytes to read.
    if (!maybe_long(load8(p) | kCase, len)) return kMissing;
    return find_long(p, len, true, end);
  }

 private:
  static constexpr std::uint64_t kCase = 0x2020202020202020ull;  // ASCII letters: lower case
  static constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
  static std::uint64_t mask(std::size_t len) {
    return len >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * len)) - 1;
  }
  static std::uint64_t load8(const char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  }
  static std::uint64_t load(const char* p, std::size_t len) {  // len <= 8, zero-padded
    std::uint64_t w = 0;
    std::memcpy(&w, p, len);
    return w;
  }
  static std::uint64_t mix(std::uint64_t h, std::uint64_t w) {
    h = (h ^ w) * kMul;
    return h ^ (h >> 29);
  }
  // The slot a hash starts probing at.
  std::size_t home(std::uint64_t h) const { return (h >> 20) & mask_; }

  struct Slot {
    std::uint64_t key = 0;     // a short word's bytes (zero-padded); a long word's hash
    std::uint32_t length = 0;  // 0: an empty slot
    std::uint32_t value = kMissing;
    std::uint32_t offset = 0;  // a long word's bytes in long_keys_
  };

  std::uint32_t find_short(std::uint64_t w, std::size_t len) const {
    for (std::size_t i = home(mix(len, w));; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.key == w && s.length == len) return s.value;
      if (s.length == 0) return kMissing;
    }
  }
  std::uint32_t find_long(const char* p, std::size_t len, bool fold, const char* end) const;
  static std::uint64_t long_hash(const char* p, std::size_t len, bool fold, const char* end);

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::array<std::uint32_t, 256> byte_ids_ = missing_bytes();  // one-byte words
  static std::array<std::uint32_t, 256> missing_bytes() {
    std::array<std::uint32_t, 256> a;
    a.fill(kMissing);
    return a;
  }
  std::string long_keys_;  // each followed by 8 zero bytes
  // Words longer than 8 bytes are few in the index and many in a text: a filter on their length
  // and first 8 bytes turns most away before their whole hash is computed.
  std::uint64_t long_filter_[64] = {};
  static std::size_t long_filter_bit(std::size_t len, std::uint64_t first8) {
    return static_cast<std::size_t>(mix(len, first8) >> 52);  // 4096 bits
  }
  // Whether a word of `len` bytes (more than 8) whose first 8 (normalised) are `first8` may be
  // in the index (inline: most long words of a text are not, and are turned away here).
  bool maybe_long(std::uint64_t first8, std::size_t len) const {
    const std::size_t bit = long_filter_bit(len, first8);
    return (long_filter_[bit >> 6] >> (bit & 63) & 1) != 0;
  }
};

}  // namespace lexlink::lexicon

#include "lexicon/word_index.h"

namespace lexlink::lexicon {

// A word of 9 to 16 bytes is read in two 8-byte loads, its first and its last eight bytes
// (overlapping: together they are the whole word); a longer one eight bytes at a time (the last
// ones zero-padded). Each load is folded to lower case with `fold`.
std::uint64_t WordIndex::long_hash(const char* p, std::size_t len, bool fold, const char* end) {
  const std::uint64_t f = fold ? kCase : 0;
  if (len <= 16) return mix(mix(len, load8(p) | f), load8(p + len - 8) | f);
  std::uint64_t h = len;
  for (std::size_t k = 0; k < len; k += 8) {
    const std::size_t n = len - k < 8 ? len - k : 8;
    std::uint64_t w = end - (p + k) >= 8 ? load8(p + k) & mask(n) : load(p + k, n);
    if (fold) w |= kCase & mask(n);
    h = mix(h, w);
  }
  return h;
}

// The filter (maybe_long) has let the word through.
std::uint32_t WordIndex::find_long(const char* p, std::size_t len, bool fold,
                                   const char* end) const {
  const std::uint64_t h = long_hash(p, len, fold, end);
  for (std::size_t i = home(h);; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.length == 0) return kMissing;
    if (s.key != h || s.length != len) continue;
    // The same hash and length: the bytes compared eight at a time, folded as hashed (a word
    // of up to 16 bytes: its first and last eight).
    const char* key = long_keys_.data() + s.offset;
    const std::uint64_t f = fold ? kCase : 0;
    if (len <= 16) {
      if ((load8(p) | f) == load8(key) && (load8(p + len - 8) | f) == load8(key + len - 8)) {
        return s.value;
      }
      continue;
    }
    bool same = true;
    for (std::size_t k = 0; same && k < len; k += 8) {
      const std::size_t n = len - k < 8 ? len - k : 8;
      std::uint64_t w = end - (p + k) >= 8 ? load8(p + k) & mask(n) : load(p + k, n);
      if (fold) w |= kCase & mask(n);
      same = w == (load8(key + k) & mask(n));
    }
    if (same) return s.value;
  }
}

void WordIndex::build(const std::vector<std::string>& words) {
  std::size_t size = 16;
  while (size < words.size() * 4 + 1) size *= 2;  // a quarter full: misses end quickly
  slots_.assign(size, Slot{});
  mask_ = size - 1;
  long_keys_.clear();
  for (auto& f : long_filter_) f = 0;
  byte_ids_ = missing_bytes();
  for (std::size_t id = 0; id < words.size(); ++id) {
    const std::string& w = words[id];
    if (w.empty() || w.size() > 0xFFFF || find(w) != kMissing) continue;
    if (w.size() == 1) {
      byte_ids_[static_cast<unsigned char>(w[0])] = static_cast<std::uint32_t>(id);
      continue;
    }
    Slot slot;
    slot.length = static_cast<std::uint32_t>(w.size());
    slot.value = static_cast<std::uint32_t>(id);
    std::uint64_t h;
    if (w.size() <= 8) {
      slot.key = load(w.data(), w.size());
      h = mix(w.size(), slot.key);
    } else {
      const std::size_t bit = long_filter_bit(w.size(), load(w.data(), 8));
      long_filter_[bit >> 6] |= std::uint64_t{1} << (bit & 63);
      slot.offset = static_cast<std::uint32_t>(long_keys_.size());
      long_keys_ += w;
      long_keys_.append(8, '\0');  // 8-byte loads of the key stay inside
      h = long_hash(w.data(), w.size(), false, w.data() + w.size());
      slot.key = h;
    }
    std::size_t i = home(h);
    while (slots_[i].length != 0) i = (i + 1) & mask_;
    slots_[i] = slot;
  }
}

}  // namespace lexlink::lexicon

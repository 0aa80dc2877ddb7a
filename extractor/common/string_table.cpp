#include "common/string_table.h"

namespace lexlink {

void StringTable::add(std::string_view key, std::uint32_t value) {
  entries_.push_back(Entry{static_cast<std::uint32_t>(keys_.size()),
                           static_cast<std::uint32_t>(key.size()), value});
  keys_.append(key);
}

void StringTable::build() {
  std::size_t size = 16;
  while (size < entries_.size() * 4 + 1) size *= 2;  // a quarter full: misses end quickly
  slots_.assign(size, Slot{});
  mask_ = size - 1;
  for (const Entry& e : entries_) {
    const std::string_view key = std::string_view(keys_).substr(e.offset, e.length);
    const std::uint64_t h = hash(key);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.value == kMissing) {
        s = Slot{h, e.offset, e.length, e.value};
        break;
      }
      if (s.hash == h && s.length == e.length &&
          std::string_view(keys_).substr(s.offset, s.length) == key) {
        break;  // first value wins
      }
    }
  }
  entries_.clear();
  entries_.shrink_to_fit();
}

}  // namespace lexlink

// extract/captures: the captures of one rule match, by capture id (the grammar's capture names,
// numbered in name order by the extractor). Each capture is a unit span; a capture is set or not.
// Reset for each match without freeing its memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "extract/units.h"

namespace lexlink::extract {

// The captures of one match by capture id (Engine::capture_names), the set ones flagged.
class Captures {
 public:
  // Empties it for a grammar of `n` capture names.
  void reset(std::size_t n) {
    spans_.resize(n);
    set_.assign(n, 0);
  }
  // The span of capture `id`, or nullptr when it is not set (or id is -1).
  const Span* find(int id) const {
    return id >= 0 && set_[static_cast<std::size_t>(id)] != 0
               ? &spans_[static_cast<std::size_t>(id)]
               : nullptr;
  }
  void set(int id, Span span) {
    if (id < 0) return;
    spans_[static_cast<std::size_t>(id)] = span;
    set_[static_cast<std::size_t>(id)] = 1;
  }
  // Sets the captures of `other` that are not set here.
  void add_missing(const Captures& other) {
    for (std::size_t k = 0; k < set_.size() && k < other.set_.size(); ++k) {
      if (set_[k] == 0 && other.set_[k] != 0) {
        spans_[k] = other.spans_[k];
        set_[k] = 1;
      }
    }
  }
  // Calls f(id, span) for every capture set, by id.
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t k = 0; k < set_.size(); ++k) {
      if (set_[k] != 0) f(static_cast<int>(k), spans_[k]);
    }
  }

 private:
  std::vector<Span> spans_;
  std::vector<std::uint8_t> set_;
};

}  // namespace lexlink::extract

// batch/eta: the time a batch run has left, from what it has done so far. Measured in bytes
// when the inputs' sizes are known (files differ in size, and markup runs the largest first), in
// files otherwise. Skipped files (--resume) count as done but not as work: a run that has only
// skipped so far has no estimate yet.
#pragma once

#include <cstdint>
#include <optional>

namespace lexlink::batch {

struct RunDone {
  std::uint64_t total = 0;   // bytes (or files) of the whole run; 0: unknown
  std::uint64_t done = 0;    // bytes (or files) done, skipped ones included
  std::uint64_t worked = 0;  // bytes (or files) done and not skipped
  double seconds = 0;        // the run's time so far
};

// Seconds left at the rate of the work so far; nothing when there is no rate yet or the run
// is done.
inline std::optional<double> eta_seconds(const RunDone& r) {
  if (r.total == 0 || r.worked == 0 || r.done >= r.total) return std::nullopt;
  return r.seconds / static_cast<double>(r.worked) * static_cast<double>(r.total - r.done);
}

}  // namespace lexlink::batch

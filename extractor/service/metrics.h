// service/metrics: what `lexlink serve` counts, read by GET /metrics in Prometheus' text format
// (version 0.0.4): requests by endpoint and status, a latency histogram by endpoint, errors by
// code, bytes read. Guarantees: observe() and error() are lock-free (relaxed atomics) and may be
// called by any number of threads; a scrape sees each counter at some moment, not all counters
// at one moment (as Prometheus' own clients do).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lexlink::service {

// The endpoints counted apart; every other path is kOther.
enum class Endpoint : std::uint8_t { kExtract, kMarkup, kUrn, kHealthz, kMetrics, kOther, kCount };
std::string_view endpoint_name(Endpoint e);

class Metrics {
 public:
  // The statuses the service answers with; any other is counted as 500.
  static constexpr std::array<int, 14> kStatuses = {200, 204, 400, 401, 403, 404, 405,
                                                    408, 411, 413, 415, 429, 500, 503};
  // Upper bounds of the latency buckets, in seconds (+Inf is added).
  static constexpr std::array<double, 13> kBuckets = {
      0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0};

  // One request answered: its endpoint, status, time from its first byte read to its answer
  // ready, and the bytes of its body.
  void observe(Endpoint endpoint, int status, double seconds, std::uint64_t body_bytes);
  // One error answered, by the code of its JSON ("bad_request", "too_large", ...).
  void error(std::string_view code);

  std::string prometheus() const;

 private:
  static constexpr std::size_t kEndpoints = static_cast<std::size_t>(Endpoint::kCount);
  static constexpr std::array<std::string_view, 12> kCodes = {
      "bad_request",       "unauthorized",       "forbidden",
      "not_found",         "method_not_allowed", "timeout",
      "length_required",   "too_large",          "unsupported_media_type",
      "too_many_sessions", "internal",           "busy"};
  using Counter = std::atomic<std::uint64_t>;
  std::array<std::array<Counter, kStatuses.size()>, kEndpoints> requests_{};
  std::array<std::array<Counter, kBuckets.size() + 1>, kEndpoints> buckets_{};
  std::array<Counter, kEndpoints> latency_sum_us_{};
  std::array<Counter, kCodes.size()> errors_{};
  Counter body_bytes_{0};
};

}  // namespace lexlink::service

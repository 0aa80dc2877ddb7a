#include "service/metrics.h"

#include <cstdio>

namespace lexlink::service {
namespace {

constexpr std::string_view kEndpointNames[] = {"extract", "markup",  "urn",
                                               "healthz", "metrics", "other"};

std::size_t status_index(int status) {
  for (std::size_t i = 0; i < Metrics::kStatuses.size(); ++i) {
    if (Metrics::kStatuses[i] == status) return i;
  }
  return status_index(500);
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

std::string_view endpoint_name(Endpoint e) {
  return kEndpointNames[static_cast<std::size_t>(e)];
}

void Metrics::observe(Endpoint endpoint, int status, double seconds, std::uint64_t body_bytes) {
  const auto e = static_cast<std::size_t>(endpoint);
  requests_[e][status_index(status)].fetch_add(1, std::memory_order_relaxed);
  std::size_t b = 0;
  while (b < kBuckets.size() && seconds > kBuckets[b]) ++b;
  buckets_[e][b].fetch_add(1, std::memory_order_relaxed);
  latency_sum_us_[e].fetch_add(static_cast<std::uint64_t>(seconds * 1e6),
                               std::memory_order_relaxed);
  body_bytes_.fetch_add(body_bytes, std::memory_order_relaxed);
}

void Metrics::error(std::string_view code) {
  for (std::size_t i = 0; i < kCodes.size(); ++i) {
    if (kCodes[i] == code) {
      errors_[i].fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
  errors_[kCodes.size() - 2].fetch_add(1, std::memory_order_relaxed);  // "internal"
}

std::string Metrics::prometheus() const {
  auto get = [](const Counter& c) { return std::to_string(c.load(std::memory_order_relaxed)); };
  std::string out =
      "# HELP lexlink_requests_total Requests answered, by endpoint and status.\n"
      "# TYPE lexlink_requests_total counter\n";
  for (std::size_t e = 0; e < kEndpoints; ++e) {
    for (std::size_t s = 0; s < kStatuses.size(); ++s) {
      if (requests_[e][s].load(std::memory_order_relaxed) == 0) continue;
      out += "lexlink_requests_total{endpoint=\"" + std::string(kEndpointNames[e]) +
             "\",status=\"" + std::to_string(kStatuses[s]) + "\"} " + get(requests_[e][s]) + "\n";
    }
  }
  out +=
      "# HELP lexlink_request_seconds Time from a request read to its answer ready.\n"
      "# TYPE lexlink_request_seconds histogram\n";
  for (std::size_t e = 0; e < kEndpoints; ++e) {
    const std::string label = "endpoint=\"" + std::string(kEndpointNames[e]) + "\"";
    std::uint64_t cumulative = 0;
    for (std::size_t b = 0; b <= kBuckets.size(); ++b) {
      cumulative += buckets_[e][b].load(std::memory_order_relaxed);
      const std::string le = b < kBuckets.size() ? number(kBuckets[b]) : "+Inf";
      out += "lexlink_request_seconds_bucket{" + label + ",le=\"" + le + "\"} " +
             std::to_string(cumulative) + "\n";
    }
    out += "lexlink_request_seconds_sum{" + label + "} " +
           number(static_cast<double>(latency_sum_us_[e].load(std::memory_order_relaxed)) / 1e6) +
           "\n";
    out += "lexlink_request_seconds_count{" + label + "} " + std::to_string(cumulative) + "\n";
  }
  out +=
      "# HELP lexlink_errors_total Error answers, by the code of their JSON.\n"
      "# TYPE lexlink_errors_total counter\n";
  for (std::size_t i = 0; i < kCodes.size(); ++i) {
    out +=
        "lexlink_errors_total{code=\"" + std::string(kCodes[i]) + "\"} " + get(errors_[i]) + "\n";
  }
  out +=
      "# HELP lexlink_request_body_bytes_total Bytes of request bodies read.\n"
      "# TYPE lexlink_request_body_bytes_total counter\n"
      "lexlink_request_body_bytes_total " +
      get(body_bytes_) + "\n";
  return out;
}

}  // namespace lexlink::service

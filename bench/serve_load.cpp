// serve_load: a load generator for `lexlink serve` on loopback. CLIENTS threads, each on one
// keep-alive connection (cpp-httplib's client), POST the paragraphs of a file (one per line,
// sent as {"text": ..., "jurisdiction": J}) to /v1/extract for SECONDS, in turn; then the
// latency of every request (from send to whole answer) is printed as p50, p90, p99 and max, with
// the requests per second and the non-200 answers (which must be zero).
//
//   serve_load PORT PARAGRAPHS_FILE CLIENTS SECONDS [JURISDICTION]
//
// bench/serve_bench.sh runs it against a server it starts, several times.
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> bodies(const char* path, const std::string& jurisdiction) {
  std::ifstream in(path);
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    nlohmann::json j;
    j["text"] = line;
    j["jurisdiction"] = jurisdiction;
    out.push_back(j.dump());
  }
  return out;
}

double quantile(std::vector<double>& v, double q) {
  const std::size_t k =
      std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: serve_load PORT PARAGRAPHS_FILE CLIENTS SECONDS [JURISDICTION]\n");
    return 2;
  }
  const int port = std::atoi(argv[1]);
  const auto requests = bodies(argv[2], argc > 5 ? argv[5] : "auto");
  const int clients = std::atoi(argv[3]);
  const double seconds = std::atof(argv[4]);
  if (requests.empty() || clients <= 0 || seconds <= 0) {
    std::fprintf(stderr, "serve_load: no paragraphs, clients or seconds\n");
    return 2;
  }
  std::mutex mutex;
  std::vector<double> latencies;
  std::atomic<std::uint64_t> failed{0}, bytes{0};
  const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                   std::chrono::duration<double>(seconds));
  std::vector<std::thread> threads;
  const Clock::time_point start = Clock::now();
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      httplib::Client client("127.0.0.1", port);
      client.set_keep_alive(true);
      client.set_tcp_nodelay(true);  // headers and body go in two writes: no Nagle wait
      std::vector<double> mine;
      for (std::size_t i = static_cast<std::size_t>(c); Clock::now() < end; ++i) {
        const std::string& body = requests[i % requests.size()];
        const Clock::time_point t = Clock::now();
        auto r = client.Post("/v1/extract", body, "application/json");
        mine.push_back(std::chrono::duration<double>(Clock::now() - t).count());
        if (!r || r->status != 200) {
          ++failed;
          std::fprintf(stderr, "serve_load: %s\n",
                       r ? ("status " + std::to_string(r->status)).c_str()
                         : httplib::to_string(r.error()).c_str());
        }
        bytes += body.size();
      }
      std::lock_guard<std::mutex> lock(mutex);
      latencies.insert(latencies.end(), mine.begin(), mine.end());
    });
  }
  for (auto& t : threads) t.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  const std::size_t n = latencies.size();
  const double p50 = quantile(latencies, 0.50), p90 = quantile(latencies, 0.90),
               p99 = quantile(latencies, 0.99);
  const double max = *std::max_element(latencies.begin(), latencies.end());
  std::printf(
      "{\"clients\":%d,\"requests\":%zu,\"failed\":%llu,\"seconds\":%.2f,\"per_second\":%.0f,"
      "\"mean_body_bytes\":%.0f,\"p50_ms\":%.3f,\"p90_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f}\n",
      clients, n, static_cast<unsigned long long>(failed.load()), elapsed,
      static_cast<double>(n) / elapsed, static_cast<double>(bytes.load()) / static_cast<double>(n),
      p50 * 1e3, p90 * 1e3, p99 * 1e3, max * 1e3);
  return failed == 0 ? 0 : 1;
}

// URN:LEX parse + validate throughput on the real names publishers linked
// (corpora/urn-names/*.txt, ~23,000 names; the strictly valid ones are timed).
// Target (issue 2): at least 2 million names per second per core.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "urn/normalize.h"
#include "urn/urn.h"

namespace {

const std::vector<std::string>& names() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> out;
    const std::string dir = std::string(LEXLINK_SOURCE_DIR) + "/corpora/urn-names";
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.path().extension() != ".txt") continue;
      std::ifstream in(e.path());
      std::string line;
      while (std::getline(in, line)) {
        if (lexlink::urn::validate(line)) out.push_back(line);
      }
    }
    // Check the answer before timing: the corpus is there and nearly all of it is valid.
    if (out.size() < 22000) {
      std::fprintf(stderr, "urn_bench: only %zu valid names in %s\n", out.size(), dir.c_str());
      std::exit(1);
    }
    return out;
  }();
  return all;
}

std::size_t total_bytes(const std::vector<std::string>& v) {
  std::size_t n = 0;
  for (const auto& s : v) n += s.size();
  return n;
}

void BM_Validate(benchmark::State& state) {
  const auto& v = names();
  std::size_t ok = 0;
  for (auto _ : state) {
    for (const auto& s : v) ok += lexlink::urn::validate(s);
  }
  if (ok != v.size() * static_cast<std::size_t>(state.iterations())) state.SkipWithError("invalid");
  state.SetItemsProcessed(static_cast<std::int64_t>(v.size()) * state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(total_bytes(v)) * state.iterations());
}
BENCHMARK(BM_Validate);

// Parse into a reused Urn: the tree is built, no allocation once buffers have grown.
void BM_ParseInto(benchmark::State& state) {
  const auto& v = names();
  lexlink::urn::Urn urn;
  std::size_t nodes = 0;
  for (auto _ : state) {
    for (const auto& s : v) {
      if (!lexlink::urn::parse_into(s, {}, urn, nullptr)) state.SkipWithError("invalid");
      nodes += urn.nodes().size();
    }
  }
  benchmark::DoNotOptimize(nodes);
  state.SetItemsProcessed(static_cast<std::int64_t>(v.size()) * state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(total_bytes(v)) * state.iterations());
}
BENCHMARK(BM_ParseInto);

// parse() returning a fresh Urn value each time (allocates its text and tree).
void BM_ParseValue(benchmark::State& state) {
  const auto& v = names();
  std::size_t nodes = 0;
  for (auto _ : state) {
    for (const auto& s : v) {
      auto r = lexlink::urn::parse(s);
      if (!r) state.SkipWithError("invalid");
      nodes += r->nodes().size();
    }
  }
  benchmark::DoNotOptimize(nodes);
  state.SetItemsProcessed(static_cast<std::int64_t>(v.size()) * state.iterations());
}
BENCHMARK(BM_ParseValue);

void BM_Normalize(benchmark::State& state) {
  const auto& v = names();
  std::size_t n = 0;
  for (auto _ : state) {
    for (const auto& s : v) {
      auto r = lexlink::urn::normalize(s);
      if (!r) state.SkipWithError("invalid");
      n += r->size();
    }
  }
  benchmark::DoNotOptimize(n);
  state.SetItemsProcessed(static_cast<std::int64_t>(v.size()) * state.iterations());
}
BENCHMARK(BM_Normalize);

}  // namespace

BENCHMARK_MAIN();

// Citation extraction throughput on the bundled corpora's plain text, repeated to ~32 MB:
// the library (views + extractor, no JSON), one thread. The answer is checked before timing:
// every round finds the same number of citations, and there are many.
// Target (issue 4): 150 MB/s per core end to end; see README "Benchmarks" for the measured figure.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "extract/extractor.h"
#include "text/view_builder.h"

namespace {

std::string corpus_text(const char* corpus, std::size_t target) {
  std::string one;
  const std::string dir = std::string(LEXLINK_SOURCE_DIR) + "/corpora/" + corpus + "/text";
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    one += ss.str();
    one += "\n\n";
  }
  std::string all;
  while (all.size() < target) all += one;
  return all;
}

std::size_t run(const lexlink::extract::Extractor& x, const std::string& text) {
  lexlink::text::ViewOptions vo;
  vo.format = lexlink::text::ViewOptions::FormatChoice::kText;
  lexlink::text::ViewBuilder builder(vo);
  auto session = x.start();
  std::vector<lexlink::extract::Citation> out;
  std::size_t n = 0;
  auto drain = [&] {
    while (auto chunk = builder.next()) {
      out.clear();
      if (!x.extract(*chunk, *session, out)) std::abort();
      n += out.size();
    }
  };
  for (std::size_t i = 0; i < text.size(); i += 1 << 20) {
    if (!builder.feed(std::string_view(text).substr(i, 1 << 20))) std::abort();
    drain();
  }
  if (!builder.finish()) std::abort();
  drain();
  return n;
}

void BM_Extract(benchmark::State& state, const char* grammar, const char* corpus) {
  lexlink::extract::ExtractorOptions o;
  o.data_dir = LEXLINK_SOURCE_DIR;
  o.grammars = {grammar};
  auto x = lexlink::extract::Extractor::load(o);
  if (!x) {
    state.SkipWithError(x.error().to_string().c_str());
    return;
  }
  const std::string text = corpus_text(corpus, 32u << 20);
  const std::size_t expected = run(**x, text);
  if (expected < 1000) {
    state.SkipWithError("too few citations: the corpus or the grammar is missing");
    return;
  }
  std::size_t citations = 0;
  for (auto _ : state) {
    const std::size_t n = run(**x, text);
    if (n != expected) state.SkipWithError("a different number of citations");
    citations += n;
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(text.size()) * state.iterations());
  state.counters["citations_per_second"] =
      benchmark::Counter(static_cast<double>(citations), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_Extract, it, "it", "it-normattiva-gazzetta-civica")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Extract, br, "br", "br-lexml-eta")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();

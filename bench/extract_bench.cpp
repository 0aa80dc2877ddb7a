// Citation extraction throughput on the bundled corpora's plain text, repeated to ~32 MB:
// the library (views + extractor, no JSON), one thread. The answer is checked before timing:
// every round finds the same number of citations, and there are many.
// Target (issue 4): 150 MB/s per core end to end; see README "Benchmarks" for the measured figure.
//
// Two of its stages alone over the same text, cut into pieces of about 4 KB at line ends (the
// extractor reads windows of a few hundred bytes to a chunk; in these texts they cover 97-99% of
// the bytes): BM_Tokenize (the tokenizer with the grammar's word ids, as the unit builder calls
// it) and BM_BuildUnits (tokens, word ids and units: the unit builder whole). What is left of
// BM_Extract's time is the view, the trigger scan, the rule automata and the citations.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "extract/extractor.h"
#include "extract/unit_builder.h"
#include "grammar/grammar.h"
#include "lexicon/lexicon.h"
#include "lexicon/tokenizer.h"
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
// [begin, end) pieces of `text` of about 4 KB, each ending after a line break (or at the end).
std::vector<std::pair<std::size_t, std::size_t>> pieces(const std::string& text) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', std::min(text.size(), at + 4096));
    end = end == std::string::npos ? text.size() : end + 1;
    out.emplace_back(at, end);
    at = end;
  }
  return out;
}

// `stage(grammar, text, pieces)` returns a count checked to be the same every round.
template <class Stage>
void run_stage(benchmark::State& state, const char* grammar, const char* corpus, Stage stage) {
  auto g = lexlink::grammar::Grammar::load(LEXLINK_SOURCE_DIR, grammar);
  if (!g) {
    state.SkipWithError(g.error().to_string().c_str());
    return;
  }
  const std::string text = corpus_text(corpus, 32u << 20);
  const auto cut = pieces(text);
  const std::size_t expected = stage(*g, text, cut);
  if (expected < text.size() / 16) {
    state.SkipWithError("too few tokens: the corpus is missing");
    return;
  }
  for (auto _ : state) {
    if (stage(*g, text, cut) != expected) state.SkipWithError("a different number of tokens");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(text.size()) * state.iterations());
}

void BM_Tokenize(benchmark::State& state, const char* grammar, const char* corpus) {
  lexlink::lexicon::Tokens tokens;
  lexlink::PodVector<std::uint32_t> ids;
  std::vector<std::uint32_t> line_starts;
  run_stage(state, grammar, corpus,
            [&](const lexlink::grammar::Grammar& g, const std::string& text,
                const std::vector<std::pair<std::size_t, std::size_t>>& cut) {
              std::size_t n = 0;
              for (const auto& [lo, hi] : cut) {
                tokens.clear();
                ids.clear();
                line_starts.clear();
                lexlink::lexicon::tokenize(std::string_view(text).substr(lo, hi - lo), tokens,
                                           static_cast<std::uint32_t>(lo), g.lexicon().words(), ids,
                                           line_starts);
                n += tokens.tokens.size();
              }
              return n;
            });
}

void BM_BuildUnits(benchmark::State& state, const char* grammar, const char* corpus) {
  lexlink::extract::UnitText units;
  lexlink::PodVector<std::uint32_t> ids;
  const std::vector<std::uint64_t> no_breaks;
  run_stage(state, grammar, corpus,
            [&](const lexlink::grammar::Grammar& g, const std::string& text,
                const std::vector<std::pair<std::size_t, std::size_t>>& cut) {
              std::size_t n = 0;
              for (const auto& piece : cut) {
                lexlink::extract::build_units(g, text, {piece}, no_breaks, {}, units, ids);
                n += units.tokens.tokens.size();
              }
              return n;
            });
}

BENCHMARK_CAPTURE(BM_Extract, it, "it", "it-normattiva-gazzetta-civica")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Extract, br, "br", "br-lexml-eta")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Tokenize, it, "it", "it-normattiva-gazzetta-civica")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Tokenize, br, "br", "br-lexml-eta")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BuildUnits, it, "it", "it-normattiva-gazzetta-civica")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BuildUnits, br, "br", "br-lexml-eta")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

// Rewriter throughput. Target (issue 3): splicing at memory speed.
// - BM_Memcpy: copying the document once, the physical reference.
// - BM_Splice: the original bytes with one link every ~2 KB spliced in, into a preallocated
//   output (what markup does per view chunk once the links are planned).
// - BM_RewriteChunk: planning (snapping, zones, balance, escaping) + splicing, on a real HTML
//   view of the same density (the view is built once, outside the timing).
// - BM_Unmark: removing the links again, streamed in 1 MiB pieces.
// Every benchmark checks its answer before timing: the spliced output unmarks to the input.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "rewrite/rewriter.h"
#include "rewrite/splice.h"
#include "rewrite/unmark.h"
#include "text/view_builder.h"

namespace {

using namespace lexlink;

constexpr std::size_t kDocBytes = 64u << 20;
constexpr std::size_t kEvery = 2048;  // one link per ~2 KB of document

void die(const char* what) {
  std::fprintf(stderr, "rewrite_bench: %s\n", what);
  std::exit(1);
}

// An HTML document of `bytes` bytes: paragraphs with inline markup, entities and citations.
const std::string& document(std::size_t bytes) {
  static std::string doc;
  if (doc.size() >= bytes) return doc;
  const std::string para =
      "<p>Visto l'art. 5 della <b>legge 3 aprile 2000</b>, n.&nbsp;56, e il decreto legislativo "
      "30 marzo 2001, n. 165, recante norme generali sull'ordinamento del lavoro alle "
      "dipendenze delle amministrazioni pubbliche; sentito il parere del Consiglio di Stato.</p>\n";
  doc.clear();
  doc.reserve(bytes + para.size());
  while (doc.size() < bytes) doc += para;
  return doc;
}

// Insertions at character boundaries every ~kEvery bytes (at a '<' so they are between tags).
const rewrite::Insertions& insertions() {
  static rewrite::Insertions ins = [] {
    rewrite::Insertions out;
    const std::string& doc = document(kDocBytes);
    const std::string open =
        "<a data-lexlink=\"\" href=\"urn:lex:it:stato:legge:2000-04-03;56~art5\" "
        "data-urn=\"urn:lex:it:stato:legge:2000-04-03;56~art5\">";
    for (std::size_t at = doc.find("<p>", kEvery); at != std::string::npos;
         at = doc.find("<p>", at + kEvery)) {
      const std::size_t end = doc.find("</p>", at);
      out.add(at + 3, open);
      out.add(end, "</a>");
    }
    return out;
  }();
  return ins;
}

class BufferSink final : public io::Sink {
 public:
  explicit BufferSink(std::size_t capacity) { buf_.reserve(capacity); }
  Status write(std::string_view bytes) override {
    buf_.append(bytes);
    return Status::Ok();
  }
  void reset() { buf_.clear(); }
  const std::string& bytes() const { return buf_; }

 private:
  std::string buf_;
};

void BM_Memcpy(benchmark::State& state) {
  const std::string& doc = document(kDocBytes);
  std::string out(doc.size(), '\0');
  for (auto _ : state) {
    std::memcpy(out.data(), doc.data(), doc.size());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(doc.size()) * state.iterations());
}
BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond);

void BM_Splice(benchmark::State& state) {
  const std::string& doc = document(kDocBytes);
  const rewrite::Insertions& ins = insertions();
  BufferSink sink(doc.size() * 2);
  // Check the answer first.
  if (!rewrite::splice(doc, 0, ins, sink).ok()) die("splice failed");
  if (rewrite::unmark(sink.bytes()) != doc) die("unmark(splice(x)) != x");
  for (auto _ : state) {
    sink.reset();
    if (!rewrite::splice(doc, 0, ins, sink).ok()) state.SkipWithError("splice failed");
    benchmark::DoNotOptimize(sink.bytes().data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(doc.size()) * state.iterations());
  state.counters["links"] = static_cast<double>(ins.size() / 2);
}
BENCHMARK(BM_Splice)->Unit(benchmark::kMillisecond);

void BM_RewriteChunk(benchmark::State& state) {
  const std::string doc = document(kDocBytes).substr(0, 8u << 20);
  text::ViewOptions vo;
  vo.format = text::ViewOptions::FormatChoice::kHtml;
  auto view = text::make_view(doc, vo);
  if (!view) die("no view");
  // One citation per ~2 KB: "art. 5 della legge 3 aprile 2000, n. 56" (crosses <b>, an entity).
  std::vector<rewrite::Request> requests;
  const std::string cited =
      "art. 5 della legge 3 aprile 2000, n.\xC2\xA0"
      "56";
  for (std::size_t at = view->text.find(cited); at != std::string::npos;
       at = view->text.find(cited, at + kEvery)) {
    rewrite::Request r;
    r.text = rewrite::Span{at, at + cited.size()};
    r.urn = "urn:lex:it:stato:legge:2000-04-03;56~art5";
    requests.push_back(std::move(r));
  }
  rewrite::RewriteOptions options;
  options.profile = rewrite::Profile::kHtml;
  BufferSink sink(doc.size() * 2);
  {
    rewrite::Rewriter rw(options, sink);
    std::vector<rewrite::Outcome> outcomes;
    if (!rw.rewrite(*view, requests, outcomes).ok()) die("rewrite failed");
    for (const auto& o : outcomes) {
      if (!o.linked) die("a citation was not linked");
    }
    if (rewrite::unmark(sink.bytes()) != doc) die("unmark(markup(x)) != x");
  }
  for (auto _ : state) {
    sink.reset();
    rewrite::Rewriter rw(options, sink);
    std::vector<rewrite::Outcome> outcomes;
    outcomes.reserve(requests.size());
    if (!rw.rewrite(*view, requests, outcomes).ok()) state.SkipWithError("rewrite failed");
    benchmark::DoNotOptimize(sink.bytes().data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(doc.size()) * state.iterations());
  state.counters["links"] = static_cast<double>(requests.size());
}
BENCHMARK(BM_RewriteChunk)->Unit(benchmark::kMillisecond);

void BM_Unmark(benchmark::State& state) {
  const std::string& doc = document(kDocBytes);
  BufferSink marked(doc.size() * 2);
  if (!rewrite::splice(doc, 0, insertions(), marked).ok()) die("splice failed");
  BufferSink sink(doc.size());
  {
    rewrite::Unmarker u(sink);
    for (std::size_t i = 0; i < marked.bytes().size(); i += 1 << 20) {
      (void)u.feed(std::string_view(marked.bytes()).substr(i, 1 << 20));
    }
    (void)u.finish();
    if (sink.bytes() != doc) die("unmark in pieces != x");
  }
  for (auto _ : state) {
    sink.reset();
    rewrite::Unmarker u(sink);
    for (std::size_t i = 0; i < marked.bytes().size(); i += 1 << 20) {
      (void)u.feed(std::string_view(marked.bytes()).substr(i, 1 << 20));
    }
    (void)u.finish();
    benchmark::DoNotOptimize(sink.bytes().data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(marked.bytes().size()) * state.iterations());
}
BENCHMARK(BM_Unmark)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

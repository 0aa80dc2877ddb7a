// Text view building throughput on the project's corpus documents, repeated to ~32 MB:
// plain UTF-8 text (the views' text of the Normattiva pages), HTML (the Normattiva pages),
// XML (CLML and Akoma Ntoso documents, their root's content repeated inside one root).
// Targets (issue 3): >= 1 GB/s per core for plain UTF-8, >= 400 MB/s for HTML and XML.
// Each input's view is checked before timing (format, profile, warnings, pieces tiling the
// text, the number of link zones).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "text/view_builder.h"

namespace {

using lexlink::text::Format;
using lexlink::text::TextView;
using lexlink::text::ViewOptions;

constexpr std::size_t kTargetBytes = 32u << 20;

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "text_bench: %s\n", why.c_str());
  std::exit(1);
}

std::vector<std::string> read_folder(const std::string& folder, const std::string& ext) {
  std::vector<std::string> out;
  const std::string dir = std::string(LEXLINK_SOURCE_DIR) + "/corpora/" + folder + "/raw";
  std::vector<std::filesystem::path> paths;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ext && e.path().filename() != "LICENSE.md")
      paths.push_back(e.path());
  }
  std::sort(paths.begin(), paths.end());
  for (const auto& p : paths) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    out.push_back(s.str());
  }
  if (out.empty()) die("no document in " + dir);
  return out;
}

TextView view_of(const std::string& doc, ViewOptions o = {}) {
  auto v = lexlink::text::make_view(doc, o);
  if (!v) die(v.error().message);
  return std::move(*v);
}

// The answer check: pieces tile the text, no warning, the expected format and profile.
void check(const TextView& v, Format format, const std::string& profile) {
  if (v.format != format || v.xml_profile != profile || !v.warnings.empty()) {
    die("unexpected format, profile or warnings");
  }
  std::uint64_t t = v.text_begin;
  for (const auto& p : v.map.pieces()) {
    if (p.text_begin != t) die("pieces do not tile the text");
    t += p.text_len;
  }
  if (t != v.text.size()) die("pieces do not cover the text");
}

struct Input {
  std::string doc;
  std::size_t zones = 0;  // expected link zones
};

// Documents concatenated (HTML, text) until kTargetBytes.
Input repeat_concat(const std::vector<std::string>& docs, Format format) {
  Input in;
  std::size_t zones_once = 0;
  std::string once;
  for (const auto& d : docs) {
    once += d;
    once += '\n';
    zones_once += view_of(d).no_link.size();
  }
  std::size_t reps = 0;
  while (in.doc.size() < kTargetBytes) {
    in.doc += once;
    ++reps;
  }
  in.zones = format == Format::kHtml ? zones_once * reps : 0;
  return in;
}

// XML: the first document's root start tag, then every document's root content, repeated,
// then the root end tag.
Input repeat_xml(const std::vector<std::string>& docs) {
  auto root_bounds = [](const std::string& d, std::size_t& content_begin, std::size_t& content_end,
                        std::string& start_tag, std::string& end_tag) {
    std::size_t i = 0;
    while (true) {
      i = d.find('<', i);
      if (i == std::string::npos) die("no root element");
      if (d[i + 1] != '?' && d[i + 1] != '!') break;
      i = d.find('>', i) + 1;
    }
    const std::size_t gt = d.find('>', i);
    start_tag = d.substr(i, gt + 1 - i);
    content_begin = gt + 1;
    content_end = d.rfind("</");
    end_tag = d.substr(content_end, d.find('>', content_end) + 1 - content_end);
  };
  std::string start, end, body;
  std::size_t zones_once = 0;
  for (std::size_t k = 0; k < docs.size(); ++k) {
    std::size_t b = 0, e = 0;
    std::string s, t;
    root_bounds(docs[k], b, e, s, t);
    if (k == 0) {
      start = s;
      end = t;
    }
    body += docs[k].substr(b, e - b);
    zones_once += view_of(docs[k]).no_link.size();
  }
  Input in;
  in.doc = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + start;
  std::size_t reps = 0;
  while (in.doc.size() < kTargetBytes) {
    in.doc += body;
    ++reps;
  }
  in.doc += end;
  in.zones = zones_once * reps;
  return in;
}

const Input& plain_input() {
  static const Input in = [] {
    std::vector<std::string> texts;
    for (const auto& d : read_folder("it-normattiva-gazzetta-civica", ".md")) {
      texts.push_back(view_of(d).text);
    }
    Input i = repeat_concat(texts, Format::kText);
    ViewOptions o;
    o.format = ViewOptions::FormatChoice::kText;
    check(view_of(i.doc, o), Format::kText, "");
    return i;
  }();
  return in;
}

const Input& html_input() {
  static const Input in = [] {
    Input i = repeat_concat(read_folder("it-normattiva-gazzetta-civica", ".md"), Format::kHtml);
    const TextView v = view_of(i.doc);
    check(v, Format::kHtml, "");
    if (v.no_link.size() != i.zones) die("HTML: wrong number of link zones");
    return i;
  }();
  return in;
}

const Input& xml_input(const std::string& folder, const std::string& profile) {
  static std::map<std::string, Input> cache;
  auto it = cache.find(folder);
  if (it != cache.end()) return it->second;
  Input i = repeat_xml(read_folder(folder, ".xml"));
  const TextView v = view_of(i.doc);
  check(v, Format::kXml, profile);
  if (v.no_link.size() != i.zones) die(folder + ": wrong number of link zones");
  return cache.emplace(folder, std::move(i)).first->second;
}

void run_make_view(benchmark::State& state, const Input& in, ViewOptions o) {
  std::size_t text = 0;
  for (auto _ : state) {
    auto v = lexlink::text::make_view(in.doc, o);
    if (!v) state.SkipWithError("make_view failed");
    text += v->text.size();
  }
  benchmark::DoNotOptimize(text);
  state.SetBytesProcessed(static_cast<std::int64_t>(in.doc.size()) * state.iterations());
}

// Streamed: fed 1 MB at a time, default 4 MB chunks, each chunk dropped once built.
void run_stream(benchmark::State& state, const Input& in, ViewOptions o) {
  const std::size_t expected = view_of(in.doc, o).text.size();  // the answer: same text
  std::size_t text = 0;
  for (auto _ : state) {
    lexlink::text::ViewBuilder b(o);
    std::string_view rest = in.doc;
    while (!rest.empty()) {
      const std::size_t n = std::min<std::size_t>(rest.size(), 1u << 20);
      if (!b.feed(rest.substr(0, n))) state.SkipWithError("feed failed");
      rest.remove_prefix(n);
      while (auto c = b.next()) text += c->text.size();
    }
    if (!b.finish()) state.SkipWithError("finish failed");
    while (auto c = b.next()) text += c->text.size();
  }
  if (text != expected * static_cast<std::size_t>(state.iterations())) {
    state.SkipWithError("the streamed view's text differs in size from make_view's");
  }
  benchmark::DoNotOptimize(text);
  state.SetBytesProcessed(static_cast<std::int64_t>(in.doc.size()) * state.iterations());
}

ViewOptions text_options() {
  ViewOptions o;
  o.format = ViewOptions::FormatChoice::kText;
  return o;
}

void BM_PlainUtf8_MakeView(benchmark::State& s) {
  run_make_view(s, plain_input(), text_options());
}
void BM_PlainUtf8_Stream(benchmark::State& s) {
  run_stream(s, plain_input(), text_options());
}
void BM_Html_MakeView(benchmark::State& s) {
  run_make_view(s, html_input(), {});
}
void BM_Html_Stream(benchmark::State& s) {
  run_stream(s, html_input(), {});
}
void BM_Xml_Clml(benchmark::State& s) {
  run_make_view(s, xml_input("uk-clml", "clml"), {});
}
void BM_Xml_Akn(benchmark::State& s) {
  run_make_view(s, xml_input("za-laws-africa-bylaws", "akn"), {});
}
void BM_Xml_Clml_Stream(benchmark::State& s) {
  run_stream(s, xml_input("uk-clml", "clml"), {});
}
void BM_Xml_Akn_Stream(benchmark::State& s) {
  run_stream(s, xml_input("za-laws-africa-bylaws", "akn"), {});
}

BENCHMARK(BM_PlainUtf8_MakeView)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlainUtf8_Stream)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Html_MakeView)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Html_Stream)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Xml_Clml)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Xml_Akn)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Xml_Clml_Stream)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Xml_Akn_Stream)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

// libFuzzer target: the extractor (extractor/extract/) on arbitrary text, with every grammar
// loaded ({"auto"}) and with each grammar alone, each with both engines: triggers and rule
// matches by Hyperscan and SymbolDfa (the fast path) and by RE2 (the reference). The extractors
// are loaded once (LLVMFuzzerInitialize; the trigger databases cached under the build folder).
// The first input byte chooses the grammars (bits 0-2: auto, or the n-th folder of grammars/),
// the format (bits 3-4: text, HTML, auto, text) and whether the document comes in pieces of 61
// bytes (bit 5); the rest is the document. Checks: no crash, leak or hang; the two engines give
// identical citations; every citation's URN parses (urn::validate with allow_unnumbered), is
// its work plus an optional "~partition" and names its jurisdiction; its spans lie inside the
// input (original bytes, code points) and the view's text, its text is that of its text span,
// and the citations of a chunk come sorted by start.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "extract/extractor.h"
#include "fuzz/fuzz_data.h"
#include "text/view_builder.h"
#include "urn/urn.h"

namespace {

using namespace lexlink;
using test::die;

constexpr const char* kTarget = "extract_fuzz";

struct Pair {
  std::string grammar;
  std::shared_ptr<const extract::Extractor> hyperscan, re2;
};
std::vector<Pair> g_extractors;  // [0]: auto, then one per grammar

std::shared_ptr<const extract::Extractor> load(const std::string& grammar, scan::Engine engine) {
  extract::ExtractorOptions o;
  o.data_dir = test::source_dir();
  o.grammars = {grammar};
  o.engine = engine;
  o.cache_dir = LEXLINK_FUZZ_CACHE_DIR;
  auto x = extract::Extractor::load(o);
  if (!x) die(kTarget, grammar + ": " + x.error().to_string());
  return std::move(*x);
}

std::string line(const extract::Citation& c) {
  return std::to_string(c.start) + "-" + std::to_string(c.end) + " " +
         std::to_string(c.char_start) + "-" + std::to_string(c.char_end) + " " +
         std::to_string(c.text_begin) + "-" + std::to_string(c.text_end) + " " + c.urn + " " +
         c.work + " " + c.jurisdiction + " " + c.rule + (c.complete ? " complete" : " partial") +
         (c.inner ? " inner" : "") + " [" + c.text + "]";
}

struct Read {
  std::vector<std::string> lines;
  std::uint64_t text_bytes = 0;  // the view's text, all chunks
};

void check_citation(const extract::Citation& c, const text::TextView& chunk, std::string_view doc) {
  const std::string l = line(c);
  if (!urn::validate(c.urn, urn::ParseOptions{.allow_unnumbered = true})) {
    die(kTarget, "a citation's URN does not validate: " + l);
  }
  if (c.urn != c.work && c.urn.rfind(c.work + "~", 0) != 0) {
    die(kTarget, "the URN is not the work plus a partition: " + l);
  }
  const std::string jur = "urn:lex:" + c.jurisdiction;
  if (c.jurisdiction.empty() || c.urn.rfind(jur, 0) != 0 ||
      (c.urn[jur.size()] != ':' && c.urn[jur.size()] != ';')) {
    die(kTarget, "the jurisdiction is not the URN's: " + l);
  }
  if (c.start > c.end || c.end > doc.size() || c.char_start > c.char_end || c.char_end > c.end ||
      c.text_begin > c.text_end || c.text_begin < chunk.text_begin ||
      c.text_end > chunk.text_begin + chunk.text.size()) {
    die(kTarget, "a span outside the input or the chunk: " + l);
  }
  if (chunk.text_at(c.text_begin, c.text_end) != c.text) {
    die(kTarget, "the citation's text is not that of its span: " + l);
  }
}

Read read(const extract::Extractor& x, const text::ViewOptions& options, std::string_view doc,
          std::size_t piece) {
  text::ViewBuilder builder(options);
  auto session = x.start();
  Read r;
  std::vector<extract::Citation> out;
  auto drain = [&] {
    while (auto chunk = builder.next()) {
      r.text_bytes += chunk->text.size();
      out.clear();
      if (Status s = x.extract(*chunk, *session, out); !s) die(kTarget, s.error().to_string());
      for (std::size_t i = 0; i < out.size(); ++i) {
        check_citation(out[i], *chunk, doc);
        if (i > 0 && out[i].start < out[i - 1].start) {
          die(kTarget, "citations not sorted by start: " + line(out[i - 1]) + " | " + line(out[i]));
        }
        r.lines.push_back(line(out[i]));
      }
    }
  };
  for (std::size_t at = 0; at < doc.size(); at += piece) {
    if (Status s = builder.feed(doc.substr(at, piece)); !s) die(kTarget, s.error().to_string());
    drain();
  }
  if (Status s = builder.finish(); !s) die(kTarget, s.error().to_string());
  drain();
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  namespace fs = std::filesystem;
  std::vector<std::string> grammars;
  for (const auto& e : fs::directory_iterator(test::source_dir() + "/grammars")) {
    if (e.is_directory()) grammars.push_back(e.path().filename().string());
  }
  std::sort(grammars.begin(), grammars.end());
  if (grammars.empty() || grammars.size() > 7) die(kTarget, "expected 1 to 7 grammars");
  grammars.insert(grammars.begin(), "auto");
  for (const std::string& g : grammars) {
    g_extractors.push_back(Pair{g, load(g, scan::Engine::kHyperscan), load(g, scan::Engine::kRe2)});
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t control = data[0];
  const std::string_view doc(reinterpret_cast<const char*>(data + 1), size - 1);
  const Pair& pair = g_extractors[(control & 7) % g_extractors.size()];
  text::ViewOptions options;
  using FC = text::ViewOptions::FormatChoice;
  static constexpr FC kFormats[] = {FC::kText, FC::kHtml, FC::kAuto, FC::kText};
  options.format = kFormats[(control >> 3) & 3];
  options.first_chunk_text_bytes = extract::kChoiceTextBytes;
  options.cut_advisor = pair.hyperscan->cut_advisor();
  const std::size_t piece = (control & 32) != 0 ? 61 : doc.size() + 1;
  const Read fast = read(*pair.hyperscan, options, doc, piece);
  const Read slow = read(*pair.re2, options, doc, piece);
  if (fast.lines != slow.lines) {
    std::string diff = pair.grammar + ": Hyperscan gives " + std::to_string(fast.lines.size()) +
                       " citations, RE2 " + std::to_string(slow.lines.size());
    for (const auto& l : fast.lines) diff += "\n  hs:  " + l;
    for (const auto& l : slow.lines) diff += "\n  re2: " + l;
    die(kTarget, "the engines disagree: " + diff);
  }
  return 0;
}

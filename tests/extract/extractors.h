// tests/extract/extractors: the extractor of one grammar from the source tree's data (no trigger
// cache), loaded once per test binary and shared by the table-driven extract tests (or loaded
// anew: load_extractor), and the citations of one text read with it in a session of its own.
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "extract/extractor.h"
#include "text/view_builder.h"

namespace lexlink::test {

// A new extractor of `grammar` (the tests that need one of their own), scanning with `engine`.
inline std::shared_ptr<const extract::Extractor> load_extractor(
    const std::string& grammar, scan::Engine engine = scan::Engine::kHyperscan) {
  extract::ExtractorOptions o;
  o.data_dir = LEXLINK_SOURCE_DIR;
  o.grammars = {grammar};
  o.cache_dir = "-";
  o.engine = engine;
  auto x = extract::Extractor::load(o);
  if (!x) FAIL(x.error().to_string());
  return std::move(*x);
}

inline const extract::Extractor& extractor_for(const std::string& grammar) {
  static std::map<std::string, std::shared_ptr<const extract::Extractor>> loaded;
  auto it = loaded.find(grammar);
  if (it == loaded.end()) it = loaded.emplace(grammar, load_extractor(grammar)).first;
  return *it->second;
}

// The citations of `text` (plain text, or HTML) read by `x` in a new session named `self`.
inline std::vector<extract::Citation> citations_of(const extract::Extractor& x,
                                                   const std::string& text,
                                                   const std::string& self = {},
                                                   bool html = false) {
  text::ViewOptions vo;
  vo.format =
      html ? text::ViewOptions::FormatChoice::kHtml : text::ViewOptions::FormatChoice::kText;
  auto view = text::make_view(text, vo);
  REQUIRE(view);
  auto session = x.start(self);
  std::vector<extract::Citation> got;
  REQUIRE(x.extract(*view, *session, got));
  return got;
}

}  // namespace lexlink::test

// tests/extract/extractors: the extractor of one grammar from the source tree's data (no trigger
// cache), loaded once per test binary and shared by the table-driven extract tests.
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <string>

#include "extract/extractor.h"

namespace lexlink::test {

inline const extract::Extractor& extractor_for(const std::string& grammar) {
  static std::map<std::string, std::shared_ptr<const extract::Extractor>> loaded;
  auto it = loaded.find(grammar);
  if (it == loaded.end()) {
    extract::ExtractorOptions o;
    o.data_dir = LEXLINK_SOURCE_DIR;
    o.grammars = {grammar};
    o.cache_dir = "-";
    auto x = extract::Extractor::load(o);
    if (!x) FAIL(x.error().to_string());
    it = loaded.emplace(grammar, std::move(*x)).first;
  }
  return *it->second;
}

}  // namespace lexlink::test

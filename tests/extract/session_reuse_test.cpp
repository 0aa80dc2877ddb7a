// An extractor hands a finished session's state to the next session (its scratch and its caches
// of what depends on the text alone): nothing of one document may show in the next. Every
// bundled document of a jurisdiction gives the same citations read by a fresh extractor, first,
// and read after all the others, in both orders, with sessions ending between documents.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "extract/extractor.h"
#include "extract/extractors.h"
#include "support/test_support.h"

using namespace lexlink;

namespace {

// The citations of `text` in one session, one line each (offsets, rule, name).
std::string citations(const extract::Extractor& x, const std::string& text) {
  std::string out;
  for (const auto& c : test::citations_of(x, text)) {
    out += std::to_string(c.start) + " " + std::to_string(c.end) + " " + c.rule + " " + c.urn +
           (c.complete ? "" : " partial") + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("a session leaves nothing of its document to the next", "[extract]") {
  for (const auto& [grammar, folder] : std::vector<std::pair<std::string, std::string>>{
           {"it", "it-normattiva-gazzetta-civica"}, {"br", "br-lexml-eta"}}) {
    std::vector<std::string> texts;
    for (const auto& f : test::corpus_texts(folder)) texts.push_back(test::read_file(f));
    REQUIRE(texts.size() >= 4);
    std::vector<std::string> alone;  // each document read by an extractor of its own
    for (const std::string& t : texts)
      alone.push_back(citations(*test::load_extractor(grammar), t));
    const auto x = test::load_extractor(grammar);
    for (int order = 0; order < 2; ++order) {
      for (std::size_t k = 0; k < texts.size(); ++k) {
        const std::size_t i = order == 0 ? k : texts.size() - 1 - k;
        INFO(grammar << " document " << i << (order == 0 ? " forward" : " backward"));
        CHECK(citations(*x, texts[i]) == alone[i]);
      }
    }
    // A document that points back ("della medesima legge") right after one that cites an act.
    if (grammar == "it") {
      const std::string cites = "Vista la legge 7 agosto 1990, n. 241.\n";
      const std::string back = "Visto l'articolo 3 della medesima legge.\n";
      const std::string fresh = citations(*test::load_extractor(grammar), back);
      CHECK(citations(*x, cites) != "");
      CHECK(citations(*x, back) == fresh);
    }
    // A session still open while another starts and ends: the two states are distinct.
    auto first = x->start();
    CHECK(citations(*x, texts[0]) == alone[0]);
    first.reset();
    CHECK(citations(*x, texts[1]) == alone[1]);
  }
}

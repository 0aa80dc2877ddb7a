// Line breaks under `line-break = paragraph`: a text whose lines are its elements keeps each
// citation on one line; a hard-wrapped text, and HTML whose source lines are wrapped inside a
// paragraph, have their citations read across the wrap
// (tests/data/extract/line-breaks.tsv), and so does a hard-wrapped copy of every bundled Italian
// document, which gives the names the document gives unwrapped.
#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "extract/extractor.h"
#include "extract/extractors.h"
#include "support/test_support.h"

using namespace lexlink;

namespace {

// The names found in `text` (plain text, or HTML), separated by " ; ".
std::string names(const extract::Extractor& x, const std::string& text, bool html = false) {
  std::string urns;
  for (const auto& c : test::citations_of(x, text, {}, html))
    urns += (urns.empty() ? "" : " ; ") + c.urn;
  return urns;
}

// `text` wrapped at `width` bytes as `fold -s` does: each line broken after its last space.
std::string hard_wrap(const std::string& text, std::size_t width) {
  std::string out;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '\n') {
      line_start = out.size();
      continue;
    }
    if (out.size() - line_start >= width) {
      const std::size_t space = out.rfind(' ', out.size() - 1);
      if (space != std::string::npos && space > line_start) {
        out[space] = '\n';
        line_start = space + 1;
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("line breaks end citations only where lines are elements", "[extract]") {
  const auto table = test::load_table("tests/data/extract/line-breaks.tsv",
                                      {"case", "grammar", "file", "expected"});
  REQUIRE(table.rows().size() >= 2);
  for (const auto& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[0]);
    const std::string grammar(row.fields[1]);
    const std::string text =
        test::read_file(std::filesystem::path(LEXLINK_SOURCE_DIR) / "tests" / "data" / "extract" /
                        "line-breaks" / std::string(row.fields[2]));
    REQUIRE(!text.empty());
    const std::string file(row.fields[2]);
    const bool html = file.size() > 5 && file.compare(file.size() - 5, 5, ".html") == 0;
    CHECK(names(test::extractor_for(grammar), text, html) == std::string(row.fields[3]));
  }
}

TEST_CASE("a hard-wrapped document gives the names it gives unwrapped", "[extract]") {
  const extract::Extractor& x = test::extractor_for("it");
  auto split = [](const std::string& joined) {
    std::multiset<std::string> out;
    for (std::size_t at = 0; at < joined.size();) {
      const std::size_t sep = joined.find(" ; ", at);
      out.insert(joined.substr(at, sep == std::string::npos ? std::string::npos : sep - at));
      if (sep == std::string::npos) break;
      at = sep + 3;
    }
    return out;
  };
  std::size_t documents = 0, names_read = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::filesystem::path(LEXLINK_SOURCE_DIR) / "corpora" /
                                           "it-normattiva-gazzetta-civica" / "text")) {
    const std::string text = test::read_file(e.path());
    INFO(e.path().filename().string());
    const auto whole = split(names(x, text));
    const auto wrapped = split(names(x, hard_wrap(text, 78)));
    // Every name read unwrapped is read wrapped (wrapped, the document's title is longer than its
    // first line, and only that line is the unlinked title: a wrapped title may give more).
    for (const std::string& n : whole) {
      INFO(n);
      CHECK(wrapped.count(n) >= whole.count(n));
    }
    names_read += whole.size();
    ++documents;
  }
  CHECK(documents >= 8);
  CHECK(names_read >= 500);
}

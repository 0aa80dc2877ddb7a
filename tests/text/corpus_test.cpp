// Real documents of corpora/ (Normattiva HTML, legislation.gov.uk CLML, Laws.Africa Akoma
// Ntoso): every guarantee of the views holds, whole and streamed in small chunks; the format and
// profile are detected; and every citation the publisher linked (gold.tsv) reads in the view's
// text and is exactly the text of one of its no-link zones (the publisher's link).
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>

#include "support/test_support.h"
#include "text/text_test_util.h"
#include "text/view_builder.h"
#include "text/view_check.h"

using namespace lexlink;
using namespace lexlink::test;

namespace {

struct Folder {
  const char* name;
  text::Format format;
  const char* profile;
};

constexpr Folder kFolders[] = {
    {"it-normattiva-gazzetta-civica", text::Format::kHtml, ""},
    {"uk-clml", text::Format::kXml, "clml"},
    {"za-laws-africa-bylaws", text::Format::kXml, "akn"},
};

}  // namespace

TEST_CASE("corpus documents: view guarantees and the publishers' links", "[text][corpus]") {
  std::size_t documents = 0, gold_rows = 0;
  for (const Folder& folder : kFolders) {
    const std::string dir = data_path(std::string("corpora/") + folder.name);
    const TsvFile gold = load_table(std::string("corpora/") + folder.name + "/gold.tsv",
                                    {"doc_id", "char_start", "char_end", "cited_text", "urn",
                                     "publisher_identifier", "publisher_extra"});
    std::map<std::string, std::vector<std::string>> cited;
    for (const TsvRow& row : gold.rows()) {
      cited[std::string(row.fields[0])].push_back(collapse_spaces(unescape(row.fields[3])));
    }
    for (const auto& entry : std::filesystem::directory_iterator(dir + "/raw")) {
      const std::string file = entry.path().filename().string();
      if (file == "LICENSE.md") continue;
      const std::string doc_id = entry.path().stem().string();
      INFO(folder.name << "/" << file);
      ++documents;
      const std::string doc = read_bytes(entry.path().string());
      auto view = text::make_view(doc);
      if (!view) FAIL(view.error().message);
      const auto violations = check_chunks(doc, {*view});
      for (const auto& v : violations) UNSCOPED_INFO(v);
      REQUIRE(violations.empty());
      CHECK(view->format == folder.format);
      CHECK(view->xml_profile == folder.profile);
      CHECK(view->encoding == text::Encoding::kUtf8);
      CHECK(view->warnings.empty());

      // Streamed in 4 KB chunks, fed 1000 bytes at a time: the same text.
      text::ViewOptions o;
      o.chunk_bytes = 4096;
      std::string error;
      const auto chunks = build_chunks(doc, o, 1000, &error);
      REQUIRE(error.empty());
      const auto streamed = check_chunks(doc, chunks);
      for (const auto& v : streamed) UNSCOPED_INFO(v);
      REQUIRE(streamed.empty());
      CHECK(chunks.size() > doc.size() / (2 * o.chunk_bytes));
      std::string text;
      for (const auto& c : chunks) text += c.text;
      CHECK(text == view->text);

      // The publisher's links.
      const std::string all = collapse_spaces(view->text);
      std::map<std::string, int> zone_texts;
      for (const auto& z : view->no_link) {
        ++zone_texts[collapse_spaces(view->text_at(z.text_begin, z.text_end))];
      }
      const auto& rows = cited[doc_id];
      CHECK(!rows.empty());
      for (const std::string& c : rows) {
        INFO("cited text: " << c);
        ++gold_rows;
        CHECK(all.find(c) != std::string::npos);
        CHECK(zone_texts[c]-- > 0);
      }
    }
  }
  CHECK(documents == 10);
  CHECK(gold_rows == 163);
}

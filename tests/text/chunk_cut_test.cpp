// Where the view builder cuts text that has no block boundary or line end: at white space its
// CutAdvisor accepts from 1.5x chunk_bytes, at any white space from 1.75x; and how the first
// chunk waits for first_chunk_text_bytes of text behind heavy markup (giving up at 4x
// chunk_bytes). Every set of chunks is also checked against the view guarantees.
#include <catch2/catch.hpp>
#include <string>

#include "common/tsv.h"
#include "support/test_support.h"
#include "text/cut_advisor.h"
#include "text/view_builder.h"
#include "text/view_check.h"

using namespace lexlink;

namespace {

// Accepts a cut right after "| " only, and counts the calls.
class BarAdvisor final : public text::CutAdvisor {
 public:
  std::size_t find_cut(std::string_view text, std::size_t from) const override {
    ++calls;
    for (std::size_t q = std::max<std::size_t>(from, 2); q <= text.size(); ++q) {
      if (text[q - 2] == '|' && text[q - 1] == ' ') return q;
    }
    return std::string_view::npos;
  }
  mutable std::size_t calls = 0;
};

// Accepts nothing.
class NoAdvisor final : public text::CutAdvisor {
 public:
  std::size_t find_cut(std::string_view, std::size_t) const override {
    return std::string_view::npos;
  }
};

std::vector<text::TextView> chunks_of(const std::string& doc, const text::ViewOptions& o) {
  std::string error;
  auto chunks = test::build_chunks(doc, o, 10000, &error);
  INFO(error);
  REQUIRE(error.empty());
  const auto violations = test::check_chunks(doc, chunks);
  for (const auto& v : violations) UNSCOPED_INFO(v);
  CHECK(violations.empty());
  return chunks;
}

}  // namespace

TEST_CASE("text without line ends is cut where the cut advisor says", "[text][chunks]") {
  // One line: words, and "| " every 3,000 bytes or so.
  std::string doc;
  for (int i = 0; doc.size() < (1u << 20); ++i) doc += i % 500 == 499 ? "| " : "word ";
  text::ViewOptions o;
  o.format = text::ViewOptions::FormatChoice::kText;
  o.chunk_bytes = 32 << 10;
  const std::size_t s = o.chunk_bytes;

  SECTION("from 1.5x chunk_bytes, at the first place the advisor accepts") {
    auto advisor = std::make_shared<BarAdvisor>();
    o.cut_advisor = advisor;
    const auto chunks = chunks_of(doc, o);
    REQUIRE(chunks.size() > 10);
    for (std::size_t i = 0; i + 1 < chunks.size(); ++i) {
      INFO("chunk " << i);
      const std::string& t = chunks[i].text;
      CHECK(t.size() >= s + s / 2);
      CHECK(t.size() < s + s / 2 + 2600);  // the next "| " after 1.5x
      CHECK(t.substr(t.size() - 2) == "| ");
    }
    CHECK(advisor->calls >= chunks.size() - 1);
  }
  SECTION("from 1.75x at any white space when the advisor accepts nothing") {
    o.cut_advisor = std::make_shared<NoAdvisor>();
    const auto chunks = chunks_of(doc, o);
    REQUIRE(chunks.size() > 10);
    for (std::size_t i = 0; i + 1 < chunks.size(); ++i) {
      const std::string& t = chunks[i].text;
      CHECK(t.size() >= s + 3 * s / 4);
      CHECK(t.size() <= s + 3 * s / 4 + 5);
      CHECK(t.back() == ' ');
    }
  }
  SECTION("without an advisor, the same") {
    const auto chunks = chunks_of(doc, o);
    for (std::size_t i = 0; i + 1 < chunks.size(); ++i) {
      CHECK(chunks[i].text.size() >= s + 3 * s / 4);
      CHECK(chunks[i].text.size() <= s + 3 * s / 4 + 5);
    }
  }
  SECTION("line ends still come first") {
    std::string lines = doc;
    for (std::size_t at = lines.find(' ', 1000); at != std::string::npos;
         at = lines.find(' ', at + 1000)) {
      lines[at] = '\n';
    }
    o.cut_advisor = std::make_shared<BarAdvisor>();
    const auto chunks = chunks_of(lines, o);
    for (std::size_t i = 0; i + 1 < chunks.size(); ++i) {
      CHECK(chunks[i].text.back() == '\n');
      CHECK(chunks[i].text.size() < s + s / 4 + 1100);
    }
  }
}

TEST_CASE("the first chunk waits for first_chunk_text_bytes of text", "[text][chunks]") {
  text::ViewOptions o;
  o.format = text::ViewOptions::FormatChoice::kHtml;
  o.chunk_bytes = 16 << 10;
  const std::size_t s = o.chunk_bytes;
  // 40 KB of markup that holds little text (a short cell per row), then paragraphs.
  std::string doc = "<html><body><table>";
  while (doc.size() < 40000) doc += "<tr class=\"row\"><td class=\"cell\" id=\"c\">x</td></tr>\n";
  for (int i = 0; i < 2000; ++i) doc += "<p>Paragraph of text, words and more words.</p>\n";
  doc += "</table></body></html>";

  const auto plain = chunks_of(doc, o);
  REQUIRE(plain.size() > 3);
  CHECK(plain[0].text.size() < 8000);  // without the option: little text in the first chunk

  o.first_chunk_text_bytes = 8 << 10;
  const auto waited = chunks_of(doc, o);
  REQUIRE(waited.size() > 3);
  CHECK(waited[0].text.size() >= 8 << 10);
  CHECK(waited[0].text.size() < (8 << 10) + 200);  // cut at the next block boundary
  for (std::size_t i = 1; i + 1 < waited.size(); ++i) {
    CHECK(waited[i].original.size() >= s);  // later chunks as usual
    CHECK(waited[i].original.size() < s + 200);
  }

  SECTION("markup without text: it gives up at 4x chunk_bytes") {
    std::string markup = "<html><body><table>";
    while (markup.size() < 200000) markup += "<tr class=\"row\"><td class=\"cell\"></td></tr>\n";
    markup += "</table></body></html>";
    const auto chunks = chunks_of(markup, o);
    REQUIRE(chunks.size() > 2);
    CHECK(chunks[0].original.size() >= 4 * s);
    CHECK(chunks[0].original.size() < 4 * s + 200);
  }
}

// Markup that gives no place to cut in its text (empty inline tags, references, a word then
// tags) is cut between tokens, at the level the text so far allows there: a chunk holds about
// chunk_bytes of it whatever the density of the tags, so its pieces and tags do not grow with
// the stretch (before, ten million empty tags in one paragraph were one chunk of 480 MB of
// tags). Each row of the table at two sizes, with the CLI's kind of options (a small chunk, the
// first one waiting for some text) and without the wait.
TEST_CASE("a stretch of markup without a place to cut in its text is cut between tokens",
          "[text][chunks]") {
  const TsvFile table = test::load_table("tests/data/text/dense-markup.tsv",
                                         {"format", "prefix", "unit", "suffix", "cut", "what"});
  const std::size_t s = 16 << 10;
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[5]);
    const std::string prefix = test::unescape(row.fields[1]);
    const std::string unit = test::unescape(row.fields[2]);
    const std::string suffix = test::unescape(row.fields[3]);
    const std::string_view cut = row.fields[4];
    const std::size_t from = cut == "block"   ? s
                             : cut == "line"  ? s + s / 4
                             : cut == "space" ? s + 3 * s / 4
                                              : 2 * s;
    REQUIRE((cut == "block" || cut == "line" || cut == "space" || cut == "any"));
    text::ViewOptions o;
    o.format = row.fields[0] == "xml" ? text::ViewOptions::FormatChoice::kXml
                                      : text::ViewOptions::FormatChoice::kHtml;
    o.chunk_bytes = s;
    std::size_t most_tags[2] = {0, 0};
    std::size_t most_pieces[2] = {0, 0};
    for (const std::size_t first_text : {std::size_t{0}, std::size_t{8} << 10}) {
      o.first_chunk_text_bytes = first_text;
      for (const int size : {0, 1}) {
        const std::size_t bytes = (size == 0 ? 1u : 3u) << 19;  // 512 KB, 1.5 MB
        INFO("first_chunk_text_bytes " << first_text << ", document of " << bytes << " bytes");
        std::string doc = prefix;
        while (doc.size() < bytes) doc += unit;
        doc += suffix;
        const auto chunks = chunks_of(doc, o);
        REQUIRE(chunks.size() > 10);
        for (std::size_t i = 0; i < chunks.size(); ++i) {
          INFO("chunk " << i << " of " << chunks.size());
          const std::size_t n = chunks[i].original.size();
          // (The suffix's block tags may end a chunk from chunk_bytes on.)
          const bool in_units =
              i + 1 < chunks.size() && chunks[i].orig_end <= doc.size() - suffix.size();
          if (in_units && (i > 0 || first_text == 0)) CHECK(n >= from);
          if (i == 0 && first_text != 0) {
            CHECK(n < 6 * s + unit.size());  // the first chunk's bound (view_builder.h)
          } else {
            CHECK(n < from + unit.size() + suffix.size());
          }
          if (i > 0) {
            most_tags[size] = std::max(most_tags[size], chunks[i].tags.size());
            most_pieces[size] = std::max(most_pieces[size], chunks[i].map.pieces().size());
          }
        }
      }
      // Three times the markup: as many tags and pieces in a chunk, not three times as many.
      CHECK(most_tags[1] <= most_tags[0] + 2);
      CHECK(most_pieces[1] <= most_pieces[0] + 2);
    }
  }
}

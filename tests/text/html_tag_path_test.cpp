// The HTML tokenizer's short path for plain tags (<p>, </p>, <b>: a known element that is not
// void, raw text or <a>, no link zone open, no extra link names) against its general path,
// which an extra link element name (that no document uses) forces: the same view, piece for
// piece and tag for tag, for every bundled corpus text as HTML (a paragraph per line, with some
// inline markup and a link) and every raw corpus document read as HTML.
#include <catch2/catch.hpp>
#include <filesystem>

#include "support/test_support.h"
#include "text/chunk_emitter.h"
#include "text/html_tokenizer.h"

namespace lexlink {
namespace {

text::TextView html_view(const std::string& doc, text::HtmlExtraNames extra) {
  text::RunMap map(true);
  text::ChunkEmitter e(map, 0);
  e.set_document(text::Format::kHtml, text::Encoding::kUtf8, false, "");
  e.begin_chunk(0, 0);
  text::HtmlTokenizer tokenizer(std::move(extra));
  REQUIRE(tokenizer.run(doc, 0, 0, true, e) == doc.size());
  return e.end_chunk(doc.size(), doc.size(), doc, true);
}

// `text` as HTML: a paragraph per line, every fifth line's first word in <b>, every seventh
// line's last word a link.
std::string as_html(const std::string& text) {
  std::string html = "<!DOCTYPE html>\n<html><head><title>t</title></head><body>\n";
  std::size_t begin = 0;
  for (int line = 0; begin < text.size(); ++line) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string escaped;
    for (std::size_t i = begin; i < end; ++i) {
      escaped += text[i] == '<'   ? std::string("&lt;")
                 : text[i] == '&' ? std::string("&amp;")
                                  : std::string(1, text[i]);
    }
    if (line % 5 == 0 && escaped.find(' ') != std::string::npos) {
      escaped =
          "<b>" + escaped.substr(0, escaped.find(' ')) + "</b>" + escaped.substr(escaped.find(' '));
    }
    if (line % 7 == 0 && escaped.rfind(' ') != std::string::npos) {
      const std::size_t at = escaped.rfind(' ') + 1;
      escaped = escaped.substr(0, at) + "<a href=\"#x\">" + escaped.substr(at) + "</a>";
    }
    html += "<p>" + escaped + "</p>\n";
    begin = end + 1;
  }
  return html + "</body></html>\n";
}

TEST_CASE("plain tags read by the short path give the view the general path gives", "[text]") {
  namespace fs = std::filesystem;
  std::vector<std::string> docs;
  for (const auto& path : test::corpus_texts()) docs.push_back(as_html(test::read_file(path)));
  for (const auto& dir : fs::directory_iterator(test::data_path("corpora"))) {
    if (!fs::is_directory(dir.path() / "raw")) continue;
    for (const auto& file : fs::directory_iterator(dir.path() / "raw")) {
      docs.push_back(test::read_file(file.path()));
    }
  }
  text::HtmlExtraNames general;
  general.link_elements = {"x-no-such-element"};
  std::size_t tags = 0;
  for (const std::string& doc : docs) {
    const text::TextView a = html_view(doc, {});
    const text::TextView b = html_view(doc, general);
    REQUIRE(a.text == b.text);
    REQUIRE(a.names == b.names);
    REQUIRE(a.map.pieces().size() == b.map.pieces().size());
    for (std::size_t i = 0; i < a.map.pieces().size(); ++i) {
      const text::Piece& p = a.map.pieces()[i];
      const text::Piece& q = b.map.pieces()[i];
      CHECK((p.text_begin == q.text_begin && p.orig_begin == q.orig_begin &&
             p.text_len == q.text_len && p.orig_len == q.orig_len && p.kind == q.kind));
    }
    REQUIRE(a.tags.size() == b.tags.size());
    for (std::size_t i = 0; i < a.tags.size(); ++i) {
      const text::Tag& s = a.tags[i];
      const text::Tag& t = b.tags[i];
      CHECK((s.orig_begin == t.orig_begin && s.orig_end == t.orig_end && s.name == t.name &&
             s.kind == t.kind && s.is_inline == t.is_inline));
    }
    REQUIRE(a.no_link.size() == b.no_link.size());
    for (std::size_t i = 0; i < a.no_link.size(); ++i) {
      CHECK((a.no_link[i].text_begin == b.no_link[i].text_begin &&
             a.no_link[i].text_end == b.no_link[i].text_end));
    }
    tags += a.tags.size();
  }
  CHECK(docs.size() >= 20);
  CHECK(tags >= 10000);
}

}  // namespace
}  // namespace lexlink

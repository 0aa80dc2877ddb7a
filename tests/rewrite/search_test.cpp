// partition_point_from (rewrite/search.h) against std::partition_point, on the pieces and tags of
// real views (every bundled corpus text, as it is and as HTML with a paragraph per line), for
// keys in and between them and hints before, at and after the answer.
#include <catch2/catch.hpp>
#include <random>

#include "rewrite/search.h"
#include "support/test_support.h"
#include "text/view_builder.h"

namespace lexlink {
namespace {

std::string as_html(const std::string& text) {
  std::string html = "<html><body>\n";
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    html += "<p>";
    for (std::size_t i = begin; i < end; ++i)
      html += text[i] == '<' ? std::string("&lt;") : std::string(1, text[i]);
    html += "</p>\n";
    begin = end + 1;
  }
  return html + "</body></html>\n";
}

TEST_CASE("partition_point_from finds what std::partition_point finds", "[rewrite]") {
  std::mt19937_64 rng(7);
  std::size_t checked = 0;
  for (const auto& path : test::corpus_texts()) {
    const std::string text = test::read_file(path);
    for (const std::string& doc : {text, as_html(text)}) {
      auto view = text::make_view(doc);
      REQUIRE(view);
      const auto pieces = view->map.pieces();
      const std::span<const text::Tag> tags(view->tags);
      INFO(path.string() << ": " << pieces.size() << " pieces, " << tags.size() << " tags");
      const std::uint64_t text_end = view->text_begin + view->text.size();
      const std::uint64_t orig_end = view->orig_end;
      std::size_t piece_hint = 0, tag_hint = 0;
      for (int n = 0; n < 2000; ++n) {
        // Keys mostly moving forward, as the rewriter's, and some anywhere.
        const std::uint64_t t = n % 4 == 3 ? rng() % (text_end + 1) : text_end * n / 2000;
        auto piece_before = [t](const text::Piece& q) { return q.text_begin <= t; };
        const auto want_piece = static_cast<std::size_t>(
            std::partition_point(pieces.begin(), pieces.end(), piece_before) - pieces.begin());
        for (std::size_t hint : {piece_hint, want_piece, want_piece + 1, std::size_t{0},
                                 static_cast<std::size_t>(rng() % (pieces.size() + 2))}) {
          CHECK(rewrite::partition_point_from(pieces, hint, piece_before) == want_piece);
        }
        piece_hint = want_piece;
        const std::uint64_t o = n % 4 == 3 ? rng() % (orig_end + 1) : orig_end * n / 2000;
        auto tag_before = [o](const text::Tag& g) { return g.orig_begin < o; };
        const auto want_tag = static_cast<std::size_t>(
            std::partition_point(tags.begin(), tags.end(), tag_before) - tags.begin());
        for (std::size_t hint : {tag_hint, want_tag, want_tag + 1, std::size_t{0},
                                 static_cast<std::size_t>(rng() % (tags.size() + 2))}) {
          CHECK(rewrite::partition_point_from(tags, hint, tag_before) == want_tag);
        }
        tag_hint = want_tag;
        checked += 2;
      }
    }
  }
  CHECK(checked >= 20000);
}

}  // namespace
}  // namespace lexlink

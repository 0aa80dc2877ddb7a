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

TEST_CASE("partition_point_from finds what std::partition_point finds", "[rewrite]") {
  std::mt19937_64 rng(7);
  std::size_t checked = 0;
  for (const auto& path : test::corpus_texts()) {
    const std::string text = test::read_file(path);
    for (const std::string& doc : {text, test::html_paragraphs(text)}) {
      auto view = text::make_view(doc);
      REQUIRE(view);
      const auto pieces = view->map.pieces();
      const std::span<const text::Tag> tags(view->tags);
      INFO(path.string() << ": " << pieces.size() << " pieces, " << tags.size() << " tags");
      const std::uint64_t text_end = view->text_begin + view->text.size();
      const std::uint64_t orig_end = view->orig_end;
      std::size_t piece_hint = 0, tag_hint = 0;
      // The answer from the last answer, from itself, from past it, from the start and from
      // anywhere; `hint` becomes the answer.
      auto check = [&rng](auto items, std::size_t& hint, auto before) {
        const auto want = static_cast<std::size_t>(
            std::partition_point(items.begin(), items.end(), before) - items.begin());
        for (std::size_t h : {hint, want, want + 1, std::size_t{0},
                              static_cast<std::size_t>(rng() % (items.size() + 2))}) {
          CHECK(rewrite::partition_point_from(items, h, before) == want);
        }
        hint = want;
      };
      for (int n = 0; n < 2000; ++n) {
        // Keys mostly moving forward, as the rewriter's, and some anywhere.
        const std::uint64_t t = n % 4 == 3 ? rng() % (text_end + 1) : text_end * n / 2000;
        check(pieces, piece_hint, [t](const text::Piece& q) { return q.text_begin <= t; });
        const std::uint64_t o = n % 4 == 3 ? rng() % (orig_end + 1) : orig_end * n / 2000;
        check(tags, tag_hint, [o](const text::Tag& g) { return g.orig_begin < o; });
        checked += 2;
      }
    }
  }
  CHECK(checked >= 20000);
}

}  // namespace
}  // namespace lexlink

// Bad and huge input: a 200 MB single line (text and HTML) streamed with bounded memory, lines
// without any white space, a 10 MB unclosed comment, 100,000 nested elements (HTML and XML),
// truncated tags. Sizes shrink with LEXLINK_STRESS_MB (default 200) for slow builds.
#include <sys/resource.h>

#include <catch2/catch.hpp>
#include <cstdlib>

#include "text/view_builder.h"
#include "text/view_check.h"

using namespace lexlink;
using namespace lexlink::test;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;  // ASan keeps freed memory in quarantine: RSS tells nothing
#else
constexpr bool kSanitized = false;
#endif

std::size_t stress_mb() {
  const char* v = std::getenv("LEXLINK_STRESS_MB");
  return v != nullptr ? static_cast<std::size_t>(std::atoi(v)) : 200;
}

long max_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

struct StreamStats {
  std::size_t chunks = 0;
  std::uint64_t text_bytes = 0;
  std::uint64_t orig_bytes = 0;
  std::uint64_t largest_chunk = 0;
  std::size_t tags = 0;
  bool tiled = true;
  std::string last_text_tail;
};

// Streams `total` bytes made by repeating `unit` (after `prefix`) through a builder, 1 MB per
// feed, checking that the chunks tile the input; never holds the document.
StreamStats stream(const std::string& prefix, const std::string& unit, std::size_t total,
                   const std::string& suffix, const text::ViewOptions& o) {
  StreamStats st;
  text::ViewBuilder b(o);
  std::string block;
  while (block.size() < (1u << 20)) block += unit;
  std::uint64_t next_orig = 0, next_text = 0;
  auto drain = [&] {
    while (auto c = b.next()) {
      ++st.chunks;
      if (c->orig_begin != next_orig || c->text_begin != next_text ||
          c->original.size() != c->orig_end - c->orig_begin) {
        st.tiled = false;
      }
      next_orig = c->orig_end;
      next_text = c->text_begin + c->text.size();
      st.text_bytes += c->text.size();
      st.orig_bytes += c->original.size();
      st.tags += c->tags.size();
      st.largest_chunk = std::max<std::uint64_t>(st.largest_chunk, c->original.size());
      st.last_text_tail =
          c->text.substr(c->text.size() - std::min<std::size_t>(c->text.size(), 16));
    }
  };
  REQUIRE(b.feed(prefix));
  std::size_t fed = 0;
  while (fed < total) {
    const std::size_t n = std::min(block.size(), total - fed);
    REQUIRE(b.feed(std::string_view(block).substr(0, n)));
    fed += n;
    drain();
  }
  REQUIRE(b.feed(suffix));
  REQUIRE(b.finish());
  drain();
  return st;
}

std::vector<text::TextView> one(const std::string& doc, const text::ViewOptions& o = {}) {
  auto v = make_view(doc, o);
  if (!v) FAIL(v.error().message);
  return {std::move(*v)};
}

void require_valid(const std::string& doc, const std::vector<text::TextView>& chunks) {
  const auto v = check_chunks(doc, chunks);
  for (const auto& s : v) UNSCOPED_INFO(s);
  REQUIRE(v.empty());
}

}  // namespace

TEST_CASE("a 200 MB single line streams in bounded chunks and memory", "[text][stress]") {
  const std::size_t total = stress_mb() << 20;
  text::ViewOptions o;  // chunk_bytes 4 MB
  const long rss_before = max_rss_kb();
  SECTION("plain text with spaces: cut at white space") {
    const StreamStats st = stream("", "art. 5 della legge 241/1990 ", total, "", o);
    CHECK(st.tiled);
    CHECK(st.orig_bytes == total);
    CHECK(st.text_bytes == total);
    CHECK(st.largest_chunk <= o.chunk_bytes * 7 / 4 + 64);
    CHECK(st.chunks >= total / (o.chunk_bytes * 2));
  }
  SECTION("plain text without white space: cut at a character boundary") {
    const StreamStats st = stream("", "\xC3\xA8x", total / 4, "", o);
    CHECK(st.tiled);
    CHECK(st.text_bytes == total / 4);
    CHECK(st.largest_chunk <= o.chunk_bytes * 2 + 4);
  }
  SECTION("HTML on one line") {
    // An eighth of the size in sanitizer builds (unoptimised, far slower on markup).
    const std::size_t html = kSanitized ? total / 8 : total / 2;
    const StreamStats st =
        stream("<html><body>", "<b>art.</b>&nbsp;5 <i>legge</i> ", html, "</body></html>", o);
    CHECK(st.tiled);
    CHECK(st.orig_bytes == html + 26);
    CHECK(st.largest_chunk <= o.chunk_bytes * 7 / 4 + 64);
    CHECK(st.tags > html / 40);
  }
  const long growth_mb = (max_rss_kb() - rss_before) / 1024;
  INFO("peak resident memory grew by " << growth_mb << " MB");
  if (!kSanitized) CHECK(growth_mb < 96);
}

TEST_CASE("a 10 MB unclosed comment", "[text][stress]") {
  const std::string doc =
      "<p>before art. 5</p><!-- " + std::string(10u << 20, 'c') + " <p>art. 6</p>";
  const auto whole = one(doc);
  require_valid(doc, whole);
  CHECK(whole[0].text == "before art. 5\n");
  REQUIRE(!whole[0].tags.empty());
  CHECK(whole[0].tags.back().kind == text::Tag::Kind::kOther);
  CHECK(whole[0].tags.back().orig_end == doc.size());
  // Streamed with 1 MB chunks: the comment is cut into kOther parts, nothing becomes text.
  text::ViewOptions o;
  o.chunk_bytes = 1u << 20;
  const auto chunks = build_chunks(doc, o, 64 * 1024);
  require_valid(doc, chunks);
  CHECK(chunks.size() > 4);
  std::string text;
  for (const auto& c : chunks) text += c.text;
  CHECK(text == "before art. 5\n");
}

TEST_CASE("100,000 nested elements", "[text][stress]") {
  const std::size_t depth = 100000;
  SECTION("HTML") {
    std::string doc;
    for (std::size_t i = 0; i < depth; ++i) doc += i % 2 ? "<span>" : "<div>";
    doc += "art. 5";
    for (std::size_t i = depth; i-- > 0;) doc += i % 2 ? "</span>" : "</div>";
    const auto v = one(doc);
    require_valid(doc, v);
    CHECK(v[0].text == "art. 5\n");
    CHECK(v[0].tags.size() == 2 * depth);
  }
  SECTION("XML") {
    std::string doc = "<?xml version=\"1.0\"?>";
    for (std::size_t i = 0; i < depth; ++i) doc += i % 2 ? "<b>" : "<d>";
    doc += "art. 5";
    for (std::size_t i = depth; i-- > 0;) doc += i % 2 ? "</b>" : "</d>";
    const auto v = one(doc);
    require_valid(doc, v);
    CHECK(v[0].format == text::Format::kXml);
    CHECK(v[0].warnings.empty());
    CHECK(v[0].text == "art. 5\n");
  }
  SECTION("XML never closed: read as HTML") {
    std::string doc = "<?xml version=\"1.0\"?>";
    for (std::size_t i = 0; i < depth; ++i) doc += "<d>";
    doc += "art. 5";
    const auto v = one(doc);
    require_valid(doc, v);
    CHECK(v[0].format == text::Format::kHtml);
    REQUIRE(v[0].warnings.size() == 1);
    CHECK(v[0].warnings[0].find("malformed XML") != std::string::npos);
    CHECK(v[0].text == "art. 5");
  }
}

TEST_CASE("truncated tags and markup at the end of the input", "[text][html]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"<p>art. 5 <b class=\"x", "art. 5 "},
      {"<p>art. 5 <b class=x", "art. 5 "},
      {"<p>art. 5 <", "art. 5 <"},
      {"<p>art. 5 </", "art. 5 </"},
      {"<p>art. 5 <!", "art. 5 "},
      {"<p>art. 5 <!-", "art. 5 "},
      {"<p>art. 5 &", "art. 5 &"},
      {"<p>art. 5 &am", "art. 5 &am"},
      {"<p>art. 5 &#", "art. 5 &#"},
      {"<p>art. 5 &#x4", "art. 5 \x04"},
      {"<p>art. 5 <script>var x", "art. 5 "},
      {"<p>art. 5 <?lexlink", "art. 5 "},
      {"<p>art. 5 \xC3", "art. 5 \xEF\xBF\xBD"},
  };
  for (const auto& [doc, text] : cases) {
    INFO(doc);
    text::ViewOptions o;
    o.format = text::ViewOptions::FormatChoice::kHtml;
    o.encoding = text::Encoding::kUtf8;  // "\xC3" alone would read as Windows-1252
    const auto whole = one(doc, o);
    require_valid(doc, whole);
    CHECK(whole[0].text == text);
    for (std::size_t feed : {std::size_t{1}, std::size_t{3}}) {
      const auto chunks = build_chunks(doc, o, feed);
      require_valid(doc, chunks);
      REQUIRE(chunks.size() == 1);
      CHECK(chunks[0].text == text);
    }
  }
}

// unmark (tests/data/rewrite/unmark.tsv): exactly lexlink's links are removed, whatever the
// pieces the input is fed in, in UTF-8 and in UTF-16 (both byte orders).
#include <catch2/catch.hpp>

#include "rewrite/unmark.h"
#include "support/test_support.h"

using namespace lexlink;

namespace {

struct Run {
  std::string out;
  std::uint64_t removed = 0;
  std::uint64_t unrecognised = 0;
};

// Feeds `input` in pieces of `piece` bytes (0: whole).
Run run(std::string_view input, std::size_t piece, rewrite::UnmarkOptions options = {}) {
  Run r;
  io::StringSink sink(r.out);
  rewrite::Unmarker u(sink, options);
  if (piece == 0) piece = input.size() + 1;
  for (std::size_t i = 0; i < input.size(); i += piece)
    REQUIRE(u.feed(input.substr(i, piece)).ok());
  REQUIRE(u.finish().ok());
  r.removed = u.removed();
  r.unrecognised = u.unrecognised();
  return r;
}

bool ascii(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80 || c == 0) return false;
  }
  return true;
}

std::string utf16(std::string_view s, bool le) {
  std::string out = le ? "\xFF\xFE" : "\xFE\xFF";
  for (char c : s) {
    if (le) {
      out += c;
      out += '\0';
    } else {
      out += '\0';
      out += c;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("unmark removes exactly lexlink's links", "[rewrite]") {
  auto table = test::load_table("tests/data/rewrite/unmark.tsv",
                                {"name", "input", "expected", "removed", "unrecognised"});
  for (const TsvRow& row : table.rows()) {
    INFO("case " << row.fields[0] << " (line " << row.line << ")");
    const std::string input = test::unescape(row.fields[1]);
    const std::string expected = row.fields[2] == "=" ? input : test::unescape(row.fields[2]);
    const auto removed = std::stoull(std::string(row.fields[3]));
    const auto unrecognised = std::stoull(std::string(row.fields[4]));
    for (std::size_t piece : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3},
                              std::size_t{7}, std::size_t{16}}) {
      INFO("fed in pieces of " << piece);
      const Run r = run(input, piece);
      CHECK(r.out == expected);
      CHECK(r.removed == removed);
      CHECK(r.unrecognised == unrecognised);
    }
    std::uint64_t n = 0;
    CHECK(rewrite::unmark(input, &n) == expected);
    CHECK(n == removed);
    if (!ascii(input) || !ascii(expected)) continue;
    for (bool le : {true, false}) {
      INFO("UTF-16" << (le ? "LE" : "BE"));
      for (std::size_t piece : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
        const Run r = run(utf16(input, le), piece);
        CHECK(r.out == utf16(expected, le));
        CHECK(r.removed == removed);
      }
    }
  }
}

TEST_CASE("unmark: a marker in UTF-16 must be aligned on code units", "[rewrite]") {
  // "x<a data-lexlink..." shifted by one byte is not UTF-16 markup: left alone.
  const std::string link = utf16("<a data-lexlink=\"\" href=\"u\">x</a>", true).substr(2);
  const std::string shifted = std::string("\xFF\xFE", 2) + "\x41" + link + "\x00";
  CHECK(run(shifted, 0).out == shifted);
  CHECK(run(shifted, 0).removed == 0);
}

TEST_CASE("unmark: bounded links and streams", "[rewrite]") {
  rewrite::UnmarkOptions small;
  small.max_link_bytes = 16;
  small.max_tag_bytes = 64;
  const std::string open = "<a data-lexlink=\"\" href=\"u\" data-urn=\"u\">";
  // Content within the bound is removed, beyond it the link is not recognised.
  CHECK(run(open + std::string(16, 'x') + "</a>", 1, small).removed == 1);
  const Run too_long = run(open + std::string(17, 'x') + "</a>", 1, small);
  CHECK(too_long.removed == 0);
  CHECK(too_long.unrecognised == 1);
  // A start tag longer than the bound is not ours either.
  const std::string long_tag = "<a data-lexlink=\"\" href=\"" + std::string(80, 'u') + "\">x</a>";
  CHECK(run(long_tag, 5, small).removed == 0);

  // 20 MB of text with links every 100 KB, fed in 1 MB blocks; links straddle block ends.
  std::string doc;
  std::string expected;
  const std::string link = open + "art. 5</a>";
  std::uint64_t links = 0;
  while (doc.size() < (20u << 20)) {
    const std::string filler(100 * 1024 - 7, static_cast<char>('a' + links % 26));
    doc += filler + link;
    expected += filler + "art. 5";
    ++links;
  }
  const Run r = run(doc, 1 << 20);
  CHECK(r.removed == links);
  CHECK(r.out == expected);
}

TEST_CASE("unmark: UTF-16 without a byte order mark is recognised as the views recognise it",
          "[rewrite]") {
  const std::string link = "x <a data-lexlink=\"\" href=\"u\" data-urn=\"u\">art. 5</a> y";
  for (bool le : {true, false}) {
    const std::string doc = utf16(link, le).substr(2);  // no BOM
    const std::string expected = utf16("x art. 5 y", le).substr(2);
    CHECK(run(doc, 0).out == expected);
    CHECK(run(doc, 3).out == expected);
    // Told the encoding, a piece of a document is read in it from its first byte.
    rewrite::UnmarkOptions told;
    told.encoding = le ? text::Encoding::kUtf16Le : text::Encoding::kUtf16Be;
    CHECK(run(doc.substr(0, 4), 1, told).out == doc.substr(0, 4));
    CHECK(run(doc, 1, told).out == expected);
  }
}

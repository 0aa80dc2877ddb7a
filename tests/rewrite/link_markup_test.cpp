// Output profiles and attribute escaping (tests/data/rewrite/profiles.tsv, escape.tsv).
#include <catch2/catch.hpp>

#include "rewrite/link_markup.h"
#include "support/test_support.h"
#include "urn/profiles.h"

using namespace lexlink;

namespace {

text::Format format_of(std::string_view f) {
  if (f == "xml") return text::Format::kXml;
  if (f == "text") return text::Format::kText;
  return text::Format::kHtml;
}

const urn::Profiles& resolvers() {
  static const urn::Profiles p = [] {
    auto r = urn::Profiles::load(LEXLINK_SOURCE_DIR);
    if (!r) FAIL(r.error().to_string());
    return std::move(*r);
  }();
  return p;
}

}  // namespace

TEST_CASE("link markup of every profile", "[rewrite]") {
  auto table =
      test::load_table("tests/data/rewrite/profiles.tsv",
                       {"profile", "format", "root", "href", "sep", "urn", "open", "close"});
  for (const TsvRow& row : table.rows()) {
    INFO("line " << row.line);
    const std::string profile(row.fields[0]);
    const text::Format format = format_of(row.fields[1]);
    const std::string root = row.fields[2] == "-" ? "" : std::string(row.fields[2]);
    const std::string href_mode(row.fields[3]);
    rewrite::LinkOptions options;
    options.partition_sep = row.fields[4][0];
    options.resolvers = &resolvers();
    options.href = href_mode == "resolver" ? rewrite::HrefMode::kResolver : rewrite::HrefMode::kUrn;
    if (profile == "auto") {
      options.profile = rewrite::default_profile(format, root);
    } else {
      auto p = rewrite::parse_profile(profile);
      REQUIRE(p.ok());
      options.profile = *p;
      CHECK(rewrite::to_string(*p) == profile);
    }
    rewrite::LinkMarkup markup(options, format, text::Encoding::kUtf8, root);
    rewrite::Request request;
    request.urn = std::string(row.fields[5]);
    if (href_mode.starts_with("=")) request.href = href_mode.substr(1);
    std::string note;
    auto href = markup.href(request, note);
    REQUIRE(href.ok());
    // Falling back to the URN (no resolver rule) is said.
    CHECK(note.empty() == !(href_mode == "resolver" && *href == request.urn));
    auto open = markup.open(*href, request.urn);
    REQUIRE(open.ok());
    CHECK(*open == row.fields[6]);
    CHECK(markup.close() == row.fields[7]);
  }
  CHECK_FALSE(rewrite::parse_profile("docbook").ok());
}

TEST_CASE("attribute values are escaped for their context", "[rewrite]") {
  auto table = test::load_table("tests/data/rewrite/escape.tsv",
                                {"context", "ascii_only", "input", "expected"});
  for (const TsvRow& row : table.rows()) {
    INFO("line " << row.line);
    std::string out = "x";
    const bool ok = rewrite::append_attribute_value(out, test::unescape(row.fields[2]),
                                                    row.fields[0] == "xml", row.fields[1] == "1");
    if (row.fields[3] == "!") {
      CHECK_FALSE(ok);
      CHECK(out == "x");  // nothing appended
    } else {
      CHECK(ok);
      CHECK(out == "x" + test::unescape(row.fields[3]));
    }
  }
}

TEST_CASE("markup is written in the document's encoding", "[rewrite]") {
  rewrite::LinkOptions options;
  options.profile = rewrite::Profile::kHtml;
  const std::string urn = "urn:lex:it:regione.valle.d'aosta:legge:2000;1";
  rewrite::Request request;
  request.urn = urn;
  request.href = "https://x.org/sanit\xC3\xA0";
  for (auto [encoding, expected_href] :
       {std::pair{text::Encoding::kUtf8, std::string("https://x.org/sanit\xC3\xA0")},
        std::pair{text::Encoding::kWindows1252, std::string("https://x.org/sanit&#224;")},
        std::pair{text::Encoding::kUtf16Le, std::string("https://x.org/sanit&#224;")},
        std::pair{text::Encoding::kUtf16Be, std::string("https://x.org/sanit&#224;")}}) {
    rewrite::LinkMarkup markup(options, text::Format::kHtml, encoding, "");
    auto open = markup.open(request.href, urn);
    REQUIRE(open.ok());
    const std::string ascii = "<a data-lexlink=\"\" href=\"" + expected_href + "\" data-urn=\"" +
                              "urn:lex:it:regione.valle.d'aosta:legge:2000;1\">";
    CHECK(*open == rewrite::encode_ascii(ascii, encoding));
    CHECK(markup.close() == rewrite::encode_ascii("</a>", encoding));
  }
  CHECK(rewrite::encode_ascii("<a>", text::Encoding::kUtf16Le) == std::string("<\0a\0>\0", 6));
  CHECK(rewrite::encode_ascii("<a>", text::Encoding::kUtf16Be) == std::string("\0<\0a\0>", 6));
}

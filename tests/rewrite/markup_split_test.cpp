// The markup split suite (tests/data/rewrite/split.tsv): citations across inline tags,
// entities, CRLF, soft hyphens, non-breaking spaces, starting or ending inside tags, entities and
// multi-byte characters, blocked by links, CDATA, titles, block breaks. Each row is also run on
// the same document in UTF-16LE (kTranscoded pieces), and every output must unmark back to its
// input.
#include <catch2/catch.hpp>

#include "common/utf8.h"
#include "rewrite/hand_view.h"
#include "rewrite/link_markup.h"
#include "rewrite/rewriter.h"
#include "rewrite/stub_source.h"
#include "rewrite/unmark.h"
#include "support/test_support.h"

using namespace lexlink;

namespace {

constexpr const char* kUrn = "urn:lex:it:stato:legge:2000-04-03;56~art5";

text::Format format_of(std::string_view f) {
  if (f == "xml") return text::Format::kXml;
  if (f == "text") return text::Format::kText;
  return text::Format::kHtml;
}

std::string expand(const std::string& pattern) {
  const std::string open =
      std::string("<a data-lexlink=\"\" href=\"") + kUrn + "\" data-urn=\"" + kUrn + "\">";
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern.compare(i, 2, "[[") == 0) {
      out += open;
      ++i;
    } else if (pattern.compare(i, 2, "]]") == 0) {
      out += "</a>";
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

bool utf16_friendly(std::string_view s) {
  if (!utf8::is_valid(s)) return false;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xF8) == 0xF0) return false;  // astral
  }
  return true;
}

}  // namespace

TEST_CASE("markup split suite", "[rewrite]") {
  auto table = test::load_table("tests/data/rewrite/split.tsv",
                                {"name", "format", "document", "spans", "expect", "output"});
  for (const TsvRow& row : table.rows()) {
    const std::string name(row.fields[0]);
    const std::string document = test::unescape(row.fields[2]);
    const std::string spans(row.fields[3]);
    const auto expect = test::split(row.fields[4], ",");
    const std::string out_field = test::unescape(row.fields[5]);
    const std::string expected = out_field == "=" ? document : expand(out_field);
    INFO("case " << name << " (line " << row.line << ")");

    const text::TextView view = test::hand_view(document, format_of(row.fields[1]));
    auto requests = test::locate_all(view, spans, kUrn);
    REQUIRE(requests.size() == expect.size());
    rewrite::RewriteOptions options;
    options.profile = rewrite::Profile::kHtml;
    std::vector<rewrite::Outcome> outcomes;
    auto out = rewrite::rewrite_view(view, requests, options, &outcomes);
    REQUIRE(out.ok());
    REQUIRE(outcomes.size() == expect.size());
    // Outcomes come in document order; match them to the rows' requests by id.
    for (const rewrite::Outcome& o : outcomes) {
      INFO("request " << o.request.id << ": " << o.detail);
      CHECK(rewrite::to_string(o.reason) == expect[o.request.id - 1]);
      CHECK(o.linked == (o.reason == rewrite::Reason::kLinked));
      if (o.linked) CHECK(!o.links.empty());
    }
    CHECK(*out == expected);
    // unmark(markup(x)) == x for a document without lexlink links; one that has some (the
    // own-link rows) loses them, and only them.
    const bool has_links = document.find("lexlink") != std::string::npos;
    CHECK(rewrite::unmark(*out) == (has_links ? rewrite::unmark(document) : document));
    if (has_links) CHECK(rewrite::unmark(document).find("lexlink") == std::string::npos);

    // The same in UTF-16LE: same answers, same output once decoded, and the round trip.
    const bool offsets_in_original =
        spans.find("o:") != std::string::npos || spans.find("O:") != std::string::npos;
    if (offsets_in_original || !utf16_friendly(document) || view.format == text::Format::kText) {
      continue;
    }
    const text::TextView wide = test::to_utf16le(view);
    std::vector<rewrite::Outcome> wide_outcomes;
    auto wide_out = rewrite::rewrite_view(wide, requests, options, &wide_outcomes);
    REQUIRE(wide_out.ok());
    REQUIRE(wide_outcomes.size() == expect.size());
    for (const rewrite::Outcome& o : wide_outcomes) {
      CHECK(rewrite::to_string(o.reason) == expect[o.request.id - 1]);
    }
    CHECK(rewrite::markup_to_utf8(wide_out->substr(2), text::Encoding::kUtf16Le) == expected);
    CHECK(rewrite::unmark(*wide_out) ==
          (has_links ? rewrite::unmark(wide.original) : wide.original));
  }
}

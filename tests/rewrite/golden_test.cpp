// Golden documents (tests/data/rewrite/golden/): each case of cases.tsv is a source document
// (<case>.src.<ext>), its citations (<case>.citations.tsv: where, URN, optional href, the
// expected answer) and the expected output (<case>.expected.<ext>), read by the real views
// (text::make_view). LEXLINK_UPDATE_GOLDEN=1 rewrites the expected outputs instead of comparing.
// Every case also checks unmark(output) == source and that marking the output again with the
// same citations changes nothing (each is then inside a lexlink link).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>

#include "common/tsv.h"
#include "rewrite/rewriter.h"
#include "rewrite/stub_source.h"
#include "rewrite/unmark.h"
#include "support/test_support.h"
#include "text/view_builder.h"
#include "urn/profiles.h"

using namespace lexlink;

namespace {

const char* kDir = "tests/data/rewrite/golden/";

std::string slurp(const std::string& path) {
  std::string out;
  REQUIRE(read_file(path, out).ok());
  return out;
}

text::ViewOptions view_options(std::string_view format) {
  text::ViewOptions o;
  using FC = text::ViewOptions::FormatChoice;
  o.format = format == "xml" ? FC::kXml : format == "text" ? FC::kText : FC::kHtml;
  return o;
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

TEST_CASE("golden documents", "[rewrite][golden]") {
  const bool update = std::getenv("LEXLINK_UPDATE_GOLDEN") != nullptr &&
                      std::string(std::getenv("LEXLINK_UPDATE_GOLDEN")) == "1";
  auto cases = test::load_table(std::string(kDir) + "cases.tsv",
                                {"case", "format", "ext", "profile", "href", "sep"});
  for (const TsvRow& row : cases.rows()) {
    const std::string name(row.fields[0]);
    const std::string ext(row.fields[2]);
    INFO("case " << name);
    const std::string source = slurp(test::data_path(kDir + name + ".src." + ext));
    auto citations =
        test::load_table(kDir + name + ".citations.tsv", {"span", "urn", "href", "expect"});
    rewrite::RewriteOptions options;
    if (row.fields[3] != "auto") {
      auto p = rewrite::parse_profile(row.fields[3]);
      REQUIRE(p.ok());
      options.profile = *p;
    }
    options.link.href =
        row.fields[4] == "resolver" ? rewrite::HrefMode::kResolver : rewrite::HrefMode::kUrn;
    options.link.partition_sep = row.fields[5][0];
    options.link.resolvers = &resolvers();

    auto view = text::make_view(source, view_options(row.fields[1]));
    REQUIRE(view.ok());
    std::vector<rewrite::Request> requests;
    std::vector<std::string> expect;
    for (const TsvRow& c : citations.rows()) {
      INFO("citation line " << c.line << ": " << c.fields[0]);
      auto r = test::locate(*view, std::string(c.fields[0]), std::string(c.fields[1]));
      REQUIRE(r);
      r->href = test::unescape(c.fields[2]);
      r->id = requests.size() + 1;
      requests.push_back(*r);
      expect.emplace_back(c.fields[3]);
    }
    std::vector<rewrite::Outcome> outcomes;
    auto out = rewrite::rewrite_view(*view, requests, options, &outcomes);
    REQUIRE(out.ok());
    REQUIRE(outcomes.size() == requests.size());
    for (const rewrite::Outcome& o : outcomes) {
      INFO("citation " << o.request.id << " (" << o.text << "): " << o.detail);
      CHECK(rewrite::to_string(o.reason) == expect[o.request.id - 1]);
    }
    const std::string expected_path = test::data_path(kDir + name + ".expected." + ext);
    if (update) {
      std::ofstream(expected_path, std::ios::binary) << *out;
    } else {
      CHECK(*out == slurp(expected_path));
    }
    CHECK(rewrite::unmark(*out) == source);

    // Idempotent: the output, read again, takes no new link for the same citations.
    auto again_view = text::make_view(*out, view_options(row.fields[1]));
    REQUIRE(again_view.ok());
    std::vector<rewrite::Request> again;
    for (const rewrite::Request& r : requests) {
      if (!r.text) continue;
      // The same occurrence of the same text, found again in the marked view.
      const std::string cited(view->text_at(r.text->begin, r.text->end));
      int nth = 0;
      for (std::size_t at = view->text.find(cited); at != std::string::npos;
           at = view->text.find(cited, at + 1)) {
        ++nth;
        if (view->text_begin + at == r.text->begin) break;
      }
      std::string escaped;
      for (char c : cited) escaped += c == '\\' ? std::string("\\\\") : std::string(1, c);
      auto found = test::locate(*again_view, "t" + std::to_string(nth) + ":" + escaped, r.urn);
      // In plain text the inserted tags are text: a citation may no longer be found as such.
      if (row.fields[1] != "text") REQUIRE(found);
      if (found) again.push_back(*found);
    }
    std::vector<rewrite::Outcome> again_outcomes;
    auto twice = rewrite::rewrite_view(*again_view, again, options, &again_outcomes);
    REQUIRE(twice.ok());
    CHECK(*twice == *out);
    for (const rewrite::Outcome& o : again_outcomes) CHECK_FALSE(o.linked);
  }
}

// The extractor as the rewriter's citation source: its requests come marked urn_checked (the
// rewriter does not parse their URNs again), which holds only if every URN it names parses;
// a source restarted for document after document (batch markup's workers) reuses the memory
// of the citations it read and of the requests answered, and must find the same requests as a
// new one; and the rewriter places the same links whatever the order of the requests.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "document/extractor_source.h"
#include "extract/extractors.h"
#include "rewrite/document.h"
#include "support/test_support.h"
#include "text/view_builder.h"
#include "urn/urn.h"

namespace lexlink {
namespace {

// The extractor's requests with urn_checked cleared: the rewriter checks every URN itself.
class UncheckedSource final : public rewrite::CitationSource {
 public:
  explicit UncheckedSource(document::ExtractorSource& inner) : inner_(inner) {}
  Status find(const text::TextView& chunk, std::vector<rewrite::Request>& out) override {
    const std::size_t first = out.size();
    if (Status s = inner_.find(chunk, out); !s) return s;
    for (std::size_t i = first; i < out.size(); ++i) {
      CHECK(out[i].urn_checked);
      urn::ParseOptions po;
      po.allow_unnumbered = true;
      CHECK(urn::validate(out[i].urn, po));
      out[i].urn_checked = false;
      ++requests;
    }
    return Status::Ok();
  }
  std::size_t requests = 0;

 private:
  document::ExtractorSource& inner_;
};

// The extractor's requests last first (those with the same start keep their order, which
// decides between them): the rewriter, which looks pieces and tags up from where the last
// request was, must then find them by bisection, and place the same links.
class BackwardSource final : public rewrite::CitationSource {
 public:
  explicit BackwardSource(document::ExtractorSource& inner) : inner_(inner) {}
  Status find(const text::TextView& chunk, std::vector<rewrite::Request>& out) override {
    const auto first = static_cast<std::ptrdiff_t>(out.size());
    if (Status s = inner_.find(chunk, out); !s) return s;
    std::stable_sort(out.begin() + first, out.end(),
                     [](const rewrite::Request& a, const rewrite::Request& b) {
                       return a.text->begin > b.text->begin;
                     });
    return Status::Ok();
  }

 private:
  document::ExtractorSource& inner_;
};

TEST_CASE("the extractor's requests name valid URNs, so markup trusts them", "[extract]") {
  namespace fs = std::filesystem;
  std::vector<fs::path> files = test::corpus_texts();
  for (const auto& dir : fs::directory_iterator(test::data_path("corpora"))) {
    if (!fs::is_directory(dir.path() / "raw")) continue;
    for (const auto& file : fs::directory_iterator(dir.path() / "raw")) {
      const std::string ext = file.path().extension().string();
      if (ext == ".xml" || ext == ".html" || ext == ".md") files.push_back(file.path());
    }
  }
  const auto x = test::load_extractor("auto");
  std::size_t requests = 0;
  for (std::size_t n = 0; n < 2 * files.size(); ++n) {
    const fs::path& path = files[n / 2];
    // Each document as it is, and (the second time) as HTML, a paragraph per line.
    const std::string doc =
        n % 2 == 0 ? test::read_file(path) : test::html_paragraphs(test::read_file(path));
    INFO(path.string() << (n % 2 == 0 ? "" : " as HTML"));
    text::ViewOptions vo;
    vo.chunk_bytes = 16 << 10;  // several chunks for the larger documents
    rewrite::RewriteOptions ro;
    document::ExtractorSource trusted(x);
    auto fast = rewrite::markup_document(doc, vo, ro, trusted);
    REQUIRE(fast);
    document::ExtractorSource inner(x);
    UncheckedSource checked(inner);
    auto general = rewrite::markup_document(doc, vo, ro, checked);
    REQUIRE(general);
    CHECK(*fast == *general);
    requests += checked.requests;
    document::ExtractorSource forward(x);
    BackwardSource backward(forward);
    auto reordered = rewrite::markup_document(doc, vo, ro, backward);
    REQUIRE(reordered);
    CHECK(*reordered == *fast);
  }
  CHECK(files.size() >= 20);
  CHECK(requests >= 1000);
}

// The requests of every chunk of `doc`, in order, as one line each.
std::vector<std::string> requests_of(document::ExtractorSource& source, const std::string& doc,
                                     std::size_t chunk_bytes) {
  text::ViewOptions vo;
  vo.chunk_bytes = chunk_bytes;
  text::ViewBuilder builder(vo);
  std::vector<std::string> lines;
  auto drain = [&] {
    while (auto chunk = builder.next()) {
      std::vector<rewrite::Request> requests;
      REQUIRE(source.find(*chunk, requests));
      for (const rewrite::Request& r : requests) {
        lines.push_back(std::to_string(r.text->begin) + "-" + std::to_string(r.text->end) + " " +
                        std::to_string(r.original->begin) + "-" + std::to_string(r.original->end) +
                        " " + r.urn + " " + r.rule + (r.inner ? " inner" : "") +
                        (r.urn_checked ? " checked" : ""));
      }
      // Answered: their strings go back to the source, for the next requests.
      std::vector<rewrite::Outcome> done(requests.size());
      for (std::size_t i = 0; i < requests.size(); ++i) done[i].request = std::move(requests[i]);
      source.recycle(done);
      CHECK(done.empty());
    }
  };
  REQUIRE(builder.feed(doc));
  drain();
  REQUIRE(builder.finish());
  drain();
  return lines;
}

TEST_CASE("a source restarted for document after document finds what a new one finds",
          "[extract]") {
  const auto x = test::load_extractor("auto");
  document::ExtractorSource reused(x);  // its citations' memory goes from document to document
  std::size_t requests = 0;
  for (const auto& path : test::corpus_texts()) {
    const std::string doc = test::read_file(path);
    INFO(path.string());
    for (std::size_t chunk_bytes : {std::size_t{4} << 20, std::size_t{16} << 10}) {
      document::ExtractorSource fresh(x);
      const auto expected = requests_of(fresh, doc, chunk_bytes);
      reused.restart();
      CHECK(requests_of(reused, doc, chunk_bytes) == expected);
      requests += expected.size();
    }
  }
  CHECK(requests >= 1000);
}

}  // namespace
}  // namespace lexlink

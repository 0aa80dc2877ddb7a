// The extractor as the rewriter's citation source: its requests come marked urn_checked (the
// rewriter does not parse their URNs again), which holds only if every URN it names parses.
#include <catch2/catch.hpp>
#include <filesystem>

#include "extract/citation_source.h"
#include "extract/extractors.h"
#include "rewrite/document.h"
#include "support/test_support.h"
#include "urn/urn.h"

namespace lexlink {
namespace {

// The extractor's requests with urn_checked cleared: the rewriter checks every URN itself.
class UncheckedSource final : public rewrite::CitationSource {
 public:
  explicit UncheckedSource(extract::ExtractorSource& inner) : inner_(inner) {}
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
  extract::ExtractorSource& inner_;
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
  for (const fs::path& path : files) {
    const std::string doc = test::read_file(path);
    INFO(path.string());
    text::ViewOptions vo;
    vo.chunk_bytes = 16 << 10;  // several chunks for the larger documents
    rewrite::RewriteOptions ro;
    extract::ExtractorSource trusted(x);
    auto fast = rewrite::markup_document(doc, vo, ro, trusted);
    REQUIRE(fast);
    extract::ExtractorSource inner(x);
    UncheckedSource checked(inner);
    auto general = rewrite::markup_document(doc, vo, ro, checked);
    REQUIRE(general);
    CHECK(*fast == *general);
    requests += checked.requests;
  }
  CHECK(files.size() >= 20);
  CHECK(requests >= 1000);
}

}  // namespace
}  // namespace lexlink

// libFuzzer target: the rewriter's round trip. The first input byte chooses the format (auto,
// text, HTML, XML), the output profile, how the input is fed and the view chunk size; the next
// two bytes seed random citation spans (text and original offsets: inside tags, entities,
// characters, across blocks, overlapping); the rest is the document. Checks:
// unmark(markup(x)) == x, every proposed citation answered once (linked with links, or a
// reason), well-formed XML stays well-formed, and streaming unmark in small pieces agrees.
#include <cstdint>
#include <cstdlib>
#include <pugixml.hpp>
#include <random>
#include <string>
#include <string_view>

#include "fuzz/fuzz_data.h"
#include "rewrite/document.h"
#include "rewrite/unmark.h"

namespace {

using namespace lexlink;

class RandomSource final : public rewrite::CitationSource {
 public:
  explicit RandomSource(std::uint32_t seed) : rng_(seed) {}
  Status find(const text::TextView& chunk, std::vector<rewrite::Request>& out) override {
    const std::size_t n = 1 + chunk.text.size() / 16;
    for (std::size_t k = 0; k < n && k < 4096; ++k) {
      rewrite::Request r;
      r.urn = k % 11 == 0 ? "urn:lex:it:x" : "urn:lex:it:stato:legge:2000-04-03;56~art5";
      if (k % 13 == 0) r.href = "h?a=\"1\"&b=<2>'\xC3\xA0";
      const std::uint64_t len = rng_() % 48;
      if (rng_() % 2 == 0) {
        const std::uint64_t size = chunk.text.size() + 2;
        const std::uint64_t b = chunk.text_begin + rng_() % size;
        r.text = rewrite::Span{b, b + len};
      } else {
        const std::uint64_t size = chunk.orig_end - chunk.orig_begin + 2;
        const std::uint64_t b = chunk.orig_begin + rng_() % size;
        r.original = rewrite::Span{b, b + len};
      }
      out.push_back(std::move(r));
      ++proposed;
    }
    return Status::Ok();
  }
  std::uint64_t proposed = 0;

 private:
  std::mt19937 rng_;
};

bool well_formed(std::string_view doc) {
  pugi::xml_document d;
  return d.load_buffer(
              doc.data(), doc.size(),
              pugi::parse_default | pugi::parse_doctype | pugi::parse_pi | pugi::parse_comments)
             .status == pugi::status_ok;
}

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "rewrite_roundtrip_fuzz: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const std::uint8_t control = data[0];
  const auto seed = static_cast<std::uint32_t>(data[1] | data[2] << 8);
  const std::string_view doc(reinterpret_cast<const char*>(data + 3), size - 3);

  text::ViewOptions view;
  using FC = text::ViewOptions::FormatChoice;
  static constexpr FC kFormats[] = {FC::kAuto, FC::kText, FC::kHtml, FC::kXml};
  view.format = kFormats[control & 3];
  static constexpr std::size_t kChunks[] = {4 << 20, 64, 300, 4096};
  view.chunk_bytes = kChunks[(control >> 2) & 3];
  rewrite::RewriteOptions options;
  static constexpr rewrite::Profile kProfiles[] = {
      rewrite::Profile::kHtml,  rewrite::Profile::kAkn,       rewrite::Profile::kNir,
      rewrite::Profile::kLexml, rewrite::Profile::kLexmlSpan, rewrite::Profile::kHtml,
      rewrite::Profile::kHtml,  rewrite::Profile::kHtml};
  if ((control >> 4) & 1) options.profile = kProfiles[(control >> 5) & 7];

  RandomSource source(seed);
  std::string out;
  io::StringSink sink(out);
  std::vector<rewrite::Outcome> outcomes;
  {
    rewrite::DocumentRewriter d(view, options, source, sink);
    // Fed whole, or in pieces of 7 bytes.
    const std::size_t piece = (control & 0x80) != 0 ? 7 : doc.size() + 1;
    for (std::size_t i = 0; i < doc.size(); i += piece) {
      if (!d.feed(doc.substr(i, piece)).ok()) return 0;  // a refused input (XML too large)
    }
    if (!d.finish().ok()) return 0;
    outcomes = std::move(d.outcomes());
  }
  check(outcomes.size() == source.proposed, "a citation was not answered");
  for (const rewrite::Outcome& o : outcomes) {
    check(o.linked == !o.links.empty(), "linked without links, or links without being linked");
    check(o.linked || !o.detail.empty(), "a citation not linked without a reason");
  }
  // A document holding lexlink's own markers loses them on unmark.
  const bool has_markers = test::has_lexlink_markers(doc);
  const std::string back = rewrite::unmark(out);
  if (!has_markers) {
    check(back == doc, "unmark(markup(x)) != x");
    // Streaming unmark in small pieces agrees.
    std::string pieces;
    io::StringSink ps(pieces);
    rewrite::Unmarker u(ps);
    for (std::size_t i = 0; i < out.size(); i += 5) {
      check(u.feed(std::string_view(out).substr(i, 5)).ok(), "unmark feed failed");
    }
    check(u.finish().ok(), "unmark finish failed");
    check(pieces == back, "unmark in pieces differs");
    // pugixml stops reading at a NUL byte, so it is no judge of a document holding one.
    if (view.format == FC::kXml && doc.find('\0') == std::string_view::npos && well_formed(doc)) {
      check(well_formed(out), "well-formed XML in, malformed XML out");
    }
  }
  return 0;
}

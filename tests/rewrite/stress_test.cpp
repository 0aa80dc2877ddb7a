// Hostile documents through markup and back through unmark, streamed with bounded memory:
// invalid UTF-8, NUL bytes, truncated tags, an unclosed comment of 10 MB, 100,000 nested
// elements, and a 200 MB single line (32 MB under the sanitizers) that is generated, marked up,
// unmarked and compared piece by piece without ever being held whole.
#include <catch2/catch.hpp>
#include <cstring>
#include <functional>

#include "rewrite/document.h"
#include "rewrite/unmark.h"
#include "support/test_support.h"

using namespace lexlink;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kLongLine = 32u << 20;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr std::size_t kLongLine = 32u << 20;
#else
constexpr std::size_t kLongLine = 200u << 20;
#endif
#else
constexpr std::size_t kLongLine = 200u << 20;
#endif

// Proposes a citation every `every` text bytes, alternating text and original offsets.
class EverySource final : public rewrite::CitationSource {
 public:
  explicit EverySource(std::uint64_t every) : every_(every) {}
  Status find(const text::TextView& chunk, std::vector<rewrite::Request>& out) override {
    for (std::uint64_t t = 0; t + 12 < chunk.text.size(); t += every_) {
      rewrite::Request r;
      r.urn = "urn:lex:it:stato:legge:2000-04-03;56";
      if (++n_ % 2 == 0) {
        r.text = rewrite::Span{chunk.text_begin + t, chunk.text_begin + t + 12};
      } else {
        const std::uint64_t o = chunk.orig_begin + t * (chunk.orig_end - chunk.orig_begin) /
                                                       std::max<std::size_t>(chunk.text.size(), 1);
        r.original = rewrite::Span{o, std::min(o + 12, chunk.orig_end)};
      }
      out.push_back(std::move(r));
    }
    return Status::Ok();
  }
  std::uint64_t proposed() const { return n_; }

 private:
  std::uint64_t every_;
  std::uint64_t n_ = 0;
};

// Compares what it is given with the expected stream, piece by piece.
class CompareSink final : public io::Sink {
 public:
  explicit CompareSink(std::function<std::string(std::size_t)> expected)
      : expected_(std::move(expected)) {}
  Status write(std::string_view bytes) override {
    while (!bytes.empty()) {
      if (pos_ == have_.size()) {
        have_ = expected_(bytes.size());
        pos_ = 0;
        if (have_.empty()) {
          same_ = false;
          return Status::Ok();
        }
      }
      const std::size_t n = std::min(bytes.size(), have_.size() - pos_);
      if (std::memcmp(bytes.data(), have_.data() + pos_, n) != 0) same_ = false;
      pos_ += n;
      bytes.remove_prefix(n);
      total_ += n;
    }
    return Status::Ok();
  }
  bool same() const { return same_ && pos_ == have_.size() && expected_(1).empty(); }
  std::uint64_t total() const { return total_; }

 private:
  std::function<std::string(std::size_t)> expected_;
  std::string have_;
  std::size_t pos_ = 0;
  bool same_ = true;
  std::uint64_t total_ = 0;
};

// A sink that unmarks what it is given into another sink.
class UnmarkSink final : public io::Sink {
 public:
  explicit UnmarkSink(io::Sink& next) : unmarker_(next) {}
  Status write(std::string_view bytes) override { return unmarker_.feed(bytes); }
  Status finish() { return unmarker_.finish(); }
  std::uint64_t removed() const { return unmarker_.removed(); }

 private:
  rewrite::Unmarker unmarker_;
};

void round_trip(const std::string& name, const std::string& doc,
                text::ViewOptions::FormatChoice format) {
  INFO(name);
  text::ViewOptions view;
  view.format = format;
  view.chunk_bytes = 1 << 20;
  EverySource source(97);
  std::vector<rewrite::Outcome> outcomes;
  auto out = rewrite::markup_document(doc, view, {}, source, &outcomes);
  REQUIRE(out.ok());
  CHECK(outcomes.size() == source.proposed());
  CHECK(rewrite::unmark(*out) == doc);
}

}  // namespace

TEST_CASE("hostile documents round-trip", "[rewrite][stress]") {
  using FC = text::ViewOptions::FormatChoice;
  std::string invalid;
  for (int i = 0; i < 20000; ++i)
    invalid += i % 7 == 0 ? "\xFF\xC3 art. 5 \xE2\x82" : "legge n. 56 ";
  round_trip("invalid UTF-8", invalid, FC::kHtml);
  round_trip("invalid UTF-8 as text", invalid, FC::kText);
  std::string nul;
  for (int i = 0; i < 20000; ++i) nul += std::string("art.\0 5 <b>x\0</b> ", 19);
  round_trip("NUL bytes", nul, FC::kHtml);
  std::string truncated;
  for (int i = 0; i < 5000; ++i) truncated += "art. 5 <b class=\"x art. <i>6 </p <";
  round_trip("truncated tags", truncated, FC::kHtml);
  round_trip("unclosed comment of 10 MB", "art. 5 della legge <!-- " + std::string(10u << 20, 'c'),
             FC::kHtml);
  std::string nested_html;
  std::string nested_xml = "<r>";
  for (int i = 0; i < 100000; ++i) {
    nested_html += i % 2 ? "<b>art. 5 " : "<div>legge ";
    nested_xml += "<x>art. 5 ";
  }
  for (int i = 0; i < 100000; ++i) nested_xml += "</x>";
  nested_xml += "</r>";
  round_trip("100,000 nested HTML elements", nested_html, FC::kHtml);
  round_trip("100,000 nested XML elements", nested_xml, FC::kXml);
}

TEST_CASE("a very long single line streams through markup and unmark", "[rewrite][stress]") {
  // "art. 5 della legge " repeated, no newline: generated, marked up, unmarked and compared in
  // pieces, never whole.
  const std::string unit = "art. 5 della legge n. 56 ";
  auto generator = [&unit](std::uint64_t& done) {
    return [&unit, &done](std::size_t want) {
      std::string s;
      while (s.size() < std::max<std::size_t>(want, 1 << 16) && done < kLongLine) {
        const std::size_t n = std::min<std::uint64_t>(unit.size(), kLongLine - done);
        s.append(unit, 0, n);
        done += n;
      }
      return s;
    };
  };
  std::uint64_t fed = 0;
  std::uint64_t compared = 0;
  auto feed = generator(fed);
  CompareSink compare(generator(compared));
  UnmarkSink unmark(compare);
  text::ViewOptions view;
  view.format = text::ViewOptions::FormatChoice::kText;
  EverySource source(4096);
  rewrite::DocumentRewriter d(view, {}, source, unmark);
  std::uint64_t linked = 0;
  std::uint64_t answered = 0;
  while (true) {
    const std::string block = feed(1 << 20);
    if (block.empty()) break;
    REQUIRE(d.feed(block).ok());
    for (const rewrite::Outcome& o : d.outcomes()) linked += o.linked;
    answered += d.outcomes().size();
    d.outcomes().clear();
  }
  REQUIRE(d.finish().ok());
  for (const rewrite::Outcome& o : d.outcomes()) linked += o.linked;
  answered += d.outcomes().size();
  REQUIRE(unmark.finish().ok());
  CHECK(answered == source.proposed());
  CHECK(linked > 1000);
  CHECK(unmark.removed() == linked);
  CHECK(compare.total() == kLongLine);
  CHECK(compare.same());
}

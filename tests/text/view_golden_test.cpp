// The golden view cases of tests/data/text/views/cases.tsv: each document's view must equal its
// expected text and dump, satisfy every guarantee of text_view.h, and come out the same when the
// document is streamed in small pieces, with or without tiny chunks.
#include <catch2/catch.hpp>
#include <filesystem>

#include "support/test_support.h"
#include "text/text_test_util.h"
#include "text/view_builder.h"
#include "text/view_check.h"

using namespace lexlink;
using namespace lexlink::test;

namespace {

std::string source_path(const std::string& name) {
  const std::filesystem::path dir = data_path("tests/data/text/views");
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    if (f.rfind(name + ".src.", 0) == 0) return e.path().string();
  }
  FAIL("no source file for case " << name);
  return {};
}

// The view with adjacent same-kind pieces, contiguous kOther tags and touching zones merged, so
// a streamed document compares with the whole one.
struct Normalized {
  std::string text;
  std::vector<std::string> pieces, tags, zones;
};

Normalized normalize(const std::vector<text::TextView>& chunks) {
  Normalized n;
  text::Piece last{};
  bool have = false;
  auto flush_piece = [&] {
    if (have) {
      n.pieces.push_back(std::to_string(last.text_begin) + "+" + std::to_string(last.text_len) +
                         "@" + std::to_string(last.orig_begin) + "+" +
                         std::to_string(last.orig_len) + ":" +
                         std::to_string(static_cast<int>(last.kind)));
    }
  };
  std::uint64_t other_b = 0, other_e = 0;
  bool other = false;
  std::uint64_t zone_b = 0, zone_e = 0;
  bool zone = false;
  for (const auto& c : chunks) {
    n.text += c.text;
    for (const auto& p : c.map.pieces()) {
      const bool mergeable =
          (p.kind == text::PieceKind::kCopy || p.kind == text::PieceKind::kTranscoded) && have &&
          last.kind == p.kind && last.char_text_len == p.char_text_len &&
          last.text_begin + last.text_len == p.text_begin &&
          last.orig_begin + last.orig_len == p.orig_begin;
      if (mergeable) {
        last.text_len += p.text_len;
        last.orig_len += p.orig_len;
        continue;
      }
      flush_piece();
      last = p;
      have = true;
    }
    for (const auto& t : c.tags) {
      if (t.kind == text::Tag::Kind::kOther) {
        if (other && other_e == t.orig_begin) {
          other_e = t.orig_end;
          continue;
        }
        if (other)
          n.tags.push_back("other " + std::to_string(other_b) + "-" + std::to_string(other_e));
        other = true;
        other_b = t.orig_begin;
        other_e = t.orig_end;
        continue;
      }
      if (other)
        n.tags.push_back("other " + std::to_string(other_b) + "-" + std::to_string(other_e));
      other = false;
      n.tags.push_back(std::to_string(static_cast<int>(t.kind)) + " " + c.names[t.name] + " " +
                       std::to_string(t.orig_begin) + "-" + std::to_string(t.orig_end) +
                       (t.is_inline ? " i" : " b"));
    }
    for (const auto& z : c.no_link) {
      if (zone && zone_e == z.text_begin) {
        zone_e = z.text_end;
        continue;
      }
      if (zone) n.zones.push_back(std::to_string(zone_b) + "-" + std::to_string(zone_e));
      zone = true;
      zone_b = z.text_begin;
      zone_e = z.text_end;
    }
  }
  flush_piece();
  if (other) n.tags.push_back("other " + std::to_string(other_b) + "-" + std::to_string(other_e));
  if (zone) n.zones.push_back(std::to_string(zone_b) + "-" + std::to_string(zone_e));
  return n;
}

void require_no_violations(const std::vector<std::string>& v) {
  for (const auto& s : v) UNSCOPED_INFO(s);
  REQUIRE(v.empty());
}

}  // namespace

TEST_CASE("golden views", "[text][golden]") {
  const TsvFile table = load_table("tests/data/text/views/cases.tsv", {"name", "options", "what"});
  for (const TsvRow& row : table.rows()) {
    const std::string name(row.fields[0]);
    INFO(table.path() << ":" << row.line << ": " << name << " (" << row.fields[2] << ")");
    const std::string doc = read_bytes(source_path(name));
    const text::ViewOptions options = parse_view_options(row.fields[1]);
    // via=builder: a ViewBuilder (which refuses nothing) instead of make_view.
    const bool via_builder = row.fields[1].find("via=builder") != std::string_view::npos;
    Result<text::TextView> view = text::make_view(doc, options);
    if (via_builder) {
      CHECK_FALSE(view.ok());  // make_view refuses it as binary
      auto chunks = build_chunks(doc, options, 0);
      REQUIRE(chunks.size() == 1);
      view = std::move(chunks[0]);
    }
    if (!view) FAIL(view.error().message);
    require_no_violations(check_chunks(doc, {*view}));

    const std::string dir = data_path("tests/data/text/views/");
    const std::string dump = dump_view(*view);
    if (update_golden()) {
      write_bytes(dir + name + ".expected.txt", view->text);
      write_bytes(dir + name + ".expected.tsv", dump);
    } else {
      CHECK(view->text == read_bytes(dir + name + ".expected.txt"));
      CHECK(dump == read_bytes(dir + name + ".expected.tsv"));
    }

    // Streamed: in pieces of 1, 7 and 300 bytes, one chunk or chunks of 16 bytes.
    const Normalized whole = normalize({*view});
    for (std::size_t feed : {std::size_t{1}, std::size_t{7}, std::size_t{300}}) {
      for (std::size_t chunk : {std::size_t{4} << 20, std::size_t{16}}) {
        INFO("fed " << feed << " bytes at a time, chunk_bytes " << chunk);
        text::ViewOptions o = options;
        o.chunk_bytes = chunk;
        std::string error;
        const auto chunks = build_chunks(doc, o, feed, &error);
        REQUIRE(error.empty());
        require_no_violations(check_chunks(doc, chunks));
        if (chunk > doc.size()) CHECK(chunks.size() == 1);
        const Normalized streamed = normalize(chunks);
        CHECK(streamed.text == whole.text);
        CHECK(streamed.pieces == whole.pieces);
        CHECK(streamed.tags == whole.tags);
        CHECK(streamed.zones == whole.zones);
        CHECK(chunks.front().format == view->format);
        CHECK(chunks.front().encoding == view->encoding);
      }
    }
  }
}

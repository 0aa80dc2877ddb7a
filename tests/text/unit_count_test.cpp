// text::count_units: code points and UTF-16 code units of original bytes, from a table
// (tests/data/text/unit-counts.tsv), whole, cut at every character boundary, and repeated so
// that the vector blocks and their tails are used.
#include <catch2/catch.hpp>

#include "support/test_support.h"
#include "text/charset.h"
#include "text/unit_count.h"

using namespace lexlink;
using namespace lexlink::test;

namespace {

bool starts_character(const std::string& bytes, std::size_t i, text::Encoding e) {
  const auto b = static_cast<unsigned char>(bytes[i]);
  switch (e) {
    case text::Encoding::kUtf8: return (b & 0xC0) != 0x80;
    case text::Encoding::kUtf16Le:
    case text::Encoding::kUtf16Be: {
      if (i % 2 != 0) return false;
      const auto hi = static_cast<unsigned char>(bytes[e == text::Encoding::kUtf16Le ? i + 1 : i]);
      return !(hi >= 0xDC && hi <= 0xDF);
    }
    default: return true;
  }
}

}  // namespace

TEST_CASE("count_units counts code points and UTF-16 units", "[text]") {
  const TsvFile table =
      load_table("tests/data/text/unit-counts.tsv", {"encoding", "bytes", "code_points", "utf16"});
  REQUIRE(table.rows().size() >= 10);
  for (const TsvRow& row : table.rows()) {
    const std::string bytes = unescape(row.fields[1]);
    INFO("line " << row.line);
    const auto enc = text::encoding_from_label(row.fields[0], /*html=*/false);
    REQUIRE(enc);
    const text::Encoding e = *enc;
    const std::uint64_t cp = std::stoull(std::string(row.fields[2]));
    const std::uint64_t u16 = std::stoull(std::string(row.fields[3]));
    const text::UnitCount n = text::count_units(bytes, e);
    CHECK(n.code_points == cp);
    CHECK(n.utf16 == u16);
    for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
      if (!starts_character(bytes, cut, e)) continue;
      const auto a = text::count_units(std::string_view(bytes).substr(0, cut), e);
      const auto b = text::count_units(std::string_view(bytes).substr(cut), e);
      CHECK(a.code_points + b.code_points == cp);
      CHECK(a.utf16 + b.utf16 == u16);
    }
    std::string many;
    for (int k = 0; k < 40; ++k) many += bytes;
    for (std::size_t len : {many.size(), many.size() - bytes.size()}) {
      const auto r = text::count_units(std::string_view(many).substr(0, len), e);
      const std::uint64_t times = bytes.empty() ? 0 : len / bytes.size();
      CHECK(r.code_points == times * cp);
      CHECK(r.utf16 == times * u16);
    }
  }
}

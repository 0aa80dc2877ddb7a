// The records of `lexlink stream` (document/stream_request.h), from the table
// tests/data/document/stream-requests.tsv: what each line gives, or its error; and a record
// written back from what was read reads the same.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "document/stream_request.h"
#include "support/test_support.h"

namespace lexlink {
namespace {

using test::load_table;
using test::unescape;

std::string format_label(const std::optional<text::ViewOptions::FormatChoice>& f) {
  if (!f) return "";
  switch (*f) {
    case text::ViewOptions::FormatChoice::kAuto: return "auto";
    case text::ViewOptions::FormatChoice::kText: return "text";
    case text::ViewOptions::FormatChoice::kHtml: return "html";
    case text::ViewOptions::FormatChoice::kXml: return "xml";
  }
  return "?";
}

TEST_CASE("stream records: each line of the table reads as it says", "[document]") {
  const auto table =
      load_table("tests/data/document/stream-requests.tsv",
                 {"line", "max", "id", "content", "format", "jurisdiction", "self", "error"});
  REQUIRE(table.rows().size() >= 30);
  std::size_t refused = 0;
  for (const auto& row : table.rows()) {
    const auto& f = row.fields;
    INFO(table.path() << ":" << row.line << " " << f[0]);
    const std::string line = unescape(f[0]);
    const auto r = document::read_stream_request(line, std::stoull(std::string(f[1])));
    CHECK(r.id_json == unescape(f[2]));
    const std::string error = unescape(f[7]);
    if (!error.empty()) {
      ++refused;
      CHECK(r.error.find(error) != std::string::npos);
      CHECK(r.error.rfind("line ", 0) == std::string::npos);  // the caller says which line
      CHECK(r.content.empty());
      CHECK_FALSE(r.format);
      CHECK(r.jurisdiction.empty());
      CHECK(r.self.empty());
      continue;
    }
    CHECK(r.error.empty());
    CHECK(r.content == unescape(f[3]));
    CHECK(format_label(r.format) == f[4]);
    CHECK(r.jurisdiction == f[5]);
    CHECK(r.self == f[6]);
    // Written back as a record, it reads the same.
    nlohmann::ordered_json j;
    j["id"] = nlohmann::ordered_json::parse(r.id_json);
    j["content"] = r.content;
    if (r.format) j["format"] = format_label(r.format);
    if (!r.jurisdiction.empty()) j["jurisdiction"] = r.jurisdiction;
    if (!r.self.empty()) j["self"] = r.self;
    const auto again = document::read_stream_request(j.dump(), std::stoull(std::string(f[1])));
    CHECK(again.error.empty());
    CHECK(again.id_json == r.id_json);
    CHECK(again.content == r.content);
    CHECK(again.format == r.format);
    CHECK(again.jurisdiction == r.jurisdiction);
    CHECK(again.self == r.self);
  }
  CHECK(refused >= 15);
  CHECK(table.rows().size() - refused >= 12);
}

}  // namespace
}  // namespace lexlink

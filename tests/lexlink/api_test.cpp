// The public C++ API (lexlink/lexlink.h) tested as a program using it would: the bad-input
// table of every entry point (tests/data/lexlink/bad-input.tsv, shared with the C test), the
// library against the CLI on the bundled corpora (one pipeline: the same citations and offsets),
// markup then unmark giving the input back, copies and threads sharing one extractor, and the
// URN toolkit.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <thread>

#include "lexlink/lexlink.h"
#include "support/test_support.h"

namespace {

using lexlink::ErrorCode;
using lexlink::test::data_path;

const std::map<std::string, int, std::less<>> kStatus = {
    {"OK", -1},
    {"INVALID_ARGUMENT", static_cast<int>(ErrorCode::kInvalidArgument)},
    {"DATA", static_cast<int>(ErrorCode::kDataError)},
    {"NOT_FOUND", static_cast<int>(ErrorCode::kNotFound)},
    {"IO", static_cast<int>(ErrorCode::kIoError)},
    {"LIMIT_EXCEEDED", static_cast<int>(ErrorCode::kLimitExceeded)},
    {"UNSUPPORTED", static_cast<int>(ErrorCode::kUnsupported)}};

// key=value options of a table row.
std::map<std::string, std::string> options_of(std::string_view column) {
  std::map<std::string, std::string> out;
  if (column == "-") return out;
  for (const std::string& kv : lexlink::test::split(column, " ")) {
    const auto eq = kv.find('=');
    out[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return out;
}

lexlink::ExtractorOptions extractor_options(const std::map<std::string, std::string>& o) {
  lexlink::ExtractorOptions x;
  x.data_folder = data_path(o.count("data") ? o.at("data") : "");
  if (o.count("jurisdictions")) x.jurisdictions = lexlink::test::split(o.at("jurisdictions"), ",");
  if (o.count("max")) x.max_document_bytes = std::stoull(o.at("max"));
  x.cache_folder = "-";
  return x;
}

// Runs one row through the C++ API: the error, or none.
std::optional<lexlink::Error> run_row(const std::vector<std::string_view>& row) {
  const std::string call(row[1]);
  const auto o = options_of(row[2]);
  const bool is_null = row[3] == "NULL";
  const std::string input =
      row[3] == "-" || is_null ? std::string() : lexlink::test::unescape(row[3]);
  // The C++ API has no null pointer: a null string_view is the empty one.
  const std::string_view doc = is_null ? std::string_view() : std::string_view(input);
  lexlink::UrnOptions u;
  if (o.count("max_length")) u.max_length = std::stoull(o.at("max_length"));
  if (call == "urn_validate") {
    if (auto s = lexlink::urn_validate(doc, u); !s) return s.error();
    return std::nullopt;
  }
  if (call == "urn_normalize") {
    if (auto r = lexlink::urn_normalize(doc, u); !r) return r.error();
    return std::nullopt;
  }
  if (call == "urn_parse") {
    if (auto r = lexlink::urn_parse(doc, u); !r) return r.error();
    return std::nullopt;
  }
  if (call == "unmark") {
    if (auto r = lexlink::unmark(doc); !r) return r.error();
    return std::nullopt;
  }
  auto x = lexlink::Extractor::load(extractor_options(o));
  if (!x) return x.error();
  lexlink::DocumentOptions d;
  if (o.count("encoding")) d.encoding = o.at("encoding");
  if (call == "extract") {
    if (auto r = x->extract(doc, d); !r) return r.error();
  } else if (call == "extract_file") {
    if (auto r = x->extract_file(is_null ? std::string() : data_path(input), d); !r) {
      return r.error();
    }
  } else if (call == "markup") {
    lexlink::MarkupOptions m;
    m.document = d;
    if (o.count("profile")) m.profile = o.at("profile");
    if (auto r = x->markup(doc, m); !r) return r.error();
  } else if (call != "open") {
    FAIL("unknown call " << call);
  }
  return std::nullopt;
}

// Every jurisdiction of the source tree's data folder.
lexlink::Result<lexlink::Extractor> source_extractor() {
  lexlink::ExtractorOptions o;
  o.data_folder = data_path("");
  auto x = lexlink::Extractor::load(o);
  REQUIRE(x);
  return x;
}

}  // namespace

TEST_CASE("C++ API: every entry point refuses bad input with an error value", "[lexlink]") {
  const auto table =
      lexlink::test::load_table("tests/data/lexlink/bad-input.tsv",
                                {"case", "call", "options", "input", "status", "message"});
  REQUIRE(table.rows().size() >= 20);
  for (const auto& row : table.rows()) {
    const std::string name(row.fields[0]);
    // A NULL path is the C API's case; the C++ API takes a string, and "" is no file.
    INFO("bad-input.tsv:" << row.line << ": " << name);
    const auto want = kStatus.find(row.fields[4]);
    REQUIRE(want != kStatus.end());
    const auto error = run_row(row.fields);
    if (want->second < 0) {
      CHECK_FALSE(error.has_value());
      if (error) INFO(error->to_string());
      continue;
    }
    REQUIRE(error.has_value());
    CHECK(static_cast<int>(error->code) == want->second);
    const std::string message = error->to_string();
    INFO(message);
    CHECK_FALSE(error->message.empty());
    if (row.fields[5] != "-") CHECK(message.find(std::string(row.fields[5])) != std::string::npos);
  }
}

TEST_CASE("C++ API: extract_file gives the citations and offsets the CLI prints",
          "[lexlink][corpus]") {
  auto x = source_extractor();
  std::size_t compared = 0;
  for (const auto& path : lexlink::test::corpus_texts()) {
    INFO(path.string());
    auto cites = x->extract_file(path.string());
    REQUIRE(cites);
    auto cli = lexlink::test::run_cli(
        {"extract", "--jurisdiction", "auto", "--offsets", "all", path.string()});
    INFO(cli.err);
    REQUIRE(cli.exit_code == 0);
    std::vector<nlohmann::json> lines;
    for (const std::string& line : lexlink::test::split(cli.out, "\n")) {
      if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
    }
    REQUIRE(lines.size() == cites->size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const auto& c = (*cites)[i];
      const auto& j = lines[i];
      CHECK(j.at("urn") == c.urn);
      CHECK(j.at("rule") == c.rule);
      CHECK(j.at("start").get<std::uint64_t>() == c.bytes.begin);
      CHECK(j.at("end").get<std::uint64_t>() == c.bytes.end);
      CHECK(j.at("char_start").get<std::uint64_t>() == c.code_points.begin);
      CHECK(j.at("utf16_end").get<std::uint64_t>() == c.utf16.end);
      CHECK(j.at("complete").get<bool>() == c.complete);
      ++compared;
    }
  }
  CHECK(compared > 500);
}

TEST_CASE("C++ API: markup links citations and unmark gives the document back", "[lexlink]") {
  auto x = source_extractor();
  std::size_t linked = 0;
  for (const auto& path : lexlink::test::corpus_texts()) {
    INFO(path.string());
    const std::string html = lexlink::test::html_paragraphs(lexlink::test::read_file(path));
    auto r = x->markup(html);
    REQUIRE(r);
    for (const auto& outcome : r->outcomes) {
      if (!outcome.linked) continue;
      ++linked;
      CHECK(r->document.find("href=\"" + outcome.href + "\"") != std::string::npos);
    }
    auto back = lexlink::unmark(r->document);
    REQUIRE(back);
    CHECK(*back == html);
  }
  CHECK(linked > 500);
}

TEST_CASE("C++ API: one extractor, its copies and threads give the same citations",
          "[lexlink][threads]") {
  auto loaded = source_extractor();
  const lexlink::Extractor x = *loaded;  // a copy shares the compiled grammars
  CHECK(x.jurisdictions() == loaded->jurisdictions());
  CHECK(x.jurisdictions() == lexlink::jurisdictions(data_path("")));
  const auto texts = lexlink::test::corpus_texts();
  REQUIRE(texts.size() >= 4);
  std::vector<std::vector<std::string>> alone(texts.size()), together(texts.size());
  auto urns = [&](const std::filesystem::path& p) {
    std::vector<std::string> out;
    auto r = x.extract_file(p.string());
    if (r) {
      for (const auto& c : *r) out.push_back(c.urn + "@" + std::to_string(c.utf16.begin));
    }
    return out;
  };
  for (std::size_t i = 0; i < texts.size(); ++i) alone[i] = urns(texts[i]);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = t; i < texts.size(); i += 4) together[i] = urns(texts[i]);
    });
  }
  for (auto& t : threads) t.join();
  CHECK(alone == together);
}

TEST_CASE("C++ API: the URN toolkit", "[lexlink][urn]") {
  auto parts = lexlink::urn_parse("URN:LEX:IT:Stato:Legge:2000-04-03;56~art3-com2");
  REQUIRE(parts);
  CHECK(parts->canonical == "urn:lex:it:stato:legge:2000-04-03;56~art3-com2");
  CHECK(parts->jurisdiction == "it");
  CHECK(parts->work == "urn:lex:it:stato:legge:2000-04-03;56");
  CHECK(parts->partition == "art3-com2");
  CHECK(parts->year == "2000");
  CHECK_FALSE(parts->year_only);
  CHECK(nlohmann::json::parse(parts->json).at("partition") == "art3-com2");
  auto year = lexlink::urn_parse("urn:lex:it:stato:legge:2000;56");
  REQUIRE(year);
  CHECK(year->year_only);

  auto eq = lexlink::urn_equal("urn:lex:it:stato:legge:2000-04-03;56",
                               "URN:LEX:it:STATO:legge:2000-04-03;56");
  REQUIRE(eq);
  CHECK(*eq);
  auto ne = lexlink::urn_equal("urn:lex:it:stato:legge:2000-04-03;56~art3",
                               "urn:lex:it:stato:legge:2000-04-03;56~ART3");
  REQUIRE(ne);
  CHECK(*ne);  // names are case-insensitive (RFC 9676 section 3.3), partition ids too
  auto other = lexlink::urn_equal("urn:lex:it:stato:legge:2000-04-03;56~art3",
                                  "urn:lex:it:stato:legge:2000-04-03;56~art4");
  REQUIRE(other);
  CHECK_FALSE(*other);

  auto url = lexlink::urn_resolve("urn:lex:it:stato:legge:2000-04-03;56~art3", '~', data_path(""));
  REQUIRE(url);
  CHECK(url->find("normattiva.it") != std::string::npos);
  CHECK(url->find("~art3") != std::string::npos);
  auto none = lexlink::urn_resolve("urn:lex:xx:stato:legge:2000-04-03;56", '#', data_path(""));
  REQUIRE_FALSE(none);
  CHECK(none.error().code == ErrorCode::kNotFound);

  auto bad = lexlink::urn_validate("urn:lex:it:stato:legge:2000-13-03;56");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().col > 0);
}

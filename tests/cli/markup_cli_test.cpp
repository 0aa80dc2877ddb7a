// `lexlink markup` and `lexlink unmark` end to end: files and standard streams, the report,
// in-place updates, exit statuses, refused input, and never a half-written output file.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/test_support.h"

using lexlink::test::run_cli;
using lexlink::test::split;
using nlohmann::json;
namespace fs = std::filesystem;

using lexlink::test::TempDir;

namespace {

std::vector<json> json_lines(const std::string& out) {
  std::vector<json> lines;
  for (const std::string& line : split(out, "\n")) {
    if (!line.empty()) lines.push_back(json::parse(line));
  }
  return lines;
}

const std::string kDoc =
    "<p>Visto l'art. 5 della <b>legge 3 aprile 2000</b>, n.&nbsp;56;</p>\n"
    "<p>vista la <a href=\"x\">legge n. 241 del 1990</a>.</p>\n";

// Offsets into kDoc: "art. 5" [11, 17); "legge 3 aprile 2000</b>, n.&nbsp;56" [27, 62);
// "legge n. 241 del 1990" [92, 113).
const std::string kCitations =
    "{\"start\":11,\"end\":17,\"urn\":\"urn:lex:it:stato:legge:2000-04-03;56~art5\"}\n"
    "\n"
    "{\"start\":92,\"end\":113,\"urn\":\"urn:lex:it:stato:legge:1990;241\",\"rule\":\"it.legge\"}\n"
    "{\"start\":27,\"end\":62,\"urn\":\"urn:lex:it:stato:legge:2000-04-03;56\",\"extra\":1}\n"
    "{\"start\":9000,\"end\":9010,\"urn\":\"urn:lex:it:stato:legge:2000;1\"}\n";

}  // namespace

TEST_CASE("markup: a file with a citations file, a report and an output file", "[cli]") {
  TempDir dir;
  const std::string doc = dir.file("doc.html", kDoc);
  const std::string cit = dir.file("cit.jsonl", kCitations);
  const std::string out = (dir.path / "out.html").string();
  const std::string rep = (dir.path / "report.jsonl").string();
  REQUIRE(kDoc.substr(11, 6) == "art. 5");
  REQUIRE(kDoc.substr(92, 21) == "legge n. 241 del 1990");
  auto r =
      run_cli({"markup", "--format", "html", "--citations", cit, "--report", rep, doc, "-o", out});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  const std::string marked = dir.read("out.html");
  CHECK(marked ==
        "<p>Visto l'<a data-lexlink=\"\" href=\"urn:lex:it:stato:legge:2000-04-03;56~art5\" "
        "data-urn=\"urn:lex:it:stato:legge:2000-04-03;56~art5\">art. 5</a> della <a "
        "data-lexlink=\"\" href=\"urn:lex:it:stato:legge:2000-04-03;56\" "
        "data-urn=\"urn:lex:it:stato:legge:2000-04-03;56\"><b>legge 3 aprile 2000</b>, "
        "n.&nbsp;56</a>;</p>\n"
        "<p>vista la <a href=\"x\">legge n. 241 del 1990</a>.</p>\n");
  // The report: one object per citation, in document order, then those past the end.
  auto report = json_lines(dir.read("report.jsonl"));
  REQUIRE(report.size() == 4);
  CHECK(report[0]["linked"] == true);
  CHECK(report[0]["reason"] == "linked");
  CHECK(report[0]["text"] == "art. 5");
  CHECK(report[0]["links"] == json::array({json::array({11, 17})}));
  CHECK(report[0]["line"] == 1);
  CHECK(report[1]["linked"] == true);
  CHECK(report[1]["links"] == json::array({json::array({24, 62})}));  // widened over <b>
  CHECK(report[2]["linked"] == false);
  CHECK(report[2]["reason"] == "existing_link");
  CHECK(report[2]["rule"] == "it.legge");
  CHECK(report[3]["reason"] == "out_of_range");
  // No temporary file left.
  CHECK(dir.names() ==
        std::vector<std::string>{"cit.jsonl", "doc.html", "out.html", "report.jsonl"});

  // unmark gives the input back; stdin to stdout works too.
  auto u = run_cli({"unmark", out});
  CHECK(u.exit_code == 0);
  CHECK(u.out == kDoc);
  auto u2 = run_cli({"unmark", "-"}, marked);
  CHECK(u2.out == kDoc);

  // From standard input to standard output; without --report, a summary on stderr.
  auto again = run_cli({"markup", "--format", "html", "--citations", cit, "-"}, kDoc);
  CHECK(again.exit_code == 0);
  CHECK(again.out == marked);
  CHECK(again.err.find("2 of 4 citations not linked") != std::string::npos);
}

TEST_CASE("markup: profiles and hrefs from the command line", "[cli]") {
  const std::string doc =
      "<r xmlns=\"http://docs.oasis-open.org/legaldocml/ns/akn/3.0\"><p>x "
      "art. 5 y</p></r>";
  const std::size_t at = doc.find("art. 5");
  const std::string cit = "{\"start\":" + std::to_string(at) +
                          ",\"end\":" + std::to_string(at + 6) +
                          ",\"urn\":\"urn:lex:it:stato:legge:2000-04-03;56~art5\"}\n";
  TempDir dir;
  const std::string c = dir.file("c.jsonl", cit);
  auto auto_profile = run_cli({"markup", "--citations", c, "-"}, doc);
  CHECK(auto_profile.exit_code == 0);
  CHECK(auto_profile.out.find("<?lexlink?><ref href=\"urn:lex:it:stato:legge:2000-04-03;56~art5\">"
                              "art. 5</ref>") != std::string::npos);
  auto resolver =
      run_cli({"markup", "--profile", "html", "--href", "resolver", "--citations", c, "-"}, doc);
  CHECK(resolver.exit_code == 0);
  CHECK(resolver.out.find("href=\"https://www.normattiva.it/uri-res/N2Ls?urn:nir:stato:legge:"
                          "2000-04-03;56#art5\" data-urn=\"urn:lex:it:stato:legge:2000-04-03;"
                          "56~art5\"") != std::string::npos);
  auto tilde = run_cli({"markup", "--profile", "nir", "--href", "resolver", "--partition-sep", "~",
                        "--citations", c, "-"},
                       doc);
  CHECK(tilde.out.find("<?lexlink?><rif xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
                       "xlink:href=\"https://www.normattiva.it/uri-res/N2Ls?urn:nir:stato:"
                       "legge:2000-04-03;56~art5\">") != std::string::npos);
  auto hash = run_cli({"markup", "--partition-sep=#", "--citations", c, "-"}, doc);
  CHECK(hash.out.find("href=\"urn:lex:it:stato:legge:2000-04-03;56#art5\"") != std::string::npos);
}

TEST_CASE("markup and unmark in place", "[cli]") {
  TempDir dir;
  const std::string doc = dir.file("doc.html", kDoc);
  const std::string cit = dir.file("cit.jsonl", kCitations);
  ::chmod(doc.c_str(), 0640);
  auto r = run_cli({"markup", "--format", "html", "--citations", cit, doc, "-o", doc});
  CHECK(r.exit_code == 0);
  CHECK(dir.read("doc.html").find("data-lexlink") != std::string::npos);
  struct stat st {};
  REQUIRE(::stat(doc.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);  // permissions kept
  auto u = run_cli({"unmark", doc, "-o", doc});
  CHECK(u.exit_code == 0);
  CHECK(dir.read("doc.html") == kDoc);
  CHECK(dir.names() == std::vector<std::string>{"cit.jsonl", "doc.html"});
}

TEST_CASE("markup and unmark refuse bad input and never leave a half-written output", "[cli]") {
  TempDir dir;
  const std::string cit = dir.file("cit.jsonl", kCitations);
  const std::string binary =
      dir.file("image.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  const std::string out = (dir.path / "out.html").string();
  const std::string previous = dir.file("kept.html", "previous content");
  for (const char* command : {"markup", "unmark"}) {
    INFO(command);
    std::vector<std::string> args{command};
    if (std::string(command) == "markup") args.insert(args.end(), {"--citations", cit});
    // A binary file: refused, exit 1, no output file created.
    auto a = args;
    a.insert(a.end(), {binary, "-o", out});
    auto r = run_cli(a);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("binary") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
    // A file that does not exist, or a folder: exit 1, an existing output untouched.
    for (const std::string& bad : {(dir.path / "missing.html").string(), dir.path.string()}) {
      auto b = args;
      b.insert(b.end(), {bad, "-o", previous});
      auto rb = run_cli(b);
      CHECK(rb.exit_code == 1);
      CHECK_FALSE(rb.err.empty());
      CHECK(dir.read("kept.html") == "previous content");
    }
    // Usage errors: exit 2.
    CHECK(run_cli({command}).exit_code == 2);
    CHECK(run_cli({command, "a", "b"}).exit_code == 2);
    auto bad_option = args;
    bad_option.insert(bad_option.end(), {"--no-such-option", "x"});
    CHECK(run_cli(bad_option).exit_code == 2);
    CHECK(run_cli({command, "--help"}).exit_code == 0);
  }
  // Bad options of markup.
  CHECK(run_cli({"markup", "--profile", "docbook", "--citations", cit, "-"}).exit_code == 2);
  CHECK(run_cli({"markup", "--href", "web", "--citations", cit, "-"}).exit_code == 2);
  CHECK(run_cli({"markup", "--partition-sep", "!", "--citations", cit, "-"}).exit_code == 2);
  CHECK(run_cli({"markup", "--format", "pdf", "--citations", cit, "-"}).exit_code == 2);
  // A malformed citations file: exit 1 with file:line:col, no output.
  const std::string bad =
      dir.file("bad.jsonl", "{\"start\":1,\"end\":2,\"urn\":\"u\"}\n{\"start\":");
  auto rc = run_cli({"markup", "--citations", bad, "-", "-o", out}, "x");
  CHECK(rc.exit_code == 1);
  CHECK(rc.err.find("bad.jsonl:2:") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  const std::string no_urn = dir.file("no-urn.jsonl", "{\"start\":1,\"end\":2}\n");
  CHECK(run_cli({"markup", "--citations", no_urn, "-"}, "x").exit_code == 1);
  // A report in a folder that does not exist: exit 1, and the output is not written.
  auto rr = run_cli(
      {"markup", "--citations", cit, "--report", "/nonexistent/dir/r.jsonl", "-", "-o", out}, kDoc);
  CHECK(rr.exit_code == 1);
  CHECK_FALSE(fs::exists(out));
  CHECK(dir.names() == std::vector<std::string>{"bad.jsonl", "cit.jsonl", "image.png", "kept.html",
                                                "no-urn.jsonl"});
}

TEST_CASE("unmark: hostile input is copied through", "[cli]") {
  std::string input = "a\xFF\xFE<a data-lexlink=\"\" href=\"u\">x</a>";
  input += std::string(1 << 20, 'y');
  input += "<a data-lexlink=\"\" href=\"u\">unclosed";
  auto r = run_cli({"unmark", "-"}, input);
  CHECK(r.exit_code == 0);
  CHECK(r.out ==
        "a\xFF\xFEx" + std::string(1 << 20, 'y') + "<a data-lexlink=\"\" href=\"u\">unclosed");
  CHECK(r.err.find("1 lexlink markers left in place") != std::string::npos);
}

TEST_CASE("markup without --citations links what the extractor finds", "[cli]") {
  TempDir dir;
  const std::string doc = dir.file("doc.html", kDoc);
  const std::string rep = (dir.path / "report.jsonl").string();
  auto r = run_cli({"markup", "--jurisdiction", "it", "--report", rep, doc});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // The citation crosses <b> and an entity: one link wraps it whole; the cited act inside an
  // existing <a> is reported, not linked.
  CHECK(r.out ==
        "<p>Visto l'<a data-lexlink=\"\" href=\"urn:lex:it:stato:legge:2000-04-03;56~art5\" "
        "data-urn=\"urn:lex:it:stato:legge:2000-04-03;56~art5\">art. 5 della <b>legge 3 aprile "
        "2000</b>, n.&nbsp;56</a>;</p>\n"
        "<p>vista la <a href=\"x\">legge n. 241 del 1990</a>.</p>\n");
  auto report = json_lines(dir.read("report.jsonl"));
  REQUIRE(report.size() == 2);
  CHECK(report[0]["rule"] == "it/act-date-number");
  CHECK(report[0]["text"] == "art. 5 della legge 3 aprile 2000, n.\u00a056");  // &nbsp; read
  CHECK(report[1]["urn"] == "urn:lex:it:stato:legge:1990;241");
  CHECK(report[1]["reason"] == "existing_link");
  CHECK(run_cli({"unmark", "-"}, r.out).out == kDoc);

  // Resolver links; the extractor's options are checked like extract's.
  auto resolver = run_cli({"markup", "--href", "resolver", "-"}, kDoc);
  CHECK(resolver.exit_code == 0);
  CHECK(resolver.out.find("href=\"https://www.normattiva.it/uri-res/N2Ls?urn:nir:") !=
        std::string::npos);
  // "della presente legge": the document's own name from its metadata, or from --self.
  const std::string self_doc =
      "<html><head><meta name=\"urn\" content=\"urn:lex:it:stato:legge:2000-04-03;56\"></head>"
      "<body><p>Ai sensi dell'articolo 5 della presente legge.</p></body></html>";
  auto self = run_cli({"markup", "-"}, self_doc);
  CHECK(self.out.find("data-urn=\"urn:lex:it:stato:legge:2000-04-03;56~art5\">articolo 5 della "
                      "presente legge</a>") != std::string::npos);
  auto given = run_cli({"markup", "--self", "urn:lex:it:stato:legge:2001-01-01;1", "-"}, self_doc);
  CHECK(given.out.find("href=\"urn:lex:it:stato:legge:2001-01-01;1~art5\"") != std::string::npos);
  auto extracted = run_cli({"extract", "-"}, self_doc);
  CHECK(extracted.out.find("\"urn\":\"urn:lex:it:stato:legge:2000-04-03;56~art5\"") !=
        std::string::npos);
  CHECK(run_cli({"markup", "--jurisdiction", "xx", "-"}, kDoc).exit_code == 2);
  CHECK(run_cli({"markup", "--engine", "pcre", "-"}, kDoc).exit_code == 2);
  CHECK(run_cli({"markup", "--self", "not a urn", "-"}, kDoc).exit_code == 2);
}

// Every document bundled in corpora/ (raw publisher files and the text of the eval corpora):
// markup with the extractor answers every citation extract finds, unmark restores the input
// byte for byte, and a second markup adds nothing.
TEST_CASE("markup with the extractor on every bundled document", "[cli][corpora]") {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(lexlink::test::data_path("corpora"))) {
    const fs::path& p = e.path();
    const std::string folder = p.parent_path().filename().string();
    if (e.is_regular_file() && (folder == "raw" || folder == "text") &&
        p.filename() != "LICENSE.md") {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 20);
  TempDir dir;
  std::size_t linked_total = 0;
  for (const fs::path& file : files) {
    INFO(file.string());
    const std::string out = (dir.path / "out").string();
    const std::string rep = (dir.path / "report.jsonl").string();
    auto m =
        run_cli({"markup", "--jurisdiction", "auto", "--report", rep, file.string(), "-o", out});
    INFO(m.err);
    REQUIRE(m.exit_code == 0);
    auto x = run_cli({"extract", "--jurisdiction", "auto", file.string()});
    REQUIRE(x.exit_code == 0);
    const auto citations = json_lines(x.out);
    const auto report = json_lines(dir.read("report.jsonl"));
    REQUIRE(report.size() == citations.size());  // nothing dropped
    for (std::size_t i = 0; i < report.size(); ++i) {
      CHECK(report[i]["urn"] == citations[i]["urn"]);
      CHECK(report[i]["start"] == citations[i]["start"]);
      if (report[i]["linked"] == true) ++linked_total;
    }
    std::ifstream in(file, std::ios::binary);
    const std::string original(std::istreambuf_iterator<char>(in), {});
    auto u = run_cli({"unmark", out});
    REQUIRE(u.exit_code == 0);
    CHECK(u.out == original);
    auto twice = run_cli({"markup", "--jurisdiction", "auto", out});
    REQUIRE(twice.exit_code == 0);
    CHECK(twice.out == dir.read("out"));
  }
  CHECK(linked_total > 100);
}

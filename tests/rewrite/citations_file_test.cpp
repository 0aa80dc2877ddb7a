// CitationsFile (the --citations FILE of `lexlink markup`): the table
// tests/data/rewrite/citations_files/cases.tsv loads each file, feeds it the chunks of a
// document and checks which citations each chunk receives, whether the file was streamed or
// held whole, and the file:line:col of a refused file. Every case is also checked against
// CitationsFile::parse of the same text (the held-whole path), and through a pipe.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "common/tsv.h"
#include "rewrite/citations_file.h"
#include "support/test_support.h"
#include "text/text_view.h"

using namespace lexlink;

namespace {

const std::string kDir = "tests/data/rewrite/citations_files/";

// The citations (as line numbers) each chunk receives, then finish()'s, as "1,2|3|".
std::string feed(rewrite::CitationsFile& file, const std::string& chunks) {
  std::string out;
  auto append = [&](const std::vector<rewrite::Request>& got) {
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (i != 0) out += ',';
      out += std::to_string(got[i].id);
    }
  };
  for (const std::string& range : test::split(chunks, ",")) {
    const std::vector<std::string> ends = test::split(range, "-");
    REQUIRE(ends.size() == 2);
    text::TextView chunk;
    chunk.orig_begin = std::stoull(ends[0]);
    chunk.orig_end = std::stoull(ends[1]);
    std::vector<rewrite::Request> got;
    REQUIRE(file.find(chunk, got).ok());
    append(got);
    out += '|';
  }
  std::vector<rewrite::Request> leftover;
  REQUIRE(file.finish(leftover).ok());
  append(leftover);
  return out;
}

// Loads `path` through a pipe (not a regular file: held whole).
Result<rewrite::CitationsFile> load_through_pipe(const std::string& content) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  REQUIRE(content.size() < 60000);  // fits the pipe's buffer: no writer thread needed
  REQUIRE(::write(fds[1], content.data(), content.size()) == static_cast<ssize_t>(content.size()));
  ::close(fds[1]);
  auto file = rewrite::CitationsFile::load("/dev/fd/" + std::to_string(fds[0]));
  ::close(fds[0]);
  return file;
}

}  // namespace

TEST_CASE("citations files: streamed in order, held whole otherwise, refused with file:line:col") {
  auto table = TsvFile::load(kDir + "cases.tsv", {"file", "mode", "chunks", "expected"});
  REQUIRE(table.ok());
  REQUIRE(table->rows().size() >= 10);
  for (const TsvRow& row : table->rows()) {
    const std::string path = kDir + std::string(row.fields[0]);
    const std::string mode(row.fields[1]);
    const std::string chunks(row.fields[2]);
    const std::string expected(row.fields[3]);
    INFO(table->path() << ":" << row.line << ": " << path << " " << mode << " " << chunks);
    std::string content;
    REQUIRE(read_file(path, content).ok());
    auto loaded = rewrite::CitationsFile::load(path);
    auto parsed = rewrite::CitationsFile::parse(path, content);
    auto piped = load_through_pipe(content);
    if (mode == "error") {
      REQUIRE_FALSE(loaded.ok());
      CHECK(loaded.error().to_string().rfind(path + ":" + expected, 0) == 0);
      INFO(loaded.error().to_string());
      REQUIRE_FALSE(parsed.ok());
      CHECK(parsed.error().to_string() == loaded.error().to_string());
      REQUIRE_FALSE(piped.ok());
      CHECK(piped.error().line == loaded.error().line);
      CHECK(piped.error().message == loaded.error().message);
      continue;
    }
    REQUIRE(loaded.ok());
    CHECK(loaded->streamed() == (mode == "streamed"));
    CHECK(feed(*loaded, chunks) == expected);
    REQUIRE(parsed.ok());
    CHECK_FALSE(parsed->streamed());
    CHECK(parsed->size() == loaded->size());
    CHECK(feed(*parsed, chunks) == expected);
    REQUIRE(piped.ok());
    CHECK_FALSE(piped->streamed());
    CHECK(feed(*piped, chunks) == expected);
  }
}

TEST_CASE("citations files: each citation's fields arrive as written, streamed or not") {
  for (const char* name : {"in_order.jsonl", "out_of_order.jsonl"}) {
    const std::string path = kDir + name;
    INFO(path);
    auto file = rewrite::CitationsFile::load(path);
    REQUIRE(file.ok());
    text::TextView all;
    all.orig_end = 1000;
    std::vector<rewrite::Request> got;
    REQUIRE(file->find(all, got).ok());
    REQUIRE(got.size() == 5);
    for (const rewrite::Request& r : got) {
      REQUIRE(r.original.has_value());
      CHECK_FALSE(r.text.has_value());
      CHECK(r.urn.rfind("urn:lex:", 0) == 0);
    }
    CHECK(got[0].original->begin == 0);
    CHECK(got[0].original->end == 5);
    CHECK(got[0].urn == "urn:lex:it:stato:legge:2000-04-03;56");
    if (std::string(name) == "in_order.jsonl") {
      CHECK(got[1].rule == "it/act-date-number");
      CHECK(got[2].href == "https://example.org/x");
      CHECK(got[2].original->end == 12);
      CHECK(got[3].urn == "urn:lex:br:federal:lei:1990-09-11;8078");  // its line ends in CR LF
    }
  }
}

TEST_CASE("citations files: a file that cannot be opened is an error naming it") {
  auto file = rewrite::CitationsFile::load(kDir + "no-such-file.jsonl");
  REQUIRE_FALSE(file.ok());
  CHECK(file.error().code == ErrorCode::kNotFound);
  CHECK(file.error().file == kDir + "no-such-file.jsonl");
}

TEST_CASE("citations files: a file changed between its checking and its use is an error") {
  test::TempDir dir("citations");
  const std::string a = R"({"start":0,"end":5,"urn":"urn:lex:it:stato:legge:2000-04-03;56"})";
  const std::string b = R"({"start":50,"end":55,"urn":"urn:lex:it:stato:legge:2000-04-03;56"})";
  const std::string path = dir.file("c.jsonl", a + "\n" + b + "\n");
  auto file = rewrite::CitationsFile::load(path);
  REQUIRE(file.ok());
  REQUIRE(file->streamed());
  dir.file("c.jsonl", b + "\n" + a + "\n");  // same file, rewritten out of order
  text::TextView all;
  all.orig_end = 1000;
  std::vector<rewrite::Request> got;
  const Status s = file->find(all, got);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().to_string() == path + ":2:1: the file changed while it was being applied");
}

TEST_CASE("citations files: a line longer than the reading block is read whole") {
  test::TempDir dir("citations");
  const std::string long_text(3'500'000, 'a');  // over three 1 MiB blocks
  const std::string path = dir.file(
      "c.jsonl", R"({"start":0,"end":5,"urn":"urn:lex:it:stato:legge:2000-04-03;56","text":")" +
                     long_text + "\"}\n" +
                     R"({"start":9,"end":12,"urn":"urn:lex:it:stato:legge:2000-04-03;56~art1"})");
  auto file = rewrite::CitationsFile::load(path);
  REQUIRE(file.ok());
  CHECK(file->streamed());
  CHECK(file->size() == 2);
  text::TextView all;
  all.orig_end = 100;
  std::vector<rewrite::Request> got;
  REQUIRE(file->find(all, got).ok());
  REQUIRE(got.size() == 2);
  CHECK(got[0].id == 1);
  CHECK(got[1].id == 2);
  CHECK(got[1].urn == "urn:lex:it:stato:legge:2000-04-03;56~art1");
}

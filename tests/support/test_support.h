// tests/support: helpers shared by the test suites.
// - data_path(): absolute path of a file in the source tree (tests read data files, never
// ../shared);
// - load_table(): a TSV table of cases (the same format as lexicons, see lexicons/README.md);
// - unescape(): "\t \n \\ \xNN" escapes so tables can hold any byte;
// - read_file(), corpus_texts(), html_paragraphs(): a file's bytes; the bundled corpus texts; a
//   text as HTML, a paragraph per line;
// - run_cli(): runs build/lexlink with arguments and standard input, captures both outputs;
// - TempDir: a fresh folder under /tmp for one test, removed at the end.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "common/tsv.h"

namespace lexlink::test {

std::string data_path(const std::string& relative);

// Loads `relative` (under the source tree) with the given header; fails the test on error.
TsvFile load_table(const std::string& relative, const std::vector<std::string>& header);

std::string unescape(std::string_view s);

// The bytes of a file; fails the test when it cannot be read.
std::string read_file(const std::filesystem::path& path);

// `text` as an HTML document with a <p> per line ('&' and '<' escaped): batch markup's usual
// input.
std::string html_paragraphs(const std::string& text);

// The bundled corpus texts, corpora/FOLDER/text/*.txt (every folder when `folder` is empty),
// sorted by path.
std::vector<std::filesystem::path> corpus_texts(const std::string& folder = {});

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  long peak_rss_kb = 0;  // the process's peak resident memory (ru_maxrss)
};
// Runs the lexlink binary with `args`, feeding `input` on standard input.
CliResult run_cli(const std::vector<std::string>& args, const std::string& input = {});

// Splits `s` on `sep` (every occurrence; empty fields kept).
std::vector<std::string> split(std::string_view s, std::string_view sep);

// A fresh folder for one test (/tmp/lexlink-PREFIX-XXXXXX), removed with everything in it.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix = "test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string operator/(const std::string& rel) const { return (path / rel).string(); }
  // Writes `content` to the file `name` in the folder; returns its path.
  std::string file(const std::string& name, const std::string& content) const;
  std::string read(const std::string& name) const;
  // Names in the folder, sorted (to see that no temporary file is left behind).
  std::vector<std::string> names() const;
};

}  // namespace lexlink::test

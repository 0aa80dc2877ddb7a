// tests/support: helpers shared by the test suites.
// - data_path(): absolute path of a file in the source tree (tests read data files, never
// ../shared);
// - load_table(): a TSV table of cases (the same format as lexicons, see lexicons/README.md);
// - unescape(): "\t \n \\ \xNN" escapes so tables can hold any byte;
// - run_cli(): runs build/lexlink with arguments and standard input, captures both outputs.
#pragma once

#include <string>
#include <vector>

#include "common/tsv.h"

namespace lexlink::test {

std::string data_path(const std::string& relative);

// Loads `relative` (under the source tree) with the given header; fails the test on error.
TsvFile load_table(const std::string& relative, const std::vector<std::string>& header);

std::string unescape(std::string_view s);

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs the lexlink binary with `args`, feeding `input` on standard input.
CliResult run_cli(const std::vector<std::string>& args, const std::string& input = {});

// Splits `s` on `sep` (every occurrence; empty fields kept).
std::vector<std::string> split(std::string_view s, std::string_view sep);

}  // namespace lexlink::test

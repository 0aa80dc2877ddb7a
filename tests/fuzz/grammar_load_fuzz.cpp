// libFuzzer target: the grammar loader (extractor/grammar/) on arbitrary grammar text. The input
// is written as grammars/g/g.grammar of a data folder of this process whose lexicons/ holds the
// small lexicons of the bad-grammar cases (x/acts.tsv, x/months.tsv, x/more.tsv) and links to
// the repository's own lexicons/<jur>/, so that the real grammars (the seeds) load as they are,
// and loaded with Grammar::load. Checks: no crash, leak or hang; a failed load names a place
// (a file of the folder, or the folder grammars/g); a grammar that loads has rules, each with a
// regular expression that RE2 compiles with the extractor's options (extract/symbol_options.h).
// Inputs naming a lexicon outside the data folder (an absolute path, "..") are skipped: the
// loader reads whatever a grammar names, and /dev/zero or a FIFO would read forever.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "extract/symbol_options.h"
#include "fuzz/fuzz_data.h"
#include "grammar/grammar.h"

namespace {

using namespace lexlink;

std::string g_data;

// A line declaring a lexicon or markers file that names a path outside the data folder.
bool names_outside(std::string_view input) {
  while (!input.empty()) {
    const std::size_t eol = input.find('\n');
    const std::string_view line = input.substr(0, eol);
    input.remove_prefix(eol == std::string_view::npos ? input.size() : eol + 1);
    if (line.substr(0, 7) != "lexicon" && line.substr(0, 7) != "markers") continue;
    if (line.find("..") != std::string_view::npos) return true;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] != '/') continue;
      const char before = i == 0 ? ' ' : line[i - 1];
      if (before == ' ' || before == '\t' || before == '\v' || before == '\f' || before == '\r' ||
          before == '=' || before == '\0') {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  namespace fs = std::filesystem;
  g_data = test::scratch_dir() + "/data";
  const std::string x = g_data + "/lexicons/x";
  fs::create_directories(x);
  fs::create_directories(g_data + "/grammars/g");
  const std::string bad =
      test::source_dir() + "/tests/data/grammars-bad/duplicate-phrase/lexicons/x";
  for (const char* f : {"acts.tsv", "months.tsv", "more.tsv"}) {
    test::link_or_die(bad + "/" + f, x + "/" + f);
  }
  for (const auto& e : fs::directory_iterator(test::source_dir() + "/lexicons")) {
    if (e.is_directory()) {
      test::link_or_die(e.path().string(), g_data + "/lexicons/" + e.path().filename().string());
    }
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (names_outside(input)) return -1;  // not added to the corpus
  test::write_file_or_die(g_data + "/grammars/g/g.grammar", input);
  auto g = grammar::Grammar::load(g_data, "g");
  if (!g) {
    const std::string where = g.error().to_string();
    if (where.find("grammars/g") == std::string::npos &&
        where.find("lexicons/") == std::string::npos) {
      test::die("grammar_load_fuzz", "an error that names no place: " + where);
    }
    if (g.error().file == "grammars/g/g.grammar" && g.error().line > 0) {
      std::size_t lines = 1;
      for (const char c : input) lines += c == '\n' ? 1 : 0;
      if (g.error().line > lines) {
        test::die("grammar_load_fuzz", "an error past the last line: " + where);
      }
    }
    return 0;
  }
  if (g->rules().empty()) test::die("grammar_load_fuzz", "a grammar without rules loaded");
  for (const grammar::Rule& r : g->rules()) {
    const re2::RE2 re(r.regex, extract::symbol_options(false));
    if (!re.ok()) {
      test::die("grammar_load_fuzz",
                "rule '" + r.name + "' compiles to a regular expression RE2 refuses: " + r.regex +
                    " (" + re.error() + ")");
    }
  }
  return 0;
}

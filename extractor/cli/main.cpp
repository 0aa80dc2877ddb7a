// lexlink: the command-line tool. `lexlink help` lists the commands; README.md is the manual.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "cli/json_lines.h"
#include "common/data_folder.h"

namespace {

constexpr const char* kUsage =
    "usage: lexlink [--data DIR] COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  urn parse|validate|normalize|equal|resolve [OPTIONS] [NAME...]\n"
    "      work with URN:LEX names; names come from the arguments or, one per line, from\n"
    "      standard input; one JSON object per name on standard output\n"
    "  extract [OPTIONS] FILE...|FOLDER...|-\n"
    "      the citations of sources of law in the files; one JSON object per citation\n"
    "  explain [--jurisdiction J] \"TEXT\"\n"
    "      how TEXT was read: the units, rules and lexicon entries behind each name\n"
    "  eval CORPUS_DIR\n"
    "      precision, recall and F1 against a corpus' publisher links\n"
    "  markup [OPTIONS] FILE|- [-o OUT]\n"
    "  markup --out-dir OUT|--in-place [OPTIONS] PATH...\n"
    "      the document with links on its citations, every other byte unchanged; many\n"
    "      documents on all cores, resumable (--resume)\n"
    "  stream [OPTIONS] < IN.jsonl > OUT.jsonl\n"
    "      JSON Lines of documents in, marked-up documents and citations out, in order\n"
    "  serve [--listen HOST:PORT] [OPTIONS]\n"
    "      the HTTP JSON service: extract, markup and URN names for editors and programs\n"
    "  unmark FILE|- [-o OUT]\n"
    "      the document without the links lexlink inserted\n"
    "  help      this text;  `lexlink COMMAND --help` for a command's options\n"
    "  version   the version\n"
    "\n"
    "--data DIR  the folder holding lexicons/ and grammars/ (default: $LEXLINK_DATA, else the\n"
    "            installed data, PREFIX/share/lexlink, else the source tree lexlink was built\n"
    "            from)\n";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string data;
  while (!args.empty() && args[0].rfind("--data", 0) == 0) {
    if (args[0] == "--data" && args.size() >= 2) {
      data = args[1];
      args.erase(args.begin(), args.begin() + 2);
    } else if (args[0].rfind("--data=", 0) == 0) {
      data = args[0].substr(7);
      args.erase(args.begin());
    } else {
      std::fputs("lexlink: --data needs a folder\n", stderr);
      return 2;
    }
  }
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "version" || args[0] == "--version") {
    std::printf("lexlink %s\n", LEXLINK_VERSION);
    return 0;
  }
  lexlink::cli::Context context{data.empty() ? lexlink::default_data_dir() : data};
  const std::string command = args[0];
  args.erase(args.begin());
  using Command = int (*)(const lexlink::cli::Context&, const std::vector<std::string>&);
  static constexpr std::pair<std::string_view, Command> kCommands[] = {
      {"urn", &lexlink::cli::urn_command},         {"extract", &lexlink::cli::extract_command},
      {"explain", &lexlink::cli::explain_command}, {"eval", &lexlink::cli::eval_command},
      {"markup", &lexlink::cli::markup_command},   {"unmark", &lexlink::cli::unmark_command},
      {"stream", &lexlink::cli::stream_command},   {"serve", &lexlink::cli::serve_command},
  };
  const auto found = std::find_if(std::begin(kCommands), std::end(kCommands),
                                  [&](const auto& c) { return c.first == command; });
  if (found == std::end(kCommands)) {
    std::fprintf(stderr, "lexlink: unknown command '%s'\n\n%s", command.c_str(), kUsage);
    return 2;
  }
  const int rc = found->second(context, args);
  // What a command wrote to standard output must have got there: a full disk behind a
  // redirection ("> out.jsonl") is an error, never an output cut short with exit status 0.
  // (errno still holds the failed write's error unless a later call failed otherwise.)
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int err = lexlink::cli::stdout_error() != 0 ? lexlink::cli::stdout_error() : errno;
    const bool write_error = err == ENOSPC || err == EDQUOT || err == EFBIG || err == EIO ||
                             err == EROFS || err == EPIPE;
    std::fprintf(stderr, "lexlink %s: cannot write standard output: %s\n", command.c_str(),
                 write_error ? std::strerror(err) : "write error");
    return rc == 0 ? 1 : rc;
  }
  return rc;
}

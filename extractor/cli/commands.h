// cli/commands: the subcommands of the `lexlink` tool. Each takes its arguments (after the
// subcommand name) and returns the process exit status: 0 success, 1 some input was invalid,
// 2 usage or setup error (a message on stderr says which).
#pragma once

#include <string>
#include <vector>

namespace lexlink::cli {

struct Context {
  std::string data_dir;  // the folder holding lexicons/ and grammars/
};

int urn_command(const Context& context, const std::vector<std::string>& args);
int extract_command(const Context& context, const std::vector<std::string>& args);
int explain_command(const Context& context, const std::vector<std::string>& args);
int eval_command(const Context& context, const std::vector<std::string>& args);
int markup_command(const Context& context, const std::vector<std::string>& args);
int unmark_command(const Context& context, const std::vector<std::string>& args);
int stream_command(const Context& context, const std::vector<std::string>& args);
int serve_command(const Context& context, const std::vector<std::string>& args);

}  // namespace lexlink::cli

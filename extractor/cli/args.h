// cli/args: a small, strict command-line parser shared by every subcommand.
// Options are declared up front; `--name value`, `--name=value` and flags are accepted, `--`
// ends the options, anything unknown is an error that names the option.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace lexlink::cli {

class Args {
 public:
  // Declares a flag (no value) or an option taking a value, with its default.
  Args& flag(const std::string& name);
  Args& option(const std::string& name, const std::string& default_value);
  // Declares a short spelling (`-o`) of a declared flag or option (`output`).
  Args& alias(const std::string& short_name, const std::string& name);
  // Declares a repeatable option (`--include A --include B`); all() gives every value.
  Args& multi(const std::string& name);

  // Parses; on failure returns false and sets error().
  bool parse(const std::vector<std::string>& args);

  bool has(const std::string& name) const;                // a flag was given
  const std::string& get(const std::string& name) const;  // an option's value
  bool given(const std::string& name) const;              // an option was given explicitly
  const std::vector<std::string>& all(const std::string& name) const;  // a multi option's values
  const std::vector<std::string>& positional() const { return positional_; }
  const std::string& error() const { return error_; }

 private:
  std::map<std::string, bool> flags_;
  std::map<std::string, std::string> options_;
  std::map<std::string, bool> given_;
  std::map<std::string, std::string> aliases_;
  std::map<std::string, std::vector<std::string>> multi_;
  std::vector<std::string> positional_;
  std::string error_;
};

}  // namespace lexlink::cli

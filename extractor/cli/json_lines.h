// cli/json_lines: writing JSON Lines to standard output, and the first error of those writes.
// The JSON text itself is common/json_text's (valid JSON whatever the input).
#pragma once

#include <cstdio>

#include <nlohmann/json.hpp>

#include "common/json_text.h"

namespace lexlink::cli {

// The first error (an errno) of a write to standard output, noted by writers on any thread
// (errno is per thread); 0 when none was noted. main() names it when standard output failed.
void note_stdout_error(int err);
int stdout_error();

// Writes value + '\n' to `out`.
void write_json_line(std::FILE* out, const nlohmann::ordered_json& value);

}  // namespace lexlink::cli

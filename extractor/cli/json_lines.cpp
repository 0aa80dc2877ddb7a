#include "cli/json_lines.h"

#include <atomic>
#include <string>

namespace lexlink::cli {

namespace {
std::atomic<int> first_stdout_error{0};
}  // namespace

void note_stdout_error(int err) {
  int none = 0;
  first_stdout_error.compare_exchange_strong(none, err);
}

int stdout_error() {
  return first_stdout_error.load();
}

void write_json_line(std::FILE* out, const nlohmann::ordered_json& value) {
  std::string line = to_json_line(value);
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), out);
}

}  // namespace lexlink::cli

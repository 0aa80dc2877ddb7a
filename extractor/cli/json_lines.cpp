#include "cli/json_lines.h"

namespace lexlink::cli {

std::string to_json_line(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void write_json_line(std::FILE* out, const nlohmann::ordered_json& value) {
  std::string line = to_json_line(value);
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), out);
}

}  // namespace lexlink::cli

#include "cli/json_lines.h"

#include "common/utf8.h"

namespace lexlink::cli {

std::string to_json_line(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    // A run of printable ASCII other than '"' and '\\' is copied as it is, in one append.
    std::size_t run = i;
    while (run < s.size()) {
      const auto r = static_cast<unsigned char>(s[run]);
      if (r < 0x20 || r >= 0x80 || r == '"' || r == '\\') break;
      ++run;
    }
    if (run > i) {
      out.append(s.data() + i, run - i);
      i = run;
      if (i == s.size()) break;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      std::size_t len;
      if (utf8::decode(s, i, len) == utf8::kInvalid) {
        out += "\xEF\xBF\xBD";
        i += 1;
      } else {
        out.append(s.data() + i, len);
        i += len;
      }
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      switch (c) {
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
      }
    } else {
      out += static_cast<char>(c);
    }
    ++i;
  }
  out += '"';
}

void write_json_line(std::FILE* out, const nlohmann::ordered_json& value) {
  std::string line = to_json_line(value);
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), out);
}

}  // namespace lexlink::cli

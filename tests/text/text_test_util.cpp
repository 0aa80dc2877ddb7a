#include "text/text_test_util.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/test_support.h"
#include "text/charset.h"

namespace lexlink::test {

text::ViewOptions parse_view_options(std::string_view options) {
  text::ViewOptions o;
  if (options == "-" || options.empty()) return o;
  for (const std::string& item : split(options, " ")) {
    const std::size_t eq = item.find('=');
    REQUIRE(eq != std::string::npos);
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "format") {
      if (value == "text") {
        o.format = text::ViewOptions::FormatChoice::kText;
      } else if (value == "html") {
        o.format = text::ViewOptions::FormatChoice::kHtml;
      } else {
        REQUIRE(value == "xml");
        o.format = text::ViewOptions::FormatChoice::kXml;
      }
    } else if (key == "encoding") {
      const auto e = text::encoding_from_label(value, false);
      REQUIRE(e.has_value());
      o.encoding = *e;
    } else if (key == "profile") {
      const text::XmlProfile* p = text::find_xml_profile(value);
      REQUIRE(p != nullptr);
      o.xml_profile = *p;
    } else if (key == "via") {
      REQUIRE(value == "builder");  // read by the golden test
    } else if (key == "chunk") {
      o.chunk_bytes = static_cast<std::size_t>(std::stoul(value));
    } else {
      FAIL("unknown option " << key);
    }
  }
  return o;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) FAIL("cannot read " << path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_bytes(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) FAIL("cannot write " << path);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

bool update_golden() {
  const char* v = std::getenv("LEXLINK_UPDATE_GOLDEN");
  return v != nullptr && std::string_view(v) == "1";
}

std::string collapse_spaces(std::string_view s) {
  std::string out;
  bool space = false;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = 1;
    bool ws = b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v';
    if (b == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0) {
      ws = true;
      len = 2;
    }
    if (ws) {
      space = !out.empty();
    } else {
      if (space) out += ' ';
      space = false;
      out.append(s.substr(i, len));
    }
    i += len;
  }
  return out;
}

}  // namespace lexlink::test

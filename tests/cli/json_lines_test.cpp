// cli/json_lines: write_json_string (the citation lines' writer) writes what append_json_string
// appends, byte for byte, within json_string_bound, for any input.
#include "cli/json_lines.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>

namespace {

std::string written(std::string_view s) {
  std::string out(lexlink::cli::json_string_bound(s.size()), '\0');
  char* end = lexlink::cli::write_json_string(out.data(), s);
  const auto n = static_cast<std::size_t>(end - out.data());
  REQUIRE(n <= out.size());
  out.resize(n);
  return out;
}

std::string appended(std::string_view s) {
  std::string out;
  lexlink::cli::append_json_string(out, s);
  return out;
}

}  // namespace

TEST_CASE("write_json_string writes what append_json_string appends") {
  for (const char* s : {"", "a", "legge 3 aprile 2000, n. 56", "urn:lex:it:stato:legge:2000;56",
                        "\"quoted\" \\ back", "tab\there\nnew\rline\x01\x1f\x7f",
                        "caf\xC3\xA8 perch\xC3\xA9 \xE2\x80\x94 \xF0\x9F\x98\x80",
                        "bad \xFF\xC3 bytes \xE2\x80", "12345678\"", "1234567\xC3\xA8"}) {
    CHECK(written(s) == appended(s));
  }
  // Random strings over the bytes that matter, of every length up to 40.
  std::mt19937 rng(42);
  const std::string alphabet =
      std::string("ab \"\\\t\n\x01\x1f\x7f", 11) + "\xC3\xA8\xE2\x80\x94\xFF\xF0\x9F\x98\x80";
  for (int k = 0; k < 20000; ++k) {
    std::string s(static_cast<std::size_t>(rng() % 41), ' ');
    for (char& c : s) c = alphabet[rng() % alphabet.size()];
    REQUIRE(written(s) == appended(s));
  }
}

// common/json_text: write_json_string (the citation lines' writer) writes what append_json_string
// appends, byte for byte, within json_string_bound, for any input; write_json_chars writes a
// string cut before an ASCII byte as it writes it whole; write_decimal writes what to_chars does.
#include "common/json_text.h"

#include <catch2/catch.hpp>
#include <charconv>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

std::string written(std::string_view s) {
  std::string out(lexlink::json_string_bound(s.size()), '\0');
  char* end = lexlink::write_json_string(out.data(), s);
  const auto n = static_cast<std::size_t>(end - out.data());
  REQUIRE(n <= out.size());
  out.resize(n);
  return out;
}

std::string appended(std::string_view s) {
  std::string out;
  lexlink::append_json_string(out, s);
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

TEST_CASE("write_json_chars writes a string cut before an ASCII byte as the whole string") {
  // The citation writer writes the work as the start of the urn's JSON (extract_command.cpp).
  std::mt19937 rng(7);
  const std::string alphabet =
      std::string("a~:;\"\\\t\n\x01\x7f", 10) + "\xC3\xA8\xE2\x80\x94\xFF\xF0\x9F\x98\x80";
  auto chars = [](std::string_view s) {
    std::string out(lexlink::json_string_bound(s.size()), '\0');
    out.resize(static_cast<std::size_t>(lexlink::write_json_chars(out.data(), s) - out.data()));
    return out;
  };
  for (int k = 0; k < 20000; ++k) {
    std::string s(static_cast<std::size_t>(rng() % 41), ' ');
    for (char& c : s) c = alphabet[rng() % alphabet.size()];
    const std::string whole = written(s);
    REQUIRE(whole == "\"" + chars(s) + "\"");
    for (std::size_t cut = 0; cut <= s.size(); ++cut) {
      if (cut < s.size() && static_cast<unsigned char>(s[cut]) >= 0x80) continue;
      REQUIRE(chars(std::string_view(s).substr(0, cut)) + chars(std::string_view(s).substr(cut)) ==
              chars(s));
    }
  }
}

TEST_CASE("write_decimal writes what std::to_chars writes") {
  std::vector<std::uint64_t> values = {
      0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 65535, 4294967295ull, 18446744073709551615ull};
  for (std::uint64_t p = 1; p != 0 && p <= 10000000000000000000ull; p *= 10) {
    values.push_back(p - 1);
    values.push_back(p);
    values.push_back(p + 1);
    if (p > 1000000000000000000ull) break;
  }
  std::mt19937_64 rng(3);
  for (int k = 0; k < 100000; ++k) values.push_back(rng() >> (rng() % 64));
  for (std::uint64_t v : values) {
    char expect[24];
    const auto r = std::to_chars(expect, expect + sizeof expect, v);
    std::string got(lexlink::kDecimalRoom, '\0');
    got.resize(static_cast<std::size_t>(lexlink::write_decimal(got.data(), v) - got.data()));
    REQUIRE(got == std::string(expect, r.ptr));
  }
}

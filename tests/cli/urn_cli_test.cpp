// `lexlink urn ...` end to end: JSON Lines out, one per input, errors on stderr, exit status,
// and hostile standard input (empty lines, 1 MB lines, invalid UTF-8, NUL bytes, CRLF).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/test_support.h"

using lexlink::test::run_cli;
using lexlink::test::split;
using nlohmann::json;

namespace {

std::vector<json> json_lines(const std::string& out) {
  std::vector<json> lines;
  for (const std::string& line : split(out, "\n")) {
    if (line.empty()) continue;
    lines.push_back(json::parse(line));  // throws (fails the test) on invalid JSON
  }
  return lines;
}

}  // namespace

TEST_CASE("urn validate: every stdin line gets one answer, in order", "[cli]") {
  std::string input;
  input += "urn:lex:it:stato:legge:2000-04-03;56\n";                   // 1 valid
  input += "\n";                                                       // 2 empty
  input += "urn:lex:it:stato:legge:2000-04-03;56~art3\r\n";            // 3 CRLF: valid
  input += "urn:lex:it:" + std::string(1 << 20, 'a') + ":x:2000;1\n";  // 4 1 MB: over the limit
  input += "urn:lex:it:stato:leg\xC3\x28ge:2000;1\n";                  // 5 invalid UTF-8
  input += std::string("urn:lex:it:stato\0:legge:2000;1\n", 31);       // 6 NUL byte
  input += "   urn:lex:br:federal:lei:1990-09-11;8078   \n";           // 7 spaces: valid
  input += "urn:lex:it:stato:legge:2000-13-01;1";                      // 8 no final newline
  auto r = run_cli({"urn", "validate"}, input);
  CHECK(r.exit_code == 1);
  auto lines = json_lines(r.out);
  REQUIRE(lines.size() == 8);
  CHECK(lines[0]["valid"] == true);
  CHECK(lines[1]["valid"] == false);
  CHECK(lines[1]["error"]["message"].get<std::string>().find("empty") != std::string::npos);
  CHECK(lines[2]["valid"] == true);
  CHECK(lines[3]["valid"] == false);
  CHECK(lines[3]["error"]["code"] == "limit_exceeded");
  CHECK(lines[4]["valid"] == false);
  CHECK(lines[4]["error"]["message"].get<std::string>().find("UTF-8") != std::string::npos);
  CHECK(lines[5]["valid"] == false);
  CHECK(lines[5]["error"]["message"].get<std::string>().find("NUL") != std::string::npos);
  CHECK(lines[6]["valid"] == true);
  CHECK(lines[6]["input"] == "urn:lex:br:federal:lei:1990-09-11;8078");
  CHECK(lines[7]["valid"] == false);
  // One stderr line per invalid input, naming the line; long inputs are shortened.
  auto err = split(r.err, "\n");
  CHECK(err.size() == 6);  // five invalid + the empty string after the last '\n'
  CHECK(r.err.find("line 2:") != std::string::npos);
  CHECK(r.err.find("line 4:") != std::string::npos);
  CHECK(r.err.find("(1048596 bytes)") != std::string::npos);
  CHECK(r.err.size() < 4000);
}

TEST_CASE("urn parse prints the structure and exits 0 when all are valid", "[cli]") {
  auto r = run_cli({"urn", "parse", "urn:lex:it:stato:legge:2000-04-03;56~art3-com2"});
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  auto lines = json_lines(r.out);
  REQUIRE(lines.size() == 1);
  const json& j = lines[0];
  CHECK(j["canonical"] == "urn:lex:it:stato:legge:2000-04-03;56~art3-com2");
  CHECK(j["jurisdiction"]["code"] == "it");
  CHECK(j["authority"][0]["institution"] == "stato");
  CHECK(j["measure"]["type"] == "legge");
  CHECK(j["details"]["dates"][0]["iso"] == "2000-04-03");
  CHECK(j["details"]["numbers"][0] == "56");
  CHECK(j["partition"] == "art3-com2");
  CHECK(j["expression"].is_null());
}

TEST_CASE("urn normalize, resolve and equal on the command line", "[cli]") {
  auto n = run_cli({"urn", "normalize", "--fold", "urn:lex:de:stadt.münchen:x:2001-01-01;1",
                    "urn:lex:it:ministero.sanità:decreto:2000-01-01;1"});
  CHECK(n.exit_code == 0);
  auto nl = json_lines(n.out);
  REQUIRE(nl.size() == 2);
  CHECK(nl[0]["normalized"] == "urn:lex:de:stadt.muenchen:x:2001-01-01;1");  // de: umlauts
  CHECK(nl[1]["normalized"] == "urn:lex:it:ministero.sanita:decreto:2000-01-01;1");

  auto res = run_cli(
      {"urn", "resolve", "--partition-sep", "~", "urn:lex:it:stato:legge:2000-04-03;56~art3"});
  CHECK(res.exit_code == 0);
  auto rl = json_lines(res.out);
  REQUIRE(rl.size() == 1);
  CHECK(rl[0]["url"] ==
        "https://www.normattiva.it/uri-res/N2Ls?urn:nir:stato:legge:2000-04-03;56~art3");

  auto none = run_cli({"urn", "resolve", "urn:lex:xx:a:b:2000;1"});
  CHECK(none.exit_code == 1);
  CHECK(none.err.find("no resolver rules for jurisdiction 'xx'") != std::string::npos);

  auto eq = run_cli({"urn", "equal"},
                    "urn:lex:it:a:b:2000;1\tURN:LEX:IT:A:B:2000;1\n"
                    "urn:lex:it:a:b:2000;1\turn:lex:it:a:b:2000;2\n");
  CHECK(eq.exit_code == 3);  // all valid, one pair differs
  auto el = json_lines(eq.out);
  REQUIRE(el.size() == 2);
  CHECK(el[0]["equal"] == true);
  CHECK(el[1]["equal"] == false);

  auto same = run_cli({"urn", "equal", "urn:lex:it:a:b:2000;1", "urn:lex:it:A:B:2000;1#x"});
  CHECK(same.exit_code == 0);
}

TEST_CASE("usage errors exit 2 with a message", "[cli]") {
  CHECK(run_cli({}).exit_code == 2);
  auto unknown = run_cli({"frobnicate"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("unknown command 'frobnicate'") != std::string::npos);
  auto bad_option = run_cli({"urn", "parse", "--nope", "x"});
  CHECK(bad_option.exit_code == 2);
  CHECK(bad_option.err.find("unknown option '--nope'") != std::string::npos);
  auto bad_sep = run_cli({"urn", "resolve", "--partition-sep", "!", "x"});
  CHECK(bad_sep.exit_code == 2);
  auto bad_data = run_cli({"--data", "/nonexistent", "urn", "resolve", "urn:lex:it:a:b:2000;1"});
  CHECK(bad_data.exit_code == 1);
  CHECK(bad_data.err.find("no lexicons/ folder") != std::string::npos);
  CHECK(run_cli({"urn", "--help"}).exit_code == 0);
  CHECK(run_cli({"help"}).exit_code == 0);
}

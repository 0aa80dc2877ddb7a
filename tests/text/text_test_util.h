// tests/text/text_test_util: helpers of the text view tests (options from a cases table, files).
#pragma once

#include <string>
#include <string_view>

#include "text/view_builder.h"

namespace lexlink::test {

// "format=html encoding=iso-8859-15 profile=akn chunk=64" (or "-") -> ViewOptions; fails the
// test on a bad option.
text::ViewOptions parse_view_options(std::string_view options);

// Reads a file as bytes; fails the test when it cannot.
std::string read_bytes(const std::string& path);
void write_bytes(const std::string& path, std::string_view bytes);

// True when LEXLINK_UPDATE_GOLDEN=1: golden files are rewritten instead of compared.
bool update_golden();

// Runs of white space (ASCII, NBSP, the synthetic breaks) collapsed to one space, trimmed.
std::string collapse_spaces(std::string_view utf8);

}  // namespace lexlink::test

// extract/symbol_options: the RE2 options of every program over unit symbols (the rules' own
// programs, their set, the combined search), so that the extractor and the tests that compare
// their engines with RE2 compile the same thing. One byte per symbol (Latin-1), any symbol
// matched by `.`, errors returned rather than logged.
#pragma once

#include <re2/re2.h>

namespace lexlink::extract {

// `longest`: leftmost-longest matches (the set and the combined search), else RE2's default
// leftmost-first (a rule's own program, read for its captures).
inline re2::RE2::Options symbol_options(bool longest) {
  re2::RE2::Options o;
  o.set_encoding(re2::RE2::Options::EncodingLatin1);
  o.set_longest_match(longest);
  o.set_log_errors(false);
  o.set_dot_nl(true);
  o.set_max_mem(64 << 20);
  return o;
}

}  // namespace lexlink::extract

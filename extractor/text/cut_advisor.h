// text/cut_advisor: where a reader of the chunks lets a long stretch of text be cut.
//
// Chunks end at block boundaries and line ends, where nothing a reader looks for can cross. A
// stretch of text with neither (a file on one line, HTML without block elements) has to be cut
// somewhere else; the ViewBuilder then asks the reader (ViewOptions::cut_advisor), which knows
// how far its reading reaches, for a cut that changes nothing in what it finds. The extractor's
// advisor (Extractor::cut_advisor) answers with white space that no reading window reaches.
#pragma once

#include <cstddef>
#include <string_view>

namespace lexlink::text {

class CutAdvisor {
 public:
  virtual ~CutAdvisor() = default;
  // The first q >= from, with text[q - 1] white space, such that text[0, q) and text[q, end)
  // may go to different chunks without changing what the reader finds in them, judged from
  // `text` alone (so not within the reader's reach of either end of it); npos if there is none.
  // Called from any thread.
  virtual std::size_t find_cut(std::string_view text, std::size_t from) const = 0;
};

}  // namespace lexlink::text

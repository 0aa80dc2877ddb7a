// extract/unit_builder: reads the windows of a chunk into the units a grammar matches over.
//
// Each window is tokenized; each token gets its lexicon word id; breaks are placed where a block
// ends (a synthetic break of the view, a blank line, a line in a text whose lines are blocks, a
// heading line of the document's own structure such as "Art. 5"); then each position becomes a
// unit: the longest lexicon phrase there, else the single token, with one symbol byte per unit
// and a break symbol between windows and blocks (grammars/README.md). The work is linear in the
// windows' size and allocates nothing once the output vectors have grown.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "extract/units.h"
#include "grammar/grammar.h"

namespace lexlink::extract {

// How line breaks read (the grammar's `line-break` setting, for plain text only).
struct UnitReading {
  bool lines_are_blocks = false;  // every line is a block (`line-break = paragraph`)
  std::size_t wrap_width = 0;     // ... except in a text hard-wrapped at this width (0: none)
};

// Fills `u` (cleared first) with the units of `windows` ([begin, end) byte ranges of `text`,
// sorted, disjoint); `breaks` are the sorted offsets in `text` where the view broke the text;
// `word_ids` is scratch (the word id of each token).
void build_units(const grammar::Grammar& g, std::string_view text,
                 const std::vector<std::pair<std::size_t, std::size_t>>& windows,
                 const std::vector<std::uint64_t>& breaks, const UnitReading& reading, UnitText& u,
                 PodVector<std::uint32_t>& word_ids);

// Code points of a line, trailing white space left out.
std::size_t line_width(std::string_view line);

}  // namespace lexlink::extract

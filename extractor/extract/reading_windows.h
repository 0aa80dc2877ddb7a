// extract/reading_windows: the parts of a chunk that a grammar reads, and where a chunk may be cut
// without changing them.
//
// A grammar reads only windows around the starts of its triggers: from `back` bytes before a
// start to `forward` bytes after it, within the block (the text between two hard breaks) that
// holds the start, widened to whole words, and merged where they touch. A list of numbers that
// runs past a window ("articoli 1, 2, 3, ..., 200 della legge ...") widens it for as long as
// numbers keep coming, within its block and up to the next window. The windows are sorted and
// disjoint; computing them is linear in the starts plus the bytes the widening reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "scan/trigger_scanner.h"
#include "text/cut_advisor.h"

namespace lexlink::extract {

// [begin, end) byte ranges of a chunk's text, sorted and disjoint.
using Windows = std::vector<std::pair<std::size_t, std::size_t>>;

// The windows of `text` around `starts` (sorted trigger start offsets) into `windows`
// (cleared first). `breaks` are the sorted chunk-relative offsets of its hard breaks.
void reading_windows(std::string_view text, const std::vector<std::uint64_t>& breaks,
                     const std::vector<std::uint32_t>& starts, std::size_t back,
                     std::size_t forward, Windows& windows);

// The text::CutAdvisor of Extractor::cut_advisor(): white space that no window of the triggers
// of `scanner` (read with `back` and `forward`) reaches.
std::shared_ptr<const text::CutAdvisor> make_window_gap_advisor(
    std::shared_ptr<const scan::TriggerScanner> scanner, std::size_t back, std::size_t forward);

}  // namespace lexlink::extract

// tests/text/view_check: the guarantees of text/text_view.h, checked on the chunks of a document
// (shared by the Catch2 tests and the libFuzzer targets, so it reports instead of asserting).
//
// check_chunks() verifies: the chunks tile the input (original bytes, text offsets, `last`);
// text is valid UTF-8; pieces tile the text and increase without overlap in the original;
// every piece maps to original bytes that decode to its text (charsets decoded by ICU, an
// implementation independent of lexlink's; references re-read); pieces and tags together cover
// every original byte except a BOM (and white space outside an XML root); tags and zones are
// sorted, in range and consistent with `names`; and OffsetMap sends every character of the text
// to original bytes that decode to it.
//
// dump_view() is the golden form of a view (tests/data/text/README.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "text/text_view.h"
#include "text/view_builder.h"

namespace lexlink::test {

// Violations of the guarantees (empty when all hold); at most `max` are reported.
std::vector<std::string> check_chunks(std::string_view document,
                                      const std::vector<text::TextView>& chunks,
                                      std::size_t max = 20);

// The chunks of `document` built by a ViewBuilder fed `feed_bytes` at a time (0: all at once).
std::vector<text::TextView> build_chunks(std::string_view document,
                                         const text::ViewOptions& options, std::size_t feed_bytes,
                                         std::string* error = nullptr);

// The original bytes decoded to UTF-8 by ICU (U+FFFD for what does not decode).
std::string icu_decode(std::string_view bytes, text::Encoding encoding);

// The golden dump of one view: a header, then TSV sections of pieces, tags, zones, warnings.
std::string dump_view(const text::TextView& view);

// Escapes for one TSV field: \t \n \r \\ and bytes < 0x20 or invalid UTF-8 as \xNN.
std::string escape_field(std::string_view s);

}  // namespace lexlink::test

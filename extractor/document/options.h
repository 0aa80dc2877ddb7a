// document/options: how a document is to be read, from the labels people and programs give
// (`--format html`, `"encoding": "latin1"`), read in one place so that every command, the
// library's API and its bindings accept the same values with the same messages.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "extract/extractor.h"
#include "text/view_builder.h"

namespace lexlink::document {

// "auto", "text", "html" or "xml"; kInvalidArgument naming the accepted values otherwise.
Result<text::ViewOptions::FormatChoice> parse_format(std::string_view label);

// "auto" (or "") is nullopt: detect the encoding from the document. Any other label is read by
// text::encoding_from_label (the WHATWG labels of the supported encodings, case-insensitive:
// utf-8, utf-16le, utf-16be, iso-8859-1 / latin1, windows-1252 / cp1252, iso-8859-15 / latin9
// and their aliases); kInvalidArgument naming the accepted values when it knows none.
Result<std::optional<text::Encoding>> parse_encoding(std::string_view label);

// Why `name` cannot be a document's own name ("del presente decreto"): the parser's message for
// a name that is not a valid URN:LEX name (unnumbered names allowed, as URN:NIR has them); ""
// for a valid or empty one. How --self, stream records and the service check it.
std::string self_name_error(std::string_view name);

// The values for usage texts.
inline constexpr const char* kFormatLabels = "auto|text|html|xml";
inline constexpr const char* kEncodingLabels =
    "auto|utf-8|utf-16le|utf-16be|iso-8859-1|windows-1252|iso-8859-15";

// The text chunk the readings that find citations take at a time. A chunk's tokens, citations
// and output lines are held together, so memory follows chunk size times citation density: a
// citation every 13 bytes (4 million in 51 MB, one line) took 182 MB with 1 MB chunks, 80 MB
// with 256 KiB ones and takes 46 MB with 128 KiB ones (markup of a citation every 9 bytes:
// 195, 116, 63 MB), for the same instructions on ordinary text. Results do not depend on where
// chunks are cut (but see view_builder.h on text without line ends: on that one-line file,
// 41 of the 4 million citations are lost at cuts, bench/hostile_inputs.sh).
inline constexpr std::size_t kCitationChunkBytes = 128u << 10;

// `view` set up for reading with `extractor`: chunks of kCitationChunkBytes, the first one
// holding the text that --jurisdiction auto chooses from, text without line ends cut where the
// extractor's windows do not reach. Without an extractor (the citations come from a file),
// only the chunk size.
text::ViewOptions citation_view(text::ViewOptions view, const extract::Extractor* extractor);

}  // namespace lexlink::document

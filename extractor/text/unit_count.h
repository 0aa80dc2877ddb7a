// text/unit_count: how many characters a run of a document's original bytes holds, in the two
// units callers count offsets in: Unicode code points (Python, most databases) and UTF-16 code
// units (JavaScript, Java, .NET, Word, every LSP client). lexlink's offsets are bytes inside;
// these counts turn them into the caller's unit once, where citations leave the extractor.
//
// Guarantees: counts are exact for valid input in the document's encoding, and for any input
// they are additive: count(a + b) == count(a) + count(b) when a ends on a character boundary.
// In UTF-8, a character is a byte that is not a continuation byte (10xxxxxx); it takes two
// UTF-16 units when it is the lead byte of a four-byte sequence (F0..F4). In UTF-16, a unit is
// two bytes and a code point every unit but the low half of a surrogate pair. A single-byte
// charset has one code point and one unit per byte. The cost is that of reading the bytes once
// (sixteen at a time with SSE2).
#pragma once

#include <cstdint>
#include <string_view>

#include "text/text_view.h"

namespace lexlink::text {

struct UnitCount {
  std::uint64_t code_points = 0;
  std::uint64_t utf16 = 0;
};

UnitCount count_units(std::string_view bytes, Encoding encoding);

}  // namespace lexlink::text

// tests/fuzz/view_fuzz: the body shared by the view fuzz targets. The first input byte chooses
// how the rest is fed (whole, or 1/7/61 bytes at a time), the chunk size (4 MB, 16, 64 or 300
// bytes) and whether UTF-8 is forced; the chunks must satisfy every guarantee of text_view.h
// (tests/text/view_check.h) and read the same text as the document built in one chunk. For
// the XML target, a document pugixml refuses must not come out as an XML view.
#pragma once

#include <cstddef>
#include <cstdint>

#include "text/view_builder.h"

namespace lexlink::test {

int fuzz_view(const std::uint8_t* data, std::size_t size, text::ViewOptions::FormatChoice format);

}  // namespace lexlink::test

// libFuzzer target: format and charset detection, then whichever view they choose (see
// view_fuzz.h).
#include "fuzz/view_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return lexlink::test::fuzz_view(data, size, lexlink::text::ViewOptions::FormatChoice::kAuto);
}

// grammar/location: a place in a grammar file (file, 1-based line and column), for the errors
// the loader reports as `file:line:col: message`.
#pragma once

#include <cstdint>
#include <string>

namespace lexlink::grammar {

struct Location {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t col = 0;
};

}  // namespace lexlink::grammar

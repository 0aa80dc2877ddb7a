// common/status: errors as values for every lexlink API: the public types (lexlink/status.h)
// and the helpers the library makes them with.
#pragma once

#include <string>
#include <utility>

#include "lexlink/status.h"

namespace lexlink {

inline Error make_error(ErrorCode code, std::string message) {
  return Error{code, std::move(message), {}, 0, 0, 0};
}

// A failed system call on file `name`: "WHAT: strerror(err)", kNotFound for ENOENT, else
// kIoError, with os_error = err.
Error io_error(const std::string& what, const std::string& name, int err);

}  // namespace lexlink

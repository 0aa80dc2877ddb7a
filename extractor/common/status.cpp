#include "common/status.h"

#include <cerrno>
#include <cstring>

namespace lexlink {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument: return "invalid_argument";
    case ErrorCode::kDataError: return "data_error";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kIoError: return "io_error";
    case ErrorCode::kLimitExceeded: return "limit_exceeded";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kInternal: return "internal";
  }
  return "internal";
}

Error io_error(const std::string& what, const std::string& name, int err) {
  Error e = make_error(err == ENOENT ? ErrorCode::kNotFound : ErrorCode::kIoError,
                       what + ": " + std::strerror(err));
  e.file = name;
  e.os_error = err;
  return e;
}

std::string Error::to_string() const {
  if (file.empty()) return message;
  std::string out = file;
  if (line != 0) {
    out += ':' + std::to_string(line);
    if (col != 0) out += ':' + std::to_string(col);
  }
  out += ": ";
  out += message;
  return out;
}

}  // namespace lexlink

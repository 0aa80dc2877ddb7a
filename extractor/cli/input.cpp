#include "cli/input.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace lexlink::cli {

InputFile::~InputFile() {
  if (owned_ && f_ != nullptr) std::fclose(f_);
}

Status InputFile::open(const std::string& path) {
  path_ = path;
  if (path == "-") {
    f_ = stdin;
    return Status::Ok();
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    Error e = make_error(ErrorCode::kInvalidArgument, "is a directory");
    e.file = path;
    return e;
  }
  f_ = std::fopen(path.c_str(), "rb");
  if (f_ == nullptr) {
    const int err = errno;
    Error e = make_error(err == ENOENT ? ErrorCode::kNotFound : ErrorCode::kIoError,
                         std::string("cannot open: ") + std::strerror(err));
    e.file = path;
    return e;
  }
  owned_ = true;
  return Status::Ok();
}

Result<std::size_t> InputFile::read(std::string& block, std::size_t max) {
  block.resize(max);
  const std::size_t n = std::fread(block.data(), 1, max, f_);
  block.resize(n);
  if (n == 0 && std::ferror(f_)) {
    Error e = make_error(ErrorCode::kIoError, std::string("read error: ") + std::strerror(errno));
    e.file = path_;
    return e;
  }
  return n;
}

}  // namespace lexlink::cli

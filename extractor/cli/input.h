// cli/input: reading an input file or standard input in blocks, with errors that name the file.
#pragma once

#include <cstdio>
#include <string>

#include "common/status.h"

namespace lexlink::cli {

class InputFile {
 public:
  InputFile() = default;
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // Opens `path` ("-" is standard input). Directories and unreadable files are errors.
  Status open(const std::string& path);
  // Reads up to `max` bytes into `block` (replacing its content); 0 at the end.
  Result<std::size_t> read(std::string& block, std::size_t max);

 private:
  std::FILE* f_ = nullptr;
  bool owned_ = false;
  std::string path_;
};

}  // namespace lexlink::cli

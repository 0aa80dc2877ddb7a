// cli/document_io: reading a document (a file or standard input) in blocks, and writing an
// output file so that it is never seen half-written.
//
// OutputFile writes to a temporary file in the destination's folder and renames it over the
// destination on commit(); without commit() (an error, an early return) the temporary file is
// removed and the destination is untouched. The destination keeps its permissions when it
// exists. Reading the input and writing the output may name the same file (in-place update).
// "-" (or an empty path) means standard input / standard output, written as it goes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status.h"

namespace lexlink::cli {

class DocumentInput {
 public:
  DocumentInput() = default;
  ~DocumentInput();
  DocumentInput(const DocumentInput&) = delete;
  DocumentInput& operator=(const DocumentInput&) = delete;

  // Opens `path` ("-": standard input). kNotFound / kIoError with a message naming the file.
  Status open(const std::string& path);
  // Reads up to `max` bytes into `out` (replacing its content); an empty `out` means the end.
  Status read(std::string& out, std::size_t max = 1 << 20);
  // The first bytes of the input, read ahead without losing them (read() returns them first).
  Result<std::string_view> head(std::size_t n);
  const std::string& name() const { return name_; }

 private:
  int fd_ = -1;
  bool owned_ = false;
  std::string name_;
  std::string pending_;  // read ahead by head()
};

class OutputFile {
 public:
  OutputFile() = default;
  ~OutputFile();  // removes the temporary file unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Creates the temporary file next to `path` ("-" or "": standard output).
  Status open(const std::string& path);
  int fd() const { return fd_; }
  const std::string& name() const { return name_; }
  // Syncs, closes and renames the temporary file over the destination.
  Status commit();

 private:
  int fd_ = -1;
  bool stdout_ = false;
  std::string path_;
  std::string temp_;
  std::string name_;
};

}  // namespace lexlink::cli

// cli/document_io: where a command's one output goes (markup's document, its --report, unmark's
// document): standard output, written as it goes, or a file that is never seen half-written:
// written under a temporary name in the destination's folder and renamed over it on commit()
// (batch::AtomicFile, fsynced), compressed when its name ends in .gz or .zst (as batch markup
// writes such files). Without commit() (an error, an early return) the temporary file is
// removed and the destination is untouched. The destination keeps its owner and permissions
// when it exists; the output may name the input (an in-place update). "-" or "" is standard
// output.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "batch/atomic_file.h"
#include "common/status.h"
#include "io/file_stream.h"
#include "io/sink.h"

namespace lexlink::cli {

class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  Status open(const std::string& path);
  // Where the output is written (valid after a successful open()).
  io::Sink& sink();
  const std::string& name() const { return name_; }
  // Finishes the output: the compressed stream ended, everything written, synced and renamed
  // into place.
  Status commit();

 private:
  std::string name_;
  batch::AtomicFile file_;
  std::optional<io::FdSink> stdout_;
  std::optional<io::OutputStream> stream_;
};

}  // namespace lexlink::cli

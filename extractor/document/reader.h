// document/reader: a document's bytes, from a file, standard input or a buffer, the way every
// lexlink command and API reads them: decompressed when a file's name ends in .gz or .zst,
// refused when they look binary, bounded in size.
//
// Guarantees:
// - The first block next() returns holds the first text::kBinaryProbeBytes of the document (or
//   all of it, when it is shorter), and a document whose first bytes look binary (NUL or
//   control bytes, text::is_binary) is refused with kUnsupported before any byte is returned.
// - A document larger than ReadOptions::max_bytes (counted after decompression) is refused with
//   kLimitExceeded as soon as a block passes the limit; the caller discards what it read.
// - Errors name the document (Error::file): the path, or the name given to a buffer.
// - A file is read in blocks of at most 1 MiB without being copied (a block views the reader's
//   own buffer, valid until the next call); a buffer is returned as it is, never copied.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "io/file_stream.h"
#include "io/hash.h"

namespace lexlink::document {

struct ReadOptions {
  // The most bytes a document may hold once decompressed; 0: no limit.
  std::uint64_t max_bytes = 0;
  // How the limit is named in the error ("too large: over LIMIT_NAME N bytes"): a command
  // names its option.
  std::string limit_name = "the limit of";
  // Whether documents that look binary are refused (kUnsupported). Documents from files are,
  // by every command; a caller that hands over text it already holds may not want it.
  bool refuse_binary = true;
  // Hash the raw (on-disk) bytes as they are read (batch markup's manifest).
  io::RawHash raw_hash = io::RawHash::kNo;
};

class DocumentReader {
 public:
  explicit DocumentReader(ReadOptions options = {});
  ~DocumentReader();
  DocumentReader(const DocumentReader&) = delete;
  DocumentReader& operator=(const DocumentReader&) = delete;

  // A file ("-" or "": standard input, never decompressed). kNotFound / kIoError /
  // kInvalidArgument (a folder) with the path in Error::file.
  Status open(const std::string& path);
  // A document already in memory, named `name` in errors. `bytes` must outlive the reader.
  void open_buffer(std::string_view bytes, std::string name = {});

  // The next block of the document (see the guarantees above); empty at the end.
  Status next(std::string_view& block);
  // Reads the first block ahead, so that a binary or unreadable document is refused before the
  // caller commits to anything (creates an output file); next() returns that block first.
  // Optional; once only, before next().
  Status check();

  const std::string& name() const { return name_; }
  bool compressed() const;
  std::uint64_t bytes() const { return bytes_; }  // returned so far (decompressed)
  // The raw (on-disk) bytes read so far and their hash (ReadOptions::raw_hash; a buffer has
  // none).
  std::uint64_t raw_bytes() const;
  io::Hash128 raw_hash() const;

 private:
  Status read_block(std::string_view& block);  // the next block, unchecked
  Status check_first(std::string_view& block);
  Status check_size() const;
  ReadOptions options_;
  std::string name_;
  std::unique_ptr<io::InputStream> file_;  // unset: a buffer
  std::string_view buffer_;
  bool buffer_done_ = false;
  bool first_ = true;
  bool ahead_ = false;  // check() read the first block: next() returns it
  std::string_view ahead_block_;
  std::string head_;  // the first blocks gathered, when the first is shorter than the probe
  std::uint64_t bytes_ = 0;
};

// The message of a document that looks binary (the same for every command).
inline constexpr const char* kBinaryMessage =
    "looks like a binary file (NUL or control bytes), not a text, HTML or XML document";

}  // namespace lexlink::document

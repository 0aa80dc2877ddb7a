// io/file_stream: reading a document file in blocks, .gz and .zst decompressed transparently,
// and writing an output compressed the same way. Both hash the bytes as they are on disk
// (compressed), for the manifest.
//
// Compression is chosen by the file name (".gz", ".zst"), never guessed from content, so an
// output is compressed exactly like its input. Gzip output is deterministic (no time stamp, no
// name in the header): the same document gives the same bytes on every run.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "io/hash.h"
#include "io/sink.h"

namespace lexlink::io {

enum class Compression : std::uint8_t { kNone, kGzip, kZstd };

// By the name's suffix: ".gz" gzip, ".zst" zstd, else none.
Compression compression_of(std::string_view path);

// Whether an InputStream hashes the raw bytes it reads (the manifest of `markup --out-dir` needs
// it; `extract` does not).
enum class RawHash : bool { kNo, kYes };

class InputStream {
 public:
  explicit InputStream(RawHash raw_hash = RawHash::kYes);
  ~InputStream();
  InputStream(const InputStream&) = delete;
  InputStream& operator=(const InputStream&) = delete;

  // Opens `path` ("-": standard input, never decompressed). Errors name the file.
  Status open(const std::string& path);
  // Reads the next decompressed bytes into `out` (replacing its content); empty at the end.
  // A corrupt or truncated compressed file is a kIoError.
  Status read(std::string& out, std::size_t max = 1 << 20);
  // The same without a copy: `out` views the stream's own buffer, valid until the next read.
  Status read(std::string_view& out, std::size_t max = 1 << 20);
  // The hash of the raw (on-disk) bytes read so far; after the end, of the whole file (with
  // RawHash::kNo, of no bytes).
  Hash128 raw_hash() const { return hasher_.digest(); }
  std::uint64_t raw_bytes() const { return raw_bytes_; }
  std::uint64_t bytes() const { return bytes_; }  // decompressed bytes returned so far

 private:
  Status fill();  // reads the next raw bytes into in_ (once all of it was used)
  struct Codec;
  int fd_ = -1;
  bool owned_ = false;
  bool eof_ = false;
  Compression compression_ = Compression::kNone;
  std::string name_;
  // Raw bytes read and not yet used: in_[in_pos_, in_len_). Allocated at the first read, never
  // zero-filled (a document of a few KB costs no 256 KB memset).
  std::unique_ptr<char[]> in_;
  std::size_t in_len_ = 0;
  std::size_t in_pos_ = 0;
  std::unique_ptr<Codec> codec_;
  // Decompressed bytes (compressed input only), allocated at the first read like in_.
  std::unique_ptr<char[]> out_;
  std::size_t out_size_ = 0;
  bool hash_raw_;
  Hasher hasher_;
  std::uint64_t raw_bytes_ = 0;
  std::uint64_t bytes_ = 0;
};

// The hash of a file's raw (on-disk) bytes, without decompressing it (for --resume checks).
Result<Hash128> hash_file(const std::string& path);

// A io::Sink that compresses (or not) into a file descriptor it does not own, hashing the
// bytes written. finish() ends the compressed stream and writes everything; flush() only passes
// on what is complete (it never changes the output bytes).
class OutputStream final : public io::Sink {
 public:
  OutputStream(int fd, Compression compression, std::string name);
  ~OutputStream() override;
  OutputStream(const OutputStream&) = delete;
  OutputStream& operator=(const OutputStream&) = delete;

  // Room for about `bytes` of output in the buffer (a guess, such as the input's size; at most
  // the buffer's 1 MiB): a small document's output is then not copied at each doubling.
  void reserve(std::size_t bytes);
  Status write(std::string_view bytes) override;
  Status flush() override;
  Status finish();
  Hash128 hash() const { return hasher_.digest(); }
  std::uint64_t bytes_written() const { return written_; }  // on disk (compressed)

 private:
  Status emit(std::string_view bytes);  // raw bytes to the buffer / fd
  Status compress(std::string_view bytes, bool end);
  struct Codec;
  int fd_;
  Compression compression_;
  std::string name_;
  std::unique_ptr<Codec> codec_;
  std::string buffer_;
  std::string scratch_;
  Hasher hasher_;
  std::uint64_t written_ = 0;
  bool finished_ = false;
};

}  // namespace lexlink::io

#include "io/file_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace lexlink::io {
namespace {

constexpr std::size_t kRawBlock = 1 << 18;
constexpr std::size_t kOutBuffer = 1 << 20;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

Error codec_error(const std::string& name, const std::string& what) {
  Error e = make_error(ErrorCode::kIoError, what);
  e.file = name;
  return e;
}

}  // namespace

Compression compression_of(std::string_view path) {
  if (ends_with(path, ".gz")) return Compression::kGzip;
  if (ends_with(path, ".zst")) return Compression::kZstd;
  return Compression::kNone;
}

// ---- input ---------------------------------------------------------------------------------

struct InputStream::Codec {
  z_stream z{};
  bool z_init = false;
  bool z_end = false;  // the current gzip member ended
  ZSTD_DCtx* zd = nullptr;
  std::size_t zstd_last = 0;  // ZSTD_decompressStream's last hint (0: a frame is complete)
  ~Codec() {
    if (z_init) inflateEnd(&z);
    if (zd != nullptr) ZSTD_freeDCtx(zd);
  }
};

InputStream::InputStream(RawHash raw_hash) : hash_raw_(raw_hash == RawHash::kYes) {}
InputStream::~InputStream() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

Status InputStream::open(const std::string& path) {
  if (path.empty() || path == "-") {
    fd_ = 0;
    name_ = "-";
    return Status::Ok();
  }
  name_ = path;
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) return io_error("cannot open", path, errno);
  owned_ = true;
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
    Error e = make_error(ErrorCode::kInvalidArgument, "is a directory");
    e.file = path;
    return e;
  }
  compression_ = compression_of(path);
  codec_ = std::make_unique<Codec>();
  if (compression_ == Compression::kGzip) {
    if (inflateInit2(&codec_->z, 15 + 16) != Z_OK) return codec_error(path, "zlib init failed");
    codec_->z_init = true;
  } else if (compression_ == Compression::kZstd) {
    codec_->zd = ZSTD_createDCtx();
    if (codec_->zd == nullptr) return codec_error(path, "zstd init failed");
  }
  return Status::Ok();
}

Status InputStream::fill() {
  in_len_ = 0;
  in_pos_ = 0;
  if (eof_) return Status::Ok();
  if (!in_) in_ = std::make_unique_for_overwrite<char[]>(kRawBlock);
  while (true) {
    const ssize_t n = ::read(fd_, in_.get(), kRawBlock);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error("cannot read", name_, errno);
    in_len_ = static_cast<std::size_t>(n);
    if (n == 0) eof_ = true;
    if (hash_raw_) hasher_.update(std::string_view(in_.get(), in_len_));
    raw_bytes_ += static_cast<std::uint64_t>(n);
    return Status::Ok();
  }
}

Status InputStream::read(std::string& out, std::size_t max) {
  std::string_view bytes;
  Status s = read(bytes, max);
  out.assign(bytes);
  return s;
}

Status InputStream::read(std::string_view& out, std::size_t max) {
  out = {};
  if (compression_ == Compression::kNone) {
    if (in_pos_ == in_len_) {
      if (Status s = fill(); !s) return s;
    }
    out = std::string_view(in_.get() + in_pos_, std::min(max, in_len_ - in_pos_));
    in_pos_ += out.size();
    bytes_ += out.size();
    return Status::Ok();
  }
  if (out_size_ < max) {  // never zero-filled
    out_ = std::make_unique_for_overwrite<char[]>(max);
    out_size_ = max;
  }
  char* const dst = out_.get();
  std::size_t produced = 0;
  while (produced == 0) {
    if (in_pos_ == in_len_) {
      if (Status s = fill(); !s) return s;
      if (in_pos_ == in_len_ && eof_) {  // the end of the raw bytes
        const bool complete =
            compression_ == Compression::kGzip ? codec_->z_end : codec_->zstd_last == 0;
        if (!complete || raw_bytes_ == 0) {
          return codec_error(name_, "truncated compressed file");
        }
        break;
      }
    }
    const char* src = in_.get() + in_pos_;
    const std::size_t avail = in_len_ - in_pos_;
    if (compression_ == Compression::kGzip) {
      z_stream& z = codec_->z;
      if (codec_->z_end) {  // another gzip member follows (concatenated .gz files)
        inflateReset(&z);
        codec_->z_end = false;
      }
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(src));
      z.avail_in = static_cast<uInt>(avail);
      z.next_out = reinterpret_cast<Bytef*>(dst);
      z.avail_out = static_cast<uInt>(max);
      const int rc = inflate(&z, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
        return codec_error(name_, std::string("corrupt gzip data: ") +
                                      (z.msg != nullptr ? z.msg : "inflate failed"));
      }
      if (rc == Z_STREAM_END) codec_->z_end = true;
      in_pos_ += avail - z.avail_in;
      produced = max - z.avail_out;
    } else {
      ZSTD_inBuffer ib{src, avail, 0};
      ZSTD_outBuffer ob{dst, max, 0};
      const std::size_t rc = ZSTD_decompressStream(codec_->zd, &ob, &ib);
      if (ZSTD_isError(rc)) {
        return codec_error(name_, std::string("corrupt zstd data: ") + ZSTD_getErrorName(rc));
      }
      codec_->zstd_last = rc;
      in_pos_ += ib.pos;
      produced = ob.pos;
    }
  }
  out = std::string_view(dst, produced);
  bytes_ += produced;
  return Status::Ok();
}

Result<Hash128> hash_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open", path, errno);
  Hasher h;
  std::string block(kRawBlock, '\0');
  while (true) {
    const ssize_t n = ::read(fd, block.data(), block.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return io_error("cannot read", path, err);
    }
    if (n == 0) break;
    h.update(std::string_view(block.data(), static_cast<std::size_t>(n)));
  }
  ::close(fd);
  return h.digest();
}

// ---- output --------------------------------------------------------------------------------

struct OutputStream::Codec {
  z_stream z{};
  bool z_init = false;
  ZSTD_CCtx* zc = nullptr;
  ~Codec() {
    if (z_init) deflateEnd(&z);
    if (zc != nullptr) ZSTD_freeCCtx(zc);
  }
};

OutputStream::OutputStream(int fd, Compression compression, std::string name)
    : fd_(fd),
      compression_(compression),
      name_(std::move(name)),
      codec_(std::make_unique<Codec>()) {
  if (compression_ == Compression::kGzip) {
    // windowBits 15 + 16: a gzip header with no name and a zero time stamp (deterministic).
    codec_->z_init =
        deflateInit2(&codec_->z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
  } else if (compression_ == Compression::kZstd) {
    codec_->zc = ZSTD_createCCtx();
    if (codec_->zc != nullptr) ZSTD_CCtx_setParameter(codec_->zc, ZSTD_c_compressionLevel, 3);
  }
}

OutputStream::~OutputStream() = default;

void OutputStream::reserve(std::size_t bytes) {
  buffer_.reserve(std::min(bytes, kOutBuffer));
}

Status OutputStream::emit(std::string_view bytes) {
  written_ += bytes.size();
  buffer_.append(bytes);
  if (buffer_.size() < kOutBuffer) return Status::Ok();
  return flush();
}

Status OutputStream::flush() {
  // Hashed here, a buffer at a time: the rewriter writes many small pieces (the text between
  // two links, each tag), and XXH3's streaming update costs more per call than per byte.
  if (!buffer_.empty()) hasher_.update(buffer_);
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      buffer_.clear();
      return io_error("cannot write", name_, err);
    }
    done += static_cast<std::size_t>(n);
  }
  buffer_.clear();
  return Status::Ok();
}

Status OutputStream::compress(std::string_view bytes, bool end) {
  if (scratch_.size() < (1 << 17)) scratch_.resize(1 << 17);
  if (compression_ == Compression::kGzip) {
    if (!codec_->z_init) return codec_error(name_, "zlib init failed");
    z_stream& z = codec_->z;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    while (true) {
      z.next_out = reinterpret_cast<Bytef*>(scratch_.data());
      z.avail_out = static_cast<uInt>(scratch_.size());
      const int rc = deflate(&z, end ? Z_FINISH : Z_NO_FLUSH);
      if (rc == Z_STREAM_ERROR) return codec_error(name_, "deflate failed");
      const std::size_t n = scratch_.size() - z.avail_out;
      if (n > 0) {
        if (Status s = emit(std::string_view(scratch_.data(), n)); !s) return s;
      }
      if (end ? rc == Z_STREAM_END : (z.avail_in == 0 && z.avail_out != 0)) break;
    }
    return Status::Ok();
  }
  if (codec_->zc == nullptr) return codec_error(name_, "zstd init failed");
  ZSTD_inBuffer ib{bytes.data(), bytes.size(), 0};
  while (true) {
    ZSTD_outBuffer ob{scratch_.data(), scratch_.size(), 0};
    const std::size_t rc =
        ZSTD_compressStream2(codec_->zc, &ob, &ib, end ? ZSTD_e_end : ZSTD_e_continue);
    if (ZSTD_isError(rc)) return codec_error(name_, ZSTD_getErrorName(rc));
    if (ob.pos > 0) {
      if (Status s = emit(std::string_view(scratch_.data(), ob.pos)); !s) return s;
    }
    if (end ? rc == 0 : ib.pos == ib.size) break;
  }
  return Status::Ok();
}

Status OutputStream::write(std::string_view bytes) {
  if (bytes.empty()) return Status::Ok();
  if (compression_ == Compression::kNone) return emit(bytes);
  // Large pieces go through in slices so avail_in (32 bits in zlib) never overflows.
  while (!bytes.empty()) {
    const std::string_view piece = bytes.substr(0, 1 << 30);
    if (Status s = compress(piece, false); !s) return s;
    bytes.remove_prefix(piece.size());
  }
  return Status::Ok();
}

Status OutputStream::finish() {
  if (!finished_ && compression_ != Compression::kNone) {
    if (Status s = compress({}, true); !s) return s;
  }
  finished_ = true;
  return flush();
}

}  // namespace lexlink::io

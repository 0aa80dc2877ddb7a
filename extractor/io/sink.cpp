#include "io/sink.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace lexlink::io {
namespace {

constexpr std::size_t kBufferBytes = 1 << 20;
constexpr std::size_t kDirectBytes = 64 << 10;

}  // namespace

FdSink::FdSink(int fd, std::string name) : fd_(fd), name_(std::move(name)) {
  buffer_.reserve(kBufferBytes);
}

FdSink::~FdSink() {
  (void)flush();
}

Status FdSink::write_all(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      Error e =
          make_error(ErrorCode::kIoError, "cannot write " + (name_.empty() ? "output" : name_) +
                                              ": " + std::strerror(errno));
      e.os_error = errno;
      return e;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
    written_ += static_cast<std::uint64_t>(n);
  }
  return Status::Ok();
}

Status FdSink::write(std::string_view bytes) {
  if (bytes.size() >= kDirectBytes) {
    if (Status s = flush(); !s) return s;
    return write_all(bytes);
  }
  if (buffer_.size() + bytes.size() > kBufferBytes) {
    if (Status s = flush(); !s) return s;
  }
  buffer_.append(bytes);
  return Status::Ok();
}

Status FdSink::flush() {
  if (buffer_.empty()) return Status::Ok();
  Status s = write_all(buffer_);
  buffer_.clear();
  return s;
}

}  // namespace lexlink::io

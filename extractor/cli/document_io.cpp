#include "cli/document_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "batch/atomic_file.h"

namespace lexlink::cli {
namespace {

Error io_error(const std::string& what, const std::string& name) {
  return make_error(errno == ENOENT ? ErrorCode::kNotFound : ErrorCode::kIoError,
                    what + " " + name + ": " + std::strerror(errno));
}

}  // namespace

DocumentInput::~DocumentInput() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

Status DocumentInput::open(const std::string& path) {
  if (path.empty() || path == "-") {
    fd_ = 0;
    name_ = "standard input";
    return Status::Ok();
  }
  name_ = path;
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) return io_error("cannot open", path);
  owned_ = true;
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
    return make_error(ErrorCode::kInvalidArgument, path + " is a directory, not a document");
  }
  return Status::Ok();
}

Status DocumentInput::read(std::string& out, std::size_t max) {
  out.clear();
  if (!pending_.empty()) {
    out.swap(pending_);
    return Status::Ok();
  }
  out.resize(max);
  while (true) {
    const ssize_t n = ::read(fd_, out.data(), max);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      out.clear();
      return io_error("cannot read", name_);
    }
    out.resize(static_cast<std::size_t>(n));
    return Status::Ok();
  }
}

Result<std::string_view> DocumentInput::head(std::size_t n) {
  std::string block;
  while (pending_.size() < n) {
    block.resize(n - pending_.size());
    const ssize_t got = ::read(fd_, block.data(), block.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return io_error("cannot read", name_);
    if (got == 0) break;
    pending_.append(block.data(), static_cast<std::size_t>(got));
  }
  return std::string_view(pending_);
}

OutputFile::~OutputFile() {
  if (!stdout_ && fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) std::remove(temp_.c_str());
}

Status OutputFile::open(const std::string& path) {
  if (path.empty() || path == "-") {
    stdout_ = true;
    fd_ = 1;
    name_ = "standard output";
    return Status::Ok();
  }
  namespace fs = std::filesystem;
  path_ = path;
  name_ = path;
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::string templ = (dir / ("." + p.filename().string() + ".lexlink-XXXXXX")).string();
  fd_ = ::mkstemp(templ.data());
  if (fd_ < 0) return io_error("cannot create a temporary file in", dir.string());
  temp_ = templ;
  // The output keeps the destination's owner, group and permissions, else gets the usual
  // permissions (0666 - umask).
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    batch::keep_owner_and_mode(fd_, st);
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd_, 0666 & ~mask);
  }
  return Status::Ok();
}

Status OutputFile::commit() {
  if (stdout_) return Status::Ok();
  if (fd_ < 0) return make_error(ErrorCode::kInternal, "output not open");
  if (::fsync(fd_) != 0 && errno != EINVAL) return io_error("cannot write", name_);
  const int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) return io_error("cannot write", name_);
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) return io_error("cannot write", name_);
  temp_.clear();
  return Status::Ok();
}

}  // namespace lexlink::cli

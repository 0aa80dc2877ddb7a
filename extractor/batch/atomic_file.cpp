#include "batch/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace lexlink::batch {
namespace {

constexpr const char* kTempSuffix = ".lexlink-tmp";

}  // namespace

void keep_owner_and_mode(int fd, const struct stat& st) {
  mode_t mode = st.st_mode & 07777;
  struct stat now {};
  const bool known = ::fstat(fd, &now) == 0;
  if (!known || now.st_uid != st.st_uid || now.st_gid != st.st_gid) {
    if (::fchown(fd, st.st_uid, st.st_gid) != 0 &&
        ::fchown(fd, static_cast<uid_t>(-1), st.st_gid) != 0) {
      // Neither: the file stays the process's, in its group.
    }
    if (::fstat(fd, &now) != 0) now.st_uid = now.st_gid = static_cast<uid_t>(-1);
    if (now.st_uid != st.st_uid) mode &= static_cast<mode_t>(~S_ISUID);
    if (now.st_gid != st.st_gid) mode &= static_cast<mode_t>(~S_ISGID);
  }
  ::fchmod(fd, mode);  // after fchown, which may clear the set-ID bits
}

std::string temp_name_for(const std::string& path) {
  const std::filesystem::path p(path);
  return (p.parent_path() / ("." + p.filename().string() + kTempSuffix)).string();
}

bool is_temp_name(const std::string& filename) {
  const std::size_t n = std::strlen(kTempSuffix);
  return filename.size() > n + 1 && filename[0] == '.' &&
         filename.compare(filename.size() - n, n, kTempSuffix) == 0;
}

AtomicFile::~AtomicFile() {
  abort();
}

void AtomicFile::abort() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  anonymous_ = false;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
}

namespace {

// Calls open_fd(); when it fails because the folder of `path` is missing (and `folders` says
// kMake), makes that folder (and those above it) and calls it again: one failed open for the
// first file of a folder, not a create_directories (a stat per level) for every file. The result of
// open_fd (errno set when it is -1), or -1 with `folder` set to the error when the folder cannot be
// made.
template <class OpenFd>
int open_making_folder(const std::string& path, OpenFd open_fd, Status& folder, Folders folders) {
  namespace fs = std::filesystem;
  int fd = open_fd();
  if (fd < 0 && errno == ENOENT && folders == Folders::kMake) {
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty()) {
      std::error_code ec;
      fs::create_directories(parent, ec);
      if (ec && !fs::is_directory(parent)) {
        Error e = make_error(ErrorCode::kIoError, "cannot create folder: " + ec.message());
        e.file = parent.string();
        folder = e;
        return -1;
      }
      fd = open_fd();
    }
  }
  return fd;
}

// Gives the unnamed file `fd` the name `target`. linkat(AT_EMPTY_PATH) names it directly where
// the process may (CAP_DAC_READ_SEARCH, or a kernel that lets the file's opener); else the file
// is named through /proc/self/fd, a path lookup of its own that took half of linkat's time on
// tmpfs. The first refusal of AT_EMPTY_PATH is remembered for the rest of the run.
int link_unnamed(int fd, const char* target) {
  static std::atomic<bool> empty_path{true};
  if (empty_path.load(std::memory_order_relaxed)) {
    if (::linkat(fd, "", AT_FDCWD, target, AT_EMPTY_PATH) == 0) return 0;
    if (errno != ENOENT && errno != EPERM && errno != EINVAL) return -1;  // EEXIST, ENOSPC ...
    empty_path.store(false, std::memory_order_relaxed);
  }
  char proc[64];
  std::snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  return ::linkat(AT_FDCWD, proc, AT_FDCWD, target, AT_SYMLINK_FOLLOW);
}

}  // namespace

Status AtomicFile::open(const std::string& path, Destination destination, Folders folders) {
  namespace fs = std::filesystem;
  path_ = path;
  looked_up_ = destination == Destination::kMayExist;
  struct stat st {};
  const bool replaces = looked_up_ && ::stat(path.c_str(), &st) == 0;
  // A new file gets 0666 minus the umask, by open(); one that replaces another gets its owner,
  // group and permissions below.
  const mode_t mode = replaces ? st.st_mode & 0777 : 0666;
  anonymous_ = false;
  temp_.clear();
  Status folder = Status::Ok();
  // linkat() names an unnamed file (link_unnamed) with AT_EMPTY_PATH or, when that needs a
  // capability the process lacks, through /proc/self/fd: without /proc, the temporary name.
  static const bool proc_fd = ::access("/proc/self/fd", X_OK) == 0;
  if (!looked_up_ && proc_fd) {
    // Expected new: an unnamed file in the destination's folder (O_TMPFILE), linked under its
    // name by commit(); nothing to clean up if the process dies. Filesystems without it (NFS,
    // older kernels) fall back to the temporary name below.
    const fs::path parent = fs::path(path).parent_path();
    const std::string dir = parent.empty() ? std::string(".") : parent.string();
    fd_ = open_making_folder(
        path, [&] { return ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666); }, folder,
        folders);
    if (!folder) return folder;
    if (fd_ >= 0) {
      anonymous_ = true;
      return Status::Ok();
    }
  }
  const std::string temp = temp_name_for(path);
  fd_ = open_making_folder(
      path, [&] { return ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode); },
      folder, folders);
  if (!folder) return folder;
  if (fd_ < 0) return io_error("cannot create", errno == ENOENT ? path : temp, errno);
  temp_ = temp;
  if (replaces) keep_owner_and_mode(fd_, st);
  return Status::Ok();
}

Status AtomicFile::commit(bool sync) {
  if (fd_ < 0) return make_error(ErrorCode::kInternal, "output not open");
  if (sync && ::fsync(fd_) != 0 && errno != EINVAL) {
    const int err = errno;
    abort();
    return io_error("cannot write", path_, err);
  }
  if (anonymous_) {
    // The unnamed file gets its name: linked if nothing is there; if something is, linked under
    // the temporary name and replaced below, as a temporary file would be.
    anonymous_ = false;
    if (link_unnamed(fd_, path_.c_str()) == 0) {
      const int rc = ::close(fd_);
      fd_ = -1;
      if (rc != 0) return io_error("cannot write", path_, errno);
      return Status::Ok();
    }
    if (errno != EEXIST) {
      const int err = errno;
      abort();
      return io_error("cannot create", path_, err);
    }
    const std::string temp = temp_name_for(path_);
    ::unlink(temp.c_str());  // a stale one
    if (link_unnamed(fd_, temp.c_str()) != 0) {
      const int err = errno;
      abort();
      return io_error("cannot create", temp, err);
    }
    temp_ = temp;
  }
  const int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) {
    const int err = errno;
    abort();
    return io_error("cannot write", path_, err);
  }
  if (!looked_up_) {
    // Expected new: renamed only if nothing is there. Something is (or the filesystem cannot
    // tell: EINVAL): give the new file that file's owner and permissions, then replace it.
    if (::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, path_.c_str(), RENAME_NOREPLACE) == 0) {
      temp_.clear();
      return Status::Ok();
    }
    if (errno != EEXIST && errno != EINVAL && errno != ENOSYS) {
      const int err = errno;
      abort();
      return io_error("cannot rename the temporary file to", path_, err);
    }
    struct stat st {};
    if (::stat(path_.c_str(), &st) == 0) {
      const int fd = ::open(temp_.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd >= 0) {
        keep_owner_and_mode(fd, st);
        ::close(fd);
      }
    }
  }
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    abort();
    return io_error("cannot rename the temporary file to", path_, err);
  }
  temp_.clear();
  return Status::Ok();
}

GroupSync::~GroupSync() {
  if (fd_ >= 0) ::close(fd_);
}

Status GroupSync::open(const std::string& dir) {
  dir_ = dir;
  fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) return io_error("cannot open folder", dir, errno);
  return Status::Ok();
}

void GroupSync::note() {
  if (pending_ == 0) first_ = std::chrono::steady_clock::now();
  ++pending_;
}

bool GroupSync::due() const {
  return pending_ >= max_files_ ||
         (pending_ > 0 && std::chrono::steady_clock::now() - first_ >= max_wait_);
}

Status GroupSync::sync() {
  if (pending_ == 0) return Status::Ok();
  reset();
  return sync_fs();
}

Status GroupSync::sync_fs() const {
  if (fd_ >= 0 && ::syncfs(fd_) != 0) return io_error("cannot sync", dir_, errno);
  return Status::Ok();
}

}  // namespace lexlink::batch

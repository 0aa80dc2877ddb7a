#include "batch/manifest.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "batch/atomic_file.h"

namespace lexlink::batch {
namespace {

constexpr const char* kHeader = "# lexlink manifest 1\n";

void escape(std::string& out, const std::string& s) {
  for (char c : s) {
    if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\\') {
      out += "\\\\";
    } else {
      out += c;
    }
  }
}

bool unescape(std::string_view s, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i == s.size()) return false;
    if (s[i] == 't') {
      out += '\t';
    } else if (s[i] == 'n') {
      out += '\n';
    } else if (s[i] == '\\') {
      out += '\\';
    } else {
      return false;
    }
  }
  return true;
}

template <class T>
bool number(std::string_view s, T& out) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
}

Status write_all(int fd, std::string_view bytes, const std::string& name) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error("cannot write", name, errno);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return Status::Ok();
}

}  // namespace

std::string manifest_line(const std::string& rel, const ManifestEntry& e) {
  std::string line;
  escape(line, rel);
  line += '\t' + std::to_string(e.size) + '\t' + std::to_string(e.mtime_ns) + '\t' +
          e.input_hash.hex() + '\t';
  escape(line, e.output);
  line += '\t' + std::to_string(e.output_size) + '\t' + e.output_hash.hex() + '\t' +
          e.options.hex() + '\n';
  return line;
}

bool parse_manifest_line(const std::string& line, std::string& rel, ManifestEntry& e) {
  std::string_view f[8];
  std::size_t start = 0, n = 0;
  while (n < 8) {
    const std::size_t tab = line.find('\t', start);
    f[n++] = std::string_view(line).substr(start, tab == std::string::npos ? tab : tab - start);
    if (tab == std::string::npos) break;
    start = tab + 1;
  }
  if (n != 8 || line.find('\t', start) != std::string::npos) return false;
  return unescape(f[0], rel) && number(f[1], e.size) && number(f[2], e.mtime_ns) &&
         io::Hash128::from_hex(f[3], e.input_hash) && unescape(f[4], e.output) &&
         number(f[5], e.output_size) && io::Hash128::from_hex(f[6], e.output_hash) &&
         io::Hash128::from_hex(f[7], e.options);
}

Manifest::~Manifest() {
  if (fd_ >= 0) ::close(fd_);
}

Status Manifest::open(const std::string& path) {
  path_ = path;
  {
    std::ifstream in(path, std::ios::binary);
    std::string line, rel;
    while (std::getline(in, line)) {
      if (in.eof()) break;  // no '\n': a torn last line
      if (line.empty() || line[0] == '#') continue;
      ManifestEntry e;
      if (parse_manifest_line(line, rel, e)) entries_[rel] = std::move(e);
    }
  }
  // Lock first (on the existing file, else on a new one), then rewrite compacted.
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
  }
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (fd_ < 0) return io_error("cannot open the manifest", path, errno);
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    Error e = make_error(ErrorCode::kInvalidArgument,
                         "the manifest is in use by another lexlink run (give each concurrent run "
                         "its own --manifest)");
    e.file = path;
    return e;
  }
  AtomicFile compacted;
  if (Status s = compacted.open(path); !s) return s;
  std::string text = kHeader;
  for (const auto& [rel, e] : entries_) {
    text += manifest_line(rel, e);
    if (text.size() >= (1 << 20)) {
      if (Status s = write_all(compacted.fd(), text, path); !s) return s;
      text.clear();
    }
  }
  if (Status s = write_all(compacted.fd(), text, path); !s) return s;
  if (Status s = compacted.commit(true); !s) return s;
  // Our lock is on the old inode: lock the new file before letting the old lock go.
  const int old_fd = fd_;
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  ::close(old_fd);
  if (fd_ < 0) return io_error("cannot open the manifest", path, errno);
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    Error e =
        make_error(ErrorCode::kInvalidArgument, "the manifest is in use by another lexlink run");
    e.file = path;
    return e;
  }
  return Status::Ok();
}

const ManifestEntry* Manifest::find(const std::string& rel) const {
  auto it = entries_.find(rel);
  return it == entries_.end() ? nullptr : &it->second;
}

void Manifest::add(const std::string& rel, const ManifestEntry& entry) {
  pending_ += manifest_line(rel, entry);
}

Status Manifest::flush() {
  if (pending_.empty() || fd_ < 0) return Status::Ok();
  Status s = write_all(fd_, pending_, path_);
  pending_.clear();
  if (!s) return s;
  if (::fdatasync(fd_) != 0) return io_error("cannot sync", path_, errno);
  return Status::Ok();
}

}  // namespace lexlink::batch

#include "batch/inputs.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "batch/atomic_file.h"

namespace lexlink::batch {
namespace {

namespace fs = std::filesystem;

Error invalid(const std::string& message) {
  return make_error(ErrorCode::kInvalidArgument, message);
}

fs::path absolute_normal(const std::string& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p, ec);
  if (ec) a = p;
  a = a.lexically_normal();
  // "dir/" normalises to "dir/" (an empty last component): drop it.
  if (!a.has_filename() && a.has_parent_path() && a != a.root_path()) a = a.parent_path();
  return a;
}

bool is_own_file(const std::string& name) {
  return is_temp_name(name) || name.rfind(".lexlink-manifest", 0) == 0;
}

fs::path common_parent(const fs::path& a, const fs::path& b) {
  fs::path out;
  auto i = a.begin(), j = b.begin();
  for (; i != a.end() && j != b.end() && *i == *j; ++i, ++j) out /= *i;
  return out;
}

bool within(const fs::path& p, const fs::path& dir) {
  auto i = p.begin(), j = dir.begin();
  for (; j != dir.end(); ++i, ++j) {
    if (j->empty()) continue;  // trailing separator
    if (i == p.end() || *i != *j) return false;
  }
  return true;
}

bool excluded(const InputSpec& spec, const std::string& rel, bool is_dir) {
  for (const std::string& g : spec.exclude) {
    if (glob_matches(g, rel)) return true;
  }
  if (is_dir || spec.include.empty()) return false;
  for (const std::string& g : spec.include) {
    if (glob_matches(g, rel)) return false;
  }
  return true;
}

Status read_list(std::istream& in, std::vector<std::string>& out) {
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) out.push_back(line);
  }
  return Status::Ok();
}

Status read_list(std::FILE* f, std::vector<std::string>& out) {
  std::string line;
  int c = 0;
  while ((c = std::fgetc(f)) != EOF) {
    if (c == '\n') {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty()) out.push_back(line);
      line.clear();
    } else {
      line += static_cast<char>(c);
    }
  }
  if (!line.empty()) out.push_back(line);
  return Status::Ok();
}

// Why a file met in a folder walk is not read, from its type (a dirent DT_ value): it is a FIFO,
// a socket or a device (an empty string for a regular file, and for a missing one: opening it
// says what is wrong).
std::string special_file(unsigned char type) {
  switch (type) {
    case DT_FIFO: return "not a regular file: a FIFO (named pipe)";
    case DT_SOCK: return "not a regular file: a socket";
    case DT_BLK: return "not a regular file: a block device";
    case DT_CHR: return "not a regular file: a character device";
    default: return {};
  }
}

}  // namespace

bool glob_matches(const std::string& glob, const std::string& rel) {
  if (::fnmatch(glob.c_str(), rel.c_str(), 0) == 0) return true;
  if (glob.find('/') == std::string::npos) {
    const std::size_t slash = rel.rfind('/');
    if (slash != std::string::npos && ::fnmatch(glob.c_str(), rel.c_str() + slash + 1, 0) == 0) {
      return true;
    }
  }
  return false;
}

Status InputWalker::open(const InputSpec& spec) {
  spec_ = &spec;
  // The named paths: the arguments ("-": a list on stdin) and --files-from.
  std::vector<std::string> named;
  for (const std::string& p : spec.paths) {
    if (p == "-") {
      if (Status s = read_list(spec.stdin_list, named); !s) return s;
    } else {
      named.push_back(p);
    }
  }
  if (!spec.files_from.empty()) {
    if (spec.files_from == "-") {
      if (Status s = read_list(spec.stdin_list, named); !s) return s;
    } else {
      std::ifstream in(spec.files_from);
      if (!in) return invalid("cannot read the list " + spec.files_from);
      if (Status s = read_list(in, named); !s) return s;
    }
  }
  if (named.empty()) return invalid("no input (give FILE, FOLDER, - or --files-from LIST)");

  // Which are folders; the root.
  named_.clear();
  named_.reserve(named.size());
  for (std::string& p : named) {
    std::error_code ec;
    const bool dir = fs::is_directory(p, ec);
    std::string abs = absolute_normal(p).string();
    named_.push_back({std::move(p), std::move(abs), dir});
  }
  fs::path root;
  if (!spec.root.empty()) {
    root = absolute_normal(spec.root);
  } else {
    bool first = true;
    for (const Named& n : named_) {
      const fs::path abs(n.abs);
      const fs::path base = n.dir ? abs : abs.parent_path();
      root = first ? base : common_parent(root, base);
      first = false;
    }
  }
  root_ = root.string();
  skip_.clear();
  for (const std::string& k : spec.skip) skip_.push_back(absolute_normal(k).string());
  dedup_ = named_.size() > 1;
  sizes_ = spec.sizes;
  rewind();
  return Status::Ok();
}

void InputWalker::rewind() {
  item_ = 0;
  walking_ = false;
  files_.clear();
  file_ = 0;
  stack_.clear();
  seen_.clear();
}

// Lists a folder: its files not excluded, sorted by name, to be given next; its subfolders (not
// skipped nor excluded, links to folders not followed), to be walked after them in name order.
// A regular file is told by the listing's own type (d_type), without a stat; only links,
// special files and entries of filesystems that do not tell the type are looked up, relative to
// the folder (fstatat), as are the sizes when InputSpec::sizes asks for them.
Status InputWalker::list_folder(const std::string& given_dir, const std::string& abs_dir) {
  files_.clear();
  file_ = 0;
  dir_given_ = given_dir;
  dir_abs_ = abs_dir;
  dir_rel_ = fs::path(abs_dir).lexically_relative(fs::path(root_)).generic_string();
  if (dir_rel_ == ".") dir_rel_.clear();
  std::vector<Entry> entries;
  DIR* dir = ::opendir(abs_dir.c_str());
  if (dir == nullptr) {
    return invalid("cannot read folder " + given_dir + ": " + std::strerror(errno));
  }
  const int fd = ::dirfd(dir);
  while (true) {
    errno = 0;
    const dirent* d = ::readdir(dir);
    if (d == nullptr) break;
    std::string name = d->d_name;
    if (name == "." || name == ".." || is_own_file(name)) continue;
    unsigned char type = d->d_type;
    struct stat st {};
    bool have_stat = false;  // st describes the entry (a link followed)
    if (type == DT_UNKNOWN && ::fstatat(fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
      type = static_cast<unsigned char>(IFTODT(st.st_mode));
      have_stat = type != DT_LNK;
    }
    if (type == DT_LNK) {
      if (::fstatat(fd, name.c_str(), &st, 0) == 0) {
        if (S_ISDIR(st.st_mode)) continue;  // links to folders are not followed
        type = static_cast<unsigned char>(IFTODT(st.st_mode));
        have_stat = true;
      } else {
        type = DT_REG;  // a dangling link: opening it says what is wrong
      }
    }
    const bool is_dir = type == DT_DIR;
    // An excluded file is left out here, before its size is looked up (a folder is checked below,
    // against the globs for folders).
    if (!is_dir && excluded(*spec_, rel_in_folder(name), false)) continue;
    std::string refused = is_dir ? std::string() : special_file(type);
    std::int64_t size = -1;
    if (sizes_ && !is_dir && refused.empty()) {
      if (have_stat || ::fstatat(fd, name.c_str(), &st, 0) == 0) {
        size = static_cast<std::int64_t>(st.st_size);
      }
    }
    entries.push_back({std::move(name), is_dir, std::move(refused), size});
  }
  const int read_error = errno;
  ::closedir(dir);
  if (read_error != 0) {
    return invalid("cannot read folder " + given_dir + ": " + std::strerror(read_error));
  }
  std::sort(entries.begin(), entries.end());
  std::vector<std::pair<std::string, std::string>> subdirs;
  for (Entry& e : entries) {
    if (!e.is_dir) {
      files_.push_back(std::move(e));
      continue;
    }
    const std::string abs = abs_dir.back() == '/' ? abs_dir + e.name : abs_dir + "/" + e.name;
    bool skipped = false;
    for (const std::string& k : skip_) skipped = skipped || abs == k;
    if (skipped || excluded(*spec_, rel_in_folder(e.name), true)) continue;
    const std::string given = given_dir.empty() || given_dir.back() == '/'
                                  ? given_dir + e.name
                                  : given_dir + "/" + e.name;
    subdirs.emplace_back(given, abs);
  }
  // Pushed in reverse so the first folder is walked first: files of a folder come before the
  // files of its subfolders, subfolders in name order.
  for (auto r = subdirs.rbegin(); r != subdirs.rend(); ++r) stack_.push_back(std::move(*r));
  return Status::Ok();
}

std::string InputWalker::rel_in_folder(const std::string& name) const {
  return dir_rel_.empty() ? name : dir_rel_ + "/" + name;
}

Result<bool> InputWalker::take(const std::string& given, const std::string& abs,
                               std::string refused, Input& out) {
  const fs::path root(root_), a(abs);
  if (!within(a, root)) return invalid(given + " is outside the root " + root_ + " (see --root)");
  std::string rel = a.lexically_relative(root).generic_string();
  if (rel.empty() || rel == ".")
    return invalid(given + " is the root itself, not a document under it");
  if (excluded(*spec_, rel, false)) return false;
  if (dedup_ && !seen_.insert(rel).second) return false;  // the same file named twice
  out.path = given;
  out.rel = std::move(rel);
  out.refused = std::move(refused);
  out.size = -1;
  if (sizes_) {
    struct stat st {};
    if (::stat(given.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      out.size = static_cast<std::int64_t>(st.st_size);
    }
  }
  return true;
}

Result<bool> InputWalker::next(Input& out) {
  while (true) {
    if (walking_) {
      while (file_ < files_.size()) {
        Entry& e = files_[file_++];
        const std::string given = dir_given_.empty() || dir_given_.back() == '/'
                                      ? dir_given_ + e.name
                                      : dir_given_ + "/" + e.name;
        // Under the folder, itself under the root: its relative path is the folder's and its
        // name (excluded files were left out by list_folder).
        std::string rel = rel_in_folder(e.name);
        if (dedup_ && !seen_.insert(rel).second) continue;  // the same file named twice
        out.path = given;
        out.rel = std::move(rel);
        out.refused = std::move(e.refused);
        out.size = e.size;
        return true;
      }
      if (!stack_.empty()) {
        auto [given, abs] = std::move(stack_.back());
        stack_.pop_back();
        if (Status s = list_folder(given, abs); !s) return s.error();
        continue;
      }
      walking_ = false;
      files_.clear();
      ++item_;
      continue;
    }
    if (item_ >= named_.size()) return false;
    const Named& n = named_[item_];
    if (!n.dir) {
      ++item_;
      auto took = take(n.given, n.abs, {}, out);
      if (!took) return took.error();
      if (*took) return true;
      continue;
    }
    if (!within(fs::path(n.abs), fs::path(root_))) {
      return invalid(n.given + " is outside the root " + root_ + " (see --root)");
    }
    walking_ = true;
    stack_.clear();
    if (Status s = list_folder(n.given, n.abs); !s) return s.error();
  }
}

namespace {
// The heap's order: `a` before `b` when `a` is the one to drop first (smaller, or as large and met
// later); std::push_heap keeps the greatest on top, so "greater" is "drop first".
template <typename K>
bool drop_first(const K& a, const K& b) {
  return a.size != b.size ? a.size < b.size : a.order > b.order;
}
}  // namespace

void LargestInputs::add(const Input& in, std::uint64_t size) {
  total_ += size;
  const std::uint64_t order = count_++;
  auto cmp = [](const Kept& a, const Kept& b) { return drop_first(b, a); };
  if (keep_ == 0) return;
  if (heap_.size() == keep_) {
    if (!drop_first(heap_.front(), Kept{size, order, {}})) return;
    std::pop_heap(heap_.begin(), heap_.end(), cmp);
    heap_.pop_back();
  }
  heap_.push_back(Kept{size, order, in});
  std::push_heap(heap_.begin(), heap_.end(), cmp);
}

std::vector<Input> LargestInputs::largest() const {
  std::vector<const Kept*> kept;
  for (const Kept& k : heap_) {
    if (k.size > 0 && k.size * keep_ >= total_) kept.push_back(&k);
  }
  std::sort(kept.begin(), kept.end(),
            [](const Kept* a, const Kept* b) { return drop_first(*b, *a); });
  std::vector<Input> out;
  out.reserve(kept.size());
  for (const Kept* k : kept) out.push_back(k->input);
  return out;
}

}  // namespace lexlink::batch

#include "batch/inputs.h"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unordered_set>

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

// Why a file met in a folder walk is not read: it is a FIFO, a socket or a device (an empty
// string for a regular file, and for a missing one: opening it says what is wrong).
std::string special_file(const fs::file_status& st) {
  switch (st.type()) {
    case fs::file_type::fifo: return "not a regular file: a FIFO (named pipe)";
    case fs::file_type::socket: return "not a regular file: a socket";
    case fs::file_type::block: return "not a regular file: a block device";
    case fs::file_type::character: return "not a regular file: a character device";
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

Result<InputList> enumerate_inputs(const InputSpec& spec) {
  // 1. The named paths: the arguments ("-": a list on stdin) and --files-from.
  std::vector<std::string> named;
  for (const std::string& p : spec.paths) {
    if (p == "-") {
      if (Status s = read_list(spec.stdin_list, named); !s) return s.error();
    } else {
      named.push_back(p);
    }
  }
  if (!spec.files_from.empty()) {
    if (spec.files_from == "-") {
      if (Status s = read_list(spec.stdin_list, named); !s) return s.error();
    } else {
      std::ifstream in(spec.files_from);
      if (!in) return invalid("cannot read the list " + spec.files_from);
      if (Status s = read_list(in, named); !s) return s.error();
    }
  }
  if (named.empty()) return invalid("no input (give FILE, FOLDER, - or --files-from LIST)");

  // 2. Which are folders; the root.
  struct Named {
    std::string given;
    fs::path abs;
    bool dir;
  };
  std::vector<Named> items;
  items.reserve(named.size());
  for (std::string& p : named) {
    std::error_code ec;
    const bool dir = fs::is_directory(p, ec);
    fs::path abs = absolute_normal(p);
    items.push_back({std::move(p), std::move(abs), dir});
  }
  named.clear();
  named.shrink_to_fit();
  fs::path root;
  if (!spec.root.empty()) {
    root = absolute_normal(spec.root);
  } else {
    bool first = true;
    for (const Named& n : items) {
      const fs::path base = n.dir ? n.abs : n.abs.parent_path();
      root = first ? base : common_parent(root, base);
      first = false;
    }
  }
  std::vector<fs::path> skip;
  for (const std::string& s : spec.skip) skip.push_back(absolute_normal(s));

  // 3. Files, in order: named files as given, folders walked in name order.
  InputList list;
  list.root = root.string();
  std::unordered_set<std::string> seen;
  auto add = [&](const std::string& given, const fs::path& abs,
                 std::string refused = {}) -> Status {
    if (!within(abs, root)) {
      return invalid(given + " is outside the root " + root.string() + " (see --root)");
    }
    std::string rel = abs.lexically_relative(root).generic_string();
    if (rel.empty() || rel == ".") {
      return invalid(given + " is the root itself, not a document under it");
    }
    if (excluded(spec, rel, false)) return Status::Ok();
    if (!seen.insert(rel).second) return Status::Ok();  // the same file named twice
    list.inputs.push_back({given, std::move(rel), std::move(refused)});
    return Status::Ok();
  };
  for (const Named& n : items) {
    if (!n.dir) {
      if (Status s = add(n.given, n.abs); !s) return s.error();
      continue;
    }
    if (!within(n.abs, root)) {
      return invalid(n.given + " is outside the root " + root.string() + " (see --root)");
    }
    // Depth-first, each folder's entries sorted by name.
    std::vector<std::pair<std::string, fs::path>> stack;  // (given-style path, absolute)
    stack.emplace_back(n.given, n.abs);
    while (!stack.empty()) {
      auto [given_dir, abs_dir] = std::move(stack.back());
      stack.pop_back();
      struct Entry {
        std::string name;
        bool is_dir;
        std::string refused;  // Input::refused
        bool operator<(const Entry& o) const { return name < o.name; }
      };
      std::vector<Entry> entries;
      std::error_code ec;
      fs::directory_iterator it(abs_dir, ec), end;
      if (ec) return invalid("cannot read folder " + given_dir + ": " + ec.message());
      for (; it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (is_own_file(name)) continue;
        std::error_code ec2;
        const bool is_dir = it->is_directory(ec2);
        if (is_dir && it->is_symlink(ec2)) continue;  // links to folders are not followed
        entries.push_back({name, is_dir, is_dir ? std::string() : special_file(it->status(ec2))});
      }
      if (ec) return invalid("cannot read folder " + given_dir + ": " + ec.message());
      std::sort(entries.begin(), entries.end());
      std::vector<std::pair<std::string, fs::path>> subdirs;
      for (const auto& [name, is_dir, refused] : entries) {
        const fs::path abs = abs_dir / name;
        const std::string given = given_dir.empty() || given_dir.back() == '/'
                                      ? given_dir + name
                                      : given_dir + "/" + name;
        if (is_dir) {
          bool skipped = false;
          for (const fs::path& s : skip) skipped = skipped || abs == s;
          const std::string rel = abs.lexically_relative(root).generic_string();
          if (!skipped && !excluded(spec, rel, true)) subdirs.emplace_back(given, abs);
          continue;
        }
        if (Status s = add(given, abs, refused); !s) return s.error();
      }
      // Pushed in reverse so the first folder is walked first: files of a folder come before
      // the files of its subfolders, subfolders in name order.
      for (auto r = subdirs.rbegin(); r != subdirs.rend(); ++r) stack.push_back(std::move(*r));
    }
  }
  return list;
}

}  // namespace lexlink::batch

// batch/atomic_file: an output file that is never seen half-written. It is written under the
// fixed temporary name DIR/.NAME.lexlink-tmp (a stale one left by a killed run is overwritten)
// and renamed over DIR/NAME by commit(); without commit() the temporary file is removed. An
// output expected new (Destination::kNew) is written as an unnamed file in DIR (O_TMPFILE,
// where the filesystem has it) and linked as DIR/NAME by commit(): a killed run leaves nothing.
// Parent folders are created as needed; an existing destination keeps its owner, group and
// permissions (as far as the process may give them: keep_owner_and_mode below), whether open()
// looked it up or commit() found it (Destination).
//
// commit(sync=true) fsyncs the file before the rename (in-place updates: the old content must
// never be lost). commit(sync=false) leaves durability to a later syncfs() of the whole output
// tree (GroupSync), done before the manifest records the file: a power cut can then lose or
// truncate a renamed output, but the manifest does not claim it and --resume redoes it.
#pragma once

#include <sys/stat.h>

#include <chrono>
#include <cstddef>
#include <string>

#include "common/status.h"

namespace lexlink::batch {

// Gives the open file `fd`, written to replace the file `st` describes, that file's owner,
// group and permissions, as far as the process may: the owner needs root, the group membership
// of it. The set-user-ID and set-group-ID bits are kept only with the owner and the group they
// were set with.
void keep_owner_and_mode(int fd, const struct stat& st);

// The temporary name used for `path`.
std::string temp_name_for(const std::string& path);
// True for a name (not a path) that is one of ours (".X.lexlink-tmp").
bool is_temp_name(const std::string& filename);

// What open() assumes of the destination.
enum class Destination {
  // It may exist: it is looked up first, and the temporary file gets its owner and permissions
  // from the start (in-place updates; a run into an output tree that was there before).
  kMayExist,
  // It should not (a fresh output tree): no lookup before the temporary file is made, and
  // commit() renames without replacing. Only if a file is found there after all is it looked
  // up, its owner and permissions given to the new file, and replaced. (On Linux, looking up a
  // name a folder does not hold waits for the folder's lock while another thread creates a file
  // in it: with two jobs writing one output folder, half the workers' context switches.)
  kNew,
};

// Whether open() creates the destination's missing parent folders (a batch's output tree), or
// fails with kNotFound (one output named on a command line: a typo in its folder is an error).
enum class Folders { kMake, kMustExist };

class AtomicFile {
 public:
  AtomicFile() = default;
  ~AtomicFile();  // removes the temporary file unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  Status open(const std::string& path, Destination destination = Destination::kMayExist,
              Folders folders = Folders::kMake);
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  Status commit(bool sync);
  void abort();

 private:
  int fd_ = -1;
  std::string path_;
  std::string temp_;
  bool looked_up_ = true;   // the destination was looked up by open()
  bool anonymous_ = false;  // fd_ is an unnamed file (O_TMPFILE) until commit() links it
};

// Groups the durability of many outputs: note() each committed file; when due() (every
// `max_files` files or `max_wait`), sync() flushes the whole filesystem of `dir` (syncfs) once.
class GroupSync {
 public:
  GroupSync(std::size_t max_files = 1000,
            std::chrono::milliseconds max_wait = std::chrono::milliseconds(2000))
      : max_files_(max_files), max_wait_(max_wait) {}
  ~GroupSync();
  Status open(const std::string& dir);
  void note();
  bool due() const;
  std::size_t pending() const { return pending_; }
  Status sync();  // reset() then sync_fs()
  // The two halves of sync(), for a caller that syncs on another thread: reset() (on the thread
  // that calls note() and due()) starts a new group; sync_fs() flushes the filesystem (it reads
  // nothing that note() or reset() write).
  void reset() { pending_ = 0; }
  Status sync_fs() const;

 private:
  int fd_ = -1;
  std::string dir_;
  std::size_t max_files_;
  std::chrono::milliseconds max_wait_;
  std::size_t pending_ = 0;
  std::chrono::steady_clock::time_point first_{};
};

}  // namespace lexlink::batch

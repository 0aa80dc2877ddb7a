// batch/inputs: the list of documents a batch run reads, and where each one's output goes.
//
// PATH arguments are files, folders (walked recursively, symbolic links to folders not
// followed, entries sorted by name so every run sees the same order) or "-" (one path per line
// on standard input); --files-from adds the paths of a list file. Every input gets a path
// relative to the root (--root, else the common parent of the arguments, a folder argument
// being its own root): the output is OUT/relative-path. Include/exclude globs (fnmatch, '*'
// crossing '/'; a glob without '/' also matches the file's name alone) are matched against that
// relative path; an excluded folder is not walked. A FIFO, socket or device met in a walk is
// listed with the reason it is not read (Input::refused). lexlink's own files (".X.lexlink-tmp",
// ".lexlink-manifest*") are never inputs. The same file named twice is read once; an input
// outside the root is an error.
//
// InputWalker gives the inputs one at a time, holding the named paths, the entries of the
// folder being listed and the folders still to walk, never the whole list: a walk of a tree of
// millions of files takes the memory of its largest folder. Only when more than one path is
// named does it keep the relative paths met (to read a file named twice once).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/status.h"

namespace lexlink::batch {

struct InputSpec {
  std::vector<std::string> paths;  // files, folders, "-"
  std::string files_from;          // a list file ("-": standard input), or empty
  std::string root;                // empty: the default
  std::vector<std::string> include, exclude;
  std::vector<std::string> skip;  // folders never walked (the output folder)
  std::FILE* stdin_list = stdin;  // where "-" reads paths from (tests)
  bool sizes = false;             // fill Input::size (a stat of each file)
};

struct Input {
  std::string path;  // as given or found (relative to the working directory, or absolute)
  std::string rel;   // relative to the root, '/'-separated
  // Not empty for a FIFO, socket or device found in a folder walk (directly or through a
  // symbolic link): why it is not read ("not a regular file: a FIFO"). Opening a FIFO would
  // wait for a writer forever; the run reports it as an error and goes on. A path named as an
  // argument or in a list is read whatever it is (a pipe from the shell: <(...)).
  std::string refused;
  // With InputSpec::sizes, the size of a regular file found (a link followed) when the walk
  // met it; else -1.
  std::int64_t size = -1;
};

class InputWalker {
 public:
  // Reads the named paths (and the lists) and finds the root; `spec` must outlive the walker.
  Status open(const InputSpec& spec);
  const std::string& root() const { return root_; }
  // The next input: true, false after the last, or an error (a folder that cannot be read, a
  // path outside the root).
  Result<bool> next(Input& out);
  // Back before the first input (a first walk counts the inputs, a second reads them).
  void rewind();
  // Whether the next inputs come with their sizes (InputSpec::sizes at first).
  void set_sizes(bool sizes) { sizes_ = sizes; }

 private:
  struct Named {
    std::string given;
    std::string abs;  // absolute, normalised
    bool dir;
  };
  struct Entry {
    std::string name;
    bool is_dir;
    std::string refused;  // Input::refused
    std::int64_t size;    // Input::size
    bool operator<(const Entry& o) const { return name < o.name; }
  };
  Status list_folder(const std::string& given_dir, const std::string& abs_dir);
  // Fills `out` for the file `given` (absolute `abs`); false when it is excluded or met before.
  Result<bool> take(const std::string& given, const std::string& abs, std::string refused,
                    Input& out);

  const InputSpec* spec_ = nullptr;
  std::string root_;
  std::vector<Named> named_;
  std::vector<std::string> skip_;  // absolute
  std::size_t item_ = 0;           // the named path being read
  bool walking_ = false;           // named_[item_] is a folder being walked
  // The folder being listed: its files (sorted) and the next one; then the folders to walk,
  // last to be walked first, as (given-style path, absolute path).
  std::string dir_given_, dir_abs_;
  std::string dir_rel_;  // relative to the root ("" for the root itself)
  std::string rel_in_folder(const std::string& name) const;  // a name in it, relative to the root
  std::vector<Entry> files_;
  std::size_t file_ = 0;
  std::vector<std::pair<std::string, std::string>> stack_;
  bool sizes_ = false;  // Input::size wanted
  bool dedup_ = false;  // more than one named path: the same file may be met twice
  std::unordered_set<std::string> seen_;
};

// The inputs that each hold a large share of a run's bytes, to be started first. Met in walk
// order, a 9 MB file among thousands of pages of 9 KB may come last and then run alone while the
// other cores wait; started first, it runs while they take the small files. Fed every input of a
// walk with its size, it keeps the `keep` largest (bounded memory whatever the walk), and
// largest() gives those of at least 1/`keep` of all the bytes fed, largest first (equal sizes in
// walk order). The choice depends on the inputs alone, not on the number of jobs.
class LargestInputs {
 public:
  explicit LargestInputs(std::size_t keep = 64) : keep_(keep) {}
  void add(const Input& in, std::uint64_t size);
  std::vector<Input> largest() const;
  std::uint64_t total_bytes() const { return total_; }

 private:
  struct Kept {
    std::uint64_t size;
    std::uint64_t order;  // walk order
    Input input;
  };
  std::size_t keep_;
  std::uint64_t total_ = 0, count_ = 0;
  std::vector<Kept> heap_;  // a min-heap on (size, later first): its top goes first
};

// fnmatch-style glob against a relative path (see above).
bool glob_matches(const std::string& glob, const std::string& rel);

}  // namespace lexlink::batch

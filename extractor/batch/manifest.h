// batch/manifest: the record of finished files that makes a batch run resumable.
//
// A text file, one line per finished input (tab-separated, paths escaped: \t \n \\):
//   input-rel  size  mtime-ns  input-xxh3-128  output-rel  output-size  output-xxh3-128  options
// where options is the hash of the options and of the lexicons and grammars the run used. Lines
// are only appended, and only after the outputs they name are on disk (see atomic_file.h); a
// torn last line (a killed run) is ignored, and a later line for the same input wins. open()
// reads it, rewrites it compacted (temporary file + rename) and locks it (flock): a second run
// on the same manifest is refused while the first one runs (concurrent runs, e.g. Slurm tasks,
// use distinct manifests).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "io/hash.h"

namespace lexlink::batch {

struct ManifestEntry {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  io::Hash128 input_hash;
  std::string output;  // relative to the output root
  std::uint64_t output_size = 0;
  io::Hash128 output_hash;
  io::Hash128 options;
};

class Manifest {
 public:
  Manifest() = default;
  ~Manifest();
  Manifest(const Manifest&) = delete;
  Manifest& operator=(const Manifest&) = delete;

  Status open(const std::string& path);
  // The entry for an input (relative path), or nullptr. Safe to call from many threads while
  // nothing is open()ed (add() only writes the file, not the table read here).
  const ManifestEntry* find(const std::string& rel) const;
  std::size_t size() const { return entries_.size(); }
  // Appends a record (buffered); flush() writes and fdatasyncs the buffered records.
  void add(const std::string& rel, const ManifestEntry& entry);
  Status flush();
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
  std::unordered_map<std::string, ManifestEntry> entries_;
  std::string pending_;
};

// One record as a line (with '\n'), and back (false for a malformed or torn line).
std::string manifest_line(const std::string& rel, const ManifestEntry& e);
bool parse_manifest_line(const std::string& line, std::string& rel, ManifestEntry& e);

}  // namespace lexlink::batch

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
#pragma once

#include <cstdio>
#include <string>
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
};

struct Input {
  std::string path;  // as given or found (relative to the working directory, or absolute)
  std::string rel;   // relative to the root, '/'-separated
  // Not empty for a FIFO, socket or device found in a folder walk (directly or through a
  // symbolic link): why it is not read ("not a regular file: a FIFO"). Opening a FIFO would
  // wait for a writer forever; the run reports it as an error and goes on. A path named as an
  // argument or in a list is read whatever it is (a pipe from the shell: <(...)).
  std::string refused;
};

struct InputList {
  std::string root;  // absolute
  std::vector<Input> inputs;
};

Result<InputList> enumerate_inputs(const InputSpec& spec);

// fnmatch-style glob against a relative path (see above).
bool glob_matches(const std::string& glob, const std::string& rel);

}  // namespace lexlink::batch

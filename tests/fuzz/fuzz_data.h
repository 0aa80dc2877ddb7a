// tests/fuzz/fuzz_data: what the loader targets share: the repository's data folder (the
// LEXLINK_SOURCE_DIR compile definition), a private temporary folder per process, removed at
// exit, and writing a fuzz input to a file in it.
#pragma once

#include <string>
#include <string_view>

namespace lexlink::test {

// The repository's source folder (holds grammars/, lexicons/, tests/data/).
std::string source_dir();

// A new empty folder under /dev/shm (else $TMPDIR, else /tmp) for this process, removed with
// everything in it when the process exits normally. Aborts when it cannot be made.
const std::string& scratch_dir();

// Writes `content` to `path` (replacing it); aborts on failure.
void write_file_or_die(const std::string& path, std::string_view content);

// Copies a file or, for a folder, a symbolic link to it; aborts on failure.
void link_or_die(const std::string& target, const std::string& link);

[[noreturn]] void die(const char* target, const std::string& message);

}  // namespace lexlink::test

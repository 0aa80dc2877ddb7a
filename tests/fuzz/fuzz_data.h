// tests/fuzz/fuzz_data: what the loader targets share: the repository's data folder (the
// LEXLINK_SOURCE_DIR compile definition), a private temporary folder per process, removed at
// exit, and writing a fuzz input to a file in it; and what the markup targets share: whether a
// document holds lexlink's own markers.
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

// Whether `doc` holds lexlink's own link markers, which unmark removes, so that
// unmark(markup(doc)) need not be doc. In a UTF-16 document they are spelled with NUL bytes
// between the letters ("l\0e\0x\0..."), which unmark reads once decoded: they are looked for
// with the NULs left out.
bool has_lexlink_markers(std::string_view doc);

}  // namespace lexlink::test

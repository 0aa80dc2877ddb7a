#include "fuzz/fuzz_data.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace lexlink::test {

std::string source_dir() {
  return LEXLINK_SOURCE_DIR;
}

[[noreturn]] void die(const char* target, const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", target, message.c_str());
  std::abort();
}

namespace {

std::string g_scratch;

void remove_scratch() {
  std::error_code ec;
  if (!g_scratch.empty()) std::filesystem::remove_all(g_scratch, ec);
}

// The folders of processes that are gone (a crash ends a target without its atexit handlers).
void remove_stale(const std::string& base) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(base, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("lexlink-fuzz-", 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + 13, nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      fs::remove_all(e.path(), ec);
    }
  }
}

}  // namespace

const std::string& scratch_dir() {
  if (g_scratch.empty()) {
    // In memory when the machine has /dev/shm: a file rewritten on a disk's filesystem for
    // every input costs more than most inputs (ext4 flushes a truncated file on close).
    const char* tmp = std::getenv("TMPDIR");
    const char* base = ::access("/dev/shm", W_OK) == 0  ? "/dev/shm"
                       : tmp != nullptr && *tmp != '\0' ? tmp
                                                        : "/tmp";
    remove_stale(base);
    std::string pattern =
        std::string(base) + "/lexlink-fuzz-" + std::to_string(::getpid()) + "-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) die("fuzz", "cannot make a folder " + pattern);
    g_scratch = pattern;
    std::atexit(remove_scratch);
  }
  return g_scratch;
}

void write_file_or_die(const std::string& path, std::string_view content) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) die("fuzz", "cannot write " + path);
  const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  if (std::fclose(f) != 0 || !ok) die("fuzz", "cannot write " + path);
}

void link_or_die(const std::string& target, const std::string& link) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(target, ec)) {
    fs::create_directory_symlink(target, link, ec);
  } else {
    fs::copy_file(target, link, fs::copy_options::overwrite_existing, ec);
  }
  if (ec) die("fuzz", "cannot link " + link + " to " + target + ": " + ec.message());
}

bool has_lexlink_markers(std::string_view doc) {
  std::string without_nul;
  without_nul.reserve(doc.size());
  for (const char c : doc) {
    if (c != '\0') without_nul += c;
  }
  return without_nul.find("lexlink") != std::string::npos;
}

}  // namespace lexlink::test

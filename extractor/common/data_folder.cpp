#include "common/data_folder.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

// Set by extractor/common/CMakeLists.txt: the source tree, and the installed data folder relative
// to the installed library's and program's folders.
#ifndef LEXLINK_SOURCE_DATA_DIR
#error "LEXLINK_SOURCE_DATA_DIR is not defined"
#endif
#ifndef LEXLINK_DATA_FROM_LIBDIR
#define LEXLINK_DATA_FROM_LIBDIR "../share/lexlink"
#endif
#ifndef LEXLINK_INSTALLED_DATA_DIR
#define LEXLINK_INSTALLED_DATA_DIR "/usr/local/share/lexlink"
#endif
#ifndef LEXLINK_DATA_FROM_BINDIR
#define LEXLINK_DATA_FROM_BINDIR "../share/lexlink"
#endif

namespace lexlink {
namespace fs = std::filesystem;

bool is_data_dir(const std::string& dir) {
  std::error_code ec;
  return fs::is_directory(fs::path(dir) / "grammars", ec) &&
         fs::is_directory(fs::path(dir) / "lexicons", ec);
}

std::string default_data_dir() {
  if (const char* env = std::getenv("LEXLINK_DATA"); env != nullptr && *env != 0) return env;
  // The file this function was loaded from: the shared library, or the program it is linked
  // into.
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&default_data_dir), &info) != 0 && info.dli_fname != nullptr &&
      *info.dli_fname != 0) {
    std::error_code ec;
    const fs::path module = fs::weakly_canonical(fs::path(info.dli_fname), ec);
    if (!ec) {
      for (const char* relative : {LEXLINK_DATA_FROM_LIBDIR, LEXLINK_DATA_FROM_BINDIR}) {
        const fs::path candidate = (module.parent_path() / relative).lexically_normal();
        if (is_data_dir(candidate.string())) return candidate.string();
      }
      // A program linked statically, away from PREFIX/bin: the configured prefix's data.
      if (is_data_dir(LEXLINK_INSTALLED_DATA_DIR)) return LEXLINK_INSTALLED_DATA_DIR;
      if (is_data_dir(LEXLINK_SOURCE_DATA_DIR)) return LEXLINK_SOURCE_DATA_DIR;
      // A program copied out of its tree: the data beside it, or one folder up.
      for (const fs::path& p : {module.parent_path(), module.parent_path().parent_path()}) {
        if (is_data_dir(p.string())) return p.string();
      }
    }
  }
  return LEXLINK_SOURCE_DATA_DIR;
}

std::vector<std::string> grammar_names(const std::string& data_dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(data_dir) / "grammars", ec)) {
    std::error_code type_ec;
    if (e.is_directory(type_ec)) names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace lexlink

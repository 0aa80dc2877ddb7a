// common/tsv: the one reader for lexlink's tab-separated data files (lexicons, profiles, maps).
//
// Format (documented in lexicons/README.md): UTF-8, one record per line, fields separated by a
// single TAB, the first non-comment line is a header naming the columns; lines starting with '#'
// and blank lines are ignored; a trailing CR is dropped. Every row remembers its line and the
// byte column of each field, so a loader can report `file:line:col` for any bad value.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace lexlink {

struct TsvRow {
  std::uint32_t line = 0;                // 1-based line number in the file
  std::vector<std::string_view> fields;  // views into TsvFile's buffer
  std::vector<std::uint32_t> cols;       // 1-based byte column of each field
};

class TsvFile {
 public:
  // Reads `path` and checks that its header is exactly `header` (same names, same order).
  static Result<TsvFile> load(const std::string& path, const std::vector<std::string>& header);
  // Same, from text already in memory (`path` is only used in messages).
  static Result<TsvFile> parse(std::string path, std::string content,
                               const std::vector<std::string>& header);

  const std::string& path() const { return path_; }
  const std::vector<TsvRow>& rows() const { return rows_; }

  // An error located at field `field` of `row`, `offset` bytes into that field.
  Error error_at(const TsvRow& row, std::size_t field, std::size_t offset,
                 std::string message) const;

  TsvFile(TsvFile&&) = default;
  TsvFile& operator=(TsvFile&&) = default;
  TsvFile(const TsvFile&) = delete;
  TsvFile& operator=(const TsvFile&) = delete;

 private:
  TsvFile() = default;
  std::string path_;
  std::unique_ptr<std::string> content_;  // stable address: rows_ hold views into it
  std::vector<TsvRow> rows_;
};

// Reads a whole file into `out`. kNotFound when it does not exist, kIoError otherwise.
Status read_file(const std::string& path, std::string& out);

}  // namespace lexlink

#include "common/tsv.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/utf8.h"

namespace lexlink {

Status read_file(const std::string& path, std::string& out) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    const int err = errno;
    Error e = make_error(err == ENOENT ? ErrorCode::kNotFound : ErrorCode::kIoError,
                         std::string("cannot open: ") + std::strerror(err));
    e.file = path;
    return e;
  }
  out.clear();
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) {
    Error e = make_error(ErrorCode::kIoError, "read error");
    e.file = path;
    return e;
  }
  return Status::Ok();
}

Error TsvFile::error_at(const TsvRow& row, std::size_t field, std::size_t offset,
                        std::string message) const {
  Error e = make_error(ErrorCode::kDataError, std::move(message));
  e.file = path_;
  e.line = row.line;
  e.col = field < row.cols.size() ? row.cols[field] + static_cast<std::uint32_t>(offset) : 1;
  return e;
}

Result<TsvFile> TsvFile::load(const std::string& path, const std::vector<std::string>& header) {
  std::string content;
  if (Status s = read_file(path, content); !s) return s.error();
  return parse(path, std::move(content), header);
}

Result<TsvFile> TsvFile::parse(std::string path, std::string content,
                               const std::vector<std::string>& header) {
  TsvFile file;
  file.path_ = std::move(path);
  file.content_ = std::make_unique<std::string>(std::move(content));
  std::string_view text = *file.content_;
  auto fail = [&](std::uint32_t line, std::uint32_t col, std::string msg) -> Error {
    Error e = make_error(ErrorCode::kDataError, std::move(msg));
    e.file = file.path_;
    e.line = line;
    e.col = col;
    return e;
  };
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  bool have_header = false;
  std::uint32_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    std::size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (std::size_t bad = utf8::find_invalid(line); bad != std::string_view::npos) {
      return fail(line_no, static_cast<std::uint32_t>(bad + 1), "invalid UTF-8");
    }
    if (line.empty() || line.front() == '#') continue;
    TsvRow row;
    row.line = line_no;
    std::size_t start = 0;
    while (true) {
      std::size_t tab = line.find('\t', start);
      row.cols.push_back(static_cast<std::uint32_t>(start + 1));
      row.fields.push_back(line.substr(start, tab == std::string_view::npos ? tab : tab - start));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    if (!have_header) {
      have_header = true;
      bool same = row.fields.size() == header.size();
      for (std::size_t i = 0; same && i < header.size(); ++i) same = row.fields[i] == header[i];
      if (!same) {
        std::string want;
        for (const auto& h : header) want += (want.empty() ? "" : "<TAB>") + h;
        return fail(line_no, 1, "expected the header line '" + want + "'");
      }
      continue;
    }
    if (row.fields.size() != header.size()) {
      const std::uint32_t col = row.fields.size() > header.size()
                                    ? row.cols[header.size()]
                                    : static_cast<std::uint32_t>(line.size() + 1);
      return fail(line_no, col,
                  "expected " + std::to_string(header.size()) + " tab-separated fields, found " +
                      std::to_string(row.fields.size()));
    }
    file.rows_.push_back(std::move(row));
  }
  if (!have_header) return fail(line_no == 0 ? 1 : line_no, 1, "empty file: no header line");
  return file;
}

}  // namespace lexlink

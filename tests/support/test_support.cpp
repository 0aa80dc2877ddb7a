#include "support/test_support.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

extern char** environ;

namespace lexlink::test {

std::string data_path(const std::string& relative) {
  return std::string(LEXLINK_SOURCE_DIR) + "/" + relative;
}

TsvFile load_table(const std::string& relative, const std::vector<std::string>& header) {
  auto file = TsvFile::load(data_path(relative), header);
  if (!file) FAIL(file.error().to_string());
  REQUIRE(!file->rows().empty());
  return std::move(*file);
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) FAIL("cannot read " << path.string());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string html_paragraphs(const std::string& text) {
  std::string html = "<!DOCTYPE html>\n<html><body>\n";
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    html += "<p>";
    for (std::size_t i = begin; i < end; ++i) {
      if (text[i] == '&') {
        html += "&amp;";
      } else if (text[i] == '<') {
        html += "&lt;";
      } else {
        html += text[i];
      }
    }
    html += "</p>\n";
    begin = end + 1;
  }
  return html + "</body></html>\n";
}

std::vector<std::filesystem::path> corpus_texts(const std::string& folder) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto& corpus : fs::directory_iterator(data_path("corpora"))) {
    if (!folder.empty() && corpus.path().filename() != folder) continue;
    if (!fs::is_directory(corpus.path() / "text")) continue;
    for (const auto& file : fs::directory_iterator(corpus.path() / "text")) {
      if (file.path().extension() == ".txt") files.push_back(file.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    if (c == 't') {
      out += '\t';
    } else if (c == 'n') {
      out += '\n';
    } else if (c == 'x' && i + 2 < s.size()) {
      out += static_cast<char>(std::strtol(std::string(s.substr(i + 1, 2)).c_str(), nullptr, 16));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string> split(std::string_view s, std::string_view sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t k = s.find(sep, start);
    out.emplace_back(s.substr(start, k == std::string_view::npos ? k : k - start));
    if (k == std::string_view::npos) break;
    start = k + sep.size();
  }
  return out;
}

namespace {

std::string temp_file(const std::string& content) {
  char name[] = "/tmp/lexlink-test-XXXXXX";
  const int fd = mkstemp(name);
  REQUIRE(fd >= 0);
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = write(fd, content.data() + done, content.size() - done);
    REQUIRE(n > 0);
    done += static_cast<std::size_t>(n);
  }
  close(fd);
  return name;
}

std::string slurp(const std::string& path) {
  std::string out;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return out;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fclose(f);
  return out;
}

}  // namespace

CliResult run_cli(const std::vector<std::string>& args, const std::string& input) {
  const std::string in = temp_file(input);
  const std::string out = temp_file("");
  const std::string err = temp_file("");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_TRUNC, 0);
  std::vector<std::string> all{LEXLINK_CLI};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  const int rc = posix_spawn(&pid, LEXLINK_CLI, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE(rc == 0);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  CliResult r;
  r.peak_rss_kb = usage.ru_maxrss;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  std::remove(in.c_str());
  std::remove(out.c_str());
  std::remove(err.c_str());
  return r;
}

TempDir::TempDir(const std::string& prefix) {
  std::string name = "/tmp/lexlink-" + prefix + "-XXXXXX";
  REQUIRE(mkdtemp(name.data()) != nullptr);
  path = name;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

std::string TempDir::file(const std::string& name, const std::string& content) const {
  const std::filesystem::path p = path / name;
  std::ofstream(p, std::ios::binary) << content;
  return p.string();
}

std::string TempDir::read(const std::string& name) const {
  std::ifstream in(path / name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> TempDir::names() const {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(path)) {
    out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace lexlink::test

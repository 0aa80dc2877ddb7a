#include "rewrite/citations_file.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "common/tsv.h"

namespace lexlink::rewrite {
namespace {

Error line_error(const std::string& path, std::uint32_t line, std::uint32_t col,
                 std::string message) {
  Error e = make_error(ErrorCode::kInvalidArgument, std::move(message));
  e.file = path;
  e.line = line;
  e.col = col;
  return e;
}

}  // namespace

Result<CitationsFile> CitationsFile::parse(std::string path, std::string_view content) {
  using json = nlohmann::json;
  CitationsFile out;
  std::uint32_t number = 0;
  std::size_t at = 0;
  while (at < content.size()) {
    std::size_t nl = content.find('\n', at);
    if (nl == std::string_view::npos) nl = content.size();
    std::string_view line = content.substr(at, nl - at);
    at = nl + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    json j;
    try {
      j = json::parse(line);
    } catch (const json::parse_error& e) {
      return line_error(path, number, static_cast<std::uint32_t>(e.byte),
                        "not a JSON object: " + std::string(e.what()));
    }
    if (!j.is_object()) return line_error(path, number, 1, "expected a JSON object");
    auto offset = [&](const char* key, std::uint64_t& value) -> bool {
      auto it = j.find(key);
      if (it == j.end() || !it->is_number_unsigned()) return false;
      value = it->get<std::uint64_t>();
      return true;
    };
    Request r;
    Span s;
    if (!offset("start", s.begin) || !offset("end", s.end)) {
      return line_error(
          path, number, 1,
          "\"start\" and \"end\" (original byte offsets, integers >= 0) are required");
    }
    if (s.end < s.begin) return line_error(path, number, 1, "\"end\" is before \"start\"");
    auto urn = j.find("urn");
    if (urn == j.end() || !urn->is_string() || urn->get<std::string>().empty()) {
      return line_error(path, number, 1, "\"urn\" (a string) is required");
    }
    r.original = s;
    r.urn = urn->get<std::string>();
    if (auto href = j.find("href"); href != j.end() && href->is_string()) {
      r.href = href->get<std::string>();
    }
    if (auto rule = j.find("rule"); rule != j.end() && rule->is_string()) {
      r.rule = rule->get<std::string>();
    }
    r.id = number;
    out.requests_.push_back(std::move(r));
  }
  std::stable_sort(
      out.requests_.begin(), out.requests_.end(),
      [](const Request& a, const Request& b) { return a.original->begin < b.original->begin; });
  return out;
}

Result<CitationsFile> CitationsFile::load(const std::string& path) {
  std::string content;
  if (Status s = read_file(path, content); !s) return s.error();
  return parse(path, content);
}

Status CitationsFile::find(const text::TextView& chunk, std::vector<Request>& out) {
  while (next_ < requests_.size() && requests_[next_].original->begin < chunk.orig_end) {
    out.push_back(requests_[next_++]);
  }
  return Status::Ok();
}

Status CitationsFile::finish(std::vector<Request>& leftover) {
  while (next_ < requests_.size()) leftover.push_back(requests_[next_++]);
  return Status::Ok();
}

}  // namespace lexlink::rewrite

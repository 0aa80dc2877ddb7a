#include "urn/profiles.h"

#include <algorithm>
#include <filesystem>

#include "common/tsv.h"
#include "urn/normalize.h"

namespace lexlink::urn {

bool pattern_matches_prefix(std::string_view pattern, std::string_view name) {
  if (pattern.empty()) return true;
  if (pattern[0] == '*') {
    // Try every run length, longest first, without crossing ':'.
    std::size_t run = 0;
    while (run < name.size() && name[run] != ':') ++run;
    for (std::size_t k = run + 1; k-- > 0;) {
      if (pattern_matches_prefix(pattern.substr(1), name.substr(k))) return true;
    }
    return false;
  }
  if (name.empty() || pattern[0] != name[0]) return false;
  return pattern_matches_prefix(pattern.substr(1), name.substr(1));
}

namespace {

Status load_maps(const std::string& path, TemplateMaps& maps) {
  auto file = TsvFile::load(path, {"map", "key", "value"});
  if (!file) return file.error();
  for (const TsvRow& row : file->rows()) {
    if (row.fields[0].empty()) return file->error_at(row, 0, 0, "empty map name");
    if (row.fields[1].empty()) return file->error_at(row, 1, 0, "empty key");
    auto& m = maps[std::string(row.fields[0])];
    if (!m.emplace(std::string(row.fields[1]), std::string(row.fields[2])).second) {
      return file->error_at(row, 1, 0,
                            "duplicate key '" + std::string(row.fields[1]) + "' in map '" +
                                std::string(row.fields[0]) + "'");
    }
  }
  return Status::Ok();
}

}  // namespace

Result<Profiles> Profiles::load(const std::string& data_dir) {
  namespace fs = std::filesystem;
  Profiles p;
  const fs::path lexicons = fs::path(data_dir) / "lexicons";
  std::error_code ec;
  if (!fs::is_directory(lexicons, ec)) {
    return make_error(ErrorCode::kNotFound,
                      "no lexicons/ folder in '" + data_dir +
                          "' (give the data folder with --data DIR or LEXLINK_DATA)");
  }
  // ASCII folding per jurisdiction.
  const std::string fold_path = (lexicons / "common" / "ascii-fold.tsv").string();
  auto fold = TsvFile::load(fold_path, {"jurisdiction", "transform"});
  if (!fold) return fold.error();
  for (const TsvRow& row : fold->rows()) {
    const std::string transform(row.fields[1]);
    if (auto probe = fold_to_ascii("x", transform); !probe) {
      return fold->error_at(row, 1, 0, probe.error().message);
    }
    if (row.fields[0] == "*") {
      p.default_fold_ = transform;
    } else if (!p.fold_.emplace(std::string(row.fields[0]), transform).second) {
      return fold->error_at(row, 0, 0, "jurisdiction listed twice");
    }
  }
  if (p.default_fold_.empty()) p.default_fold_ = kDefaultFoldTransform;

  // Resolver rules per jurisdiction folder.
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(lexicons, ec)) {
    if (entry.is_directory()) folders.push_back(entry.path());
  }
  std::sort(folders.begin(), folders.end());
  for (const fs::path& folder : folders) {
    const std::string code = folder.filename().string();
    const fs::path rules_path = folder / "resolvers.tsv";
    if (!fs::exists(rules_path, ec)) continue;
    Jurisdiction j;
    j.file = rules_path.string();
    const fs::path maps_path = folder / "resolver-maps.tsv";
    if (fs::exists(maps_path, ec)) {
      if (Status s = load_maps(maps_path.string(), j.maps); !s) return s.error();
    }
    auto file = TsvFile::load(j.file, {"match", "template"});
    if (!file) return file.error();
    const std::string prefix = "urn:lex:" + code;
    for (const TsvRow& row : file->rows()) {
      std::string_view pattern = row.fields[0];
      if (pattern.substr(0, prefix.size()) != prefix ||
          (pattern.size() > prefix.size() && pattern[prefix.size()] != ':' &&
           pattern[prefix.size()] != ';')) {
        return file->error_at(row, 0, 0,
                              "a pattern in " + code + "/resolvers.tsv starts with '" + prefix +
                                  ":' or '" + prefix + ";'");
      }
      auto url = UrlTemplate::compile(row.fields[1], j.maps);
      if (!url) {
        return file->error_at(row, 1, url.error().col == 0 ? 0 : url.error().col - 1,
                              url.error().message);
      }
      j.rules.push_back(
          Rule{std::string(pattern), std::move(*url), j.file + ":" + std::to_string(row.line)});
    }
    p.jurisdictions_.emplace(code, std::move(j));
  }
  return p;
}

const std::string& Profiles::fold_transform(std::string_view code) const {
  auto it = fold_.find(code);
  return it == fold_.end() ? default_fold_ : it->second;
}

Result<std::string> Profiles::resolve(const Urn& urn, const ResolveOptions& options) const {
  const std::string_view code = urn.jurisdiction_code();
  auto it = jurisdictions_.find(code);
  if (it == jurisdictions_.end()) {
    return make_error(ErrorCode::kNotFound, "no resolver rules for jurisdiction '" +
                                                std::string(code) +
                                                "' (lexicons/<jurisdiction>/resolvers.tsv)");
  }
  const std::string_view name = urn.document_name();
  const TemplateValues values = TemplateValues::of(urn, options.partition_sep);
  for (const Rule& rule : it->second.rules) {
    if (!pattern_matches_prefix(rule.pattern, name)) continue;
    if (auto url = rule.url.expand(values, it->second.maps)) return std::move(*url);
  }
  return make_error(ErrorCode::kNotFound,
                    "no rule of " + it->second.file + " applies to " + std::string(name));
}

std::vector<std::string> Profiles::jurisdictions() const {
  std::vector<std::string> out;
  for (const auto& [code, j] : jurisdictions_) out.push_back(code);
  return out;
}

}  // namespace lexlink::urn

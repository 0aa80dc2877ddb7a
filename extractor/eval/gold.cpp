#include "eval/gold.h"

#include <charconv>
#include <utility>

#include "common/tsv.h"

namespace lexlink::eval {
namespace {

constexpr std::string_view kColumns[] = {"doc_id",         "char_start", "char_end",
                                         "cited_text",     "urn",        "publisher_identifier",
                                         "publisher_extra"};
constexpr std::size_t kRequired = 5;  // doc_id .. urn
constexpr std::size_t kAll = sizeof kColumns / sizeof kColumns[0];

Error error_at(const std::string& path, std::uint32_t line, std::size_t col, std::string message) {
  Error e = make_error(ErrorCode::kDataError, std::move(message));
  e.file = path;
  e.line = line;
  e.col = static_cast<std::uint32_t>(col);
  return e;
}

// The fields of one line and the 1-based byte column of each.
void split_fields(std::string_view line, std::vector<std::string_view>& fields,
                  std::vector<std::size_t>& cols) {
  fields.clear();
  cols.clear();
  std::size_t start = 0;
  while (true) {
    const std::size_t tab = line.find('\t', start);
    cols.push_back(start + 1);
    fields.push_back(line.substr(start, tab == std::string_view::npos ? tab : tab - start));
    if (tab == std::string_view::npos) return;
    start = tab + 1;
  }
}

// The number of columns a header names (kRequired to kAll), or 0 when it is not a gold header.
std::size_t header_columns(const std::vector<std::string_view>& fields) {
  if (fields.size() < kRequired || fields.size() > kAll) return 0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i] != kColumns[i]) return 0;
  }
  return fields.size();
}

// An offset: decimal digits only (no sign, no space), fitting 64 bits.
bool parse_offset(std::string_view s, std::uint64_t& out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && s[0] >= '0' && s[0] <= '9';
}

}  // namespace

Result<std::vector<GoldRow>> parse_gold(const std::string& path, std::string_view text) {
  std::vector<GoldRow> rows;
  std::vector<std::string_view> f;
  std::vector<std::size_t> cols;
  std::size_t columns = 0;  // the header's; 0 until it is read
  std::uint32_t line_no = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a byte order mark
  while (!text.empty()) {
    ++line_no;
    const std::size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    split_fields(line, f, cols);
    if (columns == 0) {
      columns = header_columns(f);
      if (columns == 0) {
        return error_at(path, line_no, 1,
                        "expected the gold header 'doc_id<TAB>char_start<TAB>char_end<TAB>"
                        "cited_text<TAB>urn' (then optionally '<TAB>publisher_identifier"
                        "<TAB>publisher_extra')");
      }
      continue;
    }
    if (line.empty()) continue;
    if (f.size() != columns) {
      return error_at(path, line_no, f.size() > columns ? cols[columns] : line.size() + 1,
                      "expected " + std::to_string(columns) + " tab-separated fields, found " +
                          std::to_string(f.size()));
    }
    GoldRow r;
    r.line = line_no;
    if (f[0].empty()) return error_at(path, line_no, 1, "empty doc_id");
    for (std::size_t i : {std::size_t{1}, std::size_t{2}}) {
      if (!parse_offset(f[i], i == 1 ? r.start : r.end)) {
        return error_at(
            path, line_no, cols[i],
            std::string(kColumns[i]) +
                ": expected a number of code points (decimal digits, below 2^64), found '" +
                std::string(f[i]) + "'");
      }
    }
    if (r.end < r.start) {
      return error_at(
          path, line_no, cols[2],
          "char_end " + std::string(f[2]) + " is before char_start " + std::string(f[1]));
    }
    r.doc = f[0];
    r.cited = f[3];
    r.urn = f[4];
    if (columns > 5) r.publisher_id = f[5];
    if (columns > 6) r.publisher_extra = f[6];
    rows.push_back(std::move(r));
  }
  if (columns == 0) return error_at(path, 1, 1, "empty file: no gold header line");
  return rows;
}

Result<std::vector<GoldRow>> read_gold(const std::string& path) {
  std::string content;
  if (Status s = read_file(path, content); !s) return s.error();
  return parse_gold(path, content);
}

void map_publisher_ids(std::vector<GoldRow>& rows, const PublisherMap& map) {
  std::map<std::string_view, std::string_view> title_of;  // identifier -> its first title
  for (const GoldRow& r : rows) {
    if (!r.publisher_id.empty() && !r.publisher_extra.empty()) {
      title_of.emplace(r.publisher_id, r.publisher_extra);
    }
  }
  std::string key;
  for (GoldRow& r : rows) {
    if (!r.urn.empty() || r.publisher_id.empty()) continue;
    std::string_view title = r.publisher_extra;
    if (title.empty()) {
      if (auto it = title_of.find(r.publisher_id); it != title_of.end()) title = it->second;
    }
    key.assign(r.publisher_id).append(" | ").append(title);
    r.urn = map(key);
  }
}

std::map<std::string, std::vector<GoldLink>> scored_gold(std::vector<GoldRow> rows,
                                                         std::string_view measure) {
  std::map<std::string, std::vector<GoldLink>> out;
  for (GoldRow& r : rows) {
    if (r.urn.empty()) continue;
    GoldLink g{r.start, r.end, std::move(r.cited), std::move(r.urn), std::nullopt};
    g.name = score_parse(g.urn);
    if (!measure.empty() && (!g.name || g.name->measure != measure)) continue;
    out[std::move(r.doc)].push_back(std::move(g));
  }
  return out;
}

}  // namespace lexlink::eval

#include "eval/score_name.h"

#include <algorithm>

namespace lexlink::eval {
namespace {

// ASCII lower case: what std::tolower does in the C locale, which lexlink never leaves.
char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
}

// The part of `s` before the first `c` (all of it when there is none).
std::string_view before(std::string_view s, char c) {
  return s.substr(0, s.find(c));
}

bool is_digits(std::string_view s, std::size_t from, std::size_t n) {
  if (s.size() < from + n) return false;
  for (std::size_t i = from; i < from + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

// re.sub(r"[-;_]+", "-", part)
std::string partition_key(std::string_view part) {
  std::string out;
  bool run = false;
  for (const char c : part) {
    if (c == '-' || c == ';' || c == '_') {
      run = true;
      continue;
    }
    if (run) out += '-';
    run = false;
    out += c;
  }
  if (run) out += '-';
  return out;
}

}  // namespace

std::string norm_num(std::string_view s) {
  std::string out;
  bool run = false;
  for (const char raw : s) {
    const char c = ascii_lower(raw);
    if (c == '/' || c == '.' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '_' ||
        c == '\f' || c == '\v') {
      run = true;
      continue;
    }
    if (run) out += '-';
    run = false;
    out += c;
  }
  if (run) out += '-';
  const std::size_t first = out.find_first_not_of('-');
  if (first == std::string::npos) return {};
  return out.substr(first, out.find_last_not_of('-') + 1 - first);
}

std::optional<ScoreName> score_parse(std::string_view raw) {
  std::string u(raw);
  for (char& c : u) c = ascii_lower(c);
  std::string_view v = u;
  constexpr std::string_view kSpace = " \t\n\v\f\r";  // isspace in the C locale
  const std::size_t first = v.find_first_not_of(kSpace);
  v = first == std::string_view::npos ? std::string_view()
                                      : v.substr(first, v.find_last_not_of(kSpace) + 1 - first);
  if (v.substr(0, 8) != "urn:lex:") return std::nullopt;
  std::string_view body = v.substr(8), part;
  if (const std::size_t t = body.find('~'); t != std::string_view::npos) {
    part = body.substr(t + 1);
    body = body.substr(0, t);
  }
  body = body.substr(0, body.find_first_of("@$"));
  // The first four fields of body.split(':'), and how many there are.
  std::string_view f[4];
  std::size_t fields = 0;
  for (std::size_t at = 0;; ++fields) {
    const std::size_t k = body.find(':', at);
    if (fields < 4) f[fields] = body.substr(at, k == std::string_view::npos ? k : k - at);
    if (k == std::string_view::npos) {
      ++fields;
      break;
    }
    at = k + 1;
  }
  if (fields < 3) return std::nullopt;
  ScoreName p;
  p.jur = before(f[0], ';');
  p.auth = f[1];
  p.measure = before(f[2], ';');
  const std::string_view details = fields > 3 ? f[3] : std::string_view();
  const std::string_view date = before(before(details, ';'), '|');
  if (const std::size_t semi = details.find(';'); semi != std::string_view::npos) {
    // The numbers after the date, joined with ','.
    std::string nums(details.substr(semi + 1));
    std::replace(nums.begin(), nums.end(), ';', ',');
    p.number = norm_num(nums);
  }
  if (is_digits(date, 0, 4)) p.year = date.substr(0, 4);
  if (date.size() == 10 && is_digits(date, 0, 4) && date[4] == '-' && is_digits(date, 5, 2) &&
      date[7] == '-' && is_digits(date, 8, 2)) {
    p.full = date;
  }
  if (p.year.empty()) p.period = date;
  p.part = partition_key(part);
  return p;
}

bool work_match(const std::optional<ScoreName>& g, const std::optional<ScoreName>& p) {
  if (!g || !p) return false;
  if (g->jur != p->jur || g->measure != p->measure) return false;
  if (!g->auth.empty() && g->auth != p->auth) return false;
  if (g->year != p->year || g->number != p->number || g->period != p->period) return false;
  if (!g->full.empty() && !p->full.empty() && g->full != p->full) return false;
  return true;
}

bool partition_match(const std::optional<ScoreName>& g, const std::optional<ScoreName>& p) {
  return work_match(g, p) && g->part == p->part;
}

}  // namespace lexlink::eval

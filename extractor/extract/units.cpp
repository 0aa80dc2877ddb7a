#include "extract/units.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include "extract/number_text.h"

namespace lexlink::extract {
namespace {

bool is_leap(int y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int days_in(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m - 1];
}

}  // namespace

std::optional<int> Interpreter::roman_value(std::string_view s) {
  if (!grammar::Grammar::is_roman(s)) return std::nullopt;
  auto v = [](char c) {
    switch (c) {
      case 'i': return 1;
      case 'v': return 5;
      case 'x': return 10;
      case 'l': return 50;
      case 'c': return 100;
      case 'd': return 500;
      default: return 1000;
    }
  };
  int total = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const int cur = v(s[i]);
    if (i + 1 < s.size() && v(s[i + 1]) > cur) {
      total -= cur;
    } else {
      total += cur;
    }
  }
  return total;
}

namespace {

// Writes `v` (0 <= v < 10^width) with leading zeros to `width` digits at `p`.
char* put_padded(char* p, int v, int width) {
  for (int k = width - 1; k >= 0; --k) {
    p[k] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
  return p + width;
}

// Appends `v` (0 <= v < 10^width) with leading zeros to `width` digits.
void append_padded(std::string& out, int v, int width) {
  char buf[4];
  out.append(buf, static_cast<std::size_t>(put_padded(buf, v, width) - buf));
}

// Appends a non-negative int in decimal.
void append_int(std::string& out, int v) {
  char buf[16];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

}  // namespace

bool Interpreter::date(Span s, bool& year_only, std::string& out) const {
  year_only = false;
  std::vector<std::string_view>& numbers = numbers_;
  numbers.clear();
  int month = 0;
  std::size_t numbers_before_month = 0;
  for (std::uint32_t i = s.begin; i < s.end; ++i) {
    const Unit& unit = u_.units[i];
    if (auto m = cell(unit, ChainSetup::kMonth)) {
      if (month != 0) return false;
      month = to_int(*m);
      numbers_before_month = numbers.size();
      continue;
    }
    if (unit.cls >= 0 || unit.token_count != 1) continue;
    const std::string_view n = norm(unit.first_token);
    if (all_digits(n)) numbers.push_back(n);
  }
  int y = 0, m = 0, d = 0;
  auto year_of = [](std::string_view n) -> int {
    if (n.size() == 4) return to_int(n);
    if (n.size() == 2) return Interpreter::two_digit_year(to_int(n));
    return 0;
  };
  if (month != 0) {
    if (numbers.empty()) return false;
    m = month;
    if (numbers_before_month >= 1) d = to_int(numbers[numbers_before_month - 1]);
    if (numbers.size() > numbers_before_month) y = year_of(numbers[numbers_before_month]);
    // Month first, as in English: "June 25, 1938".
    if (numbers_before_month == 0 && numbers.size() == 2 && numbers[0].size() <= 2 &&
        numbers[1].size() == 4) {
      d = to_int(numbers[0]);
      y = year_of(numbers[1]);
    }
    if (!plausible_year(y)) return false;
    if (d == 0) {
      year_only = true;
      append_padded(out, y, 4);
      return true;
    }
  } else if (numbers.size() == 3) {
    if (numbers[0].size() == 4) {
      y = to_int(numbers[0]), m = to_int(numbers[1]), d = to_int(numbers[2]);
    } else {
      d = to_int(numbers[0]), m = to_int(numbers[1]), y = year_of(numbers[2]);
    }
  } else if (!numbers.empty()) {
    y = year_of(numbers.back());
    if (!plausible_year(y)) return false;
    year_only = true;
    append_padded(out, y, 4);
    return true;
  } else {
    return false;
  }
  if (!plausible_year(y) || m < 1 || m > 12 || d < 1 || d > days_in(y, m)) return false;
  // "%04d-%02d-%02d": the checks above keep every field within its width.
  char buf[10];
  char* p = put_padded(buf, y, 4);
  *p++ = '-';
  p = put_padded(p, m, 2);
  *p++ = '-';
  put_padded(p, d, 2);
  out.append(buf, sizeof buf);
  return true;
}

bool Interpreter::year(Span s, std::string& out) const {
  for (std::uint32_t i = s.end; i-- > s.begin;) {
    const Unit& unit = u_.units[i];
    if (unit.cls >= 0 || unit.token_count != 1) continue;
    const std::string_view n = norm(unit.first_token);
    if (!all_digits(n)) continue;
    if (n.size() == 2) {
      append_int(out, two_digit_year(to_int(n)));
      return true;
    }
    if (n.size() == 4 && plausible_year(to_int(n))) {
      out += n;
      return true;
    }
    return false;
  }
  return false;
}

bool Interpreter::number(Span s, std::string& out) const {
  const std::size_t mark = out.size();
  for (std::uint32_t i = s.begin; i < s.end; ++i) {
    const Unit& unit = u_.units[i];
    for (std::uint32_t t = unit.first_token; t < unit.first_token + unit.token_count; ++t) {
      const std::string_view n = norm(t);
      if (n == ".") {
        // "8.078": a thousands separator between digits; elsewhere dropped too.
        continue;
      }
      if (n == "/" || n == "-") {
        if (out.size() > mark && out.back() != '-') out += '-';
        continue;
      }
      if (n == "º" || n == "°" || n == "ª" || n == "\xC2\xBA" || n == "\xC2\xB0") continue;
      for (char c : n) {
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) out += c;
      }
    }
  }
  while (out.size() > mark && out.back() == '-') out.pop_back();
  return out.size() > mark;
}

bool Interpreter::digits(Span s, std::string& out) const {
  const std::size_t mark = out.size();
  for (std::uint32_t i = s.begin; i < s.end; ++i) {
    const Unit& unit = u_.units[i];
    for (std::uint32_t t = unit.first_token; t < unit.first_token + unit.token_count; ++t) {
      for (char c : norm(t)) {
        if (c >= '0' && c <= '9') out += c;
      }
    }
  }
  return out.size() > mark;
}

bool Interpreter::roman(Span s, std::string& out) const {
  for (std::uint32_t i = s.begin; i < s.end; ++i) {
    const Unit& unit = u_.units[i];
    if (unit.cls >= 0 || unit.token_count != 1) continue;
    if (auto v = roman_value(norm(unit.first_token))) {
      out += std::to_string(*v);
      return true;
    }
  }
  return false;
}

bool Interpreter::text(Span s, std::string& out) const {
  const std::size_t mark = out.size();
  for (std::uint32_t i = s.begin; i < s.end; ++i) {
    const Unit& unit = u_.units[i];
    for (std::uint32_t t = unit.first_token; t < unit.first_token + unit.token_count; ++t) {
      if (u_.tokens.tokens[t].kind == lexicon::TokenKind::kPunct) continue;
      if (out.size() > mark) out += '.';
      out += norm(t);
    }
  }
  return out.size() > mark;
}

bool Interpreter::attribute(Span s, int attr, std::string& out) const {
  for (std::uint32_t i = s.begin; i < s.end; ++i) {
    if (u_.units[i].cls >= 0) {
      const std::string* v = cell(u_.units[i], attr);
      if (v == nullptr) return false;
      out += *v;
      return true;
    }
  }
  return false;
}

}  // namespace lexlink::extract

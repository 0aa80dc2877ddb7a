// Reading and checking a grammar's settings; see settings.h and grammars/README.md, "Settings".
#include "grammar/settings.h"

#include <algorithm>
#include <initializer_list>
#include <utility>

namespace lexlink::grammar {
namespace {

Error error_at(const Location& loc, std::string message) {
  Error e = make_error(ErrorCode::kDataError, std::move(message));
  e.file = loc.file;
  e.line = loc.line;
  e.col = loc.col;
  return e;
}

Location shifted(const Location& at, std::size_t by) {
  return Location{at.file, at.line, at.col + static_cast<std::uint32_t>(by)};
}

// The keys without a variable part, in the order grammars/README.md lists them.
constexpr const char* kKeys[] = {"line-break",           "heading.title",
                                 "partition.separator",  "partition.value-separator",
                                 "partition.suffix",     "partition.parens",
                                 "partition.bare-roman", "partition.implicit",
                                 "partition.brackets",   "partition.bare-level",
                                 "partition.range",      "partition.range-act",
                                 "partition.act-words",  "partition.prefix",
                                 "partition.nested"};
// The keys with one: `<prefix><jurisdiction>`.
constexpr std::string_view kSeparatorOf = "partition.separator.";
constexpr std::string_view kCompleteYear = "complete-year.";

// A word of a value and where it starts in the value.
struct Word {
  std::string_view text;
  std::size_t at;
};

// The words of `value`, separated by spaces.
std::vector<Word> words_of(std::string_view value) {
  std::vector<Word> out;
  std::size_t k = 0;
  while (k < value.size()) {
    while (k < value.size() && (value[k] == ' ' || value[k] == '\t')) ++k;
    const std::size_t begin = k;
    while (k < value.size() && value[k] != ' ' && value[k] != '\t') ++k;
    if (k > begin) out.push_back(Word{value.substr(begin, k - begin), begin});
  }
  return out;
}

std::string quoted_list(std::initializer_list<const char*> accepted) {
  std::string list;
  for (const char* a : accepted) list += std::string(list.empty() ? "" : ", ") + a;
  return list;
}

// The index of `value` in `accepted`, or an error at `at` listing them.
Result<std::size_t> one_of(std::string_view key, std::string_view value, const Location& at,
                           std::initializer_list<const char*> accepted) {
  std::size_t k = 0;
  for (const char* a : accepted) {
    if (value == a) return k;
    ++k;
  }
  return error_at(at, "unknown value '" + std::string(value) + "' for setting '" +
                          std::string(key) + "' (accepted: " + quoted_list(accepted) + ")");
}

// A jurisdiction code (the variable part of a key): lower-case letters and digits, first a
// letter.
bool jurisdiction_code(std::string_view j) {
  if (j.empty() || j[0] < 'a' || j[0] > 'z') return false;
  return std::all_of(j.begin(), j.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); });
}

// The characters a separator may be made of: those urn/parse.cpp's partition-id takes as they
// are, letters and digits aside.
constexpr std::string_view kSeparatorChars = "-_;.'=()";

// A separator: characters of kSeparatorChars (none when `may_be_empty`).
Status separator(std::string_view key, std::string_view value, const Location& at,
                 bool may_be_empty) {
  const std::size_t bad = value.find_first_not_of(kSeparatorChars);
  if ((value.empty() && !may_be_empty) || bad != std::string_view::npos) {
    return error_at(bad == std::string_view::npos ? at : shifted(at, bad),
                    "unknown value '" + std::string(value) + "' for setting '" + std::string(key) +
                        "' (accepted: " + (may_be_empty ? "\"\" or " : "") + "characters among " +
                        std::string(kSeparatorChars) + ")");
  }
  return Status::Ok();
}

}  // namespace

Status SettingsReader::read(std::string_view key, std::string_view value, const Location& key_at,
                            const Location& value_at) {
  const bool with_jurisdiction =
      key.rfind(kSeparatorOf, 0) == 0 || key.rfind(kCompleteYear, 0) == 0;
  const bool known =
      with_jurisdiction || std::find(std::begin(kKeys), std::end(kKeys), key) != std::end(kKeys);
  if (!known) {
    std::string list;
    for (const char* k : kKeys) list += std::string(list.empty() ? "" : ", ") + k;
    list += ", partition.separator.<jurisdiction>, complete-year.<jurisdiction>";
    return error_at(key_at, "unknown setting '" + std::string(key) + "' (known: " + list + ")");
  }
  if (with_jurisdiction) {
    const std::string_view jur =
        key.substr(key.rfind(kSeparatorOf, 0) == 0 ? kSeparatorOf.size() : kCompleteYear.size());
    if (!jurisdiction_code(jur)) {
      return error_at(shifted(key_at, key.size() - jur.size()),
                      "expected a jurisdiction code (lower-case letters and digits) after '" +
                          std::string(key.substr(0, key.size() - jur.size())) + "', not '" +
                          std::string(jur) + "'");
    }
  }
  if (auto it = seen_.find(key); it != seen_.end()) {
    const Location& first = it->second;
    return error_at(key_at, "setting '" + std::string(key) + "' is set twice (first at " +
                                first.file + ":" + std::to_string(first.line) + ")");
  }
  seen_.emplace(std::string(key), key_at);
  if (value == "\"\"") value = {};
  Settings& s = settings_;
  // A level id, or a list of them, checked in finish().
  auto levels = [&](std::size_t most, std::vector<std::string>& into) -> Status {
    const std::vector<Word> ws = words_of(value);
    if (ws.empty() || ws.size() > most) {
      return error_at(value_at, "expected " +
                                    std::string(most == 1   ? "one level id"
                                                : most == 2 ? "one or two level ids"
                                                            : "level ids") +
                                    " of the partitions class for setting '" + std::string(key) +
                                    "', not '" + std::string(value) + "'");
    }
    for (const Word& w : ws) {
      into.emplace_back(w.text);
      level_names_.push_back(
          LevelName{std::string(w.text), std::string(key), shifted(value_at, w.at)});
    }
    return Status::Ok();
  };
  // The index of the value among `accepted`.
  auto choice = [&](std::initializer_list<const char*> accepted, auto& field) -> Status {
    auto k = one_of(key, value, value_at, accepted);
    if (!k) return k.error();
    field = static_cast<std::remove_reference_t<decltype(field)>>(*k);
    return Status::Ok();
  };
  auto yes_no = [&](bool& field) -> Status {
    auto k = one_of(key, value, value_at, {"no", "yes"});
    if (!k) return k.error();
    field = *k == 1;
    return Status::Ok();
  };
  if (key.rfind(kSeparatorOf, 0) == 0) {
    if (Status st = separator(key, value, value_at, false); !st) return st;
    s.separator_of[std::string(key.substr(kSeparatorOf.size()))] = std::string(value);
    return Status::Ok();
  }
  if (key.rfind(kCompleteYear, 0) == 0) {
    bool yes = false;
    if (Status st = yes_no(yes); !st) return st;
    if (yes) s.complete_year.insert(std::string(key.substr(kCompleteYear.size())));
    return Status::Ok();
  }
  if (key == "line-break") return choice({"space", "paragraph"}, s.line_break);
  if (key == "heading.title") return choice({"linked", "unlinked"}, s.heading_title);
  if (key == "partition.suffix") return choice({"glue", "letter-index", "alnum"}, s.suffix);
  if (key == "partition.brackets") return choice({"no", "path"}, s.brackets);
  if (key == "partition.range") return choice({"every", "ends", "first"}, s.range);
  if (key == "partition.range-act") return yes_no(s.range_act);
  if (key == "partition.act-words") return yes_no(s.act_words);
  if (key == "partition.separator") {
    if (Status st = separator(key, value, value_at, false); !st) return st;
    s.separator = std::string(value);
    return Status::Ok();
  }
  if (key == "partition.value-separator") {
    if (Status st = separator(key, value, value_at, true); !st) return st;
    s.value_separator = std::string(value);
    return Status::Ok();
  }
  if (key == "partition.nested") {
    auto k = one_of(key, value, value_at, {"["});
    if (!k) return k.error();
    s.nested = std::string(value);
    return Status::Ok();
  }
  if (key == "partition.prefix") {
    for (const Word& w : words_of(value)) {
      // Folded words: no capital, digit or punctuation (letters outside ASCII are taken).
      const auto bad = std::find_if(w.text.begin(), w.text.end(), [](char c) {
        return static_cast<unsigned char>(c) < 0x80 && (c < 'a' || c > 'z');
      });
      if (bad != w.text.end()) {
        return error_at(shifted(value_at, w.at),
                        "expected folded words (lower-case letters) for setting '" +
                            std::string(key) + "', not '" + std::string(w.text) + "'");
      }
      s.prefixes.emplace_back(w.text);
    }
    return Status::Ok();
  }
  if (key == "partition.bare-level") {
    if (value == "no" || value == "yes") {
      s.bare_level = value == "yes" ? Settings::BareLevel::kEvery : Settings::BareLevel::kNo;
      return Status::Ok();
    }
    s.bare_level = Settings::BareLevel::kListed;
    return levels(SIZE_MAX, s.bare_level_ids);
  }
  std::vector<std::string> ids;
  if (key == "partition.parens") {
    if (Status st = levels(2, ids); !st) return st;
    s.paren_number = ids[0];
    if (ids.size() > 1) s.paren_letter = ids[1];
    return Status::Ok();
  }
  if (Status st = levels(1, ids); !st) return st;  // bare-roman, implicit
  (key == "partition.bare-roman" ? s.bare_roman : s.implicit) = ids[0];
  return Status::Ok();
}

Status SettingsReader::finish(const std::vector<std::string>& level_ids,
                              bool has_partitions) const {
  for (const LevelName& n : level_names_) {
    if (!has_partitions) {
      return error_at(n.at, "setting '" + n.key + "' names a level, but the grammar declares no " +
                                "'partitions' class");
    }
    if (std::find(level_ids.begin(), level_ids.end(), n.id) == level_ids.end()) {
      std::vector<std::string> known;
      for (const std::string& id : level_ids) {
        if (!id.empty() && std::find(known.begin(), known.end(), id) == known.end()) {
          known.push_back(id);
        }
      }
      std::string list;
      for (const std::string& id : known) list += (list.empty() ? "" : ", ") + id;
      return error_at(n.at, "unknown level '" + n.id + "' for setting '" + n.key +
                                "' (the partitions class has: " + list + ")");
    }
  }
  return Status::Ok();
}

}  // namespace lexlink::grammar

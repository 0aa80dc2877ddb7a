// urn/url_template: the template language of resolver links (lexicons/<jur>/resolvers.tsv).
//
//   https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=CELEX:3{number|field(-,1)}
//     {measure_type|map(celex_sector)}{number|field(-,2)|pad(4)}[{sep}{partition}]
//
// - `{var}` is a value of the name (see kTemplateVariables); `{var|filter|...}` transforms it:
//   upper, lower, field(C,N) (the Nth field split on C, 1-based; negative counts from the end),
//   pad(N) (left-pad with '0' to N), replace(A,B), strip(P) (remove prefix P), map(M) (look the
//   value up in map M of the jurisdiction's resolver-maps.tsv; an unknown key gives nothing).
// - `[...]` is optional: it is written only when every variable inside has a value.
// - A variable outside any `[...]` that has no value makes the whole template not apply, so the
//   next rule of the file is tried.
// - `\{ \} \[ \] \| \\` write the character itself.
// Compiling reports the byte offset of the problem; expansion never fails, it applies or not.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "urn/urn.h"

namespace lexlink::urn {

inline constexpr std::array<const char*, 22> kTemplateVariables = {
    "name",   // the document name: the whole canonical name without ~partition
    "nss",    // the name without "urn:lex:"
    "local",  // the name after "<jurisdiction>:"
    "jurisdiction", "jurisdiction_code",
    "units",        "authority",
    "measure",      "measure_type",
    "details",
    "date",  // first date of the details (yyyy-mm-dd)
    "year",         "month",
    "day",
    "period",  // the period of the details (also a bare year: `2000;56`)
    "number",  // first document-id
    "numbers",      "annex",
    "version",      "language",
    "partition",  // the partition id (without '~')
    "sep",        // the partition separator chosen by the user ('#' or '~')
};

// The values of every template variable for one name.
struct TemplateValues {
  std::array<std::string, kTemplateVariables.size()> values;
  static TemplateValues of(const Urn& urn, char partition_sep);
};

using TemplateMaps =
    std::map<std::string, std::map<std::string, std::string, std::less<>>, std::less<>>;

class UrlTemplate {
 public:
  // On failure the Error's `col` is the 1-based byte column inside `text`.
  static Result<UrlTemplate> compile(std::string_view text, const TemplateMaps& maps);
  // The expansion, or nullopt when a required variable has no value.
  std::optional<std::string> expand(const TemplateValues& values, const TemplateMaps& maps) const;

  struct Filter {
    enum class Op : std::uint8_t { kUpper, kLower, kField, kPad, kReplace, kStrip, kMap } op;
    std::string a, b;
    int n = 0;
  };
  struct Item {
    enum class Type : std::uint8_t { kLiteral, kVariable, kGroup } type;
    std::string literal;
    std::size_t variable = 0;
    std::vector<Filter> filters;
    std::vector<Item> group;
  };

 private:
  std::vector<Item> items_;
};

}  // namespace lexlink::urn

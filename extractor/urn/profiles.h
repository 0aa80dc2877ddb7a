// urn/profiles: the per-jurisdiction data the URN toolkit needs, loaded from lexicons/.
//
//   lexicons/common/ascii-fold.tsv   jurisdiction -> ICU transform used by `normalize --fold`
//   lexicons/<jur>/resolvers.tsv     ordered rules: URN prefix pattern -> resolver URL template
//   lexicons/<jur>/resolver-maps.tsv named maps used by the templates' map(...) filter
// (formats in lexicons/README.md). Loading checks everything and reports `file:line:col`; the
// loaded Profiles is immutable and safe to share between threads. Two Profiles loaded from
// different folders coexist: there is no global state.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "urn/url_template.h"
#include "urn/urn.h"

namespace lexlink::urn {

struct ResolveOptions {
  char partition_sep =
      '#';  // '#' (spec 10.3: the resolver turns ~partition into #partition) or '~'
};

class Profiles {
 public:
  // Loads the files above from `data_dir` (the folder holding lexicons/).
  static Result<Profiles> load(const std::string& data_dir);

  // The ICU transform that folds names of jurisdiction `code` to ASCII.
  const std::string& fold_transform(std::string_view code) const;

  // The resolver URL of a valid (canonical) name: the first rule of its jurisdiction whose
  // pattern matches and whose template applies. kNotFound when none does.
  Result<std::string> resolve(const Urn& urn, const ResolveOptions& options = {}) const;

  // Jurisdiction codes that have resolver rules.
  std::vector<std::string> jurisdictions() const;

 private:
  struct Rule {
    std::string pattern;  // prefix of the document name; '*' matches a run without ':'
    UrlTemplate url;
    std::string where;  // "file:line" for explanations
  };
  struct Jurisdiction {
    std::vector<Rule> rules;
    TemplateMaps maps;
    std::string file;
  };
  std::map<std::string, Jurisdiction, std::less<>> jurisdictions_;
  std::map<std::string, std::string, std::less<>> fold_;
  std::string default_fold_;
};

// True when `pattern` matches a prefix of `name` ('*' matches any run of characters but ':').
bool pattern_matches_prefix(std::string_view pattern, std::string_view name);

}  // namespace lexlink::urn

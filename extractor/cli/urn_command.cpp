// `lexlink urn ...`: the URN:LEX toolkit on the command line.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json_lines.h"
#include "urn/normalize.h"
#include "urn/profiles.h"
#include "urn/render.h"
#include "urn/structure_json.h"
#include "urn/urn.h"

namespace lexlink::cli {
namespace {

using json = nlohmann::ordered_json;
using urn::Kind;
using urn::Node;
using urn::Urn;

constexpr const char* kUrnUsage =
    "usage: lexlink urn SUBCOMMAND [OPTIONS] [NAME...]\n"
    "Names come from the arguments or, when there are none (or '-'), one per line from standard\n"
    "input (surrounding spaces and a trailing CR are ignored). One JSON object per name goes to\n"
    "standard output, in input order; an invalid name gets {\"valid\": false, \"error\": ...} and\n"
    "its reason on standard error. Exit status: 0 all valid, 1 some name invalid, 2 usage error.\n"
    "\n"
    "subcommands:\n"
    "  parse      the structure of each name (every ABNF element)\n"
    "             --iri  accept raw non-ASCII letters;  --allow-empty-authority  accept 'eu::'\n"
    "             --allow-unnumbered  accept details without a number (URN:NIR's Constitution)\n"
    "  validate   whether each name is valid            --iri\n"
    "  normalize  the canonical form\n"
    "             --fold  fold to ASCII with the jurisdiction's transform (lexicons/common/\n"
    "                     ascii-fold.tsv);  --fold-transform ID  an explicit ICU transform\n"
    "             --form canonical|unicode|punycode  (default canonical)\n"
    "             --lower-partition  lower-case the partition id too\n"
    "  equal      lexical equivalence of two names: NAME_A NAME_B, or lines 'A<TAB>B'\n"
    "             (RFC 2141bis section 5 plus LEX case-insensitivity); --nfc --fold --iri;\n"
    "             exit status 3 when all names are valid but some pair differs\n"
    "  resolve    the resolver URL from the jurisdiction's lexicons/<jur>/resolvers.tsv\n"
    "             --partition-sep '#'|'~'  how the partition is attached (default '#')\n"
    "             --http  the HTTP form of the ABNF instead;  --base URL  its prefix\n"
    "common: --max-length N (default 65536 bytes)\n";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// Shortens a name for a message on stderr.
std::string shown(std::string_view s) {
  if (s.size() <= 120) return std::string(s);
  return std::string(s.substr(0, 100)) + "... (" + std::to_string(s.size()) + " bytes)";
}

json error_json(const urn::ParseError& e) {
  return json{{"position", e.position},
              {"expected", e.expected},
              {"production", e.production},
              {"message", e.message},
              {"code", to_string(e.code)}};
}

// Feeds every input name to `handle`, from the arguments or from stdin lines.
template <class Handle>
void for_each_input(const std::vector<std::string>& positional, Handle&& handle) {
  if (!positional.empty() && !(positional.size() == 1 && positional[0] == "-")) {
    for (std::size_t i = 0; i < positional.size(); ++i) {
      handle(std::string_view(positional[i]), "argument " + std::to_string(i + 1));
    }
    return;
  }
  std::ios::sync_with_stdio(false);
  std::string line;
  std::size_t number = 0;
  while (std::getline(std::cin, line)) {
    ++number;
    handle(std::string_view(line), "line " + std::to_string(number));
  }
}

class UrnTool {
 public:
  explicit UrnTool(const Context& context) : context_(context) {}

  int run(const std::vector<std::string>& argv) {
    if (argv.empty() || argv[0] == "--help" || argv[0] == "-h" || argv[0] == "help") {
      std::fputs(kUrnUsage, argv.empty() ? stderr : stdout);
      return argv.empty() ? 2 : 0;
    }
    const std::string sub = argv[0];
    Args args;
    args.flag("help")
        .flag("iri")
        .flag("allow-empty-authority")
        .flag("allow-unnumbered")
        .flag("fold")
        .flag("nfc");
    args.flag("lower-partition").flag("http");
    args.option("fold-transform", "").option("form", "canonical").option("partition-sep", "#");
    args.option("base", "").option("max-length", "65536");
    if (!args.parse(std::vector<std::string>(argv.begin() + 1, argv.end()))) {
      return usage_error(args.error());
    }
    if (args.has("help")) {
      std::fputs(kUrnUsage, stdout);
      return 0;
    }
    try {
      parse_options_.max_length = std::stoul(args.get("max-length"));
    } catch (...) {
      return usage_error("--max-length needs a number of bytes");
    }
    parse_options_.allow_iri = args.has("iri");
    parse_options_.allow_empty_authority = args.has("allow-empty-authority");
    parse_options_.allow_unnumbered = args.has("allow-unnumbered");
    const std::string& sep = args.get("partition-sep");
    if (sep != "#" && sep != "~") return usage_error("--partition-sep is '#' or '~'");
    partition_sep_ = sep[0];

    if (sub == "parse") return each(args, [&](std::string_view name) { return parse(name); });
    if (sub == "validate") {
      return each(args, [&](std::string_view name) { return validate(name); });
    }
    if (sub == "normalize") {
      const std::string& form = args.get("form");
      if (form != "canonical" && form != "unicode" && form != "punycode") {
        return usage_error("--form is canonical, unicode or punycode");
      }
      return each(args, [&](std::string_view name) { return normalize(name, args); });
    }
    if (sub == "resolve") {
      return each(args, [&](std::string_view name) { return resolve(name, args); });
    }
    if (sub == "equal") return equal(args);
    return usage_error("unknown subcommand '" + sub + "'");
  }

 private:
  int usage_error(const std::string& message) {
    std::fprintf(stderr, "lexlink urn: %s\n\n%s", message.c_str(), kUrnUsage);
    return 2;
  }

  // Result of one name: the JSON to print and, when invalid, the message for stderr.
  struct Outcome {
    json value;
    std::optional<std::string> problem;
  };

  template <class Fn>
  int each(const Args& args, Fn&& fn) {
    int status = 0;
    for_each_input(args.positional(), [&](std::string_view raw, const std::string& where) {
      const std::string_view name = trim(raw);
      Outcome o = fn(name);
      if (o.problem) {
        status = 1;
        std::fprintf(stderr, "lexlink urn: %s: %s: %s\n", where.c_str(), shown(name).c_str(),
                     o.problem->c_str());
      }
      write_json_line(stdout, o.value);
    });
    std::fflush(stdout);
    return status;
  }

  static Outcome invalid(std::string_view name, const urn::ParseError& e) {
    std::string problem = e.message;
    if (e.code == ErrorCode::kLimitExceeded) problem += " (raise it with --max-length)";
    return {json{{"input", std::string(name)}, {"valid", false}, {"error", error_json(e)}},
            std::move(problem)};
  }

  Outcome parse(std::string_view name) {
    auto r = urn::parse(name, parse_options_);
    if (!r) return invalid(name, r.error());
    json out{{"input", std::string(name)}, {"valid", true}};
    urn::NormalizeOptions n;
    n.parse = parse_options_;
    auto canonical = urn::normalize(name, n);
    out["canonical"] = canonical ? json(*canonical) : json(nullptr);
    out.update(urn::structure_json(*r));
    return {std::move(out), std::nullopt};
  }

  Outcome validate(std::string_view name) {
    urn::ParseError e;
    if (!urn::validate(name, parse_options_, &e)) return invalid(name, e);
    return {json{{"input", std::string(name)}, {"valid", true}}, std::nullopt};
  }

  // The transform that folds `name` to ASCII: explicit, else the jurisdiction's.
  std::optional<std::string> fold_transform(std::string_view name, const Args& args,
                                            std::string& problem) {
    if (args.given("fold-transform")) return args.get("fold-transform");
    const Profiles* p = profiles(problem);
    if (p == nullptr) return std::nullopt;
    urn::ParseOptions lenient = parse_options_;
    lenient.allow_iri = true;
    auto u = urn::parse(name, lenient);
    return p->fold_transform(u ? u->jurisdiction_code() : std::string_view());
  }

  Outcome normalize(std::string_view name, const Args& args) {
    urn::NormalizeOptions n;
    n.parse = parse_options_;
    n.parse.allow_iri = true;
    n.lower_partition = args.has("lower-partition");
    if (args.has("fold")) {
      std::string problem;
      auto t = fold_transform(name, args, problem);
      if (!t) {
        return {json{{"input", std::string(name)}, {"valid", false}, {"error", problem}}, problem};
      }
      n.fold = true;
      n.fold_transform = *t;
    }
    auto r = urn::normalize(name, n);
    if (!r) return invalid(name, r.error());
    std::string value = *r;
    const std::string& form = args.get("form");
    if (form != "canonical") {
      auto u = urn::parse(value, parse_options_);
      if (!u) return invalid(name, u.error());
      if (form == "unicode") {
        value = urn::to_unicode(*u);
      } else {
        auto p = urn::to_punycode(*u);
        if (!p) {
          return {
              json{{"input", std::string(name)}, {"valid", false}, {"error", p.error().message}},
              p.error().message};
        }
        value = *p;
      }
    }
    return {json{{"input", std::string(name)}, {"valid", true}, {"normalized", value}},
            std::nullopt};
  }

  Outcome resolve(std::string_view name, const Args& args) {
    urn::NormalizeOptions n;
    n.parse = parse_options_;
    auto canonical = urn::normalize(name, n);
    if (!canonical) return invalid(name, canonical.error());
    auto u = urn::parse(*canonical, parse_options_);
    if (!u) return invalid(name, u.error());
    json out{{"input", std::string(name)}, {"valid", true}, {"urn", *canonical}};
    if (args.has("http")) {
      out["url"] = urn::to_http(*u, urn::HttpOptions{args.get("base"), partition_sep_});
      return {std::move(out), std::nullopt};
    }
    std::string problem;
    const Profiles* p = profiles(problem);
    if (p == nullptr) {
      out["url"] = nullptr;
      out["error"] = problem;
      return {std::move(out), problem};
    }
    auto url = p->resolve(*u, urn::ResolveOptions{partition_sep_});
    if (!url) {
      out["url"] = nullptr;
      out["error"] = url.error().message;
      return {std::move(out), url.error().message};
    }
    out["url"] = *url;
    return {std::move(out), std::nullopt};
  }

  int equal(const Args& args) {
    urn::EquivalenceOptions eq;
    eq.nfc = args.has("nfc");
    eq.allow_iri = args.has("iri");
    eq.fold = args.has("fold");
    eq.fold_transform = args.get("fold-transform");
    int status = 0;
    bool some_differ = false;
    auto compare = [&](std::string_view a, std::string_view b, const std::string& where) {
      json out{{"a", std::string(a)}, {"b", std::string(b)}};
      auto r = urn::equivalent(a, b, eq);
      if (!r) {
        status = 1;
        out["valid"] = false;
        out["error"] = error_json(r.error());
        std::fprintf(stderr, "lexlink urn equal: %s: %s\n", where.c_str(),
                     r.error().message.c_str());
      } else {
        out["valid"] = true;
        out["equal"] = *r;
        some_differ = some_differ || !*r;
      }
      write_json_line(stdout, out);
    };
    const auto& pos = args.positional();
    if (pos.size() == 2) {
      compare(trim(pos[0]), trim(pos[1]), "arguments");
    } else if (pos.empty() || (pos.size() == 1 && pos[0] == "-")) {
      for_each_input({}, [&](std::string_view raw, const std::string& where) {
        std::string_view line = trim(raw);
        std::size_t tab = line.find('\t');
        if (tab == std::string_view::npos) tab = line.find(' ');
        if (tab == std::string_view::npos) {
          status = 1;
          const std::string msg = "expected two names separated by a tab";
          std::fprintf(stderr, "lexlink urn equal: %s: %s\n", where.c_str(), msg.c_str());
          write_json_line(stdout,
                          json{{"input", std::string(line)}, {"valid", false}, {"error", msg}});
          return;
        }
        compare(trim(line.substr(0, tab)), trim(line.substr(tab + 1)), where);
      });
    } else {
      return usage_error("equal takes two names, or none to read 'A<TAB>B' lines");
    }
    std::fflush(stdout);
    if (status != 0) return status;
    return some_differ ? 3 : 0;
  }

  // The profiles, loaded on first use; null (and `problem` set) when they cannot be.
  const urn::Profiles* profiles(std::string& problem) {
    if (!profiles_loaded_) {
      profiles_loaded_ = true;
      auto p = urn::Profiles::load(context_.data_dir);
      if (p) {
        profiles_.emplace(std::move(*p));
      } else {
        profiles_error_ = p.error().to_string();
      }
    }
    if (!profiles_) problem = profiles_error_;
    return profiles_ ? &*profiles_ : nullptr;
  }

  using Profiles = urn::Profiles;
  const Context& context_;
  urn::ParseOptions parse_options_;
  char partition_sep_ = '#';
  bool profiles_loaded_ = false;
  std::optional<urn::Profiles> profiles_;
  std::string profiles_error_;
};

}  // namespace

int urn_command(const Context& context, const std::vector<std::string>& args) {
  return UrnTool(context).run(args);
}

}  // namespace lexlink::cli

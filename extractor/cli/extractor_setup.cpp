#include "cli/extractor_setup.h"

#include <algorithm>
#include <cstdio>

#include "common/data_folder.h"
#include "document/options.h"
#include "urn/urn.h"

namespace lexlink::cli {

void declare_extractor_options(Args& args) {
  args.option("jurisdiction", "it").option("engine", "hyperscan").option("cache", "");
  args.option("self", "");
}

std::optional<scan::Engine> parse_engine(std::string_view value) {
  if (value == "hyperscan") return scan::Engine::kHyperscan;
  if (value == "re2") return scan::Engine::kRe2;
  return std::nullopt;
}

std::shared_ptr<const extract::Extractor> load_extractor(const char* command,
                                                         const Context& context, const Args& args) {
  extract::ExtractorOptions eo;
  eo.data_dir = context.data_dir;
  eo.grammars = {args.get("jurisdiction")};
  const auto engine = parse_engine(args.get("engine"));
  if (!engine) {
    std::fprintf(stderr, "lexlink %s: --engine is hyperscan or re2\n", command);
    return nullptr;
  }
  eo.engine = *engine;
  eo.cache_dir = args.get("cache");
  const std::string& self = args.get("self");
  if (!self.empty()) {
    urn::ParseOptions po;
    po.allow_unnumbered = true;
    urn::ParseError e;
    if (!urn::validate(self, po, &e)) {
      std::fprintf(stderr, "lexlink %s: --self: %s\n", command, e.message.c_str());
      return nullptr;
    }
  }
  auto x = extract::Extractor::load(eo);
  if (!x) {
    std::fprintf(stderr, "lexlink %s: %s\n", command, x.error().to_string().c_str());
    return nullptr;
  }
  return std::move(*x);
}

void declare_document_options(Args& args, const char* format) {
  args.option("format", format).option("encoding", "auto");
}

bool read_document_options(const char* command, const Args& args, text::ViewOptions& view) {
  auto format = document::parse_format(args.get("format"));
  if (!format) {
    std::fprintf(stderr, "lexlink %s: --format: %s\n", command, format.error().message.c_str());
    return false;
  }
  view.format = *format;
  auto encoding = document::parse_encoding(args.get("encoding"));
  if (!encoding) {
    std::fprintf(stderr, "lexlink %s: --encoding: %s\n", command, encoding.error().message.c_str());
    return false;
  }
  view.encoding = *encoding;
  return true;
}

void declare_link_options(Args& args) {
  args.option("href", "urn").option("partition-sep", "");
}

bool read_link_options(const char* command, const Context& context, const Args& args,
                       LinkSetup& out) {
  const std::string& href = args.get("href");
  if (href == "urn") {
    out.link.href = rewrite::HrefMode::kUrn;
  } else if (href == "resolver") {
    out.link.href = rewrite::HrefMode::kResolver;
  } else {
    std::fprintf(stderr, "lexlink %s: --href is urn or resolver\n", command);
    return false;
  }
  const std::string& sep = args.get("partition-sep");
  if (sep.empty()) {
    out.link.partition_sep = out.link.href == rewrite::HrefMode::kUrn ? '~' : '#';
  } else if (sep == "#" || sep == "~") {
    out.link.partition_sep = sep[0];
  } else {
    std::fprintf(stderr, "lexlink %s: --partition-sep is '#' or '~'\n", command);
    return false;
  }
  if (out.link.href == rewrite::HrefMode::kResolver) {
    auto loaded = urn::Profiles::load(context.data_dir);
    if (!loaded) {
      std::fprintf(stderr, "lexlink %s: %s\n", command, loaded.error().to_string().c_str());
      return false;
    }
    out.resolvers = std::make_shared<const urn::Profiles>(std::move(*loaded));
    out.link.resolvers = out.resolvers.get();
  }
  return true;
}

std::string jurisdiction_list(const Context& context) {
  std::string out;
  for (const std::string& g : grammar_names(context.data_dir)) {
    if (!out.empty()) out += ' ';
    out += g;
  }
  return out.empty() ? "none found in " + context.data_dir + "/grammars" : out;
}

void hint_jurisdiction(const char* command, const Context& context, const Args& args) {
  if (args.given("jurisdiction")) return;
  std::fprintf(stderr,
               "lexlink %s: no citation found with the default jurisdiction (%s); "
               "--jurisdiction J reads another (%s), --jurisdiction auto picks one per "
               "document\n",
               command, args.get("jurisdiction").c_str(), jurisdiction_list(context).c_str());
}

std::string usage_text(const Context& context, std::string_view usage) {
  const std::string spaced = jurisdiction_list(context);
  std::string piped = spaced;
  std::replace(piped.begin(), piped.end(), ' ', '|');
  std::string out;
  out.reserve(usage.size() + 64);
  while (!usage.empty()) {
    const std::size_t at = usage.find('{');
    out.append(usage.substr(0, at));
    if (at == std::string_view::npos) break;
    usage.remove_prefix(at);
    if (usage.substr(0, 16) == "{jurisdictions|}") {
      out += piped;
      usage.remove_prefix(16);
    } else if (usage.substr(0, 15) == "{jurisdictions}") {
      out += spaced;
      usage.remove_prefix(15);
    } else {
      out += '{';
      usage.remove_prefix(1);
    }
  }
  return out;
}

}  // namespace lexlink::cli

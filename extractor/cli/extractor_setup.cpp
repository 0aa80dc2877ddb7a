#include "cli/extractor_setup.h"

#include <cstdio>

#include "urn/urn.h"

namespace lexlink::cli {

void declare_extractor_options(Args& args) {
  args.option("jurisdiction", "it").option("engine", "hyperscan").option("cache", "");
  args.option("self", "");
}

std::shared_ptr<const extract::Extractor> load_extractor(const char* command,
                                                         const Context& context, const Args& args) {
  extract::ExtractorOptions eo;
  eo.data_dir = context.data_dir;
  eo.grammars = {args.get("jurisdiction")};
  const std::string& engine = args.get("engine");
  if (engine == "re2") {
    eo.engine = scan::Engine::kRe2;
  } else if (engine != "hyperscan") {
    std::fprintf(stderr, "lexlink %s: --engine is hyperscan or re2\n", command);
    return nullptr;
  }
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

void set_citation_chunking(text::ViewOptions& view, const extract::Extractor& extractor) {
  view.chunk_bytes = kCitationChunkBytes;
  view.first_chunk_text_bytes = extract::kChoiceTextBytes;
  view.cut_advisor = extractor.cut_advisor();
}

}  // namespace lexlink::cli

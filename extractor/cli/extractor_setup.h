// cli/extractor_setup: the options the commands that read documents share, declared and read in
// one place so the commands spell and check them alike: the extractor's (--jurisdiction,
// --engine, --cache, --self), the document's (--format, --encoding: the library's labels,
// document/options.h) and the links' (--href, --partition-sep).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cli/args.h"
#include "cli/commands.h"
#include "extract/extractor.h"
#include "rewrite/link_markup.h"
#include "scan/trigger_scanner.h"
#include "text/view_builder.h"
#include "urn/profiles.h"

namespace lexlink::cli {

// Declares --jurisdiction (default it), --engine, --cache and --self on `args`.
void declare_extractor_options(Args& args);

// --engine's value: "hyperscan" or "re2"; nullopt for another.
std::optional<scan::Engine> parse_engine(std::string_view value);

// Loads the extractor the options name, and checks --self. On failure prints
// "lexlink COMMAND: message" and returns nullptr.
std::shared_ptr<const extract::Extractor> load_extractor(const char* command,
                                                         const Context& context, const Args& args);

// Declares --format (default `format`) and --encoding (default auto).
void declare_document_options(Args& args, const char* format = "auto");
// Reads them into `view`; on a usage error prints "lexlink COMMAND: ..." and returns false.
bool read_document_options(const char* command, const Args& args, text::ViewOptions& view);

// Declares --href (urn or resolver) and --partition-sep ('#' or '~'; default '~' with --href urn,
// '#' with --href resolver).
void declare_link_options(Args& args);
// The links' options; `resolvers` holds what link.resolvers points to (loaded for --href
// resolver).
struct LinkSetup {
  rewrite::LinkOptions link;
  std::shared_ptr<const urn::Profiles> resolvers;
};
// Reads them; on a usage or setup error prints "lexlink COMMAND: ..." and returns false.
bool read_link_options(const char* command, const Context& context, const Args& args,
                       LinkSetup& out);

// The names of the folders of DATA/grammars (the jurisdictions lexlink reads), space-separated,
// for usage texts: "br eu fr it uk us za".
std::string jurisdiction_list(const Context& context);

// After a run that found no citation in text it read: when the jurisdiction was the default
// (no --jurisdiction), a line on standard error naming --jurisdiction and auto, and the
// jurisdictions the data folder holds. Nothing otherwise.
void hint_jurisdiction(const char* command, const Context& context, const Args& args);

// A usage text with the data folder's jurisdictions in place of "{jurisdictions}" (space-
// separated) and "{jurisdictions|}" ('|'-separated), so that adding a jurisdiction is adding its
// folders.
std::string usage_text(const Context& context, std::string_view usage);

}  // namespace lexlink::cli

// cli/extractor_setup: the extractor options shared by extract, explain and markup
// (--jurisdiction, --engine, --cache, --self), declared and read in one place so the commands
// spell and check them alike.
#pragma once

#include <memory>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "extract/extractor.h"

namespace lexlink::cli {

// Declares --jurisdiction (default it), --engine, --cache and --self on `args`.
void declare_extractor_options(Args& args);

// Loads the extractor the options name, and checks --self. On failure prints
// "lexlink COMMAND: message" and returns nullptr.
std::shared_ptr<const extract::Extractor> load_extractor(const char* command,
                                                         const Context& context, const Args& args);

}  // namespace lexlink::cli

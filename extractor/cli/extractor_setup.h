// cli/extractor_setup: the extractor options shared by extract, explain and markup
// (--jurisdiction, --engine, --cache, --self), declared and read in one place so the commands
// spell and check them alike.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "extract/extractor.h"

namespace lexlink::cli {

// The text chunk the commands that find citations read at a time. A chunk's tokens, citations
// and output lines are held together, so memory follows chunk size times citation density:
// 4 MB chunks of dense citations (a million in 50 MB) held 200 MB; 1 MB chunks hold 65 MB, at
// the same speed. Results do not depend on where chunks are cut.
inline constexpr std::size_t kCitationChunkBytes = 1u << 20;

// Declares --jurisdiction (default it), --engine, --cache and --self on `args`.
void declare_extractor_options(Args& args);

// Loads the extractor the options name, and checks --self. On failure prints
// "lexlink COMMAND: message" and returns nullptr.
std::shared_ptr<const extract::Extractor> load_extractor(const char* command,
                                                         const Context& context, const Args& args);

}  // namespace lexlink::cli

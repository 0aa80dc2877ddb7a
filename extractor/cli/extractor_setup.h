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
#include "text/view_builder.h"

namespace lexlink::cli {

// The text chunk the commands that find citations read at a time. A chunk's tokens, citations
// and output lines are held together, so memory follows chunk size times citation density: a
// citation every 13 bytes (4 million in 51 MB, one line) took 182 MB with 1 MB chunks, 80 MB
// with 256 KiB ones and takes 46 MB with 128 KiB ones (markup of a citation every 9 bytes:
// 195, 116, 63 MB), for the same instructions on ordinary text. Results do not depend on where
// chunks are cut (but see view_builder.h on text without line ends: on that one-line file,
// 41 of the 4 million citations are lost at cuts, bench/hostile_inputs.sh).
inline constexpr std::size_t kCitationChunkBytes = 128u << 10;

// Sets how the commands that find citations with `extractor` chunk a document: chunks of
// kCitationChunkBytes, the first one holding the text that --jurisdiction auto chooses from,
// text without line ends cut where the extractor's windows do not reach.
void set_citation_chunking(text::ViewOptions& view, const extract::Extractor& extractor);

// Declares --jurisdiction (default it), --engine, --cache and --self on `args`.
void declare_extractor_options(Args& args);

// Loads the extractor the options name, and checks --self. On failure prints
// "lexlink COMMAND: message" and returns nullptr.
std::shared_ptr<const extract::Extractor> load_extractor(const char* command,
                                                         const Context& context, const Args& args);

}  // namespace lexlink::cli

// `lexlink markup` and `lexlink unmark`: documents in, the same documents out with links added
// (or lexlink's links removed), every other byte unchanged.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "cli/args.h"
#include "cli/batch.h"
#include "cli/commands.h"
#include "cli/document_io.h"
#include "cli/extractor_setup.h"
#include "cli/json_lines.h"
#include "document/citation_json.h"
#include "document/extractor_source.h"
#include "document/markup_job.h"
#include "document/options.h"
#include "document/reader.h"
#include "rewrite/citations_file.h"
#include "rewrite/document.h"
#include "rewrite/unmark.h"
#include "text/view_builder.h"
#include "urn/profiles.h"

namespace lexlink::cli {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kMarkupUsage =
    "usage: lexlink markup [OPTIONS] FILE|- [-o OUT]\n"
    "Writes the document with a link on every citation, every other byte unchanged. Output\n"
    "goes to OUT (written whole, then renamed into place; OUT may be FILE) or standard output.\n"
    "\n"
    "  --format auto|text|html|xml     how to read the input (default auto)\n"
    "  --encoding auto|utf-8|utf-16le|utf-16be|iso-8859-1|windows-1252|iso-8859-15\n"
    "  --profile auto|html|akn|nir|lexml|lexml-span\n"
    "                                  the links written (default: by the document: akn, nir or\n"
    "                                  lexml for those XML vocabularies, else html)\n"
    "  --href urn|resolver             link to the URN itself or to the jurisdiction's resolver\n"
    "  --partition-sep '#'|'~'         how the partition is attached in the href\n"
    "                                  (default '~' with --href urn, '#' with --href resolver)\n"
    "  --jurisdiction J|auto           the grammar that finds the citations, a folder of\n"
    "                                  grammars/ ({jurisdictions}; default it), as extract\n"
    "  --self URN                      the document's own name, for \"del presente decreto\"\n"
    "  --engine hyperscan|re2          as extract (re2: the slow reference path); --cache DIR\n"
    "                                  the trigger database cache\n"
    "  --citations FILE.jsonl          link these citations instead of extracting: JSON Lines\n"
    "                                  with \"start\", \"end\" (original byte offsets) and "
    "\"urn\",\n"
    "                                  as `lexlink extract` prints them (reviewed, then applied)\n"
    "  --report FILE.jsonl             one JSON object per citation: linked or not, and why\n"
    "Exit status: 0 output written (citations that could not be linked are in the report),\n"
    "1 the input or the citations file was refused or could not be read or written, 2 usage.\n"
    "\n"
    "Many documents: lexlink markup --out-dir OUT | --in-place [OPTIONS] PATH...\n"
    "PATH is a file, a folder (walked recursively) or - (paths on standard input). The output\n"
    "tree mirrors the input tree; each output is written to .NAME.lexlink-tmp and renamed.\n"
    ".gz and .zst inputs are decompressed, their outputs compressed the same way. A bad file\n"
    "becomes an error record ({\"file\", \"error\"} on standard output) and the run goes on.\n"
    "  --out-dir OUT          where the outputs go (OUT/path relative to the root)\n"
    "  --in-place             replace each input by its output (atomically, fsynced)\n"
    "  --root DIR             outputs are OUT/(input relative to DIR); default: the common\n"
    "                         parent of the PATHs (a folder PATH is its own root)\n"
    "  --files-from LIST      one input path per line ('-': standard input)\n"
    "  --include GLOB, --exclude GLOB  (repeatable) matched against the relative path; a\n"
    "                         GLOB without '/' also matches the file name\n"
    "  --jobs N               threads (default: all cores)\n"
    "  --resume               skip inputs the manifest records as done (same size, mtime,\n"
    "                         hash, options and data files), redo changed ones\n"
    "  --manifest FILE        default OUT/.lexlink-manifest (ROOT/ with --in-place)\n"
    "  --sync-every N         outputs are made durable (syncfs) and recorded in the manifest\n"
    "                         every N files or 2 s (default 1000)\n"
    "  --max-size BYTES       larger inputs become error records (default: no limit; K, M,\n"
    "                         G, T: powers of 1024, as in 500M)\n"
    "  --progress auto|bar|json|none  progress on stderr (auto: a line on a terminal); a batch\n"
    "                         run ends with a summary line, terminal or not\n"
    "  --quiet                no progress and no summary line\n"
    "  --stats FILE           the run's summary as JSON\n"
    "  --report FILE          (batch) one JSON line per file: status, bytes, citations\n"
    "Batch exit status: 0 every file ok, 1 some file failed (error records), 2 usage.\n";

constexpr const char* kUnmarkUsage =
    "usage: lexlink unmark [--encoding auto|utf-16le|utf-16be|...] FILE|- [-o OUT]\n"
    "Removes the links lexlink inserted, and nothing else: unmark(markup(x)) == x.\n"
    "Links are found in UTF-8, 8-bit and UTF-16 documents alike; --encoding looks in one only.\n"
    "Exit status: 0 output written, 1 the input was refused or could not be read or written,\n"
    "2 usage.\n";

int usage_error(const char* command, const std::string& message, const char* usage) {
  std::fprintf(stderr, "lexlink %s: %s\n\n%s", command, message.c_str(), usage);
  return 2;
}

int fail(const char* command, const std::string& message) {
  std::fprintf(stderr, "lexlink %s: %s\n", command, message.c_str());
  return 1;
}

class Markup {
 public:
  explicit Markup(const Context& context) : context_(context) {}

  int run(const std::vector<std::string>& argv) {
    Args args;
    args.flag("help").alias("-o", "output");
    declare_document_options(args);
    args.option("profile", "auto").option("citations", "");
    args.option("report", "").option("output", "-");
    declare_link_options(args);
    declare_extractor_options(args);
    declare_batch_options(args);
    declare_markup_batch_options(args);
    if (!args.parse(argv)) return usage(args.error());
    if (args.has("help")) {
      std::fputs(usage_text(context_, kMarkupUsage).c_str(), stdout);
      return 0;
    }
    const bool batch = markup_batch_requested(args);
    if (!batch && args.positional().size() != 1) {
      return usage("give one input FILE, or - for stdin");
    }
    text::ViewOptions view;
    if (!read_document_options("markup", args, view)) return 2;
    rewrite::RewriteOptions options;
    if (args.get("profile") != "auto") {
      auto p = rewrite::parse_profile(args.get("profile"));
      if (!p) return usage(p.error().message);
      options.profile = *p;
    }
    LinkSetup link;
    if (!read_link_options("markup", context_, args, link)) return 2;
    options.link = link.link;
    if (batch) {
      MarkupSetup setup;
      setup.view = view;
      setup.options = options;
      setup.resolvers = link.resolvers;
      setup.self = args.get("self");
      return run_markup_batch(context_, args, setup, [&](MarkupSetup& s) {
        s.extractor = load_extractor("markup", context_, args);
        if (!s.extractor) return false;
        std::string opts;
        for (const char* name :
             {"format", "encoding", "profile", "href", "partition-sep", "jurisdiction", "self"}) {
          opts += std::string(name) + "=" + args.get(name) + "\n";
        }
        s.fingerprint = options_fingerprint(context_.data_dir, opts);
        return true;
      });
    }
    return run_one(args, view, options);
  }

 private:
  // One document: FILE (or standard input) to -o OUT (or standard output).
  int run_one(const Args& args, const text::ViewOptions& view,
              const rewrite::RewriteOptions& options) {
    // The citation source: a reviewed citations file, or the extractor.
    std::unique_ptr<rewrite::CitationSource> source;
    std::shared_ptr<const extract::Extractor> extractor;
    if (!args.get("citations").empty()) {
      auto file = rewrite::CitationsFile::load(args.get("citations"));
      if (!file) return fail("markup", file.error().to_string());
      source = std::make_unique<rewrite::CitationsFile>(std::move(*file));
    } else {
      extractor = load_extractor("markup", context_, args);
      if (!extractor) return 2;
      source = std::make_unique<document::ExtractorSource>(extractor, args.get("self"));
    }
    document::DocumentReader in;
    if (Status s = in.open(args.positional()[0]); !s) return fail("markup", s.error().to_string());
    if (Status s = in.check(); !s) return fail("markup", s.error().to_string());
    OutputFile out;
    if (Status s = out.open(args.get("output")); !s) return fail("markup", s.error().to_string());
    OutputFile report;
    if (!args.get("report").empty()) {
      if (Status s = report.open(args.get("report")); !s) {
        return fail("markup", s.error().to_string());
      }
      report_sink_ = &report.sink();
    }
    const document::MarkupJob job(view, options, extractor.get());
    Status s =
        job.run(in, *source, out.sink(),
                [&](std::vector<rewrite::Outcome>& outcomes, std::vector<std::string>& warnings) {
                  for (const std::string& w : warnings) {
                    std::fprintf(stderr, "lexlink markup: %s: %s\n", in.name().c_str(), w.c_str());
                  }
                  warnings.clear();
                  return write_report(outcomes);
                });
    if (!s) {
      const Error& e = s.error();
      return fail("markup", e.file.empty() ? in.name() + ": " + e.to_string() : e.to_string());
    }
    if (report_sink_) {
      if (Status f = report_sink_->flush(); !f) return fail("markup", f.error().to_string());
    }
    if (Status c = out.commit(); !c) return fail("markup", c.error().to_string());
    if (report_sink_) {
      if (Status c = report.commit(); !c) return fail("markup", c.error().to_string());
    }
    if (total_ > linked_ && !report_sink_) {
      std::fprintf(stderr,
                   "lexlink markup: %llu of %llu citations not linked (--report FILE says why)\n",
                   static_cast<unsigned long long>(total_ - linked_),
                   static_cast<unsigned long long>(total_));
    }
    return 0;
  }

  int usage(const std::string& message) {
    return usage_error("markup", message, usage_text(context_, kMarkupUsage).c_str());
  }

  Status write_report(std::vector<rewrite::Outcome>& outcomes) {
    for (const rewrite::Outcome& o : outcomes) {
      ++total_;
      if (o.linked) ++linked_;
      if (report_sink_) {
        std::string line = to_json_line(document::outcome_json(o));
        line += '\n';
        if (Status s = report_sink_->write(line); !s) return s;
      }
    }
    outcomes.clear();
    return Status::Ok();
  }

  const Context& context_;
  io::Sink* report_sink_ = nullptr;
  std::uint64_t total_ = 0;
  std::uint64_t linked_ = 0;
};

}  // namespace

int markup_command(const Context& context, const std::vector<std::string>& args) {
  return Markup(context).run(args);
}

int unmark_command(const Context& context, const std::vector<std::string>& argv) {
  (void)context;
  Args args;
  args.flag("help").alias("-o", "output").option("output", "-").option("encoding", "auto");
  if (!args.parse(argv)) return usage_error("unmark", args.error(), kUnmarkUsage);
  if (args.has("help")) {
    std::fputs(kUnmarkUsage, stdout);
    return 0;
  }
  rewrite::UnmarkOptions options;
  auto encoding = document::parse_encoding(args.get("encoding"));
  if (!encoding)
    return usage_error("unmark", "--encoding: " + encoding.error().message, kUnmarkUsage);
  options.encoding = *encoding;
  if (args.positional().size() != 1) {
    return usage_error("unmark", "give one input FILE, or - for stdin", kUnmarkUsage);
  }
  document::DocumentReader in;
  if (Status s = in.open(args.positional()[0]); !s) return fail("unmark", s.error().to_string());
  if (Status s = in.check(); !s) return fail("unmark", s.error().to_string());
  OutputFile out;
  if (Status s = out.open(args.get("output")); !s) return fail("unmark", s.error().to_string());
  auto counts = document::unmark_document(in, out.sink(), options);
  if (!counts) return fail("unmark", counts.error().to_string());
  if (Status s = out.commit(); !s) return fail("unmark", s.error().to_string());
  if (counts->unrecognised > 0) {
    std::fprintf(stderr,
                 "lexlink unmark: %s: %llu lexlink markers left in place: their link was edited "
                 "or cut and could not be recognised\n",
                 in.name().c_str(), static_cast<unsigned long long>(counts->unrecognised));
  }
  return 0;
}

}  // namespace lexlink::cli

// `lexlink stream`: the Hadoop Streaming / Spark RDD.pipe contract. JSON Lines in, one record
// per document ({"id", "content", "format", "jurisdiction", "self"}), JSON Lines out in the
// same order ({"id", "content", "citations"} or {"id", "error"}). Documents are marked up on
// all cores; at most 2*jobs+2 records are in memory at once, whatever the length of the input.
// Before waiting for the next line, every record read is answered: a client that sends a record
// and waits for its answer over an open pipe gets it.
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <string>

#include "batch/ordered_pool.h"
#include "cli/args.h"
#include "cli/batch.h"
#include "cli/commands.h"
#include "cli/extractor_setup.h"
#include "cli/json_lines.h"
#include "document/citation_json.h"
#include "document/extract_document.h"
#include "document/extractor_source.h"
#include "document/markup_job.h"
#include "document/options.h"
#include "document/reader.h"
#include "document/stream_request.h"
#include "text/view_builder.h"

namespace lexlink::cli {
namespace {

constexpr const char* kStreamUsage =
    "usage: lexlink stream [OPTIONS] < IN.jsonl > OUT.jsonl\n"
    "One JSON object per input line: {\"id\": any, \"content\": \"the document\", \"format\":\n"
    "\"auto|text|html|xml\", \"jurisdiction\": \"{jurisdictions|}|auto\", \"self\":\n"
    "\"URN\"} (only content is required). One line out per line in, in the same order:\n"
    "{\"id\", \"content\" (marked up), \"citations\": [...]} or {\"id\", \"error\"}.\n"
    "Exit status 1 if any record failed.\n"
    "\n"
    "  --jurisdiction J|auto         default grammar, as extract (default it); --engine, --cache\n"
    "                                as extract\n"
    "  --format auto|text|html|xml   default format (default auto)\n"
    "  --profile auto|html|akn|nir|lexml|lexml-span  the links written (as markup)\n"
    "  --href urn|resolver, --partition-sep '#'|'~'  as markup\n"
    "  --no-content                  citations only: no marked-up content in the output\n"
    "  --offsets LIST                the citations' spans, as extract (default bytes,chars)\n"
    "  --jobs N                      threads (default: all cores)\n"
    "  --max-size BYTES              larger documents become error records\n"
    "  --progress auto|bar|json|none, --quiet, --stats FILE  as markup\n";

struct Record {
  document::StreamRequest request;
  text::ViewOptions view;
  std::shared_ptr<const extract::Extractor> extractor;
};

struct Output {
  std::string line;
  bool failed = false;
  std::uint64_t bytes = 0;
  std::uint64_t citations = 0;
};

// What the command line set: the defaults of every record and how answers are written.
struct Setup {
  BatchOptions batch;
  OffsetFields offsets;
  text::ViewOptions default_view;
  rewrite::RewriteOptions rewrite_options;
  LinkSetup link;  // keeps what rewrite_options.link points to
  bool no_content = false;
};

// Reads the options; 0 when the run can go on, else the exit status (usage printed).
int read_setup(const Context& context, const std::vector<std::string>& argv, Args& args,
               Setup& setup) {
  args.flag("help").flag("no-content");
  declare_extractor_options(args);
  declare_batch_options(args);
  declare_document_options(args);
  declare_link_options(args);
  args.option("profile", "auto").option("offsets", "bytes,chars");
  if (!args.parse(argv) || !args.positional().empty()) {
    std::fprintf(stderr, "lexlink stream: %s\n\n%s",
                 args.error().empty() ? "no arguments: records come on standard input"
                                      : args.error().c_str(),
                 usage_text(context, kStreamUsage).c_str());
    return 2;
  }
  if (args.has("help")) {
    std::fputs(usage_text(context, kStreamUsage).c_str(), stdout);
    return -1;
  }
  if (!read_batch_options("stream", args, setup.batch) ||
      !read_offsets("stream", args.get("offsets"), setup.offsets) ||
      !read_document_options("stream", args, setup.default_view)) {
    return 2;
  }
  if (args.get("profile") != "auto") {
    auto p = rewrite::parse_profile(args.get("profile"));
    if (!p) {
      std::fprintf(stderr, "lexlink stream: %s\n", p.error().message.c_str());
      return 2;
    }
    setup.rewrite_options.profile = *p;
  }
  if (!read_link_options("stream", context, args, setup.link)) return 2;
  setup.rewrite_options.link = setup.link.link;
  setup.no_content = args.has("no-content");
  return 0;
}

// The extractors by jurisdiction, each loaded when a record first asks for it (a grammar that
// fails to load is remembered as null, and each record asking for it fails).
class Extractors {
 public:
  Extractors(const Context& context, const Args& args) : context_(context), args_(args) {}

  // The default grammar, loaded with the command's own options (--self is checked as
  // extract checks it); false when it cannot be (load_extractor said why).
  bool load_default() {
    auto x = load_extractor("stream", context_, args_);
    if (!x) return false;
    loaded_.emplace(args_.get("jurisdiction"), std::move(x));
    return true;
  }

  std::shared_ptr<const extract::Extractor> get(const std::string& jurisdiction) {
    auto x = loaded_.find(jurisdiction);
    if (x == loaded_.end()) {
      Args one;
      declare_extractor_options(one);
      (void)one.parse({"--jurisdiction", jurisdiction, "--engine", args_.get("engine"), "--cache",
                       args_.get("cache")});
      x = loaded_.emplace(jurisdiction, load_extractor("stream", context_, one)).first;
    }
    return x->second;
  }

 private:
  const Context& context_;
  const Args& args_;
  std::map<std::string, std::shared_ptr<const extract::Extractor>> loaded_;
};

// The record of line `line_no`, with its defaults filled in and its extractor; a record that
// cannot be answered is told on stderr and keeps its error.
Record read_record(const std::string& line, std::uint64_t line_no, const Setup& setup,
                   const std::string& default_jurisdiction, Extractors& extractors) {
  Record rec;
  rec.request = document::read_stream_request(line, setup.batch.max_size, "--max-size");
  rec.view = setup.default_view;
  document::StreamRequest& r = rec.request;
  if (r.error.empty()) {
    if (r.format) rec.view.format = *r.format;
    if (r.jurisdiction.empty()) r.jurisdiction = default_jurisdiction;
    rec.extractor = extractors.get(r.jurisdiction);
    if (!rec.extractor) r.error = "cannot load the grammar '" + r.jurisdiction + "'";
  }
  if (!r.error.empty()) {
    r.error = "line " + std::to_string(line_no) + ": " + r.error;
    std::fprintf(stderr, "lexlink stream: %s\n", r.error.c_str());
  }
  return rec;
}

// The citations of a record (and its marked-up content, unless no_content), as its answer line.
Output answer(Record& rec, const Setup& setup) {
  const document::StreamRequest& r = rec.request;
  Output out;
  out.line = "{\"id\":" + r.id_json;
  auto fail = [&](const std::string& why) {
    out.failed = true;
    out.line = "{\"id\":" + r.id_json + ",\"error\":";
    append_json_string(out.line, why);
    out.line += "}\n";
    return out;
  };
  if (!r.error.empty()) return fail(r.error);
  try {
    out.bytes = r.content.size();
    std::vector<extract::Citation> citations;
    // The record's content as a document (its size was checked when it was read; a JSON
    // string is text: no binary check).
    document::ReadOptions read_options;
    read_options.refuse_binary = false;
    document::DocumentReader reader(read_options);
    reader.open_buffer(r.content);
    if (setup.no_content) {
      // Citations only: the extractor over the document's view, chunk by chunk as markup
      // reads it, and no rewriter (nothing would be written).
      Status s = document::DocumentExtractor(rec.extractor, rec.view)
                     .run(reader, r.self, [&](std::vector<extract::Citation>& chunk) {
                       citations.insert(citations.end(), chunk.begin(), chunk.end());
                       return Status::Ok();
                     });
      if (!s) return fail(s.error().to_string());
    } else {
      std::string marked;
      document::ExtractorSource source(rec.extractor, r.self);
      source.keep_citations(&citations);
      io::StringSink sink(marked);
      const document::MarkupJob job(rec.view, setup.rewrite_options, rec.extractor.get());
      Status s =
          job.run(reader, source, sink,
                  [](std::vector<rewrite::Outcome>& outcomes, std::vector<std::string>& warnings) {
                    outcomes.clear();
                    warnings.clear();
                    return Status::Ok();
                  });
      if (!s) return fail(s.error().to_string());
      out.line += ",\"content\":";
      append_json_string(out.line, marked);
    }
    out.line += ",\"citations\":[";
    for (std::size_t i = 0; i < citations.size(); ++i) {
      if (i > 0) out.line += ',';
      document::append_citation_json(out.line, citations[i], setup.offsets, std::nullopt, true);
    }
    out.line += "]}\n";
    out.citations = citations.size();
  } catch (const std::exception& e) {
    return fail(std::string("failed: ") + e.what());
  }
  return out;
}

// Whether reading the next line would wait: nothing is left in std::cin's buffer and standard
// input has nothing to read yet (an editor or a service that sends a record and waits for its
// answer before the next). A file or a busy pipe always has more.
bool input_would_wait() {
  if (std::cin.rdbuf()->in_avail() > 0) return false;
  pollfd p{STDIN_FILENO, POLLIN, 0};
  return poll(&p, 1, 0) == 0;
}

}  // namespace

int stream_command(const Context& context, const std::vector<std::string>& argv) {
  Args args;
  Setup setup;
  if (const int rc = read_setup(context, argv, args, setup); rc != 0) return rc < 0 ? 0 : rc;
  const std::string default_jurisdiction = args.get("jurisdiction");
  Extractors extractors(context, args);
  if (!extractors.load_default()) return 2;

  const std::size_t jobs = setup.batch.jobs;
  batch::OrderedPool<Record, Output> pool(
      jobs, 2 * jobs + 2, [&](Record& rec, std::size_t) { return answer(rec, setup); });
  Progress progress("stream", setup.batch.progress, 0, jobs);
  int status = 0;
  auto write = [&](Output o) {
    std::fwrite(o.line.data(), 1, o.line.size(), stdout);
    if (o.failed) status = 1;
    progress.file_done(o.bytes, o.citations, o.failed, false);
    progress.tick();
  };
  std::ios::sync_with_stdio(false);
  install_stop_handlers();
  std::string line;
  std::uint64_t line_no = 0;
  // Standard output failing (a full disk, a closed pipe) stops the run (main() says why).
  // Before the read of a line waits for its writer, every record in flight is answered: a
  // client that sends one record and waits for its answer gets it (records that come faster
  // than they are marked up are answered in batches, all cores busy).
  auto answer_before_waiting = [&] {
    if (pool.empty() || !input_would_wait()) return true;
    while (!pool.empty()) write(pool.pop());
    std::fflush(stdout);
    return true;
  };
  while (stop_signal() == 0 && !std::ferror(stdout) && answer_before_waiting() &&
         std::getline(std::cin, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    while (pool.full()) write(pool.pop());
    pool.submit(read_record(line, line_no, setup, default_jurisdiction, extractors));
    bool wrote = false;
    while (pool.ready()) {
      write(pool.pop());
      wrote = true;
    }
    if (wrote) std::fflush(stdout);
  }
  while (!pool.empty()) write(pool.pop());
  std::fflush(stdout);
  if (!progress.finish(setup.batch.stats)) status = 1;
  if (const int sig = stop_signal(); sig != 0) {
    std::fprintf(stderr, "lexlink stream: stopped by signal %d after %llu lines\n", sig,
                 static_cast<unsigned long long>(line_no));
    return 128 + sig;
  }
  return status;
}

}  // namespace lexlink::cli

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
#include "document/extract_document.h"
#include "document/extractor_source.h"
#include "document/markup_job.h"
#include "document/options.h"
#include "document/reader.h"
#include "text/view_builder.h"
#include "urn/profiles.h"
#include "urn/urn.h"

namespace lexlink::cli {
namespace {

using json = nlohmann::ordered_json;

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
    "  --progress auto|bar|json|none, --stats FILE  as markup\n";

struct Record {
  std::uint64_t line = 0;
  json id;
  std::string content;
  std::string error;  // set when the line could not be read: the result is an error record
  text::ViewOptions view;
  std::string self;
  std::shared_ptr<const extract::Extractor> extractor;
};

struct Output {
  std::string line;
  bool failed = false;
  std::uint64_t bytes = 0;
  std::uint64_t citations = 0;
};

std::string id_json(const json& id) {
  return id.dump(-1, ' ', false, json::error_handler_t::replace);
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
    return 0;
  }
  BatchOptions options;
  if (!read_batch_options("stream", args, options)) return 2;
  OffsetFields offsets;
  if (!read_offsets("stream", args.get("offsets"), offsets)) return 2;
  text::ViewOptions default_view;
  if (!read_document_options("stream", args, default_view)) return 2;
  rewrite::RewriteOptions rewrite_options;
  if (args.get("profile") != "auto") {
    auto p = rewrite::parse_profile(args.get("profile"));
    if (!p) {
      std::fprintf(stderr, "lexlink stream: %s\n", p.error().message.c_str());
      return 2;
    }
    rewrite_options.profile = *p;
  }
  LinkSetup link;
  if (!read_link_options("stream", context, args, link)) return 2;
  rewrite_options.link = link.link;
  // Extractors by jurisdiction, loaded when a record first asks for one.
  std::map<std::string, std::shared_ptr<const extract::Extractor>> extractors;
  const std::string default_jurisdiction = args.get("jurisdiction");
  {
    auto x = load_extractor("stream", context, args);
    if (!x) return 2;
    extractors[default_jurisdiction] = std::move(x);
  }
  const bool no_content = args.has("no-content");

  auto work = [&](Record& rec, std::size_t) -> Output {
    Output out;
    out.line = "{\"id\":" + id_json(rec.id);
    auto fail = [&](const std::string& why) {
      out.failed = true;
      out.line = "{\"id\":" + id_json(rec.id) + ",\"error\":";
      append_json_string(out.line, why);
      out.line += "}\n";
      return out;
    };
    if (!rec.error.empty()) return fail(rec.error);
    try {
      out.bytes = rec.content.size();
      std::vector<extract::Citation> citations;
      // The record's content as a document (its size was checked when it was read; a JSON
      // string is text: no binary check).
      document::ReadOptions read_options;
      read_options.refuse_binary = false;
      document::DocumentReader reader(read_options);
      reader.open_buffer(rec.content);
      if (no_content) {
        // Citations only: the extractor over the document's view, chunk by chunk as markup
        // reads it, and no rewriter (nothing would be written).
        Status s = document::DocumentExtractor(rec.extractor, rec.view)
                       .run(reader, rec.self, [&](std::vector<extract::Citation>& chunk) {
                         citations.insert(citations.end(), chunk.begin(), chunk.end());
                         return Status::Ok();
                       });
        if (!s) return fail(s.error().to_string());
      } else {
        std::string marked;
        document::ExtractorSource source(rec.extractor, rec.self);
        source.keep_citations(&citations);
        io::StringSink sink(marked);
        const document::MarkupJob job(rec.view, rewrite_options, rec.extractor.get());
        Status s = job.run(
            reader, source, sink,
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
        append_citation_json(out.line, citations[i], offsets);
      }
      out.line += "]}\n";
      out.citations = citations.size();
    } catch (const std::exception& e) {
      return fail(std::string("failed: ") + e.what());
    }
    return out;
  };

  batch::OrderedPool<Record, Output> pool(options.jobs, 2 * options.jobs + 2, work);
  Progress progress("stream", options.progress, 0, options.jobs);
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
    Record rec;
    rec.line = line_no;
    rec.view = default_view;
    try {
      json j = json::parse(line);
      if (!j.is_object()) throw std::runtime_error("not a JSON object");
      if (auto it = j.find("id"); it != j.end()) rec.id = std::move(*it);
      auto text_field = [&](const char* name, std::string& out) {
        auto it = j.find(name);
        if (it == j.end() || it->is_null()) return true;
        if (!it->is_string()) return false;
        out = it->get<std::string>();
        return true;
      };
      std::string format, jurisdiction;
      if (j.find("content") == j.end() || !j["content"].is_string()) {
        rec.error = "\"content\" (a string) is required";
      } else if (!text_field("format", format) || !text_field("jurisdiction", jurisdiction) ||
                 !text_field("self", rec.self)) {
        rec.error = "\"format\", \"jurisdiction\" and \"self\" are strings";
      } else {
        rec.content = j["content"].get<std::string>();
        if (!format.empty()) {
          auto f = document::parse_format(format);
          if (f) {
            rec.view.format = *f;
          } else {
            rec.error = f.error().message;
          }
        }
        if (options.max_size != 0 && rec.content.size() > options.max_size) {
          rec.error = "too large: " + std::to_string(rec.content.size()) +
                      " bytes, over --max-size " + std::to_string(options.max_size);
          rec.content.clear();
        }
        if (jurisdiction.empty()) jurisdiction = default_jurisdiction;
        auto x = extractors.find(jurisdiction);
        if (x == extractors.end() && rec.error.empty()) {
          Args one;
          declare_extractor_options(one);
          (void)one.parse({"--jurisdiction", jurisdiction, "--engine", args.get("engine"),
                           "--cache", args.get("cache")});
          auto loaded = load_extractor("stream", context, one);
          x = extractors.emplace(jurisdiction, std::move(loaded)).first;
        }
        if (rec.error.empty()) {
          rec.extractor = x->second;
          if (!rec.extractor) rec.error = "cannot load the grammar '" + jurisdiction + "'";
        }
      }
    } catch (const std::exception& e) {
      rec.error = "line " + std::to_string(line_no) + ": not a JSON record: " + e.what();
    }
    if (!rec.self.empty()) {
      // Checked like --self; a bad one is the record's error.
      urn::ParseOptions po;
      po.allow_unnumbered = true;
      urn::ParseError e;
      if (!urn::validate(rec.self, po, &e)) rec.error = "self: " + e.message;
    }
    if (!rec.error.empty()) {
      if (rec.error.rfind("line ", 0) == 0) {  // it names its line already
        std::fprintf(stderr, "lexlink stream: %s\n", rec.error.c_str());
      } else {
        std::fprintf(stderr, "lexlink stream: line %llu: %s\n",
                     static_cast<unsigned long long>(line_no), rec.error.c_str());
      }
    }
    while (pool.full()) write(pool.pop());
    pool.submit(std::move(rec));
    bool wrote = false;
    while (pool.ready()) {
      write(pool.pop());
      wrote = true;
    }
    if (wrote) std::fflush(stdout);
  }
  while (!pool.empty()) write(pool.pop());
  std::fflush(stdout);
  if (!progress.finish(options.stats)) status = 1;
  if (const int sig = stop_signal(); sig != 0) {
    std::fprintf(stderr, "lexlink stream: stopped by signal %d after %llu lines\n", sig,
                 static_cast<unsigned long long>(line_no));
    return 128 + sig;
  }
  return status;
}

}  // namespace lexlink::cli

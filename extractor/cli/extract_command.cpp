// `lexlink extract`, `lexlink explain` and `lexlink eval`: the citation extractor on the command
// line. extract prints one JSON object per citation (the contract in README.md "lexlink
// extract"); explain shows how a text was read; eval scores against a corpus folder laid out
// like ../shared/corpora/* with the definition of its README (and of tools/score.py).
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "batch/inputs.h"
#include "batch/ordered_pool.h"
#include "cli/args.h"
#include "cli/batch.h"
#include "cli/commands.h"
#include "cli/extractor_setup.h"
#include "cli/json_lines.h"
#include "common/pod_vector.h"
#include "common/tsv.h"
#include "document/extract_document.h"
#include "document/reader.h"
#include "extract/document_name.h"
#include "extract/extractor.h"
#include "io/file_stream.h"
#include "text/view_builder.h"
#include "urn/profiles.h"
#include "urn/urn.h"

namespace lexlink::cli {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kExtractUsage =
    "usage: lexlink extract [OPTIONS] FILE...|FOLDER...|-\n"
    "Prints one JSON object per citation (JSON Lines): file, start, end (byte offsets in the\n"
    "input), char_start, char_end (code points), text, urn, work, jurisdiction, complete, rule,\n"
    "href. A file that cannot be read gives {\"file\", \"error\"}; the exit status is 1 then.\n"
    "Files are read on all cores; the output is in input order (folders walked in name order).\n"
    ".gz and .zst files are decompressed. '-' is a document on standard input.\n"
    "\n"
    "  --jurisdiction J|auto         the grammar to read the text with, a folder of grammars/\n"
    "                                (it br eu fr uk us za; default it); auto: the grammar whose\n"
    "                                triggers the document holds most often\n"
    "  --format auto|text|html|xml   (default auto)\n"
    "  --encoding utf-8|utf-16le|utf-16be|iso-8859-1|windows-1252|iso-8859-15 (default: detect)\n"
    "  --self URN                    the document's own name, for \"del presente decreto\"\n"
    "                                (default: from its metadata or heading, see README.md)\n"
    "  --href urn|resolver           the href field: the URN, or the jurisdiction's resolver link\n"
    "  --partition-sep '#'|'~'       how the href carries the partition (default '~' with\n"
    "                                --href urn, '#' with --href resolver)\n"
    "  --offsets LIST                the spans each citation carries, comma-separated: bytes\n"
    "                                (start, end), chars (char_start, char_end: code points),\n"
    "                                utf16 (utf16_start, utf16_end: UTF-16 code units, as\n"
    "                                JavaScript, Java, .NET and LSP count), or all (default\n"
    "                                bytes,chars)\n"
    "  --engine hyperscan|re2        triggers by Hyperscan, rules by lexlink's automata; re2:\n"
    "                                RE2 for both (the slow reference path)\n"
    "  --cache DIR                   where the compiled trigger database is cached ('-': none)\n"
    "  --files-from LIST             more inputs, one path per line ('-': standard input)\n"
    "  --include GLOB, --exclude GLOB  (repeatable) filter the files found in folders\n"
    "  --jobs N                      threads (default: all cores)\n"
    "  --max-size BYTES              larger documents become error records (default: no limit;\n"
    "                                K, M, G, T: powers of 1024, as in 500M)\n"
    "  --progress auto|bar|json|none progress on stderr (auto: a line on a terminal)\n"
    "  --stats FILE                  the run's summary as JSON\n";

constexpr const char* kExplainUsage =
    "usage: lexlink explain [--jurisdiction J] [--self URN] \"TEXT\"\n"
    "Shows, for each rule that matched TEXT, the units it read (text [symbol]), the captures and\n"
    "the lexicon entries (file:line) behind them, and the names it gave or why it gave none.\n";

constexpr const char* kEvalUsage =
    "usage: lexlink eval CORPUS_DIR [--jurisdiction J] [--limit N] [--details FILE]\n"
    "                   [--measure M] [--linked-only] [--jobs N]\n"
    "Scores the extractor against CORPUS_DIR/gold.tsv and CORPUS_DIR/text/*.txt (layout and\n"
    "scoring as in the corpora README): precision, recall and F1 at work and partition level.\n"
    "--details FILE writes every miss and false positive (JSON Lines) for reading.\n"
    "The jurisdiction defaults to the folder name's prefix (it-normattiva-... -> it).\n"
    "Gold rows without a urn are mapped from their publisher identifier with\n"
    "lexicons/<jurisdiction>/publisher-ids.tsv when it exists (lexicons/README.md); a\n"
    "document id it maps gives that document's own name (as --self would).\n"
    "--measure M scores only names of measure type M, gold and predicted (fr: --measure code\n"
    "gives the article-level agreement on code citations).\n"
    "--linked-only leaves out of precision the predictions that overlap no gold row (for\n"
    "publishers that link only some citations: the agreement where both sides link); their\n"
    "number is printed.\n"
    "--jobs N reads N documents at a time (default: every core); the scores and details are\n"
    "the same for any N.\n";

struct ExtractSetup {
  std::shared_ptr<const extract::Extractor> extractor;
  text::ViewOptions view;
  std::string self;
  LinkSetup link;
};

// Loads the extractor and reads the options shared by extract and explain.
int setup(const char* command, const Context& context, const Args& args, ExtractSetup& s) {
  s.extractor = load_extractor(command, context, args);
  if (!s.extractor) return 2;
  if (!read_document_options(command, args, s.view)) return 2;
  s.self = args.get("self");
  if (!read_link_options(command, context, args, s.link)) return 2;
  return 0;
}

// The href field: the URN itself, or the link the options ask for (computed into `scratch`).
std::string_view href_of(const ExtractSetup& s, const extract::Citation& c, std::string& scratch) {
  const rewrite::LinkOptions& link = s.link.link;
  if (link.href == rewrite::HrefMode::kUrn && link.partition_sep == '~') return c.urn;
  std::string note;
  if (!rewrite::href_of(link, c.urn, scratch, note)) return c.urn;
  return scratch;
}

// Writes a literal (without its terminating NUL) at `p`.
template <std::size_t N>
char* put(char* p, const char (&literal)[N]) {
  std::memcpy(p, literal, N - 1);
  return p + (N - 1);
}

char* put_number(char* p, std::uint64_t v) {
  return write_decimal(p, v);  // kDecimalRoom (20) bytes: the bound below has them
}

// The most bytes write_citation_fields() writes for `c`.
std::size_t citation_fields_bound(const extract::Citation& c) {
  return 200 + 6 * kDecimalRoom + json_string_bound(c.text.size()) +
         json_string_bound(c.urn.size()) + json_string_bound(c.work.size()) +
         json_string_bound(c.jurisdiction.size()) + json_string_bound(c.rule.size());
}

// Copies [from, to) (bytes written already) to `p`.
char* put_copy(char* p, const char* from, const char* to) {
  const auto n = static_cast<std::size_t>(to - from);
  std::memcpy(p, from, n);
  return p + n;
}

// The fields of one citation (the contract of README.md "lexlink extract"), from "start" to
// "rule", written by hand at `p` (room for citation_fields_bound(c) bytes): this is the hot
// output path. `urn_json` is set to where the urn's JSON string was written, quotes included.
char* write_citation_fields(char* p, const extract::Citation& c, const OffsetFields& offsets,
                            std::pair<const char*, const char*>* urn_json = nullptr) {
  if (offsets.bytes) {
    p = put(p, "\"start\":");
    p = put_number(p, c.start);
    p = put(p, ",\"end\":");
    p = put_number(p, c.end);
    *p++ = ',';
  }
  if (offsets.code_points) {
    p = put(p, "\"char_start\":");
    p = put_number(p, c.char_start);
    p = put(p, ",\"char_end\":");
    p = put_number(p, c.char_end);
    *p++ = ',';
  }
  if (offsets.utf16) {
    p = put(p, "\"utf16_start\":");
    p = put_number(p, c.utf16_start);
    p = put(p, ",\"utf16_end\":");
    p = put_number(p, c.utf16_end);
    *p++ = ',';
  }
  p = put(p, "\"text\":");
  p = write_json_string(p, c.text);
  p = put(p, ",\"urn\":");
  char* const urn_begin = p;
  // The work is the urn or its start, the partition after it ("...;56~art3"): its JSON is then
  // the start of the urn's, copied (write_json_chars writes the urn in two parts as it writes it
  // whole when the second starts with an ASCII byte, as '~' is).
  const std::size_t w = c.work.size();
  const bool work_leads = c.urn.size() >= w && std::memcmp(c.urn.data(), c.work.data(), w) == 0 &&
                          (c.urn.size() == w || static_cast<unsigned char>(c.urn[w]) < 0x80);
  if (work_leads) {
    *p++ = '"';
    p = write_json_chars(p, std::string_view(c.urn).substr(0, w));
    char* const work_end = p;
    p = write_json_chars(p, std::string_view(c.urn).substr(w));
    *p++ = '"';
    if (urn_json != nullptr) *urn_json = {urn_begin, p};
    p = put(p, ",\"work\":");
    p = put_copy(p, urn_begin, work_end);
    *p++ = '"';
  } else {
    p = write_json_string(p, c.urn);
    if (urn_json != nullptr) *urn_json = {urn_begin, p};
    p = put(p, ",\"work\":");
    p = write_json_string(p, c.work);
  }
  p = put(p, ",\"jurisdiction\":");
  p = write_json_string(p, c.jurisdiction);
  p = c.complete ? put(p, ",\"complete\":true,\"rule\":") : put(p, ",\"complete\":false,\"rule\":");
  return write_json_string(p, c.rule);
}

// One citation as a JSON line of `extract`. `file_json` is the file name already written as a
// JSON string. The line is written in place: `out` grows once by a bound (unwritten: a
// PodVector) and is cut to length.
void append_citation_line(PodVector<char>& out, std::string_view file_json,
                          const extract::Citation& c, std::string_view href,
                          const OffsetFields& offsets) {
  const std::size_t at = out.size();
  const std::size_t bound =
      32 + file_json.size() + citation_fields_bound(c) + json_string_bound(href.size());
  make_room(out, bound);
  out.resize(at + bound);
  char* const begin = out.data();
  char* p = begin + at;
  p = put(p, "{\"file\":");
  p = put_copy(p, file_json.data(), file_json.data() + file_json.size());
  *p++ = ',';
  std::pair<const char*, const char*> urn_json;
  p = write_citation_fields(p, c, offsets, &urn_json);
  p = put(p, ",\"href\":");
  // The href is most often the urn itself (--href urn): its JSON is written already.
  p = href == std::string_view(c.urn) ? put_copy(p, urn_json.first, urn_json.second)
                                      : write_json_string(p, href);
  p = put(p, "}\n");
  out.resize(static_cast<std::size_t>(p - begin));
}

}  // namespace

void append_citation_json(std::string& out, const extract::Citation& c,
                          const OffsetFields& offsets) {
  const std::size_t at = out.size();
  out.resize(at + 2 + citation_fields_bound(c));
  char* const begin = out.data();
  char* p = begin + at;
  *p++ = '{';
  p = write_citation_fields(p, c, offsets);
  *p++ = '}';
  out.resize(static_cast<std::size_t>(p - begin));
}

bool read_offsets(const char* command, const std::string& value, OffsetFields& out) {
  out = OffsetFields{false, false, false};
  std::size_t at = 0;
  while (at <= value.size()) {
    std::size_t comma = value.find(',', at);
    if (comma == std::string::npos) comma = value.size();
    const std::string_view item = std::string_view(value).substr(at, comma - at);
    if (item == "bytes") {
      out.bytes = true;
    } else if (item == "chars") {
      out.code_points = true;
    } else if (item == "utf16") {
      out.utf16 = true;
    } else if (item == "all") {
      out = OffsetFields{true, true, true};
    } else {
      std::fprintf(stderr,
                   "lexlink %s: --offsets is a comma-separated list of bytes, chars and utf16, "
                   "or all (got '%s')\n",
                   command, value.c_str());
      return false;
    }
    at = comma + 1;
  }
  return true;
}

int extract_command(const Context& context, const std::vector<std::string>& argv) {
  Args args;
  args.flag("help");
  declare_extractor_options(args);
  declare_document_options(args);
  declare_link_options(args);
  args.option("offsets", "bytes,chars");
  declare_batch_options(args);
  if (!args.parse(argv)) {
    std::fprintf(stderr, "lexlink extract: %s\n\n%s", args.error().c_str(), kExtractUsage);
    return 2;
  }
  if (args.has("help")) {
    std::fputs(kExtractUsage, stdout);
    return 0;
  }
  if (args.positional().empty() && args.get("files-from").empty()) {
    std::fprintf(stderr, "lexlink extract: no input (give FILE... or - for standard input)\n\n%s",
                 kExtractUsage);
    return 2;
  }
  BatchOptions batch_options;
  if (!read_batch_options("extract", args, batch_options)) return 2;
  // The inputs, in order: files as given ('-': standard input), folders walked, then the list.
  // Folders and the list are walked twice, never listed whole (memory does not grow with the
  // number of files): a first walk counts the inputs and finds the folders that cannot be read,
  // the second reads them.
  struct Source {
    batch::Input file;                           // a file named as an argument, or
    std::unique_ptr<batch::InputSpec> spec;      // a folder or the list, walked
    std::unique_ptr<batch::InputWalker> walker;  // (`rel` is not used here)
  };
  std::vector<Source> sources;
  auto add_walked = [&](std::unique_ptr<batch::InputSpec> spec) -> bool {
    spec->include = args.all("include");
    spec->exclude = args.all("exclude");
    spec->root = args.get("root");
    auto walker = std::make_unique<batch::InputWalker>();
    if (Status st = walker->open(*spec); !st) {
      std::fprintf(stderr, "lexlink extract: %s\n", st.error().message.c_str());
      return false;
    }
    sources.push_back({{}, std::move(spec), std::move(walker)});
    return true;
  };
  for (const std::string& path : args.positional()) {
    std::error_code ec;
    if (path != "-" && std::filesystem::is_directory(path, ec)) {
      auto spec = std::make_unique<batch::InputSpec>();
      spec->paths = {path};
      if (!add_walked(std::move(spec))) return 2;
    } else {
      sources.push_back({{path, {}, {}}, nullptr, nullptr});
    }
  }
  if (!args.get("files-from").empty()) {
    auto spec = std::make_unique<batch::InputSpec>();
    spec->files_from = args.get("files-from");
    if (!add_walked(std::move(spec))) return 2;
  }
  // The inputs one after the other: true and the next in `in`, false after the last, or false
  // and `walk_error` set when a folder can no longer be read.
  std::size_t source = 0;
  bool taken = false;  // sources[source] (a file) was given
  std::string walk_error;
  auto next_input = [&](batch::Input& in) -> bool {
    for (; source < sources.size(); ++source, taken = false) {
      Source& src = sources[source];
      if (!src.walker) {
        if (taken) continue;
        taken = true;
        in = src.file;
        return true;
      }
      auto more = src.walker->next(in);
      if (!more) {
        walk_error = more.error().message;
        return false;
      }
      if (*more) return true;
    }
    return false;
  };
  std::size_t total = 0;
  for (batch::Input in; next_input(in);) ++total;
  if (!walk_error.empty()) {
    std::fprintf(stderr, "lexlink extract: %s\n", walk_error.c_str());
    return 2;
  }
  source = 0;
  taken = false;
  for (Source& src : sources) {
    if (src.walker) src.walker->rewind();
  }
  OffsetFields offsets;
  if (!read_offsets("extract", args.get("offsets"), offsets)) return 2;
  ExtractSetup s;
  if (int rc = setup("extract", context, args, s); rc != 0) return rc;

  // A file's citations wait, in order, until the files before it are written: in memory up to
  // 4 MB, then in an unnamed temporary file, so memory stays bounded whatever the file's size.
  // A single input is written as it is read.
  constexpr std::size_t kSpillBytes = 4u << 20;
  struct FileOut {
    PodVector<char> lines;  // the citations, as JSON lines
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> spill{nullptr, &std::fclose};
    std::string error;
    std::uint64_t bytes = 0;
    std::uint64_t citations = 0;
  };
  const bool direct = total == 1;
  auto flush_lines = [&](FileOut& r, bool last) {
    if (direct) {
      // (Nothing written when there is nothing: an empty PodVector's data() is null, which
      // fwrite must not be given.)
      if (!r.lines.empty() && (r.lines.size() >= (64u << 10) || last)) {
        if (std::fwrite(r.lines.data(), 1, r.lines.size(), stdout) != r.lines.size()) {
          note_stdout_error(errno);  // this thread's errno: main() reports it
        }
        r.lines.clear();
      }
      return;
    }
    if (r.lines.size() < kSpillBytes || last) return;
    if (!r.spill) r.spill.reset(std::tmpfile());
    if (!r.spill) return;  // no temporary file: keep it in memory
    if (std::fwrite(r.lines.data(), 1, r.lines.size(), r.spill.get()) != r.lines.size()) {
      r.error = "cannot write a temporary file for the output";
    }
    r.lines.clear();
  };
  const std::size_t jobs = std::min(batch_options.jobs, std::max<std::size_t>(1, total));
  // As markup (cli/batch_run.cpp): 2 * jobs + 2 files queued, and a large file holding the
  // output back does not stop the other jobs: the results after it wait, up to 4,096 files or
  // kWaitingBytes of citations held in memory (a result holds 4 MB at most: kSpillBytes).
  constexpr std::size_t kWaitingBytes = 16u << 20;
  const std::size_t queue = 2 * jobs + 2;
  // One reading per worker: its citations' memory goes from file to file.
  std::vector<document::DocumentExtractor> readings;
  readings.reserve(jobs);
  for (std::size_t j = 0; j < jobs; ++j) readings.emplace_back(s.extractor, s.view);
  document::ReadOptions read_options;
  read_options.max_bytes = batch_options.max_size;
  read_options.limit_name = "--max-size";
  batch::OrderedPool<batch::Input, FileOut> pool(
      jobs, 4096 + queue,
      [&](batch::Input& in, std::size_t worker) {
        FileOut r;
        const std::string& path = in.path;
        if (!in.refused.empty()) {
          r.error = in.refused;
          return r;
        }
        std::string file_json, href_scratch;
        append_json_string(file_json, path);
        try {
          document::DocumentReader reader(read_options);
          Status st = reader.open(path);
          if (st) {
            st = readings[worker].run(reader, s.self, [&](std::vector<extract::Citation>& cs) {
              for (const auto& c : cs) {
                append_citation_line(r.lines, file_json, c, href_of(s, c, href_scratch), offsets);
              }
              r.citations += cs.size();
              flush_lines(r, false);
              return Status::Ok();
            });
          }
          r.bytes = reader.bytes();
          if (!st) {
            // The file is named once: in "file", and first on the stderr line.
            const Error& e = st.error();
            r.error = e.file == path ? e.message : e.to_string();
          }
        } catch (const std::exception& e) {
          r.error = std::string("failed: ") + e.what();
        }
        if (!r.error.empty()) {  // an error record, not a partial list
          r.lines.clear();
          r.spill.reset();
        }
        flush_lines(r, true);
        return r;
      },
      queue);
  pool.set_budget([](const FileOut& r) { return r.lines.size() + sizeof(FileOut); }, kWaitingBytes);
  Progress progress("extract", batch_options.progress, total, jobs);
  int status = 0;
  std::size_t done = 0;
  // The paths of the inputs submitted and not yet written, in order.
  std::deque<std::string> in_flight;
  bool more = total > 0;
  auto submit_next = [&] {
    batch::Input in;
    if (!next_input(in)) {
      more = false;
      if (!walk_error.empty()) {
        std::fprintf(stderr, "lexlink extract: %s\n", walk_error.c_str());
        status = 1;
      }
      return;
    }
    in_flight.push_back(in.path);
    pool.submit(std::move(in));
  };
  install_stop_handlers();
  // Standard output failing (a full disk) stops the run: no new file is started (main() says
  // why and exits with status 1).
  auto go_on = [] { return stop_signal() == 0 && !std::ferror(stdout); };
  while ((more && go_on()) || !pool.empty()) {
    while (more && !pool.full() && go_on()) submit_next();
    if (pool.empty()) break;
    // Woken once for several files, not for every one (as markup): when jobs + 2 results are
    // ready, each worker still has a file (the queue is 2 * jobs + 2). Or woken early, to submit
    // more, when the workers run low on files while a large one holds the output back.
    if (!pool.wait(jobs + 2, more && go_on())) continue;
    FileOut r = pool.pop();
    const std::string path = std::move(in_flight.front());
    in_flight.pop_front();
    ++done;
    if (!r.error.empty()) {
      status = 1;
      write_json_line(stdout, json{{"file", path}, {"error", r.error}});
      std::fprintf(stderr, "%slexlink extract: %s: %s\n",
                   batch_options.progress == BatchOptions::ProgressMode::kBar ? "\r\033[K" : "",
                   path.c_str(), r.error.c_str());
    } else {
      if (r.spill) {
        std::rewind(r.spill.get());
        char buffer[1 << 16];
        std::size_t n;
        while ((n = std::fread(buffer, 1, sizeof buffer, r.spill.get())) > 0) {
          std::fwrite(buffer, 1, n, stdout);
        }
      }
      if (!r.lines.empty()) std::fwrite(r.lines.data(), 1, r.lines.size(), stdout);
    }
    progress.file_done(r.bytes, r.citations, !r.error.empty(), false);
    progress.tick();
  }
  std::fflush(stdout);
  if (!progress.finish(batch_options.stats)) status = 1;
  if (const int sig = stop_signal(); sig != 0) {
    std::fprintf(stderr, "lexlink extract: stopped by signal %d after %zu of %zu files\n", sig,
                 done, total);
    return 128 + sig;
  }
  return status;
}

int explain_command(const Context& context, const std::vector<std::string>& argv) {
  Args args;
  args.flag("help");
  declare_extractor_options(args);
  declare_document_options(args, "text");
  declare_link_options(args);
  if (!args.parse(argv) || args.positional().size() != 1) {
    std::fprintf(stderr, "lexlink explain: %s\n\n%s",
                 args.error().empty() ? "give one TEXT" : args.error().c_str(), kExplainUsage);
    return 2;
  }
  if (args.has("help")) {
    std::fputs(kExplainUsage, stdout);
    return 0;
  }
  ExtractSetup s;
  if (int rc = setup("explain", context, args, s); rc != 0) return rc;
  auto trace = s.extractor->explain(args.positional()[0], s.self);
  if (!trace) {
    std::fprintf(stderr, "lexlink explain: %s\n", trace.error().to_string().c_str());
    return 1;
  }
  if (trace->empty()) std::printf("no rule matched\n");
  for (const auto& ex : *trace) {
    std::printf("%s\n  %s\n  matched: %s\n  units:", ex.rule.c_str(), ex.doc.c_str(),
                ex.matched_text.c_str());
    for (const auto& u : ex.units) std::printf(" %s", u.c_str());
    std::printf("\n");
    for (const auto& c : ex.captures) std::printf("  capture %s\n", c.c_str());
    for (const auto& u : ex.urns) std::printf("  => %s\n", u.c_str());
    std::printf("  %s\n", ex.outcome.c_str());
  }
  return 0;
}

// --- eval: the scoring of ../shared/corpora/README.md, as tools/score.py implements it -------

namespace {

struct Parsed {
  std::string jur, auth, measure, year, full, number, period, part;
};

// ASCII lower case: what std::tolower does in the C locale, which lexlink never leaves.
char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
}

// score.py norm_num: lower, runs of [/.\s_] -> '-', strip '-'.
std::string norm_num(std::string_view s) {
  std::string out;
  bool run = false;
  for (const char raw : s) {
    const char c = ascii_lower(raw);
    if (c == '/' || c == '.' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '_' ||
        c == '\f' || c == '\v') {
      run = true;
      continue;
    }
    if (run) out += '-';
    run = false;
    out += c;
  }
  if (run) out += '-';
  const std::size_t first = out.find_first_not_of('-');
  if (first == std::string::npos) return {};
  return out.substr(first, out.find_last_not_of('-') + 1 - first);
}

std::vector<std::string> split_on(const std::string& s, char c) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t k = s.find(c, start);
    out.push_back(s.substr(start, k == std::string::npos ? k : k - start));
    if (k == std::string::npos) break;
    start = k + 1;
  }
  return out;
}

// The part of `s` before the first `c` (all of it when there is none).
std::string_view before(std::string_view s, char c) {
  return s.substr(0, s.find(c));
}

bool is_digits(std::string_view s, std::size_t from, std::size_t n) {
  if (s.size() < from + n) return false;
  for (std::size_t i = from; i < from + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

// score.py parse: a URN:LEX name's fields as the scoring compares them (views into one
// lower-cased copy; eval reads one per citation and per gold row).
std::optional<Parsed> score_parse(std::string_view raw) {
  std::string u(raw);
  for (char& c : u) c = ascii_lower(c);
  std::string_view v = u;
  constexpr std::string_view kSpace = " \t\n\v\f\r";  // isspace in the C locale
  const std::size_t first = v.find_first_not_of(kSpace);
  v = first == std::string_view::npos ? std::string_view()
                                      : v.substr(first, v.find_last_not_of(kSpace) + 1 - first);
  if (v.substr(0, 8) != "urn:lex:") return std::nullopt;
  std::string_view body = v.substr(8), part;
  if (const std::size_t t = body.find('~'); t != std::string_view::npos) {
    part = body.substr(t + 1);
    body = body.substr(0, t);
  }
  body = body.substr(0, body.find_first_of("@$"));
  // The first four fields of body.split(':'), and how many there are.
  std::string_view f[4];
  std::size_t fields = 0;
  for (std::size_t at = 0;; ++fields) {
    const std::size_t k = body.find(':', at);
    if (fields < 4) f[fields] = body.substr(at, k == std::string_view::npos ? k : k - at);
    if (k == std::string_view::npos) {
      ++fields;
      break;
    }
    at = k + 1;
  }
  if (fields < 3) return std::nullopt;
  Parsed p;
  p.jur = before(f[0], ';');
  p.auth = f[1];
  p.measure = before(f[2], ';');
  const std::string_view details = fields > 3 ? f[3] : std::string_view();
  const std::string_view date = before(before(details, ';'), '|');
  if (const std::size_t semi = details.find(';'); semi != std::string_view::npos) {
    // The numbers after the date, joined with ','.
    std::string nums(details.substr(semi + 1));
    std::replace(nums.begin(), nums.end(), ';', ',');
    p.number = norm_num(nums);
  }
  if (is_digits(date, 0, 4)) p.year = date.substr(0, 4);
  if (date.size() == 10 && is_digits(date, 0, 4) && date[4] == '-' && is_digits(date, 5, 2) &&
      date[7] == '-' && is_digits(date, 8, 2)) {
    p.full = date;
  }
  if (p.year.empty()) p.period = date;
  // re.sub(r"[-;_]+", "-", part)
  bool run = false;
  for (char c : part) {
    if (c == '-' || c == ';' || c == '_') {
      run = true;
      continue;
    }
    if (run) p.part += '-';
    run = false;
    p.part += c;
  }
  if (run) p.part += '-';
  return p;
}

bool work_match(const std::optional<Parsed>& g, const std::optional<Parsed>& p) {
  if (!g || !p) return false;
  if (g->jur != p->jur || g->measure != p->measure) return false;
  if (!g->auth.empty() && g->auth != p->auth) return false;
  if (g->year != p->year || g->number != p->number || g->period != p->period) return false;
  if (!g->full.empty() && !p->full.empty() && g->full != p->full) return false;
  return true;
}

double f1(double p, double r) {
  return p + r > 0 ? 2 * p * r / (p + r) : 0.0;
}

}  // namespace

int eval_command(const Context& context, const std::vector<std::string>& argv) {
  Args args;
  args.flag("help").flag("linked-only");
  args.option("jurisdiction", "").option("limit", "0").option("details", "").option("measure", "");
  args.option("jobs", "0");
  args.option("engine", "hyperscan").option("cache", "").option("format", "text");
  args.option("encoding", "").option("self", "").option("href", "urn").option("partition-sep", "#");
  if (!args.parse(argv) || args.positional().size() != 1) {
    std::fprintf(stderr, "lexlink eval: %s\n\n%s",
                 args.error().empty() ? "give one CORPUS_DIR" : args.error().c_str(), kEvalUsage);
    return 2;
  }
  if (args.has("help")) {
    std::fputs(kEvalUsage, stdout);
    return 0;
  }
  namespace fs = std::filesystem;
  std::size_t jobs_option = 0;
  if (!read_jobs("eval", args, jobs_option)) return 2;
  const fs::path corpus = args.positional()[0];
  std::string jur = args.get("jurisdiction");
  if (jur.empty()) {
    std::string name = fs::path(corpus).lexically_normal().filename().string();
    if (name.empty()) name = fs::path(corpus).lexically_normal().parent_path().filename().string();
    jur = name.substr(0, name.find('-'));
  }
  Args extract_args;
  extract_args.flag("help");
  extract_args.option("jurisdiction", jur).option("format", "text").option("encoding", "");
  extract_args.option("self", "").option("href", "urn").option("partition-sep", "#");
  extract_args.option("engine", args.get("engine")).option("cache", args.get("cache"));
  (void)extract_args.parse({});
  ExtractSetup s;
  if (int rc = setup("eval", context, extract_args, s); rc != 0) return rc;

  // gold.tsv: doc_id, char_start, char_end, cited_text, urn, publisher_identifier, extra
  std::string content;
  const std::string gold_path = (corpus / "gold.tsv").string();
  if (Status st = read_file(gold_path, content); !st) {
    std::fprintf(stderr, "lexlink eval: %s\n", st.error().to_string().c_str());
    return 2;
  }
  struct Gold {
    std::uint64_t start, end;
    std::string cited, urn;
    std::optional<Parsed> p;
  };
  // lexicons/<jur>/publisher-ids.tsv: publisher identifiers -> URN:LEX names, for the gold rows
  // the corpus leaves without a urn.
  extract::DocumentIds ids;  // the same pattern/urn format as document-ids.tsv
  {
    const std::string map_path = context.data_dir + "/lexicons/" + jur + "/publisher-ids.tsv";
    std::error_code ec;
    if (fs::exists(map_path, ec)) {
      if (Status st = ids.load(map_path); !st) {
        std::fprintf(stderr, "lexlink eval: %s\n", st.error().to_string().c_str());
        return 2;
      }
    }
  }
  auto map_id = [&](const std::string& key) { return ids.rewrite(key); };
  const std::string only_measure = args.get("measure");
  std::map<std::string, std::vector<Gold>> gold;
  {
    std::istringstream in(content);
    std::string line;
    std::getline(in, line);  // header
    std::vector<std::vector<std::string>> rows;
    std::map<std::string, std::string> extra_of;  // identifier -> the first title given for it
    while (std::getline(in, line)) {
      auto c = split_on(line, '\t');
      if (c.size() < 5) continue;
      if (c.size() >= 7 && !c[5].empty() && !c[6].empty()) extra_of.emplace(c[5], c[6]);
      rows.push_back(std::move(c));
    }
    for (auto& c : rows) {
      if (c[4].empty() && !ids.empty() && c.size() >= 6 && !c[5].empty()) {
        std::string extra = c.size() >= 7 ? c[6] : std::string();
        if (extra.empty()) {
          if (auto it = extra_of.find(c[5]); it != extra_of.end()) extra = it->second;
        }
        c[4] = map_id(c[5] + " | " + extra);
      }
      if (c[4].empty()) continue;
      Gold g{std::stoull(c[1]), std::stoull(c[2]), c[3], c[4], score_parse(c[4])};
      if (!only_measure.empty() && (!g.p || g.p->measure != only_measure)) continue;
      gold[c[0]].push_back(std::move(g));
    }
  }
  std::size_t limit = std::stoul(args.get("limit"));
  std::unique_ptr<std::ofstream> details;
  if (!args.get("details").empty()) details = std::make_unique<std::ofstream>(args.get("details"));
  std::size_t tp_w = 0, tp_p = 0, n_pred = 0, n_gold = 0, hit_w = 0, hit_p = 0, docs = 0;
  const bool linked_only = args.has("linked-only");
  std::size_t unlinked = 0;
  std::uint64_t bytes = 0;
  const auto t0 = std::chrono::steady_clock::now();
  // The documents are read by `jobs` threads and scored here, one at a time, in order.
  std::vector<std::pair<const std::string*, const std::vector<Gold>*>> order;
  for (const auto& [doc, rows] : gold) {
    if (limit != 0 && order.size() >= limit) break;
    order.emplace_back(&doc, &rows);
  }
  struct DocCitations {
    std::vector<extract::Citation> cites;
    std::string error;
    std::uint64_t bytes = 0;  // read from the document
  };
  const std::size_t jobs = std::min(jobs_option, std::max<std::size_t>(1, order.size()));
  batch::OrderedPool<std::size_t, DocCitations> pool(
      jobs, 2 * jobs + 2, [&](std::size_t& k, std::size_t) {
        DocCitations r;
        const std::string path = (corpus / "text" / (*order[k].first + ".txt")).string();
        try {
          document::DocumentReader reader;
          Status st = reader.open(path);
          if (st) {
            st = document::DocumentExtractor(s.extractor, s.view)
                     .run(reader, map_id(*order[k].first),
                          [&](std::vector<extract::Citation>& chunk) {
                            r.cites.insert(r.cites.end(), chunk.begin(), chunk.end());
                            return Status::Ok();
                          });
          }
          r.bytes = reader.bytes();
          if (!st) r.error = path + ": " + st.error().to_string();
        } catch (const std::exception& e) {
          r.error = path + ": failed: " + e.what();
        }
        return r;
      });
  std::size_t submitted = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    while (submitted < order.size() && !pool.full()) pool.submit(submitted++);
    const DocCitations done = pool.pop();
    if (!done.error.empty()) {
      std::fprintf(stderr, "lexlink eval: %s\n", done.error.c_str());
      return 1;
    }
    const std::string& doc = *order[k].first;
    const std::vector<Gold>& rows = *order[k].second;
    const std::vector<extract::Citation>& cites = done.cites;
    ++docs;
    bytes += done.bytes;
    std::set<std::string> jurs;
    for (const Gold& g : rows) {
      if (g.p) jurs.insert(g.p->jur);
    }
    n_gold += rows.size();
    // The rows a citation overlaps, found by binary search over the rows sorted by start: a row
    // that starts `longest` characters or more before the citation ends before it does. (A pass
    // over every row for each citation made eval quadratic in a document's citations: 2.2 s of
    // the US Code folder's 2.4 went there.)
    std::vector<std::size_t> by_start(rows.size());
    std::iota(by_start.begin(), by_start.end(), std::size_t{0});
    std::sort(by_start.begin(), by_start.end(),
              [&](std::size_t a, std::size_t b) { return rows[a].start < rows[b].start; });
    std::uint64_t longest = 0;
    for (const Gold& g : rows) longest = std::max(longest, g.end > g.start ? g.end - g.start : 0);
    auto for_overlapping = [&](const extract::Citation& c, auto&& visit) {
      const std::uint64_t from = c.char_start > longest ? c.char_start - longest : 0;
      auto it = std::lower_bound(by_start.begin(), by_start.end(), from,
                                 [&](std::size_t i, std::uint64_t v) { return rows[i].start < v; });
      for (; it != by_start.end() && rows[*it].start < c.char_end; ++it) {
        if (c.char_start < rows[*it].end) visit(*it);
      }
    };
    std::set<std::size_t> used_w, used_p;
    for (const auto& c : cites) {
      const auto p = score_parse(c.urn);
      if (!only_measure.empty() && (!p || p->measure != only_measure)) continue;
      bool overlaps_any = false;
      for_overlapping(c, [&](std::size_t) { overlaps_any = true; });
      if (!p || (jurs.count(p->jur) == 0 && !overlaps_any)) continue;
      if (linked_only && !overlaps_any) {
        ++unlinked;
        continue;
      }
      ++n_pred;
      bool hw = false, hp = false;
      for_overlapping(c, [&](std::size_t i) {
        const Gold& g = rows[i];
        if (!work_match(g.p, p)) return;
        hw = true;
        used_w.insert(i);
        if (g.p->part == p->part) {
          hp = true;
          used_p.insert(i);
        }
      });
      tp_w += hw;
      tp_p += hp;
      if (details && (!hw || !hp)) {
        *details << to_json_line(json{{"kind", hw ? "partition-mismatch" : "false-positive"},
                                      {"doc", doc},
                                      {"char_start", c.char_start},
                                      {"char_end", c.char_end},
                                      {"text", c.text},
                                      {"urn", c.urn},
                                      {"rule", c.rule},
                                      {"overlaps_gold", overlaps_any}})
                 << "\n";
      }
    }
    hit_w += used_w.size();
    hit_p += used_p.size();
    if (details) {
      for (std::size_t i = 0; i < rows.size(); ++i) {
        if (used_w.count(i) != 0 && used_p.count(i) != 0) continue;
        *details << to_json_line(json{{"kind", used_w.count(i) ? "missed-partition" : "missed"},
                                      {"doc", doc},
                                      {"char_start", rows[i].start},
                                      {"char_end", rows[i].end},
                                      {"text", rows[i].cited},
                                      {"urn", rows[i].urn}})
                 << "\n";
      }
    }
  }
  const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double pw = n_pred ? double(tp_w) / double(n_pred) : 0,
               rw = n_gold ? double(hit_w) / double(n_gold) : 0;
  const double pp = n_pred ? double(tp_p) / double(n_pred) : 0,
               rp = n_gold ? double(hit_p) / double(n_gold) : 0;
  std::printf("%s: work P=%.3f R=%.3f F1=%.3f; partition P=%.3f R=%.3f F1=%.3f\n",
              fs::path(corpus).lexically_normal().filename().string().c_str(), pw, rw, f1(pw, rw),
              pp, rp, f1(pp, rp));
  std::printf("work_f1=%.3f part_f1=%.3f p=%.3f r=%.3f docs=%zu gold=%zu pred=%zu mb_s=%.2f\n",
              f1(pw, rw), f1(pp, rp), pw, rw, docs, n_gold, n_pred,
              el > 0 ? double(bytes) / 1e6 / el : 0.0);
  if (linked_only) std::printf("left out (no gold row overlaps them): %zu\n", unlinked);
  return 0;
}

}  // namespace lexlink::cli

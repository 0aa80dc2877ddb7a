// `lexlink extract` and `lexlink explain`: the citation extractor on the command line. extract
// prints one JSON object per citation (the contract in README.md "lexlink extract"); explain
// shows how a text was read. (`lexlink eval` is in eval_command.cpp.)
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
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
#include "document/citation_json.h"
#include "document/extract_document.h"
#include "document/reader.h"
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
    "                                ({jurisdictions}; default it); auto: the grammar whose\n"
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
    "  --output jsonl|tsv|csv        JSON Lines (default), or a table with one header line and\n"
    "                                the columns file, the --offsets spans, text, urn, work,\n"
    "                                jurisdiction, complete, rule, href, inner (tsv: \\t \\n \\r\n"
    "                                \\\\ escaped; csv: RFC 4180 quoting); a file that cannot be\n"
    "                                read is then only on stderr\n"
    "  --engine hyperscan|re2        triggers by Hyperscan, rules by lexlink's automata; re2:\n"
    "                                RE2 for both (the slow reference path)\n"
    "  --cache DIR                   where the compiled trigger database is cached ('-': none)\n"
    "  --files-from LIST             more inputs, one path per line ('-': standard input)\n"
    "  --include GLOB, --exclude GLOB  (repeatable) filter the files found in folders\n"
    "  --jobs N                      threads (default: all cores)\n"
    "  --max-size BYTES              larger documents become error records (default: no limit;\n"
    "                                K, M, G, T: powers of 1024, as in 500M)\n"
    "  --progress auto|bar|json|none progress on stderr (auto: a line on a terminal); with\n"
    "                                more than one input a summary line ends the run, terminal\n"
    "                                or not\n"
    "  --quiet                       no progress and no summary line\n"
    "  --stats FILE                  the run's summary as JSON\n";

constexpr const char* kExplainUsage =
    "usage: lexlink explain [--jurisdiction J] [--self URN] [--json] \"TEXT\"\n"
    "Shows, for each rule that matched TEXT, the units it read (text [symbol]), the captures and\n"
    "the lexicon entries (file:line) behind them, and the names it gave or why it gave none.\n"
    "--json: one JSON object per match (JSON Lines): rule, doc, matched {text, described, start,\n"
    "end, char_start, char_end}, units, captures, citations [{urn, work, text, start, end,\n"
    "char_start, char_end, utf16_start, utf16_end, complete, inner}], outcome. Offsets are\n"
    "in bytes and code points of TEXT.\n";

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

// One citation as a JSON line of `extract`. `file_json` is the file name already written as a
// JSON string. The line is written in place: `out` grows once by a bound (unwritten: a
// PodVector) and is cut to length.
void append_citation_line(PodVector<char>& out, std::string_view file_json,
                          const extract::Citation& c, std::string_view href,
                          const OffsetFields& offsets) {
  const std::size_t at = out.size();
  const std::size_t bound =
      48 + file_json.size() + document::citation_fields_bound(c) + json_string_bound(href.size());
  make_room(out, bound);
  out.resize(at + bound);
  char* const begin = out.data();
  char* p = begin + at;
  p = put_literal(p, "{\"file\":");
  p = put_copy(p, file_json.data(), file_json.data() + file_json.size());
  *p++ = ',';
  std::pair<const char*, const char*> urn_json;
  p = document::write_citation_fields(p, c, offsets, &urn_json);
  p = put_literal(p, ",\"href\":");
  // The href is most often the urn itself (--href urn): its JSON is written already.
  p = href == std::string_view(c.urn) ? put_copy(p, urn_json.first, urn_json.second)
                                      : write_json_string(p, href);
  p = c.inner ? put_literal(p, ",\"inner\":true}\n") : put_literal(p, ",\"inner\":false}\n");
  out.resize(static_cast<std::size_t>(p - begin));
}

}  // namespace

namespace {

// --output: JSON Lines, or a table.
enum class Output : std::uint8_t { kJsonl, kTsv, kCsv };

bool read_output(const std::string& value, Output& out) {
  if (value == "jsonl") {
    out = Output::kJsonl;
  } else if (value == "tsv") {
    out = Output::kTsv;
  } else if (value == "csv") {
    out = Output::kCsv;
  } else {
    std::fprintf(stderr, "lexlink extract: --output is jsonl, tsv or csv (got '%s')\n",
                 value.c_str());
    return false;
  }
  return true;
}

// Appends one field of a table row: TSV with \t \n \r \\ escaped, CSV quoted when it holds a
// comma, a quote or a line end (RFC 4180).
void append_field(std::string& out, Output output, std::string_view field) {
  if (output == Output::kTsv) {
    for (char ch : field) {
      switch (ch) {
        case '\t': out += "\\t"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\\': out += "\\\\"; break;
        default: out += ch;
      }
    }
    return;
  }
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += field;
    return;
  }
  out += '"';
  for (char ch : field) {
    if (ch == '"') out += '"';
    out += ch;
  }
  out += '"';
}

// The header line of a table.
std::string table_header(Output output, const OffsetFields& offsets) {
  std::vector<std::string_view> names = {"file"};
  if (offsets.bytes) names.insert(names.end(), {"start", "end"});
  if (offsets.code_points) names.insert(names.end(), {"char_start", "char_end"});
  if (offsets.utf16) names.insert(names.end(), {"utf16_start", "utf16_end"});
  names.insert(names.end(),
               {"text", "urn", "work", "jurisdiction", "complete", "rule", "href", "inner"});
  std::string line;
  for (std::string_view n : names) {
    if (line.size() > 0) line += output == Output::kTsv ? '\t' : ',';
    line += n;
  }
  return line + "\n";
}

// One citation as a row of a table (the columns of table_header).
void append_citation_row(PodVector<char>& out, Output output, std::string_view file,
                         const extract::Citation& c, std::string_view href,
                         const OffsetFields& offsets) {
  const char sep = output == Output::kTsv ? '\t' : ',';
  std::string row;
  append_field(row, output, file);
  auto number = [&](std::uint64_t v) {
    row += sep;
    row += std::to_string(v);
  };
  if (offsets.bytes) {
    number(c.start);
    number(c.end);
  }
  if (offsets.code_points) {
    number(c.char_start);
    number(c.char_end);
  }
  if (offsets.utf16) {
    number(c.utf16_start);
    number(c.utf16_end);
  }
  for (std::string_view f : {std::string_view(c.text), std::string_view(c.urn),
                             std::string_view(c.work), std::string_view(c.jurisdiction)}) {
    row += sep;
    append_field(row, output, f);
  }
  row += sep;
  row += c.complete ? "true" : "false";
  row += sep;
  append_field(row, output, c.rule);
  row += sep;
  append_field(row, output, href);
  row += sep;
  row += c.inner ? "true" : "false";
  row += '\n';
  const std::size_t at = out.size();
  make_room(out, row.size());
  out.resize(at + row.size());
  std::memcpy(out.data() + at, row.data(), row.size());
}

}  // namespace

bool read_offsets(const char* command, const std::string& value, OffsetFields& out) {
  const auto parsed = document::parse_offsets(value);
  if (!parsed) {
    std::fprintf(stderr,
                 "lexlink %s: --offsets is a comma-separated list of bytes, chars and utf16, "
                 "or all (got '%s')\n",
                 command, value.c_str());
    return false;
  }
  out = *parsed;
  return true;
}

namespace {

// The inputs of `extract`, in order: files as given ('-': standard input), folders walked, then
// the list of --files-from. Folders and the list are walked twice, never listed whole (memory
// does not grow with the number of files): a first walk counts the inputs and finds the
// folders that cannot be read, the second reads them.
class InputList {
 public:
  // Adds the inputs the arguments name; false (and says why on stderr) when a folder or the
  // list cannot be opened.
  bool add(const Args& args) {
    for (const std::string& path : args.positional()) {
      std::error_code ec;
      if (path != "-" && std::filesystem::is_directory(path, ec)) {
        auto spec = std::make_unique<batch::InputSpec>();
        spec->paths = {path};
        if (!add_walked(args, std::move(spec))) return false;
      } else {
        sources_.push_back({{path, {}, {}}, nullptr, nullptr});
      }
    }
    if (!args.get("files-from").empty()) {
      auto spec = std::make_unique<batch::InputSpec>();
      spec->files_from = args.get("files-from");
      if (!add_walked(args, std::move(spec))) return false;
    }
    return true;
  }

  // The next input in `in`: true, or false after the last, or false with error() set when a
  // folder can no longer be read.
  bool next(batch::Input& in) {
    for (; source_ < sources_.size(); ++source_, taken_ = false) {
      Source& src = sources_[source_];
      if (!src.walker) {
        if (taken_) continue;
        taken_ = true;
        in = src.file;
        return true;
      }
      auto more = src.walker->next(in);
      if (!more) {
        error_ = more.error().message;
        return false;
      }
      if (*more) return true;
    }
    return false;
  }

  // Counts the inputs (a first walk) and starts again from the first; false with error() set
  // when a folder cannot be read.
  bool count(std::size_t& total) {
    total = 0;
    for (batch::Input in; next(in);) ++total;
    source_ = 0;
    taken_ = false;
    for (Source& src : sources_) {
      if (src.walker) src.walker->rewind();
    }
    return error_.empty();
  }

  const std::string& error() const { return error_; }

 private:
  struct Source {
    batch::Input file;                           // a file named as an argument, or
    std::unique_ptr<batch::InputSpec> spec;      // a folder or the list, walked
    std::unique_ptr<batch::InputWalker> walker;  // (`rel` is not used here)
  };

  bool add_walked(const Args& args, std::unique_ptr<batch::InputSpec> spec) {
    spec->include = args.all("include");
    spec->exclude = args.all("exclude");
    spec->root = args.get("root");
    auto walker = std::make_unique<batch::InputWalker>();
    if (Status st = walker->open(*spec); !st) {
      std::fprintf(stderr, "lexlink extract: %s\n", st.error().message.c_str());
      return false;
    }
    sources_.push_back({{}, std::move(spec), std::move(walker)});
    return true;
  }

  std::vector<Source> sources_;
  std::size_t source_ = 0;
  bool taken_ = false;  // sources_[source_] (a file) was given
  std::string error_;
};

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

// Moves a file's lines on: to standard output at once when `direct` (a single input), else to
// its temporary file past kSpillBytes. `last`: the file is read whole.
void flush_lines(FileOut& r, bool direct, bool last) {
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
}

// What every file's reading shares: the extractor and its options, one reading per worker (its
// citations' memory goes from file to file).
struct ExtractRun {
  const ExtractSetup& setup;
  OffsetFields offsets;
  Output output = Output::kJsonl;
  document::ReadOptions read_options;
  std::vector<document::DocumentExtractor> readings;
  bool direct = false;

  // The citations of one input as JSON lines, or its error (an error record, not a partial
  // list).
  FileOut read(const batch::Input& in, std::size_t worker) {
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
        st = readings[worker].run(reader, setup.self, [&](std::vector<extract::Citation>& cs) {
          for (const auto& c : cs) {
            if (output == Output::kJsonl) {
              append_citation_line(r.lines, file_json, c, href_of(setup, c, href_scratch), offsets);
            } else {
              append_citation_row(r.lines, output, path, c, href_of(setup, c, href_scratch),
                                  offsets);
            }
          }
          r.citations += cs.size();
          flush_lines(r, direct, false);
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
    if (!r.error.empty()) {
      r.lines.clear();
      r.spill.reset();
    }
    flush_lines(r, direct, true);
    return r;
  }
};

// Writes a file's result to standard output: its lines (those spilled first), or its error
// record (and the error on stderr). False for an error.
bool write_result(FileOut& r, const std::string& path, bool bar, Output output) {
  if (!r.error.empty()) {
    if (output == Output::kJsonl) write_json_line(stdout, json{{"file", path}, {"error", r.error}});
    std::fprintf(stderr, "%slexlink extract: %s: %s\n", bar ? "\r\033[K" : "", path.c_str(),
                 r.error.c_str());
    return false;
  }
  if (r.spill) {
    std::rewind(r.spill.get());
    char buffer[1 << 16];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, r.spill.get())) > 0) {
      std::fwrite(buffer, 1, n, stdout);
    }
  }
  if (!r.lines.empty()) std::fwrite(r.lines.data(), 1, r.lines.size(), stdout);
  return true;
}

// Reads the options; 0 when the run can go on, -1 after --help, else the exit status.
int read_extract_args(const Context& context, const std::vector<std::string>& argv, Args& args,
                      BatchOptions& batch_options) {
  args.flag("help");
  declare_extractor_options(args);
  declare_document_options(args);
  declare_link_options(args);
  args.option("offsets", "bytes,chars").option("output", "jsonl");
  declare_batch_options(args);
  if (!args.parse(argv)) {
    std::fprintf(stderr, "lexlink extract: %s\n\n%s", args.error().c_str(),
                 usage_text(context, kExtractUsage).c_str());
    return 2;
  }
  if (args.has("help")) {
    std::fputs(usage_text(context, kExtractUsage).c_str(), stdout);
    return -1;
  }
  if (args.positional().empty() && args.get("files-from").empty()) {
    std::fprintf(stderr, "lexlink extract: no input (give FILE... or - for standard input)\n\n%s",
                 usage_text(context, kExtractUsage).c_str());
    return 2;
  }
  return read_batch_options("extract", args, batch_options) ? 0 : 2;
}

}  // namespace

int extract_command(const Context& context, const std::vector<std::string>& argv) {
  Args args;
  BatchOptions batch_options;
  if (const int rc = read_extract_args(context, argv, args, batch_options); rc != 0) {
    return rc < 0 ? 0 : rc;
  }
  InputList inputs;
  if (!inputs.add(args)) return 2;
  std::size_t total = 0;
  if (!inputs.count(total)) {
    std::fprintf(stderr, "lexlink extract: %s\n", inputs.error().c_str());
    return 2;
  }
  OffsetFields offsets;
  if (!read_offsets("extract", args.get("offsets"), offsets)) return 2;
  Output output = Output::kJsonl;
  if (!read_output(args.get("output"), output)) return 2;
  ExtractSetup s;
  if (int rc = setup("extract", context, args, s); rc != 0) return rc;
  if (output != Output::kJsonl) std::fputs(table_header(output, offsets).c_str(), stdout);

  const std::size_t jobs = std::min(batch_options.jobs, std::max<std::size_t>(1, total));
  ExtractRun run{s, offsets, output, {}, {}, total == 1};
  run.read_options.max_bytes = batch_options.max_size;
  run.read_options.limit_name = "--max-size";
  run.readings.reserve(jobs);
  for (std::size_t j = 0; j < jobs; ++j) run.readings.emplace_back(s.extractor, s.view);
  // As markup (cli/batch_run.cpp): 2 * jobs + 2 files queued, and a large file holding the
  // output back does not stop the other jobs: the results after it wait, up to 4,096 files or
  // kWaitingBytes of citations held in memory (a result holds 4 MB at most: kSpillBytes).
  constexpr std::size_t kWaitingBytes = 16u << 20;
  const std::size_t queue = 2 * jobs + 2;
  batch::OrderedPool<batch::Input, FileOut> pool(
      jobs, 4096 + queue,
      [&](batch::Input& in, std::size_t worker) { return run.read(in, worker); }, queue);
  pool.set_budget([](const FileOut& r) { return r.lines.size() + sizeof(FileOut); }, kWaitingBytes);
  Progress progress("extract", batch_options.progress, total, jobs);
  progress.set_summary_line(!batch_options.quiet && total > 1);
  const bool bar = batch_options.progress == BatchOptions::ProgressMode::kBar;
  int status = 0;
  std::size_t done = 0;
  std::uint64_t citations = 0, bytes_read = 0;
  // The paths of the inputs submitted and not yet written, in order.
  std::deque<std::string> in_flight;
  bool more = total > 0;
  auto submit_next = [&] {
    batch::Input in;
    if (!inputs.next(in)) {
      more = false;
      if (!inputs.error().empty()) {
        std::fprintf(stderr, "lexlink extract: %s\n", inputs.error().c_str());
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
    if (!write_result(r, path, bar, output)) status = 1;
    citations += r.citations;
    bytes_read += r.bytes;
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
  if (citations == 0 && bytes_read > 0) hint_jurisdiction("extract", context, args);
  return status;
}

namespace {

// One match of `explain --json`.
json explanation_json(const extract::Explanation& ex, std::string_view input) {
  json citations = json::array();
  for (const extract::Citation& c : ex.citations) {
    citations.push_back(json{{"urn", c.urn},
                             {"work", c.work},
                             {"text", c.text},
                             {"start", c.start},
                             {"end", c.end},
                             {"char_start", c.char_start},
                             {"char_end", c.char_end},
                             {"utf16_start", c.utf16_start},
                             {"utf16_end", c.utf16_end},
                             {"complete", c.complete},
                             {"inner", c.inner}});
  }
  return json{{"rule", ex.rule},
              {"doc", ex.doc},
              {"matched", json{{"text", std::string(input.substr(ex.start, ex.end - ex.start))},
                               {"described", ex.matched_text},
                               {"start", ex.start},
                               {"end", ex.end},
                               {"char_start", ex.char_start},
                               {"char_end", ex.char_end}}},
              {"units", ex.units},
              {"captures", ex.captures},
              {"citations", std::move(citations)},
              {"outcome", ex.outcome}};
}

}  // namespace

int explain_command(const Context& context, const std::vector<std::string>& argv) {
  Args args;
  args.flag("help").flag("json");
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
  if (trace->empty()) {
    if (!args.has("json")) std::printf("no rule matched\n");
    hint_jurisdiction("explain", context, args);
  }
  if (args.has("json")) {
    for (const auto& ex : *trace) {
      write_json_line(stdout, explanation_json(ex, args.positional()[0]));
    }
    return 0;
  }
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

}  // namespace lexlink::cli

// cli/batch: many documents in one run, on all cores (`lexlink markup --out-dir/--in-place`,
// `lexlink extract` over folders and lists, `lexlink stream`). The contract is
// README.md "Many documents"; the machinery (inputs, pool, manifest, atomic and compressed
// files) is extractor/batch/.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "batch/inputs.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "document/citation_json.h"
#include "extract/extractor.h"
#include "rewrite/rewriter.h"
#include "text/view_builder.h"
#include "urn/profiles.h"

namespace lexlink::cli {

// --jobs, --files-from, --root, --include, --exclude, --max-size, --progress, --stats.
void declare_batch_options(Args& args);
// markup's own: --out-dir, --in-place, --resume, --manifest (and --report is markup's).
void declare_markup_batch_options(Args& args);
// True when markup was asked for a batch run (--out-dir, --in-place, --files-from or
// more than one PATH).
bool markup_batch_requested(const Args& args);

struct BatchOptions {
  std::size_t jobs = 1;
  std::uint64_t max_size = 0;  // 0: no limit
  enum class ProgressMode { kNone, kBar, kJson } progress = ProgressMode::kNone;
  std::string stats;  // --stats FILE
  std::string report;
  bool quiet = false;  // --quiet: no progress, no summary line (--stats still written)
};
// Reads the shared options; on a usage error prints "lexlink COMMAND: ..." and returns false.
bool read_batch_options(const char* command, const Args& args, BatchOptions& out);
// Reads --jobs alone (also for eval, which takes no other batch option): 0 is every core, at
// most 1024; on a usage error prints "lexlink COMMAND: ..." and returns false.
bool read_jobs(const char* command, const Args& args, std::size_t& jobs);

// Progress on stderr (a line on a terminal, JSON lines for machines) and the final summary.
class Progress {
 public:
  Progress(const char* command, BatchOptions::ProgressMode mode, std::size_t files_total,
           std::size_t jobs);
  // `size`: the file's size on disk, when set_size_total() gave the run's.
  void file_done(std::uint64_t bytes, std::uint64_t citations, bool error, bool skipped,
                 std::uint64_t size = 0);
  // The inputs' sizes on disk, all together: the time left is then measured in bytes, not files.
  void set_size_total(std::uint64_t bytes) { size_total_ = bytes; }
  void tick(bool force = false);  // prints when due
  // The summary: on stderr (a line for people on a terminal or with set_summary_line, JSON
  // with --progress json), and to --stats FILE. Returns false if FILE failed.
  bool finish(const std::string& stats_file);
  // Whether finish() prints the line for people without a terminal too (a batch run in a cron
  // log: one line at the end, not a progress bar).
  void set_summary_line(bool on) { summary_line_ = on; }

  std::uint64_t errors() const { return errors_; }

 private:
  double elapsed() const;
  std::optional<double> seconds_left(double seconds) const;  // batch::eta_seconds
  std::string summary_json(const char* event) const;
  const char* command_;
  BatchOptions::ProgressMode mode_;
  std::size_t total_;
  std::size_t jobs_;
  std::chrono::steady_clock::time_point start_, last_;
  std::uint64_t done_ = 0, bytes_ = 0, citations_ = 0, errors_ = 0, skipped_ = 0;
  std::uint64_t size_total_ = 0, size_done_ = 0, size_worked_ = 0;
  bool printed_ = false;
  bool summary_line_ = false;
};

// SIGINT and SIGTERM (e.g. Slurm's notice before a kill) stop a batch run cleanly: no new file
// is started, the files in flight are finished, outputs synced and the manifest written; the
// exit status is then 128 + the signal. A second signal kills at once.
void install_stop_handlers();
int stop_signal();  // 0 until a stop was asked for

struct MarkupSetup {
  std::shared_ptr<const extract::Extractor> extractor;
  text::ViewOptions view;
  rewrite::RewriteOptions options;
  std::shared_ptr<const urn::Profiles> resolvers;  // what options.link.resolvers points to
  std::string self;
  std::string fingerprint;  // the options that change the output, for the manifest
};

// `setup` without its extractor and fingerprint: `load` fills them (it prints why it failed and
// returns false), while the inputs are counted.
int run_markup_batch(const Context& context, const Args& args, MarkupSetup setup,
                     const std::function<bool(MarkupSetup&)>& load);

// Which spans a citation's JSON carries (--offsets): "start"/"end" (bytes of the original),
// "char_start"/"char_end" (code points), "utf16_start"/"utf16_end" (UTF-16 code units).
using document::OffsetFields;
// --offsets VALUE: a comma-separated list of bytes, chars, utf16, or all. On a usage error
// prints "lexlink COMMAND: ..." and returns false.
bool read_offsets(const char* command, const std::string& value, OffsetFields& out);

// A hash of `options` text and of every data file of DATA/grammars and DATA/lexicons (their
// Markdown documentation, hidden files and NAME~ backups left out).
std::string options_fingerprint(const std::string& data_dir, const std::string& options);

}  // namespace lexlink::cli

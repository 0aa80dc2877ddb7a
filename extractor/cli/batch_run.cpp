// The batch runs of `lexlink markup` (--out-dir / --in-place): inputs enumerated, one task per
// file on the job pool, results taken in input order by the main thread, which writes the
// report, the error records and the progress, and hands the manifest records to a recorder
// thread (a group sync of the outputs, then the records appended).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cinttypes>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include "batch/atomic_file.h"
#include "batch/eta.h"
#include "batch/manifest.h"
#include "batch/ordered_pool.h"
#include "cli/batch.h"
#include "cli/extractor_setup.h"
#include "cli/json_lines.h"
#include "document/extractor_source.h"
#include "document/markup_job.h"
#include "document/reader.h"
#include "io/file_stream.h"
#include "io/hash.h"
#include "rewrite/document.h"

namespace lexlink::cli {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

void declare_batch_options(Args& args) {
  args.option("jobs", "0").option("files-from", "").option("root", "");
  args.multi("include").multi("exclude");
  args.option("max-size", "0").option("progress", "auto").option("stats", "");
  args.flag("quiet");
}

void declare_markup_batch_options(Args& args) {
  args.option("out-dir", "").flag("in-place").flag("resume").option("manifest", "");
  args.option("sync-every", "1000");
}

bool markup_batch_requested(const Args& args) {
  if (args.given("out-dir") || args.has("in-place") || args.given("files-from")) return true;
  return args.positional().size() > 1;
}

bool read_jobs(const char* command, const Args& args, std::size_t& jobs) {
  const std::string& s = args.get("jobs");
  char* end = nullptr;
  errno = 0;
  std::uint64_t v = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || *end != 0 || errno != 0 || s[0] == '-') {
    std::fprintf(stderr, "lexlink %s: --jobs needs a number, not '%s'\n", command, s.c_str());
    return false;
  }
  if (v == 0) v = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<std::size_t>(std::min<std::uint64_t>(v, 1024));
  return true;
}

bool read_batch_options(const char* command, const Args& args, BatchOptions& out) {
  // A size: digits and an optional K, M, G or T (powers of 1024, as GNU head and split read
  // them): "500M" is 500 MiB.
  auto size = [&](const char* name, std::uint64_t& v) {
    const std::string& s = args.get(name);
    char* end = nullptr;
    errno = 0;
    v = std::strtoull(s.c_str(), &end, 10);
    bool ok = !s.empty() && std::isdigit(static_cast<unsigned char>(s[0])) != 0 && errno == 0;
    if (ok && *end != 0) {
      const char* const units = "KMGT";
      const char* u = std::strchr(units, std::toupper(static_cast<unsigned char>(*end)));
      ok = u != nullptr && end[1] == 0;
      for (const char* k = units; ok && k <= u; ++k) {
        ok = v <= UINT64_MAX / 1024;
        v *= 1024;
      }
    }
    if (!ok) {
      std::fprintf(stderr,
                   "lexlink %s: --%s needs a number of bytes, such as 50000000 or 50M (K, M, G, T: "
                   "powers of 1024), not '%s'\n",
                   command, name, s.c_str());
    }
    return ok;
  };
  if (!read_jobs(command, args, out.jobs) || !size("max-size", out.max_size)) return false;
  const std::string& p = args.get("progress");
  using PM = BatchOptions::ProgressMode;
  if (p == "auto") {
    out.progress = ::isatty(2) ? PM::kBar : PM::kNone;
  } else if (p == "bar") {
    out.progress = PM::kBar;
  } else if (p == "json") {
    out.progress = PM::kJson;
  } else if (p == "none") {
    out.progress = PM::kNone;
  } else {
    std::fprintf(stderr, "lexlink %s: --progress is auto, bar, json or none\n", command);
    return false;
  }
  out.stats = args.get("stats");
  out.report = args.get("report");
  out.quiet = args.has("quiet");
  if (out.quiet) out.progress = PM::kNone;
  return true;
}

// ---- stopping ----

namespace {
std::atomic<int> g_stop{0};
extern "C" void on_stop_signal(int sig) {
  g_stop.store(sig);
}
}  // namespace

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = static_cast<int>(SA_RESETHAND);  // a second signal: the default action
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int stop_signal() {
  return g_stop.load();
}

// ---- progress ------------------------------------------------------------------------------

Progress::Progress(const char* command, BatchOptions::ProgressMode mode, std::size_t files_total,
                   std::size_t jobs)
    : command_(command),
      mode_(mode),
      total_(files_total),
      jobs_(jobs),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

std::optional<double> Progress::seconds_left(double seconds) const {
  if (total_ == 0 || done_ >= total_) return std::nullopt;
  if (size_total_ != 0) {
    return batch::eta_seconds({size_total_, size_done_, size_worked_, seconds});
  }
  return batch::eta_seconds({total_, done_, done_ - skipped_, seconds});
}

double Progress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::file_done(std::uint64_t bytes, std::uint64_t citations, bool error, bool skipped,
                         std::uint64_t size) {
  ++done_;
  bytes_ += bytes;
  size_done_ += size;
  if (!skipped) size_worked_ += size;
  citations_ += citations;
  errors_ += error ? 1 : 0;
  skipped_ += skipped ? 1 : 0;
}

std::string Progress::summary_json(const char* event) const {
  const double t = elapsed();
  json j;
  j["event"] = event;
  j["command"] = command_;
  j["files_done"] = done_;
  if (total_ != 0) j["files_total"] = total_;
  j["ok"] = done_ - errors_ - skipped_;
  j["skipped"] = skipped_;
  j["errors"] = errors_;
  j["bytes"] = bytes_;
  j["citations"] = citations_;
  j["seconds"] = std::round(t * 1000) / 1000;
  j["mb_per_s"] = t > 0 ? std::round(double(bytes_) / 1e6 / t * 100) / 100 : 0.0;
  j["files_per_s"] = t > 0 ? std::round(double(done_) / t * 10) / 10 : 0.0;
  if (const auto left = seconds_left(t)) j["eta_s"] = std::round(*left);
  j["jobs"] = jobs_;
  return to_json_line(j);
}

void Progress::tick(bool force) {
  using PM = BatchOptions::ProgressMode;
  if (mode_ == PM::kNone) return;
  const auto now = std::chrono::steady_clock::now();
  const auto every = mode_ == PM::kBar ? std::chrono::milliseconds(250) : std::chrono::seconds(1);
  if (!force && now - last_ < every) return;
  last_ = now;
  if (mode_ == PM::kJson) {
    std::fprintf(stderr, "%s\n", summary_json("progress").c_str());
    return;
  }
  const double t = elapsed();
  char eta[32] = "";
  if (const auto left = seconds_left(t)) {
    const auto s = static_cast<long long>(*left);
    std::snprintf(eta, sizeof eta, "  ETA %lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  }
  std::fprintf(stderr,
               "\r%" PRIu64 "/%zu files  %.1f MB  %.1f MB/s  %" PRIu64 " citations  %" PRIu64
               " errors%s\033[K",
               done_, total_, double(bytes_) / 1e6, t > 0 ? double(bytes_) / 1e6 / t : 0.0,
               citations_, errors_, eta);
  printed_ = true;
}

bool Progress::finish(const std::string& stats_file) {
  using PM = BatchOptions::ProgressMode;
  const std::string summary = summary_json("summary");
  if (mode_ == PM::kBar || (mode_ == PM::kNone && summary_line_)) {
    if (mode_ == PM::kBar) {
      tick(true);
      std::fputc('\n', stderr);
    }
    const double t = elapsed();
    std::fprintf(stderr,
                 "lexlink %s: %" PRIu64 " files (%" PRIu64 " skipped, %" PRIu64
                 " failed), %.1f MB, %" PRIu64 " citations in %.1f s (%.1f MB/s, %zu jobs)\n",
                 command_, done_, skipped_, errors_, double(bytes_) / 1e6, citations_, t,
                 t > 0 ? double(bytes_) / 1e6 / t : 0.0, jobs_);
  } else if (mode_ == PM::kJson) {
    std::fprintf(stderr, "%s\n", summary.c_str());
  }
  if (stats_file.empty()) return true;
  batch::AtomicFile f;
  if (Status s = f.open(stats_file); !s) {
    std::fprintf(stderr, "lexlink %s: %s\n", command_, s.error().to_string().c_str());
    return false;
  }
  const std::string text = summary + "\n";
  if (::write(f.fd(), text.data(), text.size()) != static_cast<ssize_t>(text.size()) ||
      !f.commit(false)) {
    std::fprintf(stderr, "lexlink %s: cannot write %s\n", command_, stats_file.c_str());
    return false;
  }
  return true;
}

// ---- options fingerprint -------------------------------------------------------------------

std::string options_fingerprint(const std::string& data_dir, const std::string& options) {
  io::Hasher h;
  h.update("lexlink " LEXLINK_VERSION "\n");
  h.update(options);
  std::vector<fs::path> files;
  for (const char* sub : {"grammars", "lexicons"}) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(fs::path(data_dir) / sub, ec), end; !ec && it != end;
         it.increment(ec)) {
      // Documentation (README.md and other Markdown), hidden files and folders (editor swap
      // files, a .git of the user's own data) and backups (NAME~) are not read by any loader:
      // editing them must not redo a finished run.
      const std::string name = it->path().filename().string();
      if (name.empty() || name.front() == '.') {
        it.disable_recursion_pending();
        continue;
      }
      if (name.back() == '~' || it->path().extension() == ".md") continue;
      if (it->is_regular_file(ec)) files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  std::string block;
  for (const fs::path& p : files) {
    h.update("\nfile " + p.lexically_relative(data_dir).generic_string() + "\n");
    io::InputStream in(io::RawHash::kNo);
    if (!in.open(p.string())) continue;
    while (in.read(block) && !block.empty()) h.update(block);
  }
  return h.digest().hex();
}

// ---- markup over many files ----------------------------------------------------------------

namespace {

struct FileResult {
  // kNotRun: not started, the run stopping (a full disk, a signal): no record, --resume does it.
  enum class Kind { kOk, kSkipped, kError, kNotRun } kind = Kind::kOk;
  std::string error;
  std::uint64_t bytes = 0;  // input bytes read (decompressed)
  std::uint64_t size = 0;   // the input's size on disk (for the time left)
  std::uint64_t citations = 0;
  std::uint64_t linked = 0;
  // The citations not linked, by reason (rewrite::Reason), for the report.
  std::map<rewrite::Reason, std::uint32_t> unlinked;
  batch::ManifestEntry entry;
  int os_error = 0;  // the errno of a failed write of the output (ENOSPC: the disk is full)
};

// A failed write that no other document would escape: the outputs' disk is full, over quota
// or read-only. The run stops there (no new file is started) instead of failing every file.
bool output_disk_failed(int os_error) {
  return os_error == ENOSPC || os_error == EDQUOT || os_error == EROFS;
}

std::int64_t mtime_ns(const struct stat& st) {
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

std::string error_text(const Error& e, const std::string& path) {
  return e.file == path || e.file.empty() ? e.message : e.to_string();
}

class MarkupBatch {
 public:
  MarkupBatch(const MarkupSetup& setup, const BatchOptions& options, std::string out_dir,
              bool in_place, bool resume, const batch::Manifest& manifest, io::Hash128 fingerprint,
              batch::Destination destination)
      : setup_(setup),
        options_(options),
        out_dir_(std::move(out_dir)),
        in_place_(in_place),
        resume_(resume),
        manifest_(manifest),
        fingerprint_(fingerprint),
        destination_(destination),
        job_(setup.view, setup.options, setup.extractor.get()) {}

  std::string output_path(const batch::Input& in) const {
    return in_place_ ? in.path : out_dir_ + "/" + in.rel;
  }

  // `worker`: the index of the pool's thread running it (below options.jobs).
  // Once the outputs' disk has failed or a signal asked to stop, the files still in the pool's
  // window are not started (kNotRun): the run stops after the files being written, not after
  // the whole window.
  FileResult run(const batch::Input& in, std::size_t worker) {
    if (halted_.load(std::memory_order_relaxed) || stop_signal() != 0) {
      FileResult r;
      r.kind = FileResult::Kind::kNotRun;
      return r;
    }
    try {
      std::uint64_t size = 0;
      FileResult r = run_file(in, workers_[worker], size);
      r.size = size;
      if (r.kind == FileResult::Kind::kError && output_disk_failed(r.os_error)) {
        halted_.store(true, std::memory_order_relaxed);
      }
      return r;
    } catch (const std::exception& e) {  // bad_alloc on a hostile document
      FileResult r;
      r.kind = FileResult::Kind::kError;
      r.error = std::string("failed: ") + e.what();
      return r;
    }
  }

 private:
  static FileResult error(std::string message, int os_error = 0) {
    FileResult r;
    r.kind = FileResult::Kind::kError;
    r.error = std::move(message);
    r.os_error = os_error;
    return r;
  }

  // What a worker thread keeps from document to document: memory the next one reuses.
  struct Worker {
    std::unique_ptr<document::ExtractorSource> source;
  };

  // `size`: set to the input's size on disk once known.
  FileResult run_file(const batch::Input& in, Worker& worker, std::uint64_t& size_out) {
    if (!in.refused.empty()) return error(in.refused);
    const std::string out_path = output_path(in);
    struct stat st {};
    if (::stat(in.path.c_str(), &st) != 0) {
      return error(std::string("cannot open: ") + std::strerror(errno));
    }
    if (S_ISDIR(st.st_mode)) return error("is a directory");
    if (!S_ISREG(st.st_mode)) return error("not a regular file");
    const auto size = static_cast<std::uint64_t>(st.st_size);
    size_out = size;
    if (options_.max_size != 0 && size > options_.max_size) {
      return error("too large: " + std::to_string(size) + " bytes, over --max-size " +
                   std::to_string(options_.max_size));
    }
    if (resume_) {
      if (const batch::ManifestEntry* e = manifest_.find(in.rel);
          e != nullptr && e->size == size && e->mtime_ns == mtime_ns(st) &&
          e->options == fingerprint_ && e->output == in.rel) {
        struct stat ost {};
        if (::stat(out_path.c_str(), &ost) == 0 &&
            static_cast<std::uint64_t>(ost.st_size) == e->output_size) {
          auto hash = io::hash_file(in.path);  // the raw bytes: no decompression
          if (hash && *hash == e->input_hash) {
            FileResult r;
            r.kind = FileResult::Kind::kSkipped;
            r.entry = *e;
            return r;
          }
        }
      }
    }

    document::ReadOptions read_options;
    read_options.max_bytes = options_.max_size;
    read_options.limit_name = "--max-size";
    read_options.raw_hash = io::RawHash::kYes;
    document::DocumentReader input(read_options);
    if (Status s = input.open(in.path); !s) return error(error_text(s.error(), in.path));
    // The binary check is made before the output is created.
    if (Status s = input.check(); !s) return error(error_text(s.error(), in.path));
    batch::AtomicFile out;
    if (Status s = out.open(out_path, destination_); !s) {
      return error(s.error().to_string(), s.error().os_error);
    }
    io::OutputStream sink(out.fd(), io::compression_of(out_path), out_path);
    sink.reserve(size + size / 4);  // the input and its links
    if (!worker.source) {
      worker.source = std::make_unique<document::ExtractorSource>(setup_.extractor, setup_.self);
    } else {
      worker.source->restart(setup_.self);
    }
    document::ExtractorSource& source = *worker.source;
    FileResult r;
    Status s =
        job_.run(input, source, sink,
                 [&](std::vector<rewrite::Outcome>& outcomes, std::vector<std::string>& warnings) {
                   for (const rewrite::Outcome& o : outcomes) {
                     ++r.citations;
                     if (o.linked) {
                       ++r.linked;
                     } else {
                       ++r.unlinked[o.reason];
                     }
                   }
                   source.recycle(outcomes);
                   warnings.clear();
                   return Status::Ok();
                 });
    if (!s) return error(error_text(s.error(), in.path), s.error().os_error);
    if (Status f = sink.finish(); !f) return error(f.error().to_string(), f.error().os_error);
    if (Status c = out.commit(in_place_); !c) {
      return error(c.error().to_string(), c.error().os_error);
    }
    r.bytes = input.bytes();
    r.entry.output = in.rel;
    r.entry.output_size = sink.bytes_written();
    r.entry.output_hash = sink.hash();
    r.entry.options = fingerprint_;
    if (in_place_) {  // the input is now the output: a rerun finds it done
      struct stat now {};
      if (::stat(out_path.c_str(), &now) != 0) {
        return error(std::string("cannot stat the output: ") + std::strerror(errno));
      }
      r.entry.size = static_cast<std::uint64_t>(now.st_size);
      r.entry.mtime_ns = mtime_ns(now);
      r.entry.input_hash = sink.hash();
    } else {
      r.entry.size = size;
      r.entry.mtime_ns = mtime_ns(st);
      r.entry.input_hash = input.raw_hash();
    }
    return r;
  }

  const MarkupSetup& setup_;
  const BatchOptions& options_;
  std::string out_dir_;
  bool in_place_;
  bool resume_;
  const batch::Manifest& manifest_;
  io::Hash128 fingerprint_;
  batch::Destination destination_;
  const document::MarkupJob job_;    // shared by the workers
  std::atomic<bool> halted_{false};  // the outputs' disk failed: start no more files
  std::vector<Worker> workers_ = std::vector<Worker>(options_.jobs);
};

// The manifest records, made durable off the main thread. When a group is due (GroupSync), its
// records go to the recorder's thread, which syncs the output tree (syncfs: the renamed outputs
// are on disk) and only then appends and fdatasyncs the records; meanwhile the main thread goes
// on taking results, so a slow syncfs (a busy disk, a network filesystem: 20-110 ms per call
// measured on the shared VM) does not leave the workers idle with the result window full. One
// group is written at a time: a group that falls due meanwhile goes at the next file.
class Recorder {
 public:
  Recorder(batch::GroupSync& group, batch::Manifest& manifest)
      : group_(group), manifest_(manifest), thread_([this] { loop(); }) {}
  ~Recorder() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Main thread: a file's output was renamed into place.
  void add(const std::string& rel, const batch::ManifestEntry& entry) {
    waiting_.emplace_back(rel, entry);
    group_.note();
  }
  // Main thread, after each result: hands the waiting records over when the group is due and
  // the thread is free. False (message in `error`) if a group failed since the last call.
  bool poll(std::string& error) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!busy_ && group_.due()) hand_over();
    return take_error(error);
  }
  // Main thread, at the end: waits for the group being written, then writes the rest.
  bool finish(std::string& error) {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return !busy_; });
    if (!waiting_.empty()) {
      hand_over();
      cv_.wait(lock, [&] { return !busy_; });
    }
    return take_error(error);
  }

 private:
  using Records = std::vector<std::pair<std::string, batch::ManifestEntry>>;

  void hand_over() {  // with mutex_ held, !busy_
    group_.reset();
    group_records_.swap(waiting_);
    busy_ = true;
    cv_.notify_all();
  }
  bool take_error(std::string& error) {  // with mutex_ held
    if (error_.empty()) return true;
    error = std::move(error_);
    error_.clear();
    return false;
  }
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      cv_.wait(lock, [&] { return quit_ || busy_; });
      if (!busy_) return;
      Records records = std::move(group_records_);
      group_records_.clear();
      lock.unlock();
      Status s = write(records);
      lock.lock();
      if (!s && error_.empty()) error_ = s.error().to_string();
      busy_ = false;
      cv_.notify_all();
    }
  }
  // Records whose outputs could not be synced are not written: --resume redoes those files.
  Status write(const Records& records) {
    if (records.empty()) return Status::Ok();
    if (Status s = group_.sync_fs(); !s) return s;
    for (const auto& [rel, entry] : records) manifest_.add(rel, entry);
    return manifest_.flush();
  }

  batch::GroupSync& group_;
  batch::Manifest& manifest_;
  Records waiting_;        // main thread only
  Records group_records_;  // handed over, under mutex_
  std::mutex mutex_;
  std::condition_variable cv_;
  bool busy_ = false, quit_ = false;
  std::string error_;
  std::thread thread_;  // last: started once the rest is ready
};

int batch_usage(const std::string& message) {
  std::fprintf(stderr, "lexlink markup: %s (see lexlink markup --help)\n", message.c_str());
  return 2;
}

// The inputs of a batch, walked twice, never listed whole: a first walk counts them (for the
// progress line and the summary), finds the folders that cannot be read and the few largest
// files, the second reads them. The largest files are run first (batch::LargestInputs), then
// the others in walk order.
class BatchInputs {
 public:
  Status open(const batch::InputSpec& spec) { return walker_.open(spec); }
  const std::string& root() const { return walker_.root(); }

  // The first walk, on a thread of its own while `load` runs (each takes 7-15 ms for a tree of
  // 7,500 files or every grammar); then ready for next(). An error of the walk in `error`.
  bool count_while(const std::function<bool()>& load, std::string& error) {
    std::thread counter([&] { count(); });
    const bool loaded = load();
    counter.join();
    error = walk_error_;
    walker_.rewind();
    walker_.set_sizes(false);  // the workers look at each file anyway
    if (sized_) first_ = largest_.largest();
    for (const batch::Input& in : first_) run_first_.insert(in.rel);
    return loaded;
  }

  std::size_t total() const { return total_; }
  // The inputs' total size, when every one was sized.
  std::optional<std::uint64_t> total_bytes() const {
    return sized_ ? std::optional<std::uint64_t>(largest_.total_bytes()) : std::nullopt;
  }

  // The next input: the largest first, then the walk's others. False at the end, or when a
  // folder could no longer be read (said on stderr; failed() is then true).
  bool next(batch::Input& in) {
    if (first_taken_ < first_.size()) {
      in = std::move(first_[first_taken_++]);
      return true;
    }
    do {
      auto got = walker_.next(in);
      if (!got) {
        std::fprintf(stderr, "lexlink markup: %s\n", got.error().message.c_str());
        failed_ = true;
        return false;
      }
      if (!*got) return false;
    } while (run_first_.count(in.rel) != 0);
    return true;
  }
  bool failed() const { return failed_; }

 private:
  // The sizes cost a stat per file, which on a network filesystem (a list of paths on Lustre)
  // can take a millisecond: they are taken for the first 100,000 inputs and the first second
  // of the walk only. A run longer than that does not notice a large file's tail; it then runs
  // in walk order, its time left counted in files.
  void count() {
    constexpr std::size_t kSizedInputs = 100000;
    const auto sized_until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    try {
      for (batch::Input in;;) {
        auto more = walker_.next(in);
        if (!more) {
          walk_error_ = more.error().message;
          return;
        }
        if (!*more) return;
        ++total_;
        if (sized_ && (total_ > kSizedInputs ||
                       (total_ % 256 == 0 && std::chrono::steady_clock::now() > sized_until))) {
          sized_ = false;
          walker_.set_sizes(false);
        }
        if (sized_ && in.size >= 0) largest_.add(in, static_cast<std::uint64_t>(in.size));
      }
    } catch (const std::exception& e) {  // bad_alloc: a folder of more names than memory
      walk_error_ = std::string("cannot walk the inputs: ") + e.what();
    }
  }

  batch::InputWalker walker_;
  std::size_t total_ = 0;
  batch::LargestInputs largest_;
  bool sized_ = true;
  std::string walk_error_;
  std::vector<batch::Input> first_;  // run before the walk's files, in this order
  std::size_t first_taken_ = 0;
  std::unordered_set<std::string> run_first_;  // their relative paths, skipped by the walk
  bool failed_ = false;
};

// Where a batch writes besides its outputs: the manifest, the output folder's group sync, the
// report (--report, committed at the end).
struct BatchOutputs {
  bool fresh_tree = false;  // no output folder yet, or an empty one: no output to replace
  batch::Manifest manifest;
  std::unique_ptr<batch::GroupSync> group;
  std::unique_ptr<batch::AtomicFile> report;
  std::unique_ptr<io::FdSink> report_sink;

  // 0, or the exit status after saying why.
  int open(const Args& args, const BatchOptions& options, bool in_place, const std::string& out_dir,
           const std::string& root) {
    if (!in_place) {
      std::error_code ec;
      fresh_tree =
          !fs::exists(out_dir, ec) || (fs::is_directory(out_dir, ec) && fs::is_empty(out_dir, ec));
    }
    std::string manifest_path = args.get("manifest");
    if (manifest_path.empty()) manifest_path = (in_place ? root : out_dir) + "/.lexlink-manifest";
    if (Status s = manifest.open(manifest_path); !s) return fail(s);
    const std::string& v = args.get("sync-every");
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
    if (v.empty() || *end != 0 || n == 0 || v[0] == '-') {
      return batch_usage("--sync-every needs a number of files (1 or more)");
    }
    group = std::make_unique<batch::GroupSync>(static_cast<std::size_t>(n));
    if (!in_place) {
      std::error_code ec;
      fs::create_directories(out_dir, ec);
      if (Status s = group->open(out_dir); !s) return fail(s);
    }
    if (!options.report.empty()) {
      report = std::make_unique<batch::AtomicFile>();
      if (Status s = report->open(options.report); !s) return fail(s);
      report_sink = std::make_unique<io::FdSink>(report->fd(), options.report);
    }
    return 0;
  }

  // Writes the report's line for a file; false (and the report stops) when it cannot.
  bool report_file(const batch::Input& in, const std::string& output, const FileResult& r,
                   std::string& line) {
    if (!report_sink) return true;
    const bool failed = r.kind == FileResult::Kind::kError;
    const bool skipped = r.kind == FileResult::Kind::kSkipped;
    line = "{\"file\":";
    append_json_string(line, in.path);
    line += ",\"output\":";
    append_json_string(line, output);
    line += failed    ? ",\"status\":\"error\""
            : skipped ? ",\"status\":\"skipped\""
                      : ",\"status\":\"ok\"";
    if (failed) {
      line += ",\"error\":";
      append_json_string(line, r.error);
    } else if (!skipped) {
      line += ",\"bytes\":" + std::to_string(r.bytes) +
              ",\"citations\":" + std::to_string(r.citations) +
              ",\"linked\":" + std::to_string(r.linked);
      // Why the others were not: {"existing_link": 2, ...}, the reasons that occurred.
      line += ",\"unlinked\":{";
      bool first = true;
      for (const auto& [reason, count] : r.unlinked) {
        if (!first) line += ',';
        first = false;
        append_json_string(line, rewrite::to_string(reason));
        line += ':' + std::to_string(count);
      }
      line += '}';
    }
    line += "}\n";
    if (Status s = report_sink->write(line); !s) {
      say(s);
      report_sink.reset();
      return false;
    }
    return true;
  }

  // Flushes and commits the report; false when it cannot.
  bool finish_report() {
    if (!report_sink) return true;
    bool ok = true;
    if (Status s = report_sink->flush(); !s) {
      say(s);
      ok = false;
    }
    report_sink.reset();
    if (Status s = report->commit(false); !s) {
      say(s);
      ok = false;
    }
    return ok;
  }

 private:
  static void say(const Status& s) {
    std::fprintf(stderr, "lexlink markup: %s\n", s.error().to_string().c_str());
  }
  static int fail(const Status& s) {
    say(s);
    return 2;
  }
};

// The error record of a file on standard output, and its line on stderr.
void write_error(const batch::Input& in, const FileResult& r, bool bar, std::string& line) {
  std::fprintf(stderr, "%slexlink markup: %s: %s\n", bar ? "\r\033[K" : "", in.path.c_str(),
               r.error.c_str());
  line = "{\"file\":";
  append_json_string(line, in.path);
  line += ",\"error\":";
  append_json_string(line, r.error);
  line += "}\n";
  std::fwrite(line.data(), 1, line.size(), stdout);
}

// The output folder and the input spec from the arguments: 0, or the exit status.
int read_batch_args(const Args& args, bool in_place, std::string& out_dir, batch::InputSpec& spec) {
  if (in_place && !out_dir.empty()) {
    return batch_usage("give --out-dir OUT or --in-place, not both");
  }
  if (!in_place && out_dir.empty()) {
    return batch_usage("more than one document: give --out-dir OUT (or --in-place)");
  }
  if (args.given("output")) return batch_usage("-o is for one document; use --out-dir");
  if (!args.get("citations").empty()) return batch_usage("--citations is for one document");
  spec.paths = args.positional();
  spec.files_from = args.get("files-from");
  spec.root = args.get("root");
  spec.include = args.all("include");
  spec.exclude = args.all("exclude");
  spec.sizes = true;  // for batch::LargestInputs
  if (!out_dir.empty()) {
    std::error_code ec;
    out_dir = fs::absolute(out_dir, ec).lexically_normal().string();
    while (out_dir.size() > 1 && out_dir.back() == '/') out_dir.pop_back();
    spec.skip.push_back(out_dir);
  }
  if (spec.paths.empty() && spec.files_from.empty()) {
    return batch_usage("no input (give FILE, FOLDER, - or --files-from LIST)");
  }
  return 0;
}

}  // namespace

int run_markup_batch(const Context& context, const Args& args, MarkupSetup setup,
                     const std::function<bool(MarkupSetup&)>& load) {
  (void)context;
  BatchOptions options;
  if (!read_batch_options("markup", args, options)) return 2;
  const bool in_place = args.has("in-place");
  std::string out_dir = args.get("out-dir");
  batch::InputSpec spec;
  if (const int rc = read_batch_args(args, in_place, out_dir, spec); rc != 0) return rc;
  BatchInputs inputs;
  if (Status s = inputs.open(spec); !s) return batch_usage(s.error().message);
  std::string walk_error;
  if (!inputs.count_while([&] { return load(setup); }, walk_error)) return 2;
  if (!walk_error.empty()) return batch_usage(walk_error);
  const std::size_t total = inputs.total();
  if (!out_dir.empty() && fs::path(out_dir) == fs::path(inputs.root())) {
    return batch_usage(
        "--out-dir is the input root: the outputs would replace the inputs "
        "(use --in-place for that)");
  }
  BatchOutputs outputs;
  if (const int rc = outputs.open(args, options, in_place, out_dir, inputs.root()); rc != 0) {
    return rc;
  }
  io::Hash128 fingerprint;
  io::Hash128::from_hex(setup.fingerprint, fingerprint);

  // The outcomes are only counted (the report has one line per file): no per-citation text,
  // href or link list is kept. Each output is made without looking up its name first in a
  // fresh output tree (batch::Destination::kNew).
  MarkupSetup lean = setup;
  lean.options.outcome_details = false;
  MarkupBatch runner(lean, options, out_dir, in_place, args.has("resume"), outputs.manifest,
                     fingerprint,
                     outputs.fresh_tree ? batch::Destination::kNew : batch::Destination::kMayExist);
  // The pool's queue (files submitted, not yet started), its window (files submitted, not yet
  // taken back) and how many results the main thread waits for at a time. The queue keeps each
  // worker fed, so the main thread, woken for a batch, finds them all still busy (with a window
  // of 2 * jobs + 2, woken for jobs + 2, a run of 9 KB pages made one context switch per file).
  // The window only bounds memory (a few hundred bytes per file): a worker on a large file keeps
  // the results of the files after it waiting, and the other workers go on, for up to a window
  // of files (at about 0.1 ms per page of 9 KB, 4096 files take the other jobs 0.4 s or more).
  const std::size_t queue = 16 * options.jobs + 2, wake_batch = 8 * options.jobs;
  const std::size_t window = 4096 + queue;
  batch::OrderedPool<batch::Input, FileResult> pool(
      options.jobs, window,
      [&](batch::Input& in, std::size_t worker) { return runner.run(in, worker); }, queue);
  // The inputs submitted and not yet done, in order (`window` at most).
  std::deque<batch::Input> in_flight;
  bool more = total > 0;  // the walker has inputs left
  // Takes the next input into the pool; a folder that could no longer be read ends the walk
  // (the files before it are done).
  auto submit_next = [&] {
    batch::Input in;
    if (!inputs.next(in)) {
      more = false;
      return;
    }
    in_flight.push_back(in);
    pool.submit(std::move(in));
  };
  Progress progress("markup", options.progress, total, options.jobs);
  progress.set_summary_line(!options.quiet);
  if (auto bytes = inputs.total_bytes()) progress.set_size_total(*bytes);
  const bool bar = options.progress == BatchOptions::ProgressMode::kBar;
  int status = 0;
  bool io_failed = false;
  Recorder recorder(*outputs.group, outputs.manifest);
  std::string record_error;
  auto record_failed = [&] {
    std::fprintf(stderr, "lexlink markup: %s\n", record_error.c_str());
    io_failed = true;
  };
  std::size_t done = 0;
  std::string line;
  int disk_error = 0;  // the outputs' disk failed (output_disk_failed): stop
  install_stop_handlers();
  auto go_on = [&] { return stop_signal() == 0 && disk_error == 0; };
  while ((more && go_on()) || !pool.empty()) {
    while (more && !pool.full() && go_on()) submit_next();
    if (pool.empty()) break;
    // Woken once for several files, not for every one: when `wake_batch` results are ready,
    // each worker still has files. Or woken early, to submit more, when the workers run low on
    // files while a large one holds the results back.
    if (!pool.wait(wake_batch, more && go_on())) continue;
    FileResult r = pool.pop();
    const batch::Input in = std::move(in_flight.front());
    in_flight.pop_front();
    if (r.kind == FileResult::Kind::kNotRun) continue;
    ++done;
    const bool failed = r.kind == FileResult::Kind::kError;
    const bool skipped = r.kind == FileResult::Kind::kSkipped;
    if (failed && output_disk_failed(r.os_error) && disk_error == 0) disk_error = r.os_error;
    if (failed) {
      status = 1;
      write_error(in, r, bar, line);
    } else if (!skipped) {
      recorder.add(in.rel, r.entry);
    }
    if (!outputs.report_file(in, runner.output_path(in), r, line)) io_failed = true;
    progress.file_done(r.bytes, r.citations, failed, skipped, r.size);
    progress.tick();
    if (!recorder.poll(record_error)) record_failed();
  }
  if (!recorder.finish(record_error)) record_failed();
  std::fflush(stdout);
  if (!outputs.finish_report()) io_failed = true;
  if (!progress.finish(options.stats)) io_failed = true;
  if (disk_error != 0) {
    std::fprintf(stderr,
                 "lexlink markup: stopped after %zu of %zu files: the outputs cannot be written "
                 "(%s); the manifest records the finished ones: make room and rerun with "
                 "--resume\n",
                 done, total, std::strerror(disk_error));
    return 1;
  }
  if (const int sig = stop_signal(); sig != 0) {
    std::fprintf(stderr,
                 "lexlink markup: stopped by signal %d after %zu of %zu files; the manifest "
                 "records them (rerun with --resume)\n",
                 sig, done, total);
    return 128 + sig;
  }
  return io_failed || inputs.failed() || status != 0 ? 1 : 0;
}

}  // namespace lexlink::cli

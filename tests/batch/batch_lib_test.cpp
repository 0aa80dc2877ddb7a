// extractor/batch: globs (table tests/data/batch/globs.tsv), the input walk, manifest lines,
// compressed round trips, atomic files, the ordered job pool, the largest inputs and the time
// left.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "batch/atomic_file.h"
#include "batch/eta.h"
#include "batch/inputs.h"
#include "batch/manifest.h"
#include "batch/ordered_pool.h"
#include "io/file_stream.h"
#include "io/hash.h"
#include "support/test_support.h"

using namespace lexlink::batch;
using namespace lexlink::io;
using lexlink::test::load_table;
namespace fs = std::filesystem;

using lexlink::test::TempDir;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string some_text(std::size_t n) {
  std::mt19937 rng(42);
  std::string s;
  const char* words[] = {"legge ", "n. 241 ", "del 1990", ", art. 5 ", "decreto\n", "<p>", "è "};
  while (s.size() < n) s += words[rng() % 7];
  return s;
}

// What a long task at the head of a pool does in the tests below: waits until `count` reaches
// `target` (or `timeout` passes) and returns the count it saw.
int wait_for_count(const std::atomic<int>& count, int target, std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (count.load() < target && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return count.load();
}

}  // namespace

TEST_CASE("include and exclude globs match relative paths", "[batch]") {
  const auto table = load_table("tests/data/batch/globs.tsv", {"glob", "rel", "matches"});
  REQUIRE(table.rows().size() >= 10);
  for (const auto& row : table.rows()) {
    INFO(table.path() << ":" << row.line);
    CHECK(glob_matches(std::string(row.fields[0]), std::string(row.fields[1])) ==
          (row.fields[2] == "yes"));
  }
}

namespace {

// Every input of a walk, as "rel" (and " refused: WHY" when refused).
std::vector<std::string> walk(InputWalker& w) {
  std::vector<std::string> out;
  Input in;
  while (true) {
    auto more = w.next(in);
    REQUIRE(more);
    if (!*more) break;
    out.push_back(in.rel + (in.refused.empty() ? "" : " refused: " + in.refused));
  }
  return out;
}

}  // namespace

TEST_CASE(
    "the input walk: files of a folder before its subfolders, in name order, again after "
    "rewind",
    "[batch]") {
  TempDir t;
  for (const char* f : {"b.txt", "a.txt", "z/c.txt", "m/d.txt", "m/n/e.txt", "m/a.txt", "c.txt",
                        ".x.txt.lexlink-tmp", "out/o.txt"}) {
    fs::create_directories((t.path / "in" / f).parent_path());
    std::ofstream(t.path / "in" / f) << "x";
  }
  fs::create_directory_symlink(t.path / "in/m", t.path / "in/link");  // not followed
  InputSpec spec;
  spec.paths = {(t.path / "in").string()};
  spec.skip = {(t.path / "in/out").string()};
  InputWalker w;
  REQUIRE(w.open(spec));
  CHECK(w.root() == (t.path / "in").string());
  const std::vector<std::string> expected = {"a.txt",   "b.txt",     "c.txt",  "m/a.txt",
                                             "m/d.txt", "m/n/e.txt", "z/c.txt"};
  CHECK(walk(w) == expected);
  w.rewind();
  CHECK(walk(w) == expected);
  // Two named paths that overlap: each file once, where it is first met.
  InputSpec twice;
  twice.paths = {(t.path / "in/m/d.txt").string(), (t.path / "in/m").string(),
                 (t.path / "in").string()};
  twice.skip = spec.skip;
  InputWalker w2;
  REQUIRE(w2.open(twice));
  CHECK(walk(w2) == std::vector<std::string>{"m/d.txt", "m/a.txt", "m/n/e.txt", "a.txt", "b.txt",
                                             "c.txt", "z/c.txt"});
  // A folder that cannot be read is an error of the walk (root reads everything: only a
  // missing one is checked here).
  InputSpec missing;
  missing.paths = {(t.path / "in").string(), (t.path / "gone").string()};
  fs::create_directory(t.path / "gone");
  InputWalker w3;
  REQUIRE(w3.open(missing));
  fs::remove(t.path / "gone");
  Input in;
  std::size_t files = 0;
  bool failed = false;
  while (true) {
    auto more = w3.next(in);
    if (!more) {
      failed = true;
      CHECK(more.error().message.find("gone") != std::string::npos);
      break;
    }
    if (!*more) break;
    ++files;
  }
  CHECK(failed);
  CHECK(files == 8);  // the files of `in` (out/ is not skipped here) came first
}

TEST_CASE("the input walk gives each file's size when asked, a linked file's being its target's",
          "[batch]") {
  TempDir t;
  fs::create_directories(t.path / "in/sub");
  std::ofstream(t.path / "in/a.txt") << "abc";
  std::ofstream(t.path / "in/sub/b.txt") << std::string(1000, 'x');
  std::ofstream(t.path / "target.txt") << "12345";
  fs::create_symlink(t.path / "target.txt", t.path / "in/link.txt");
  fs::create_symlink(t.path / "nowhere", t.path / "in/dangling.txt");
  for (const bool sizes : {true, false}) {
    InputSpec spec;
    spec.paths = {(t.path / "in").string(), (t.path / "target.txt").string()};
    spec.sizes = sizes;
    InputWalker w;
    REQUIRE(w.open(spec));
    std::map<std::string, std::int64_t> got;
    Input in;
    while (true) {
      auto more = w.next(in);
      REQUIRE(more);
      if (!*more) break;
      got[in.rel] = in.size;
    }
    const std::map<std::string, std::int64_t> expect =
        sizes ? std::map<std::string, std::int64_t>{{"in/a.txt", 3},
                                                    {"in/dangling.txt", -1},
                                                    {"in/link.txt", 5},
                                                    {"in/sub/b.txt", 1000},
                                                    {"target.txt", 5}}
              : std::map<std::string, std::int64_t>{{"in/a.txt", -1},
                                                    {"in/dangling.txt", -1},
                                                    {"in/link.txt", -1},
                                                    {"in/sub/b.txt", -1},
                                                    {"target.txt", -1}};
    CHECK(got == expect);
  }
}

TEST_CASE("manifest lines round trip, paths with tabs and newlines included", "[batch]") {
  ManifestEntry e;
  e.size = 12345;
  e.mtime_ns = 1700000000123456789;
  e.input_hash = hash_of("input");
  e.output = "a\tb\\c\nd.html";
  e.output_size = 999;
  e.output_hash = hash_of("output");
  e.options = hash_of("options");
  const std::string line = manifest_line("a\tb\\c\nd.html", e);
  REQUIRE(line.back() == '\n');
  REQUIRE(std::count(line.begin(), line.end(), '\n') == 1);
  std::string rel;
  ManifestEntry back;
  REQUIRE(parse_manifest_line(line.substr(0, line.size() - 1), rel, back));
  CHECK(rel == "a\tb\\c\nd.html");
  CHECK(back.output == e.output);
  CHECK(back.size == e.size);
  CHECK(back.mtime_ns == e.mtime_ns);
  CHECK(back.input_hash == e.input_hash);
  CHECK(back.output_hash == e.output_hash);
  CHECK(back.options == e.options);
  // A torn line is refused.
  CHECK_FALSE(parse_manifest_line(line.substr(0, line.size() / 2), rel, back));
}

TEST_CASE("manifest keeps the last record, ignores a torn last line, refuses a second run",
          "[batch]") {
  TempDir dir;
  const std::string path = (dir.path / "m").string();
  ManifestEntry e;
  e.output = "x";
  {
    Manifest m;
    REQUIRE(m.open(path));
    e.size = 1;
    m.add("x", e);
    e.size = 2;
    m.add("x", e);
    REQUIRE(m.flush());
    Manifest second;
    CHECK_FALSE(second.open(path));  // locked by the first
  }
  {
    std::ofstream(path, std::ios::app) << "y\t1\t2\t";  // torn
  }
  Manifest m;
  REQUIRE(m.open(path));
  REQUIRE(m.find("x") != nullptr);
  CHECK(m.find("x")->size == 2);
  CHECK(m.find("y") == nullptr);
  CHECK(m.size() == 1);
}

TEST_CASE("gzip and zstd outputs read back byte for byte, deterministically", "[batch]") {
  TempDir dir;
  const std::string text = some_text(3 << 20);
  for (const char* name : {"doc.html.gz", "doc.html.zst", "doc.html"}) {
    INFO(name);
    const std::string path = (dir.path / name).string();
    Hash128 first;
    for (int round = 0; round < 2; ++round) {
      AtomicFile f;
      REQUIRE(f.open(path));
      OutputStream out(f.fd(), compression_of(path), path);
      for (std::size_t i = 0; i < text.size(); i += 100000) {
        REQUIRE(out.write(std::string_view(text).substr(i, 100000)));
      }
      REQUIRE(out.finish());
      REQUIRE(f.commit(false));
      CHECK(out.hash() == hash_of(slurp(path)));
      if (round == 0) first = out.hash();
      CHECK(out.hash() == first);  // same bytes on every run
    }
    InputStream in;
    REQUIRE(in.open(path));
    std::string all, block;
    while (true) {
      REQUIRE(in.read(block));
      if (block.empty()) break;
      all += block;
    }
    CHECK(all == text);
    CHECK(in.raw_hash() == hash_of(slurp(path)));
    if (compression_of(path) != Compression::kNone) CHECK(fs::file_size(path) < text.size() / 2);
  }
}

TEST_CASE("a truncated or corrupt compressed input is an error, not a short document", "[batch]") {
  TempDir dir;
  for (const char* name : {"t.txt.gz", "t.txt.zst"}) {
    INFO(name);
    const std::string path = (dir.path / name).string();
    {
      AtomicFile f;
      REQUIRE(f.open(path));
      OutputStream out(f.fd(), compression_of(path), path);
      REQUIRE(out.write(some_text(200000)));
      REQUIRE(out.finish());
      REQUIRE(f.commit(false));
    }
    fs::resize_file(path, fs::file_size(path) / 2);
    InputStream in;
    REQUIRE(in.open(path));
    std::string block;
    bool failed = false;
    for (int i = 0; i < 100 && !failed; ++i) {
      lexlink::Status s = in.read(block);
      failed = !s;
      if (s && block.empty()) break;
    }
    CHECK(failed);
  }
}

TEST_CASE("an atomic file not committed leaves nothing behind, and a stale temp is overwritten",
          "[batch]") {
  TempDir dir;
  const std::string path = (dir.path / "sub" / "out.html").string();
  std::ofstream((dir.path / "x")) << "";
  fs::create_directories(dir.path / "sub");
  std::ofstream(temp_name_for(path)) << "stale half-written";
  {
    AtomicFile f;
    REQUIRE(f.open(path));
    REQUIRE(::write(f.fd(), "abc", 3) == 3);
  }
  CHECK_FALSE(fs::exists(path));
  CHECK_FALSE(fs::exists(temp_name_for(path)));
  AtomicFile f;
  REQUIRE(f.open(path));
  REQUIRE(::write(f.fd(), "abc", 3) == 3);
  REQUIRE(f.commit(true));
  CHECK(slurp(path) == "abc");
  CHECK(is_temp_name(fs::path(temp_name_for(path)).filename().string()));
  CHECK_FALSE(is_temp_name("out.html"));
}

TEST_CASE("an atomic file expected new is made without replacing, and replaces one found after all",
          "[batch]") {
  TempDir dir;
  const std::string fresh = (dir.path / "new" / "a.html").string();
  const std::string there = (dir.path / "b.html").string();
  std::ofstream(there) << "old";
  fs::permissions(there, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  for (const bool sync : {false, true}) {
    INFO("sync " << sync);
    for (const std::string& path : {fresh, there}) {
      INFO(path);
      {  // not committed: nothing new is left (an unnamed file, or the temporary name removed)
        const std::string before = fs::exists(path) ? slurp(path) : std::string("(none)");
        AtomicFile dropped;
        REQUIRE(dropped.open(path, Destination::kNew));
        REQUIRE(::write(dropped.fd(), "half", 4) == 4);
        CHECK((fs::exists(path) ? slurp(path) : std::string("(none)")) == before);
      }
      CHECK_FALSE(fs::exists(temp_name_for(path)));
      AtomicFile f;
      REQUIRE(f.open(path, Destination::kNew));
      REQUIRE(::write(f.fd(), "new", 3) == 3);
      REQUIRE(f.commit(sync));
      CHECK(slurp(path) == "new");
      CHECK_FALSE(fs::exists(temp_name_for(path)));
    }
    // The file that was there keeps its permissions, found by commit() (open() did not look).
    CHECK((fs::status(there).permissions() & fs::perms::all) ==
          (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  }
}

TEST_CASE("the ordered pool returns results in submission order with bounded work in flight",
          "[batch]") {
  std::atomic<int> running{0}, most{0};
  OrderedPool<int, int> pool(4, 10, [&](int& x, std::size_t worker) {
    const int now = ++running;
    int m = most.load();
    while (now > m && !most.compare_exchange_weak(m, now)) {
    }
    CHECK(worker < 4);
    std::this_thread::sleep_for(std::chrono::microseconds((x * 7919) % 500));
    --running;
    return x * 2;
  });
  int next = 0, expect = 0;
  const int n = 500;
  while (next < n || !pool.empty()) {
    while (next < n && !pool.full()) pool.submit(next++);
    CHECK(pool.pop() == 2 * expect++);
  }
  CHECK(expect == n);
  CHECK(most.load() <= 4);
}

TEST_CASE("the ordered pool's batched pop keeps the order and ends with the last results",
          "[batch]") {
  for (std::size_t jobs : {1, 2, 3}) {
    OrderedPool<int, int> pool(jobs, 2 * jobs + 2, [&](int& x, std::size_t) {
      std::this_thread::sleep_for(std::chrono::microseconds((x * 7919) % 300));
      return x + 1;
    });
    int next = 0, expect = 0;
    const int n = 301;  // not a multiple of the batch: the last pops wait for fewer
    while (next < n || !pool.empty()) {
      while (next < n && !pool.full()) pool.submit(next++);
      CHECK(pool.pop(jobs + 2) == ++expect);
    }
    CHECK(expect == n);
  }
}

TEST_CASE("the ordered pool with a queue goes on past a long task, in order, within its window",
          "[batch]") {
  // Task 0 runs until 40 later tasks have finished (or 2 s pass): with a queue of 4 and a
  // window of 64, the other worker must get them. The results still come back in order, and no
  // more than the window is ever in flight.
  for (const bool want_tasks : {true, false}) {
    std::atomic<int> finished_after_head{0};
    bool head_saw_them = false;
    OrderedPool<int, int> pool(
        2, 64,
        [&](int& x, std::size_t) {
          if (x == 0) {
            head_saw_them =
                wait_for_count(finished_after_head, 40, std::chrono::milliseconds(2000)) >= 40;
          } else {
            ++finished_after_head;
          }
          return x * 3;
        },
        4);
    int next = 0, expect = 0;
    const int n = 200;
    std::size_t most_in_flight = 0;
    while (next < n || !pool.empty()) {
      while (next < n && !pool.full()) {
        pool.submit(next++);
        most_in_flight = std::max<std::size_t>(most_in_flight, next - expect);
      }
      if (pool.empty()) break;
      if (!pool.wait(8, want_tasks && next < n)) continue;
      CHECK(pool.pop() == 3 * expect++);
    }
    CHECK(expect == n);
    CHECK(most_in_flight <= 64);
    // Without want_tasks the caller sleeps in wait() while the queue drains: the head task then
    // waits its 2 s out.
    CHECK(head_saw_them == want_tasks);
  }
}

TEST_CASE("the ordered pool's budget bounds the weight of the results waiting behind a long task",
          "[batch]") {
  // Each result weighs 1, the budget is 10 and the queue 4: while task 0 runs, at most 10
  // results can wait and 4 more tasks be queued, so task 0, which waits (up to 300 ms) for 40
  // others, does not see them; then every result comes back in order.
  std::atomic<int> finished_after_head{0};
  int seen_by_head = 0;
  OrderedPool<int, int> pool(
      2, 64,
      [&](int& x, std::size_t) {
        if (x == 0) {
          seen_by_head = wait_for_count(finished_after_head, 40, std::chrono::milliseconds(300));
        } else {
          ++finished_after_head;
        }
        return x;
      },
      4);
  pool.set_budget([](const int&) { return std::size_t{1}; }, 10);
  int next = 0, expect = 0;
  const int n = 100;
  while (next < n || !pool.empty()) {
    while (next < n && !pool.full()) pool.submit(next++);
    if (pool.empty()) break;
    if (!pool.wait(4, next < n)) continue;
    CHECK(pool.pop() == expect++);
  }
  CHECK(expect == n);
  CHECK(seen_by_head >= 10);
  CHECK(seen_by_head <= 14);
}

TEST_CASE("the largest inputs are those of a large share of the bytes, largest first", "[batch]") {
  struct Case {
    std::vector<std::uint64_t> sizes;  // in walk order; input i is named "f<i>"
    std::size_t keep;
    std::vector<std::string> expect;
  };
  const std::vector<Case> cases = {
      // 1/4 of 1000 bytes is 250: f1 and f3, the larger first.
      {{100, 300, 50, 400, 150}, 4, {"f3", "f1"}},
      // Equal sizes keep their walk order.
      {{300, 10, 300, 10, 300, 80}, 4, {"f0", "f2", "f4"}},
      // Only `keep` are kept: with keep 2, the third 300 is not (1/2 of 1000 = 500: none is that
      // large anyway).
      {{300, 300, 300, 100}, 2, {}},
      // Files of the same small size: each holds 1/8 of the bytes, at least 1/8 with keep 8.
      {{10, 10, 10, 10, 10, 10, 10, 10}, 8, {"f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7"}},
      // ... and with keep 4 the first four of them are kept, but none reaches 1/4.
      {{10, 10, 10, 10, 10, 10, 10, 10}, 4, {}},
      // A run of empty files: nothing.
      {{0, 0, 0}, 4, {}},
      // One file alone: it is the run.
      {{5}, 64, {"f0"}},
  };
  for (const Case& c : cases) {
    LargestInputs largest(c.keep);
    for (std::size_t i = 0; i < c.sizes.size(); ++i) {
      Input in;
      in.path = in.rel = "f" + std::to_string(i);
      largest.add(in, c.sizes[i]);
    }
    std::vector<std::string> got;
    for (const Input& in : largest.largest()) got.push_back(in.rel);
    INFO("case with " << c.sizes.size() << " inputs, keep " << c.keep);
    CHECK(got == c.expect);
  }
}

TEST_CASE("the time left goes by the work done so far, skipped files left out of the rate",
          "[batch]") {
  struct Case {
    RunDone run;
    double expect;  // < 0: no estimate
  };
  const std::vector<Case> cases = {
      {{1000, 100, 100, 2.0}, 18.0},  // 100 bytes in 2 s: 900 left take 18 s
      {{1000, 600, 100, 2.0}, 8.0},   // 500 skipped: 400 left at 100 per 2 s
      {{1000, 500, 0, 1.0}, -1},      // only skipped so far: no rate
      {{1000, 1000, 900, 9.0}, -1},   // done
      {{0, 10, 10, 1.0}, -1},         // the total is unknown
      {{4, 1, 1, 30.0}, 90.0},        // in files: 1 of 4 in 30 s
  };
  for (const Case& c : cases) {
    const auto got = eta_seconds(c.run);
    INFO("total " << c.run.total << " done " << c.run.done << " worked " << c.run.worked);
    if (c.expect < 0) {
      CHECK(!got.has_value());
    } else {
      REQUIRE(got.has_value());
      CHECK(*got == Approx(c.expect));
    }
  }
}

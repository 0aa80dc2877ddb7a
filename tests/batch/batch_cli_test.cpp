// Batch runs end to end: `lexlink markup --out-dir/--in-place` over trees built from the
// project's corpora, `lexlink extract` over many inputs, `lexlink stream`: mirror tree,
// include/exclude, --files-from, error records, --resume, compressed files, order.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "io/file_stream.h"
#include "support/test_support.h"

using lexlink::test::data_path;
using lexlink::test::run_cli;
using lexlink::test::split;
using nlohmann::json;
namespace fs = std::filesystem;

using lexlink::test::TempDir;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void spit(const fs::path& p, const std::string& s) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << s;
}

std::string decompress(const fs::path& p) {
  lexlink::io::InputStream in;
  REQUIRE(in.open(p.string()));
  std::string all, block;
  while (true) {
    REQUIRE(in.read(block));
    if (block.empty()) break;
    all += block;
  }
  return all;
}

// Every file under `dir` (relative path -> content), lexlink's own files included.
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out[e.path().lexically_relative(dir).string()] = slurp(e.path());
  }
  return out;
}

std::vector<json> json_lines(const std::string& out) {
  std::vector<json> lines;
  for (const std::string& line : split(out, "\n")) {
    if (!line.empty()) lines.push_back(json::parse(line));
  }
  return lines;
}

// An input tree from the corpora: it/ (Italian text), uk/ (CLML XML), za/by-laws/ (AKN XML).
// Returns the relative paths.
std::vector<std::string> make_tree(const fs::path& in) {
  std::vector<std::string> rels;
  auto copy_dir = [&](const std::string& from, const std::string& to, const std::string& ext) {
    for (const auto& e : fs::directory_iterator(data_path(from))) {
      if (e.path().extension() != ext) continue;
      const std::string rel = to + "/" + e.path().filename().string();
      spit(in / rel, slurp(e.path()));
      rels.push_back(rel);
    }
  };
  copy_dir("corpora/it-normattiva-gazzetta-civica/text", "it", ".txt");
  copy_dir("corpora/uk-clml/raw", "uk", ".xml");
  copy_dir("corpora/za-laws-africa-bylaws/raw", "za/by-laws", ".xml");
  std::sort(rels.begin(), rels.end());
  return rels;
}

std::map<std::string, std::string> without_manifest(std::map<std::string, std::string> t) {
  t.erase(".lexlink-manifest");
  return t;
}

}  // namespace

TEST_CASE("markup --out-dir mirrors the tree, each output equal to the one-file markup",
          "[batch]") {
  TempDir t;
  const auto rels = make_tree(t.path / "in");
  REQUIRE(rels.size() >= 12);
  auto r = run_cli({"markup", "--out-dir", t / "out", "--jobs", "2", t / "in"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  const auto out = without_manifest(tree(t.path / "out"));
  REQUIRE(out.size() == rels.size());
  std::size_t linked = 0;
  for (const std::string& rel : rels) {
    INFO(rel);
    REQUIRE(out.count(rel) == 1);
    auto one = run_cli({"markup", t / ("in/" + rel)});
    REQUIRE(one.exit_code == 0);
    CHECK(out.at(rel) == one.out);
    linked += out.at(rel) != slurp(t.path / "in" / rel) ? 1 : 0;
  }
  CHECK(linked >= 8);  // the corpora do cite laws
  CHECK(fs::exists(t.path / "out" / ".lexlink-manifest"));
  // Running again (no --resume) gives byte-identical outputs.
  auto again = run_cli({"markup", "--out-dir", t / "out", "--jobs", "1", t / "in"});
  REQUIRE(again.exit_code == 0);
  CHECK(without_manifest(tree(t.path / "out")) == out);
}

TEST_CASE("markup runs the files of a large share of the bytes first, the rest in walk order",
          "[batch]") {
  // 100 small files and two large ones named to come last in the walk: the large ones (each at
  // least 1/64 of the bytes) are run first, the larger first, so that they do not run alone at
  // the end. The report says so, for any number of jobs, and the outputs are those of one file.
  TempDir t;
  const std::string small = "Visto l'art. 3 della legge 7 agosto 1990, n. 241.\n";
  std::string large;
  while (large.size() < 4000) large += small;
  for (int i = 0; i < 100; ++i)
    spit(t.path / "in" / ("a" + std::to_string(100 + i) + ".txt"), small);
  spit(t.path / "in" / "z1.txt", large);
  spit(t.path / "in" / "z2.txt", large + large);
  for (const char* jobs : {"1", "2"}) {
    const std::string out = std::string("out") + jobs, report = std::string("r") + jobs;
    auto r = run_cli({"markup", "--out-dir", t / out, "--jobs", jobs, "--report", t / report,
                      "--jurisdiction", "it", t / "in"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto lines = json_lines(slurp(t.path / report));
    REQUIRE(lines.size() == 102);
    CHECK(fs::path(lines[0]["file"].get<std::string>()).filename() == "z2.txt");
    CHECK(fs::path(lines[1]["file"].get<std::string>()).filename() == "z1.txt");
    for (std::size_t i = 2; i < lines.size(); ++i) {
      CHECK(fs::path(lines[i]["file"].get<std::string>()).filename() ==
            "a" + std::to_string(100 + i - 2) + ".txt");
    }
    CHECK(lines[0]["citations"].get<int>() > 100);
    auto one = run_cli({"markup", "--jurisdiction", "it", t / "in/z2.txt"});
    CHECK(slurp(t.path / out / "z2.txt") == one.out);
  }
}

TEST_CASE("markup batch: include and exclude, files-from, paths on stdin, --root", "[batch]") {
  TempDir t;
  const auto rels = make_tree(t.path / "in");
  auto r = run_cli(
      {"markup", "--out-dir", t / "o1", "--include", "*.xml", "--exclude", "uk/*", t / "in"});
  REQUIRE(r.exit_code == 0);
  for (const auto& [rel, content] : without_manifest(tree(t.path / "o1"))) {
    CHECK(rel.rfind("za/by-laws/", 0) == 0);
  }
  CHECK(without_manifest(tree(t.path / "o1")).size() == 2);

  // A list file; relative paths are relative to the working directory (absolute here).
  const std::string list = t / "list.txt";
  spit(list, t / "in/it/26G00001.txt" + "\n" + t / "in/za/by-laws/" +
                 fs::directory_iterator(t.path / "in/za/by-laws")->path().filename().string() +
                 "\n");
  r = run_cli({"markup", "--out-dir", t / "o2", "--root", t / "in", "--files-from", list});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto o2 = without_manifest(tree(t.path / "o2"));
  CHECK(o2.size() == 2);
  CHECK(o2.count("it/26G00001.txt") == 1);

  // '-': the paths on standard input; the default root is their common parent (in/it).
  r = run_cli({"markup", "--out-dir", t / "o3", "-"},
              t / "in/it/26G00001.txt" + "\n" + t / "in/it/26G00007.txt" + "\n");
  REQUIRE(r.exit_code == 0);
  auto o3 = without_manifest(tree(t.path / "o3"));
  CHECK(o3.size() == 2);
  CHECK(o3.count("26G00007.txt") == 1);

  // Outside the root, and the output folder as the root: usage errors.
  r = run_cli({"markup", "--out-dir", t / "o4", "--root", t / "in/uk", t / "in/it"});
  CHECK(r.exit_code == 2);
  r = run_cli({"markup", "--out-dir", t / "in", t / "in"});
  CHECK(r.exit_code == 2);
  r = run_cli({"markup", t / "in/it/26G00001.txt", t / "in/it/26G00007.txt"});
  CHECK(r.exit_code == 2);  // many documents need --out-dir or --in-place
}

TEST_CASE("bad documents become error records, the run goes on, exit status 1", "[batch]") {
  TempDir t;
  make_tree(t.path / "in");
  spit(t.path / "in/bad/binary.html", std::string("\x7f"
                                                  "ELF\0\0\0\x01\x02",
                                                  9) +
                                          std::string(2000, '\0'));
  spit(t.path / "in/bad/large.txt", std::string(3000000, 'x') + " legge 7 agosto 1990, n. 241");
  spit(t.path / "in/bad/corrupt.txt.gz", "this is not gzip data at all");
  fs::create_symlink(t.path / "nowhere", t.path / "in/bad/dangling.txt");
  auto r = run_cli({"markup", "--out-dir", t / "out", "--max-size", "2000000", "--report",
                    t / "report.jsonl", "--stats", t / "stats.json", t / "in"});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  const auto errors = json_lines(r.out);
  std::map<std::string, std::string> why;
  for (const json& e : errors) why[fs::path(e["file"].get<std::string>()).filename()] = e["error"];
  REQUIRE(why.size() == 4);
  CHECK(why["binary.html"].find("binary") != std::string::npos);
  CHECK(why["large.txt"].find("too large") != std::string::npos);
  CHECK(why["corrupt.txt.gz"].find("gzip") != std::string::npos);
  CHECK(why["dangling.txt"].find("cannot open") != std::string::npos);
  CHECK(r.err.find("large.txt") != std::string::npos);
  // No output, not even a temporary one, for a failed file; the others are all there.
  const auto out = tree(t.path / "out");
  for (const auto& [rel, content] : out) {
    CHECK(rel.rfind("bad/", 0) != 0);
    CHECK(rel.find("lexlink-tmp") == std::string::npos);
  }
  CHECK(out.size() == 16 + 1);
  const auto report = json_lines(slurp(t.path / "report.jsonl"));
  CHECK(report.size() == 20);
  std::size_t failed = 0;
  for (const json& j : report) failed += j["status"] == "error" ? 1 : 0;
  CHECK(failed == 4);
  const json stats = json::parse(slurp(t.path / "stats.json"));
  CHECK(stats["files_done"] == 20);
  CHECK(stats["errors"] == 4);
  CHECK(stats["ok"] == 16);
  CHECK(stats["citations"].get<int>() > 100);
}

TEST_CASE("option max-size reads K, M, G and T as powers of 1024, and refuses other suffixes",
          "[batch]") {
  TempDir t;
  spit(t.path / "in/a.txt", std::string(2 * 1024 * 1024 + 1, 'x') + " legge 7 agosto 1990, n. 241");
  spit(t.path / "in/b.txt", "legge 7 agosto 1990, n. 241");
  // 2M is 2 MiB: a.txt is over it by 29 bytes, b.txt under.
  auto r = run_cli({"extract", "--jurisdiction", "it", "--max-size", "2M", t / "in"});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  const auto lines = json_lines(r.out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0]["error"].get<std::string>().find("over --max-size 2097152") != std::string::npos);
  CHECK(lines[1]["urn"] == "urn:lex:it:stato:legge:1990-08-07;241");
  for (const char* ok : {"3m", "1G", "1t", "4096k", "2097181"}) {
    INFO(ok);
    CHECK(run_cli({"extract", "--jurisdiction", "it", "--max-size", ok, t / "in"}).exit_code == 0);
  }
  for (const char* bad : {"2MB", "2X", "M", "-1", "1.5M", "99999999999999T", ""}) {
    INFO(bad);
    auto u = run_cli({"extract", "--jurisdiction", "it", "--max-size", bad, t / "in"});
    CHECK(u.exit_code == 2);
    CHECK(u.err.find("--max-size needs a number of bytes") != std::string::npos);
    CHECK(u.out.empty());
  }
}

TEST_CASE("a FIFO or a device met in a folder walk is an error record, never opened", "[batch]") {
  // Opening a FIFO waits for a writer: before, a run over a folder holding one never ended.
  TempDir t;
  const auto rels = make_tree(t.path / "in");
  REQUIRE(::mkfifo((t.path / "in/it/pipe.txt").c_str(), 0600) == 0);
  fs::create_symlink(t.path / "in/it/pipe.txt", t.path / "in/it/pipe-link.txt");
  fs::create_symlink("/dev/null", t.path / "in/it/null.txt");  // a character device
  auto errors_of = [](const std::string& out) {
    std::map<std::string, std::string> why;
    for (const json& e : json_lines(out)) {
      if (e.contains("error")) why[fs::path(e["file"].get<std::string>()).filename()] = e["error"];
    }
    return why;
  };
  auto r = run_cli({"markup", "--out-dir", t / "out", "--jobs", "2", t / "in"});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  auto why = errors_of(r.out);
  REQUIRE(why.size() == 3);
  CHECK(why["pipe.txt"] == "not a regular file: a FIFO (named pipe)");
  CHECK(why["pipe-link.txt"] == "not a regular file: a FIFO (named pipe)");
  CHECK(why["null.txt"] == "not a regular file: a character device");
  CHECK(without_manifest(tree(t.path / "out")).size() == rels.size());
  r = run_cli({"extract", "--jobs", "2", t / "in"});
  CHECK(r.exit_code == 1);
  why = errors_of(r.out);
  REQUIRE(why.size() == 3);
  CHECK(why["pipe.txt"] == "not a regular file: a FIFO (named pipe)");
  CHECK(why["null.txt"] == "not a regular file: a character device");
  CHECK(r.out.find("\"urn\":\"urn:lex:it:") != std::string::npos);  // the other files are read
  // A device named as an argument is read as it is (here: an empty document).
  r = run_cli({"extract", "/dev/null"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
}

TEST_CASE("a full output disk stops the run, and --resume finishes it once there is room",
          "[batch]") {
  // A small tmpfs as the output disk (root only, where mounting is allowed).
  TempDir t;
  const fs::path disk = t.path / "disk";
  fs::create_directories(disk);
  if (::geteuid() != 0 ||
      std::system(
          ("mount -t tmpfs -o size=256k tmpfs '" + disk.string() + "' 2>/dev/null").c_str()) != 0) {
    WARN("not checked: mounting a tmpfs needs root and the right to mount");
    return;
  }
  struct Unmount {
    std::string dir;
    ~Unmount() { (void)std::system(("umount '" + dir + "'").c_str()); }
  } unmount{disk.string()};
  std::vector<std::string> rels;
  for (int copy = 0; copy < 4; ++copy) {  // about 4 MB of outputs
    for (const std::string& rel : make_tree(t.path / "in" / std::to_string(copy))) {
      rels.push_back(std::to_string(copy) + "/" + rel);
    }
  }
  const std::vector<std::string> args = {
      "markup", "--jobs", "1", "--out-dir", (disk / "out").string(), "--resume", t / "in"};
  auto r = run_cli(args);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("No space left on device") != std::string::npos);
  CHECK(r.err.find("stopped after") != std::string::npos);
  // Stopped at the first failure, give or take the files in flight: not one error per file.
  const auto errors = json_lines(r.out);
  CHECK(!errors.empty());
  CHECK(errors.size() <= 5);
  const auto some = tree(disk / "out");
  CHECK(some.size() < rels.size());
  for (const auto& [rel, content] : some) CHECK(rel.find("lexlink-tmp") == std::string::npos);
  // Room made (the disk grown): --resume does the rest, and skips what was done.
  REQUIRE(std::system(("mount -o remount,size=64m '" + disk.string() + "'").c_str()) == 0);
  r = run_cli(args);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(without_manifest(tree(disk / "out")).size() == rels.size());
}

TEST_CASE("markup --resume skips what is done and redoes what changed", "[batch]") {
  TempDir t;
  const auto rels = make_tree(t.path / "in");
  const std::vector<std::string> base = {"markup",   "--out-dir",        t / "out", "--resume",
                                         "--report", t / "report.jsonl", t / "in"};
  auto r = run_cli(base);
  REQUIRE(r.exit_code == 0);
  const auto first = without_manifest(tree(t.path / "out"));
  auto statuses = [&] {
    std::map<std::string, int> n;
    for (const json& j : json_lines(slurp(t.path / "report.jsonl"))) n[j["status"]]++;
    return n;
  };
  CHECK(statuses()["ok"] == static_cast<int>(rels.size()));
  r = run_cli(base);
  REQUIRE(r.exit_code == 0);
  CHECK(statuses()["skipped"] == static_cast<int>(rels.size()));
  CHECK(without_manifest(tree(t.path / "out")) == first);
  // Change one input, delete one output, corrupt another: exactly those are redone.
  spit(t.path / "in/it/26G00001.txt", "Vista la legge 7 agosto 1990, n. 241.\n");
  fs::remove(t.path / "out" / rels[0]);
  spit(t.path / "out" / rels[1], "garbage");
  r = run_cli(base);
  REQUIRE(r.exit_code == 0);
  auto n = statuses();
  CHECK(n["ok"] == 3);
  CHECK(n["skipped"] == static_cast<int>(rels.size()) - 3);
  CHECK(slurp(t.path / "out/it/26G00001.txt")
            .find("href=\"urn:lex:it:stato:legge:1990-08-07;241\"") != std::string::npos);
  CHECK(slurp(t.path / "out" / rels[1]) == first.at(rels[1]));
  // Other options: everything is redone.
  auto other = base;
  other.insert(other.begin() + 1, {"--href", "resolver"});
  r = run_cli(other);
  REQUIRE(r.exit_code == 0);
  CHECK(statuses()["ok"] == static_cast<int>(rels.size()));
}

TEST_CASE("markup --resume redoes a run when the data changes, not when its documentation does",
          "[batch]") {
  TempDir t;
  // A data folder of our own: a copy of the project's grammars and lexicons.
  fs::create_directories(t.path / "data");
  for (const char* sub : {"grammars", "lexicons"}) {
    fs::copy(data_path(sub), t.path / "data" / sub, fs::copy_options::recursive);
  }
  const auto rels = make_tree(t.path / "in");
  const std::vector<std::string> base = {"--data",    t / "data",         "markup",
                                         "--out-dir", t / "out",          "--resume",
                                         "--report",  t / "report.jsonl", t / "in"};
  auto statuses = [&] {
    std::map<std::string, int> n;
    for (const json& j : json_lines(slurp(t.path / "report.jsonl"))) n[j["status"]]++;
    return n;
  };
  const int all = static_cast<int>(rels.size());
  auto r = run_cli(base);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(statuses()["ok"] == all);
  // Documentation, a hidden file and a backup are not data: nothing is redone.
  spit(t.path / "data/grammars/README.md", slurp(t.path / "data/grammars/README.md") + "\nMore.\n");
  spit(t.path / "data/lexicons/it/README.md", "Notes on the Italian lexicons.\n");
  spit(t.path / "data/lexicons/it/.acts.tsv.swp", "swap");
  spit(t.path / "data/lexicons/it/acts.tsv~", "backup");
  spit(t.path / "data/lexicons/.git/HEAD", "ref: refs/heads/main\n");
  r = run_cli(base);
  REQUIRE(r.exit_code == 0);
  CHECK(statuses()["skipped"] == all);
  // A lexicon row is data: everything is redone.
  spit(t.path / "data/lexicons/it/acts.tsv",
       slurp(t.path / "data/lexicons/it/acts.tsv") + "# a comment added\n");
  r = run_cli(base);
  REQUIRE(r.exit_code == 0);
  CHECK(statuses()["ok"] == all);
}

TEST_CASE("markup --in-place replaces the inputs atomically and is idempotent", "[batch]") {
  TempDir t;
  const auto rels = make_tree(t.path / "in");
  TempDir ref;
  make_tree(ref.path / "in");
  REQUIRE(run_cli({"markup", "--out-dir", ref / "out", ref / "in"}).exit_code == 0);
  auto r = run_cli({"markup", "--in-place", "--jobs", "2", t / "in"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto expected = without_manifest(tree(ref.path / "out"));
  CHECK(without_manifest(tree(t.path / "in")) == expected);
  CHECK(fs::exists(t.path / "in/.lexlink-manifest"));
  // Markup is idempotent: running again (with --resume or without) changes nothing.
  r = run_cli({"markup", "--in-place", "--resume", "--report", t / "r.jsonl", t / "in"});
  REQUIRE(r.exit_code == 0);
  for (const json& j : json_lines(slurp(t.path / "r.jsonl"))) CHECK(j["status"] == "skipped");
  r = run_cli({"markup", "--in-place", t / "in"});
  REQUIRE(r.exit_code == 0);
  CHECK(without_manifest(tree(t.path / "in")) == expected);
}

TEST_CASE("markup in place keeps each file's owner, group and permissions", "[batch]") {
  if (::geteuid() != 0) {
    WARN("not checked: giving a file to another user needs root");
    return;
  }
  TempDir t;
  // Another user's file that only its owner and group may read (a web server's, say), a
  // read-only one, and one with the set-group-ID bit.
  struct Case {
    const char* name;
    uid_t uid;
    gid_t gid;
    mode_t mode;
  };
  const Case cases[] = {{"private.html", 65534, 65534, 0640},
                        {"readonly.html", 0, 65534, 0444},
                        {"setgid.html", 65534, 0, 02664}};
  auto make = [](const fs::path& p, const Case& c) {
    spit(p, "<p>Vista la legge 7 agosto 1990, n. 241.</p>\n");
    REQUIRE(::chown(p.c_str(), c.uid, c.gid) == 0);
    REQUIRE(::chmod(p.c_str(), c.mode) == 0);
  };
  auto check = [](const fs::path& p, const Case& c) {
    INFO(p);
    struct stat st {};
    REQUIRE(::stat(p.c_str(), &st) == 0);
    CHECK(st.st_uid == c.uid);
    CHECK(st.st_gid == c.gid);
    CHECK((st.st_mode & 07777) == c.mode);
    CHECK(slurp(p).find("urn:lex:it:stato:legge:1990-08-07;241") != std::string::npos);
  };
  for (const Case& c : cases) make(t.path / "in" / c.name, c);
  auto r = run_cli({"markup", "--in-place", "--jurisdiction", "it", t / "in"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  for (const Case& c : cases) check(t.path / "in" / c.name, c);
  // The one-document form writing over its input does the same.
  for (const Case& c : cases) {
    const fs::path p = t.path / "one" / c.name;
    make(p, c);
    REQUIRE(run_cli({"markup", "--jurisdiction", "it", p, "-o", p}).exit_code == 0);
    check(p, c);
  }
}

TEST_CASE("compressed inputs are read and their outputs compressed the same way", "[batch]") {
  TempDir t;
  const std::string doc =
      slurp(data_path("corpora/it-normattiva-gazzetta-civica/text/26G00001.txt"));
  spit(t.path / "in/plain.txt", doc);
  REQUIRE(run_cli({"markup", "--out-dir", t / "gz", t / "in"}).exit_code == 0);  // reference
  const std::string expected = slurp(t.path / "gz/plain.txt");
  REQUIRE(expected != doc);
  // Make .gz and .zst inputs with lexlink's own writer (the library test checks the codec).
  for (const char* ext : {".gz", ".zst"}) {
    const fs::path p = t.path / "in" / (std::string("doc.txt") + ext);
    int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    REQUIRE(fd >= 0);
    lexlink::io::OutputStream out(fd, lexlink::io::compression_of(p.string()), p.string());
    REQUIRE(out.write(doc));
    REQUIRE(out.finish());
    ::close(fd);
  }
  auto r = run_cli({"markup", "--out-dir", t / "out", t / "in"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  for (const char* ext : {".gz", ".zst"}) {
    const fs::path p = t.path / "out" / (std::string("doc.txt") + ext);
    REQUIRE(fs::exists(p));
    CHECK(slurp(p) != expected);  // compressed
    CHECK(decompress(p) == expected);
  }
  // extract reads them too, with the same citations.
  auto plain = json_lines(run_cli({"extract", t / "in/plain.txt"}).out);
  auto gz = json_lines(run_cli({"extract", t / "in/doc.txt.gz"}).out);
  REQUIRE(plain.size() == gz.size());
  REQUIRE(!plain.empty());
  CHECK(plain[0]["urn"] == gz[0]["urn"]);
  CHECK(plain.back()["end"] == gz.back()["end"]);
}

TEST_CASE("extract over folders and lists: input order, identical whatever the jobs", "[batch]") {
  TempDir t;
  const auto rels = make_tree(t.path / "in");
  spit(t.path / "in/zz/binary.txt", std::string(100, '\0'));
  auto serial = run_cli({"extract", "--jobs", "1", t / "in"});
  auto parallel = run_cli({"extract", "--jobs", "4", t / "in"});
  CHECK(serial.exit_code == 1);  // the binary file
  CHECK(parallel.exit_code == 1);
  CHECK(serial.out == parallel.out);
  const auto lines = json_lines(serial.out);
  REQUIRE(lines.size() > 100);
  CHECK(lines.back()["error"].get<std::string>().find("binary") != std::string::npos);
  // Files in walk order: it/ before uk/ before za/; each file's citations together.
  std::vector<std::string> files;
  for (const json& j : lines) {
    const std::string f = j["file"];
    if (files.empty() || files.back() != f) files.push_back(f);
  }
  CHECK(std::is_sorted(files.begin(), files.end()));
  CHECK(std::set<std::string>(files.begin(), files.end()).size() == files.size());
  // The same files given one by one in a list, on stdin.
  std::string list;
  for (const std::string& rel : rels) list += t / ("in/" + rel) + "\n";
  auto listed = run_cli({"extract", "--files-from", "-"}, list);
  CHECK(listed.exit_code == 0);
  CHECK(listed.out == serial.out.substr(0, serial.out.rfind("{\"file\"")));
}

TEST_CASE("stream: JSON Lines in, the same records out in order, errors per record", "[batch]") {
  const std::string doc =
      slurp(data_path("corpora/it-normattiva-gazzetta-civica/text/26G00001.txt"));
  std::string in;
  const int n = 60;
  for (int i = 0; i < n; ++i) {
    json rec;
    rec["id"] = i % 7 == 3 ? json("doc-" + std::to_string(i)) : json(i);
    if (i % 10 == 5) {
      rec["contents"] = "misspelt";
    } else {
      rec["content"] = i % 2 == 0 ? doc.substr(0, 3000 + 97 * static_cast<std::size_t>(i))
                                  : "<p>Vista la legge 7 agosto 1990, n. 241.</p>";
      rec["format"] = i % 2 == 0 ? "text" : "html";
    }
    in += rec.dump() + "\n";
  }
  in += "{not json\n";
  auto r = run_cli({"stream", "--jobs", "3"}, in);
  INFO(r.err);
  CHECK(r.exit_code == 1);
  const auto out = json_lines(r.out);
  REQUIRE(out.size() == n + 1);
  for (int i = 0; i < n; ++i) {
    INFO(i);
    const json& o = out[static_cast<std::size_t>(i)];
    CHECK(o["id"] == (i % 7 == 3 ? json("doc-" + std::to_string(i)) : json(i)));
    if (i % 10 == 5) {
      CHECK(o.contains("error"));
      continue;
    }
    REQUIRE(o.contains("content"));
    REQUIRE(o["citations"].size() >= 1);
    if (i % 2 == 1) {
      CHECK(o["content"].get<std::string>().find(
                "href=\"urn:lex:it:stato:legge:1990-08-07;241\"") != std::string::npos);
      CHECK(o["citations"][0]["urn"] == "urn:lex:it:stato:legge:1990-08-07;241");
    }
  }
  CHECK(out.back().contains("error"));
  CHECK(out.back()["id"].is_null());
  // The same as one-record runs, and --no-content drops the content only.
  auto serial = run_cli({"stream", "--jobs", "1"}, in);
  CHECK(serial.out == r.out);
  auto bare = json_lines(run_cli({"stream", "--no-content"}, in).out);
  REQUIRE(bare.size() == out.size());
  CHECK_FALSE(bare[1].contains("content"));
  CHECK(bare[1]["citations"] == out[1]["citations"]);
}

TEST_CASE("stream: the command's options are checked, records over --max-size say so", "[batch]") {
  const std::string in = "{\"id\": 1, \"content\": \"Vista la legge 7 agosto 1990, n. 241.\"}\n";
  auto bad_self = run_cli({"stream", "--self", "not a name"}, in);
  CHECK(bad_self.exit_code == 2);
  CHECK(bad_self.err.find("--self") != std::string::npos);
  CHECK(bad_self.out.empty());
  auto small = run_cli({"stream", "--max-size", "10"}, in);
  CHECK(small.exit_code == 1);
  const auto out = json_lines(small.out);
  REQUIRE(out.size() == 1);
  CHECK(out[0]["id"] == 1);
  CHECK(out[0]["error"] == "line 1: too large: 37 bytes, over --max-size 10");
}

// A client that sends one record and waits for its answer before the next one (an editor's
// plugin, a service) over pipes that stay open: each answer must come without the next record
// or the end of the input.
TEST_CASE("stream: each record is answered while the input stays open", "[batch]") {
  int to_child[2], from_child[2];
  REQUIRE(pipe(to_child) == 0);
  REQUIRE(pipe(from_child) == 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
  posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) {
    posix_spawn_file_actions_addclose(&actions, fd);
  }
  std::vector<std::string> args{LEXLINK_CLI, "stream", "--jobs", "2"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, LEXLINK_CLI, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(to_child[0]);
  close(from_child[1]);
  REQUIRE(rc == 0);
  // The next line of the answers, or "" after 60 s without one (the child is then killed).
  std::string pending;
  auto next_line = [&]() -> std::string {
    for (;;) {
      if (const auto nl = pending.find('\n'); nl != std::string::npos) {
        std::string line = pending.substr(0, nl);
        pending.erase(0, nl + 1);
        return line;
      }
      pollfd p{from_child[0], POLLIN, 0};
      if (poll(&p, 1, 60000) != 1) return "";
      char buf[4096];
      const ssize_t got = read(from_child[0], buf, sizeof buf);
      if (got <= 0) return "";
      pending.append(buf, static_cast<std::size_t>(got));
    }
  };
  auto send = [&](const json& rec) {
    const std::string line = rec.dump() + "\n";
    REQUIRE(write(to_child[1], line.data(), line.size()) == static_cast<ssize_t>(line.size()));
  };
  send({{"id", 1}, {"content", "ai sensi della legge 3 aprile 2000, n. 56"}});
  const std::string first = next_line();
  send({{"id", 2}, {"content", "Vista la legge 7 agosto 1990, n. 241."}, {"format", "text"}});
  const std::string second = next_line();
  close(to_child[1]);
  if (first.empty() || second.empty()) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  close(from_child[0]);
  REQUIRE_FALSE(first.empty());
  CHECK(json::parse(first)["id"] == 1);
  CHECK(json::parse(first)["citations"][0]["urn"] == "urn:lex:it:stato:legge:2000-04-03;56");
  REQUIRE_FALSE(second.empty());
  CHECK(json::parse(second)["id"] == 2);
  CHECK(json::parse(second)["citations"][0]["urn"] == "urn:lex:it:stato:legge:1990-08-07;241");
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(pending.empty());
}

TEST_CASE(
    "progress json: progress lines and a final summary on stderr, a summary line "
    "without a terminal, nothing with --quiet",
    "[batch]") {
  TempDir t;
  const auto rels = make_tree(t.path / "in");
  auto r = run_cli({"markup", "--out-dir", t / "out", "--progress", "json", t / "in"});
  REQUIRE(r.exit_code == 0);
  const auto lines = json_lines(r.err);
  REQUIRE(!lines.empty());
  const json& last = lines.back();
  CHECK(last["event"] == "summary");
  CHECK(last["command"] == "markup");
  CHECK(last["files_done"] == rels.size());
  CHECK(last["files_total"] == rels.size());
  CHECK(last["errors"] == 0);
  CHECK(last["bytes"].get<std::uint64_t>() > 100000);
  for (const json& j : lines) CHECK((j["event"] == "progress" || j["event"] == "summary"));
  // Not a terminal and no --progress (a cron log): one summary line at the end.
  r = run_cli({"markup", "--out-dir", t / "out2", t / "in"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.rfind(
            "lexlink markup: " + std::to_string(rels.size()) + " files (0 skipped, 0 failed), ",
            0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  // --quiet: nothing, not even with --progress json; --stats is still written.
  r = run_cli({"markup", "--out-dir", t / "out3", "--quiet", "--progress", "json", "--stats",
               t / "stats.json", t / "in"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(json::parse(slurp(t.path / "stats.json"))["files_done"] == rels.size());
  // extract: a summary line with more than one input, none with one.
  const std::string first = (t.path / "in" / rels[0]).string();
  const std::string second = (t.path / "in" / rels[1]).string();
  CHECK(run_cli({"extract", "--jurisdiction", "it", first, second})
            .err.rfind("lexlink extract: 2 files", 0) == 0);
  CHECK(run_cli({"extract", "--jurisdiction", "it", "--quiet", first, second}).err.empty());
  CHECK(run_cli({"extract", "--jurisdiction", "it", first}).err.empty());
}

TEST_CASE(
    "the batch report says why citations were not linked, by reason, as markup's own "
    "report does for the same file",
    "[batch]") {
  TempDir t;
  const auto rels = make_tree(t.path / "in");
  auto r = run_cli({"markup", "--jurisdiction", "auto", "--out-dir", t / "out", "--report",
                    t / "report.jsonl", t / "in"});
  REQUIRE(r.exit_code == 0);
  std::size_t with_unlinked = 0;
  for (const json& line : json_lines(slurp(t.path / "report.jsonl"))) {
    INFO(line.dump());
    REQUIRE(line.contains("unlinked"));
    std::uint64_t sum = 0;
    for (const auto& [reason, count] : line["unlinked"].items()) sum += count.get<std::uint64_t>();
    CHECK(sum + line["linked"].get<std::uint64_t>() == line["citations"].get<std::uint64_t>());
    if (sum == 0) continue;
    ++with_unlinked;
    // The single-file report of the same input gives the same reasons.
    auto one = run_cli({"markup", "--jurisdiction", "auto", "--report", t / "one.jsonl",
                        line["file"].get<std::string>()});
    REQUIRE(one.exit_code == 0);
    std::map<std::string, std::uint64_t> reasons;
    for (const json& o : json_lines(slurp(t.path / "one.jsonl"))) {
      if (!o.value("linked", true)) ++reasons[o["reason"].get<std::string>()];
    }
    CHECK(json(reasons) == line["unlinked"]);
  }
  CHECK(with_unlinked > 0);  // the CLML documents carry links of their own (existing_link)
}

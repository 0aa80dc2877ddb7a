// scan/trigger_scanner: finds where triggers (words that open a reading window) start.
//
// A trigger is a literal: one word or a compact phrase ("legge", "lgs", "d.p.r.", "§"), matched
// in either case, given as tokens. Its regex (trigger_regex()) is in the subset Hyperscan and RE2
// both accept and has a fixed length in bytes, so a match's start is its end minus that length
// (no start-of-match tracking, which costs Hyperscan a factor of three). find_starts() reports
// every offset where a trigger matches on token boundaries on both sides. Two engines give the
// same answer:
// - Hyperscan (block mode), the fast path; its compiled database is cached on disk, keyed by a
//   hash of the data, so start-up with a warm cache is cheap;
// - RE2 at every token start (RE2::Set anchored there), the slow reference path.
// Only this module includes <hs.h>. A compiled scanner is immutable and shared by threads; each
// thread brings its own Scratch.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace lexlink::scan {

enum class Engine : std::uint8_t { kHyperscan, kRe2 };

struct TriggerOptions {
  Engine engine = Engine::kHyperscan;
  std::string cache_dir;        // where compiled databases are kept; empty: no cache
  std::uint64_t data_hash = 0;  // identifies the data the triggers come from
};

// The regex of one trigger, given as tokens written together ("d", ".", "p", "."): a letter
// matches both its cases. Nonzero `length` receives the match's length in bytes (or 0 when the
// cases of some letter differ in length; such a trigger is refused).
std::string trigger_regex(const std::vector<std::string>& tokens, std::size_t* length = nullptr);

class TriggerScanner {
 public:
  class Scratch;

  // One trigger per entry: a phrase as folded tokens ("d", ".", "lgs", "."). `groups`, when
  // given, puts each trigger in a group (count_starts() counts per group); the default is one
  // group.
  static Result<std::shared_ptr<const TriggerScanner>> compile(
      const std::vector<std::vector<std::string>>& triggers, const TriggerOptions& options,
      const std::vector<std::uint32_t>& groups = {});
  ~TriggerScanner();

  std::unique_ptr<Scratch> make_scratch() const;

  // Appends the sorted, unique start offsets of triggers in `text` to `starts`: those in
  // [from, to) (the text around that range is only context).
  Status find_starts(std::string_view text, Scratch& scratch, std::vector<std::uint32_t>& starts,
                     std::size_t from = 0, std::size_t to = std::string_view::npos) const;

  // The starts that decide the windows [start - back, start + forward) the extractor reads,
  // each clipped to its block (blocks begin at the sorted offsets `breaks`): find_starts() less
  // starts whose windows those of the kept ones cover, namely a start
  // - between two kept ones at most back + forward bytes apart in its block (the windows of the
  //   two merge and cover it), or
  // - after a kept one in its block whose window reaches the block's end, or
  // - before a kept one at most `back` bytes into its block (whose window reaches the block's
  //   start).
  // So the kept starts open the same windows as all of them, and the text between such kept
  // starts is not scanned: in legal text, where a trigger comes every hundred bytes or so, most
  // of it; in a short block (an HTML paragraph), what follows its first start. Sorted and
  // unique, appended to `starts`.
  Status find_window_starts(std::string_view text, std::size_t back, std::size_t forward,
                            const std::vector<std::uint64_t>& breaks, Scratch& scratch,
                            std::vector<std::uint32_t>& starts) const;

  // For each group, how many unique start offsets its triggers have in `text`: what
  // find_starts() would report for a scanner of that group's triggers alone. One scan for all
  // groups (choosing a grammar per document scans once, not once per grammar).
  Status count_starts(std::string_view text, Scratch& scratch,
                      std::vector<std::size_t>& counts) const;

  Engine engine() const { return engine_; }
  bool loaded_from_cache() const { return from_cache_; }

 private:
  TriggerScanner() = default;
  Status collect(std::string_view text, Scratch& scratch) const;
  // The trigger starts in [from, to) of `text` (a trigger starting before `to` is read whole):
  // every one appended to scratch.hits, unsorted and possibly more than once, or with `first` at
  // most one (the scan stops at the first it finds, not necessarily the leftmost).
  Status scan_range(std::string_view text, std::size_t from, std::size_t to, bool first,
                    Scratch& scratch) const;
  struct Hs;
  struct Re2;
  Engine engine_ = Engine::kHyperscan;
  bool from_cache_ = false;
  std::unique_ptr<Hs> hs_;
  std::unique_ptr<Re2> re2_;
  std::vector<std::uint32_t> groups_;  // per trigger; empty: one group
  std::size_t group_count_ = 1;
  std::size_t longest_ = 0;  // the longest trigger, in bytes
};

class TriggerScanner::Scratch {
 public:
  ~Scratch();
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

 private:
  friend class TriggerScanner;
  Scratch() = default;
  void* hs_scratch = nullptr;
  std::vector<std::uint32_t> hits;
  std::vector<std::uint64_t> keyed_hits;  // count_starts(): offset << 32 | group
};

}  // namespace lexlink::scan

#include "scan/trigger_scanner.h"

#include <hs/hs.h>
#include <re2/re2.h>
#include <re2/set.h>
#include <unicode/uchar.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "common/tsv.h"
#include "common/utf8.h"
#include "lexicon/tokenizer.h"

namespace lexlink::scan {
namespace {

void append_cp(std::string& out, char32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\x{%x}", static_cast<unsigned>(cp));
  out += buf;
}

enum class Kind : std::uint8_t { kWord, kNumber, kPunct };

Kind kind_of(const std::string& token) {
  std::size_t len;
  const char32_t cp = utf8::decode(token, 0, len);
  if (cp >= '0' && cp <= '9') return Kind::kNumber;
  return lexicon::is_word_char(cp) ? Kind::kWord : Kind::kPunct;
}

// Per pattern: what must not touch the match on either side.
struct Edges {
  Kind first = Kind::kPunct;
  Kind last = Kind::kPunct;
};

Edges edges_of(const std::vector<std::string>& tokens) {
  return Edges{kind_of(tokens.front()), kind_of(tokens.back())};
}

bool is_digit(char32_t cp) {
  return cp >= '0' && cp <= '9';
}

// The code point ending just before `pos` (kInvalid at the start).
char32_t cp_before(std::string_view text, std::size_t pos) {
  if (pos == 0) return utf8::kInvalid;
  std::size_t k = pos - 1;
  while (k > 0 && pos - k < 4 && (static_cast<unsigned char>(text[k]) & 0xC0) == 0x80) --k;
  std::size_t len;
  return utf8::decode(text, k, len);
}

char32_t cp_at(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return utf8::kInvalid;
  std::size_t len;
  return utf8::decode(text, pos, len);
}

// The same check for both engines: a match must start and end on token boundaries.
bool on_boundaries_slow(std::string_view text, std::size_t from, std::size_t to, const Edges& e) {
  const char32_t before = cp_before(text, from);
  if (before != utf8::kInvalid) {
    if (e.first == Kind::kWord && lexicon::is_word_char(before) && !is_digit(before)) return false;
    if (e.first == Kind::kNumber && is_digit(before)) return false;
  }
  const char32_t after = cp_at(text, to);
  if (after != utf8::kInvalid) {
    if (e.last == Kind::kWord && lexicon::is_word_char(after) && !is_digit(after)) return false;
    if (e.last == Kind::kNumber && is_digit(after)) return false;
  }
  return true;
}

// Whether the byte `b` next to a match (an ASCII one) keeps an edge of kind `k` from being a
// token boundary.
inline bool ascii_joins(Kind k, unsigned char b) {
  if (k == Kind::kWord) return static_cast<unsigned char>((b | 0x20) - 'a') < 26;
  return k == Kind::kNumber && static_cast<unsigned char>(b - '0') < 10;
}

// on_boundaries_slow(), with an ASCII neighbour (the common case) judged from its byte.
inline bool on_boundaries(std::string_view text, std::size_t from, std::size_t to, const Edges& e) {
  if (from > 0 && e.first != Kind::kPunct) {
    const auto b = static_cast<unsigned char>(text[from - 1]);
    if (b < 0x80 ? ascii_joins(e.first, b)
                 : !on_boundaries_slow(text, from, from, Edges{e.first, Kind::kPunct})) {
      return false;
    }
  }
  if (to < text.size() && e.last != Kind::kPunct) {
    const auto b = static_cast<unsigned char>(text[to]);
    if (b < 0x80 ? ascii_joins(e.last, b)
                 : !on_boundaries_slow(text, to, to, Edges{Kind::kPunct, e.last})) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string trigger_regex(const std::vector<std::string>& tokens, std::size_t* length) {
  std::string out;
  std::size_t bytes = 0;
  bool fixed = true;
  for (const std::string& tok : tokens) {
    std::size_t i = 0;
    while (i < tok.size()) {
      std::size_t len;
      const char32_t cp = utf8::decode(tok, i, len);
      i += len;
      if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z')) {
        // Both cases as a class (no engine flag: both engines then agree to the byte, and
        // Hyperscan still sees a case-insensitive literal).
        out += '[';
        out += static_cast<char>(cp | 0x20);
        out += static_cast<char>(cp & ~0x20u);
        out += ']';
        bytes += 1;
      } else if (cp >= 0x80 && lexicon::is_word_char(cp)) {
        const auto lower = static_cast<char32_t>(u_tolower(static_cast<UChar32>(cp)));
        const auto upper = static_cast<char32_t>(u_toupper(static_cast<UChar32>(cp)));
        std::string a, b;
        utf8::append(a, lower);
        utf8::append(b, upper);
        out += '[';
        append_cp(out, lower);
        if (upper != lower && a.size() == b.size()) append_cp(out, upper);
        out += ']';
        bytes += a.size();
      } else {
        append_cp(out, cp);
        bytes += len;
      }
    }
  }
  if (length != nullptr) *length = fixed ? bytes : 0;
  return out;
}

// What the match callback needs of one pattern, in one place.
struct HsPattern {
  std::uint32_t length = 0;
  std::uint32_t group = 0;
  Edges edges;
};

struct TriggerScanner::Hs {
  hs_database_t* db = nullptr;
  // A scratch never scanned with, cloned for each Scratch: a clone is a copy, where allocating
  // one sizes it from the database anew (about 57,000 instructions, once per document).
  hs_scratch_t* prototype = nullptr;
  std::vector<HsPattern> patterns;  // by pattern id
  ~Hs() {
    if (prototype != nullptr) hs_free_scratch(prototype);
    if (db != nullptr) hs_free_database(db);
  }
};

struct TriggerScanner::Re2 {
  std::unique_ptr<re2::RE2::Set> set;
  std::vector<Edges> edges;
  std::vector<std::size_t> lengths;
  // Calls on_match(p, i) for every trigger i that matches on token boundaries at a character
  // start p in [from, to) of `text`, p ascending; on_match returns false to stop.
  template <class OnMatch>
  void matches(std::string_view text, std::size_t from, std::size_t to, OnMatch&& on_match) const {
    std::vector<int> matched;
    for (std::size_t p = from; p < to; ++p) {
      if ((static_cast<unsigned char>(text[p]) & 0xC0) == 0x80) continue;  // inside a char
      const re2::StringPiece rest(text.data() + p, text.size() - p);
      matched.clear();
      if (!set->Match(rest, &matched)) continue;
      for (int id : matched) {
        const auto i = static_cast<std::size_t>(id);
        if (!on_boundaries(text, p, p + lengths[i], edges[i])) continue;
        if (!on_match(p, i)) return;
      }
    }
  }
};

TriggerScanner::~TriggerScanner() = default;

TriggerScanner::Scratch::~Scratch() {
  if (hs_scratch != nullptr) hs_free_scratch(static_cast<hs_scratch_t*>(hs_scratch));
}

namespace {

// The cache file of a database: keyed by the data hash and by the patterns themselves (their
// text, flags and order), so a change in how triggers are generated never reuses a stale one.
std::string cache_path(const TriggerOptions& o, const std::vector<std::string>& regexes) {
  std::uint64_t h = 14695981039346656037ull ^ o.data_hash;
  for (const std::string& r : regexes) {
    for (char c : r) {
      h ^= static_cast<unsigned char>(c);
      h *= 1099511628211ull;
    }
    h ^= 0xFF;
    h *= 1099511628211ull;
  }
  char name[96];
  std::snprintf(name, sizeof name, "triggers-%016llx-%zu-hs%s.db",
                static_cast<unsigned long long>(h), regexes.size(), hs_version());
  std::string n = name;
  for (char& c : n) {
    if (c == ' ') c = '_';
  }
  return (std::filesystem::path(o.cache_dir) / n).string();
}

Error hs_error(const std::string& what, hs_error_t code) {
  return make_error(ErrorCode::kInternal,
                    what + " failed (Hyperscan error " + std::to_string(code) + ")");
}

struct HsContext {
  std::string_view text;  // the whole text: a match's neighbours are read there
  const HsPattern* patterns = nullptr;
  std::size_t pattern_count = 0;
  std::size_t base = 0;                              // where the scanned block starts in `text`
  std::size_t limit = 0;                             // starts at or after it are not reported
  bool first = false;                                // stop at the first start reported
  bool stopped = false;                              // ... and the scan did
  std::vector<std::uint32_t>* hits = nullptr;        // scan_range(): starts
  std::vector<std::uint64_t>* keyed_hits = nullptr;  // count_starts(): start << 32 | group
};

int on_match(unsigned int id, unsigned long long, unsigned long long end, unsigned int, void* ctx) {
  auto* c = static_cast<HsContext*>(ctx);
  if (id >= c->pattern_count) return 1;  // not our database: stop
  const HsPattern& p = c->patterns[id];
  if (end < p.length) return 1;
  const std::size_t to = c->base + end, from = to - p.length;
  if (from >= c->limit || !on_boundaries(c->text, from, to, p.edges)) return 0;
  if (c->keyed_hits != nullptr) {
    c->keyed_hits->push_back(std::uint64_t{from} << 32 | p.group);
  } else {
    c->hits->push_back(static_cast<std::uint32_t>(from));
  }
  if (!c->first) return 0;
  c->stopped = true;
  return 1;
}

// Sorts and deduplicates values that come nearly in order: starts (Hyperscan reports by end
// offset, so a start is out of order only among the triggers that overlap it), or start << 32 |
// group keys. Insertion sort, linear in the values and their few inversions; std::sort when
// there are many.
template <class T>
void sort_starts(std::vector<T>& h) {
  const std::size_t budget = 8 * h.size() + 64;  // element moves before giving up
  std::size_t moves = 0;
  for (std::size_t i = 1; i < h.size(); ++i) {
    const T v = h[i];
    std::size_t j = i;
    for (; j > 0 && h[j - 1] > v; --j) h[j] = h[j - 1];
    h[j] = v;
    moves += i - j;
    if (moves > budget) {
      std::sort(h.begin(), h.end());
      break;
    }
  }
  h.erase(std::unique(h.begin(), h.end()), h.end());
}

// Scans text[ctx.base, end) with `db`: a scan the callback stopped is an error unless it stopped
// at the start it was asked for.
Status run_hs(const hs_database_t* db, void* scratch, std::size_t end, HsContext& ctx) {
  if (scratch == nullptr) {
    return make_error(ErrorCode::kInternal, "Hyperscan scratch could not be allocated");
  }
  const hs_error_t rc =
      hs_scan(db, ctx.text.data() + ctx.base, static_cast<unsigned>(end - ctx.base), 0,
              static_cast<hs_scratch_t*>(scratch), on_match, &ctx);
  if (rc == HS_SCAN_TERMINATED && !ctx.stopped) {
    return make_error(ErrorCode::kInternal,
                      "the trigger database does not match its patterns (remove the cache)");
  }
  if (rc != HS_SUCCESS && rc != HS_SCAN_TERMINATED) return hs_error("hs_scan", rc);
  return Status::Ok();
}

Error too_large() {
  return make_error(ErrorCode::kLimitExceeded, "text chunk of 4 GB or more");
}

}  // namespace

Result<std::shared_ptr<const TriggerScanner>> TriggerScanner::compile(
    const std::vector<std::vector<std::string>>& triggers, const TriggerOptions& options,
    const std::vector<std::uint32_t>& groups) {
  if (triggers.empty()) return make_error(ErrorCode::kDataError, "no trigger phrases");
  if (!groups.empty() && groups.size() != triggers.size()) {
    return make_error(ErrorCode::kInvalidArgument, "one group per trigger");
  }
  std::shared_ptr<TriggerScanner> s(new TriggerScanner());
  s->engine_ = options.engine;
  s->groups_ = groups;
  for (std::uint32_t g : groups) s->group_count_ = std::max<std::size_t>(s->group_count_, g + 1);
  std::vector<std::string> regexes;
  std::vector<Edges> edges;
  std::vector<std::size_t> lengths;
  for (const auto& t : triggers) {
    if (t.empty()) return make_error(ErrorCode::kDataError, "empty trigger phrase");
    std::size_t length = 0;
    regexes.push_back(trigger_regex(t, &length));
    if (length == 0) return make_error(ErrorCode::kDataError, "a trigger of no fixed length");
    edges.push_back(edges_of(t));
    lengths.push_back(length);
    s->longest_ = std::max(s->longest_, length);
  }
  if (options.engine == Engine::kRe2) {
    auto r = std::make_unique<Re2>();
    re2::RE2::Options o;
    o.set_log_errors(false);
    r->set = std::make_unique<re2::RE2::Set>(o, re2::RE2::ANCHOR_START);
    for (const std::string& rx : regexes) {
      std::string err;
      if (r->set->Add(rx, &err) < 0) {
        return make_error(ErrorCode::kInternal, "trigger regex rejected by RE2: " + err);
      }
    }
    if (!r->set->Compile()) return make_error(ErrorCode::kInternal, "RE2::Set compile failed");
    r->edges = std::move(edges);
    r->lengths = std::move(lengths);
    s->re2_ = std::move(r);
    return std::shared_ptr<const TriggerScanner>(std::move(s));
  }

  auto hs = std::make_unique<Hs>();
  for (std::size_t i = 0; i < regexes.size(); ++i) {
    hs->patterns.push_back(HsPattern{static_cast<std::uint32_t>(lengths[i]),
                                     groups.empty() ? 0 : groups[i], edges[i]});
  }
  // A cached database, if its data hash matches.
  if (!options.cache_dir.empty()) {
    std::string bytes;
    if (read_file(cache_path(options, regexes), bytes) &&
        hs_deserialize_database(bytes.data(), bytes.size(), &hs->db) == HS_SUCCESS) {
      s->from_cache_ = true;  // the file name holds the patterns' hash and count
    } else {
      hs->db = nullptr;
    }
  }
  if (hs->db == nullptr) {
    std::vector<const char*> exprs;
    std::vector<unsigned> flags, ids;
    for (std::size_t i = 0; i < regexes.size(); ++i) {
      exprs.push_back(regexes[i].c_str());
      flags.push_back(HS_FLAG_UTF8);
      ids.push_back(static_cast<unsigned>(i));
    }
    hs_compile_error_t* err = nullptr;
    if (hs_compile_multi(exprs.data(), flags.data(), ids.data(),
                         static_cast<unsigned>(exprs.size()), HS_MODE_BLOCK, nullptr, &hs->db,
                         &err) != HS_SUCCESS) {
      std::string msg = err != nullptr && err->message != nullptr ? err->message : "?";
      const int at = err != nullptr ? err->expression : -1;
      hs_free_compile_error(err);
      return make_error(ErrorCode::kInternal,
                        "Hyperscan rejected trigger " + std::to_string(at) + ": " + msg +
                            (at >= 0 ? " (" + regexes[static_cast<std::size_t>(at)] + ")" : ""));
    }
    if (!options.cache_dir.empty()) {
      // Best effort: a cache that cannot be written only costs start-up time.
      char* bytes = nullptr;
      std::size_t length = 0;
      if (hs_serialize_database(hs->db, &bytes, &length) == HS_SUCCESS) {
        std::error_code ec;
        std::filesystem::create_directories(options.cache_dir, ec);
        const std::string path = cache_path(options, regexes);
        const std::string tmp =
            path + ".tmp" + std::to_string(reinterpret_cast<std::uintptr_t>(bytes));
        if (std::FILE* f = std::fopen(tmp.c_str(), "wb")) {
          const bool ok = std::fwrite(bytes, 1, length, f) == length;
          if (std::fclose(f) == 0 && ok) {
            std::filesystem::rename(tmp, path, ec);
          }
          std::filesystem::remove(tmp, ec);
        }
        std::free(bytes);
      }
    }
  }
  if (hs_alloc_scratch(hs->db, &hs->prototype) != HS_SUCCESS) hs->prototype = nullptr;
  s->hs_ = std::move(hs);
  return std::shared_ptr<const TriggerScanner>(std::move(s));
}

std::unique_ptr<TriggerScanner::Scratch> TriggerScanner::make_scratch() const {
  std::unique_ptr<Scratch> scratch(new Scratch());
  if (hs_ != nullptr) {
    hs_scratch_t* sc = nullptr;
    if (hs_->prototype != nullptr ? hs_clone_scratch(hs_->prototype, &sc) == HS_SUCCESS
                                  : hs_alloc_scratch(hs_->db, &sc) == HS_SUCCESS) {
      scratch->hs_scratch = sc;
    }
  }
  return scratch;
}

// Every trigger match on token boundaries in `text`: its start << 32 | group into
// scratch.keyed_hits (cleared first).
Status TriggerScanner::collect(std::string_view text, Scratch& scratch) const {
  scratch.keyed_hits.clear();
  if (text.size() >= 0xFFFFFFFFu) return too_large();
  if (hs_ != nullptr) {
    HsContext ctx{.text = text,
                  .patterns = hs_->patterns.data(),
                  .pattern_count = hs_->patterns.size(),
                  .limit = text.size(),
                  .keyed_hits = &scratch.keyed_hits};
    return run_hs(hs_->db, scratch.hs_scratch, text.size(), ctx);
  }
  re2_->matches(text, 0, text.size(), [&](std::size_t p, std::size_t i) {
    const std::uint64_t group = groups_.empty() ? 0 : groups_[i];
    scratch.keyed_hits.push_back(std::uint64_t{p} << 32 | group);
    return true;
  });
  return Status::Ok();
}

Status TriggerScanner::scan_range(std::string_view text, std::size_t from, std::size_t to,
                                  bool first, Scratch& scratch) const {
  const std::size_t n = text.size();
  auto inside_char = [&](std::size_t k) {
    return k < n && (static_cast<unsigned char>(text[k]) & 0xC0) == 0x80;
  };
  while (inside_char(from)) ++from;  // a trigger starts on a character
  to = std::min(to, n);
  if (from >= to) return Status::Ok();
  if (hs_ != nullptr) {
    // The block reaches the end of the longest trigger that starts before `to`.
    std::size_t end = std::min(n, to + longest_);
    while (inside_char(end)) ++end;
    HsContext ctx{.text = text,
                  .patterns = hs_->patterns.data(),
                  .pattern_count = hs_->patterns.size(),
                  .base = from,
                  .limit = to,
                  .first = first,
                  .hits = &scratch.hits};
    return run_hs(hs_->db, scratch.hs_scratch, end, ctx);
  }
  re2_->matches(text, from, to, [&](std::size_t p, std::size_t) {
    scratch.hits.push_back(static_cast<std::uint32_t>(p));  // repeats are removed by the callers
    return !first;
  });
  return Status::Ok();
}

Status TriggerScanner::find_starts(std::string_view text, Scratch& scratch,
                                   std::vector<std::uint32_t>& starts, std::size_t from,
                                   std::size_t to) const {
  if (text.size() >= 0xFFFFFFFFu) return too_large();
  scratch.hits.clear();
  if (Status s = scan_range(text, from, std::min(to, text.size()), false, scratch); !s) return s;
  sort_starts(scratch.hits);
  starts.insert(starts.end(), scratch.hits.begin(), scratch.hits.end());
  return Status::Ok();
}

Status TriggerScanner::find_window_starts(std::string_view text, std::size_t back,
                                          std::size_t forward,
                                          const std::vector<std::uint64_t>& breaks,
                                          Scratch& scratch,
                                          std::vector<std::uint32_t>& starts) const {
  const std::size_t n = text.size();
  if (n >= 0xFFFFFFFFu) return too_large();
  const std::size_t reach = std::max<std::size_t>(back + forward, 1);
  // Blocks shorter than the reach (HTML paragraphs, list items): one of kOwnScan bytes or more
  // is scanned alone, up to the first start found; shorter ones are read whole, with those that
  // follow up to the next such block (at most kShortRead bytes), so that a scan's fixed cost
  // (about 500 instructions) is spread over more than a few bytes.
  constexpr std::size_t kShortRead = 4096;
  constexpr std::size_t kOwnScan = 150;
  std::vector<std::uint32_t>& h = scratch.hits;
  // Every start before `next` is kept or need not be; `last` is the last start kept.
  std::size_t next = 0, last = 0;
  bool have_last = false;
  auto keep_all = [&](std::size_t from, std::size_t to) -> Status {
    h.clear();
    if (Status s = scan_range(text, from, to, false, scratch); !s) return s;
    sort_starts(h);
    starts.insert(starts.end(), h.begin(), h.end());
    if (!h.empty()) {
      last = h.back();
      have_last = true;
    }
    return Status::Ok();
  };
  auto brk = breaks.begin();  // the first break after `next`
  while (next < n) {
    while (brk != breaks.end() && *brk <= next) ++brk;
    const std::size_t block_end =
        brk == breaks.end() ? n : static_cast<std::size_t>(std::min<std::uint64_t>(*brk, n));
    const std::size_t block_begin =
        brk == breaks.begin() ? 0 : static_cast<std::size_t>(*(brk - 1));
    if (!have_last || last < block_begin || last + reach < next) {
      if (block_end - next < reach && block_end - block_begin >= kOwnScan) {
        // The rest of the block is short. A start there at most `back` bytes into the block
        // (or at `next`) has a window reaching as far back as that of any start before it in
        // the block, so the first one any scan finds stands for those before it; those after
        // it are judged below, as after any kept start. Hyperscan's first report need not be
        // the leftmost start: when it lies further in, every start up to it is kept.
        h.clear();
        if (Status s = scan_range(text, next, block_end, true, scratch); !s) return s;
        if (h.empty()) {
          next = block_end;
          continue;
        }
        const std::size_t first = h.front();
        if (first == next || first <= block_begin + back) {
          starts.push_back(h.front());
          last = first;
          have_last = true;
          next = first + 1;
          continue;
        }
        if (Status s = keep_all(next, first + 1); !s) return s;
        next = first + 1;
        continue;
      }
      // No kept start in this block whose window the next ones could merge with: the next
      // stretch is read whole.
      std::size_t to = std::min(n, next + reach);
      if (block_end - next < reach) {
        to = block_end;
        for (auto b = brk; b != breaks.end() && *b < n && *b - next < kShortRead; ++b) {
          const std::size_t e = b + 1 == breaks.end() ? n : static_cast<std::size_t>(*(b + 1));
          if (e - *b >= kOwnScan || e - next > kShortRead) break;
          to = std::min(e, n);
        }
      }
      if (Status s = keep_all(next, to); !s) return s;
      next = to;
      continue;
    }
    if (last + forward >= block_end) {
      // The window of `last` reaches the end of its block, and so covers the window of every
      // start after it there.
      next = block_end;
      continue;
    }
    // A start after `last` in its block and within its reach merges its window with that of
    // `last`: one found in the second half of the reach, by a scan that stops at the first it
    // finds, leaves the starts between the two unread.
    const std::size_t end = std::min(block_end, last + reach + 1);
    const std::size_t probe = std::min(end, std::max(next, last + reach / 2));
    h.clear();
    if (probe < end) {
      if (Status s = scan_range(text, probe, end, true, scratch); !s) return s;
    }
    if (!h.empty()) {
      starts.push_back(h.front());
      last = h.front();
      next = last + 1;
      continue;
    }
    // None there: every start before the probe is kept.
    if (Status s = keep_all(next, probe); !s) return s;
    next = end;
  }
  return Status::Ok();
}

Status TriggerScanner::count_starts(std::string_view text, Scratch& scratch,
                                    std::vector<std::size_t>& counts) const {
  counts.assign(group_count_, 0);
  if (Status s = collect(text, scratch); !s) return s;
  std::vector<std::uint64_t>& keyed = scratch.keyed_hits;
  sort_starts(keyed);  // one count per group and start, however many triggers start there
  for (std::uint64_t k : keyed) ++counts[static_cast<std::size_t>(k & 0xFFFFFFFFu)];
  return Status::Ok();
}

}  // namespace lexlink::scan

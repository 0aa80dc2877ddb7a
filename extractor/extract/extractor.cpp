#include "extract/extractor.h"

#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <utility>

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "common/utf8.h"
#include "extract/captures.h"
#include "extract/reading_windows.h"
#include "extract/symbol_dfa.h"
#include "extract/symbol_matcher.h"
#include "extract/symbol_options.h"
#include "extract/template_renderer.h"
#include "extract/unit_builder.h"
#include "extract/units.h"
#include "grammar/grammar.h"
#include "lexicon/tokenizer.h"
#include "text/unit_count.h"
#include "text/view_builder.h"
#include "urn/urn.h"

namespace lexlink::extract {
namespace {

using grammar::Rule;

// The rule regexes as written have named groups; the combined and set programs do not need
// them: "(?P<x>" becomes "(?:".
std::string without_captures(const std::string& regex) {
  std::string out;
  out.reserve(regex.size());
  for (std::size_t i = 0; i < regex.size(); ++i) {
    if (regex[i] == '(' && regex.compare(i, 4, "(?P<") == 0) {
      const std::size_t close = regex.find('>', i);
      out += "(?:";
      i = close;
      continue;
    }
    if (regex[i] == '\\' && i + 1 < regex.size()) {  // copy escapes whole
      out += regex[i];
      out += regex[++i];
      continue;
    }
    out += regex[i];
  }
  return out;
}

std::string default_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != 0) {
    return std::string(x) + "/lexlink";
  }
  if (const char* h = std::getenv("HOME"); h != nullptr && *h != 0) {
    return std::string(h) + "/.cache/lexlink";
  }
  return {};
}

struct Act {
  std::string work;  // the work name
  std::string measure_type;
  std::string year;
};

// The last 64 acts cited, oldest first: a ring of pointers to acts kept elsewhere (the
// session's parsed names), so that citing one copies no string. pin() copies them into the
// ring itself before what they point to goes; a copy of the ring points to its own copies.
class ActHistory {
 public:
  static constexpr std::size_t kSize = 64;
  ActHistory() = default;
  ActHistory(const ActHistory& other) { *this = other; }
  ActHistory& operator=(const ActHistory& other) {
    if (this == &other) return *this;
    for (std::size_t k = 0; k < kSize; ++k) {
      if (other.acts_[k] == &other.own_[k]) {
        own_[k] = other.own_[k];
        acts_[k] = &own_[k];
      } else {
        acts_[k] = other.acts_[k];
      }
    }
    head_ = other.head_;
    size_ = other.size_;
    return *this;
  }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // The k-th act from the newest (0: the newest).
  const Act& newest(std::size_t k = 0) const { return *acts_[(head_ + size_ - 1 - k) % kSize]; }
  // `act` must stay in place until the next pin() (or until it leaves the ring).
  void push(const Act& act) {
    std::size_t slot = (head_ + size_) % kSize;
    if (size_ < kSize) {
      ++size_;
    } else {
      head_ = (head_ + 1) % kSize;  // the oldest goes
    }
    acts_[slot] = &act;
  }
  // Copies the acts the ring points to into the ring.
  void pin() {
    for (std::size_t k = 0; k < kSize; ++k) {
      if (acts_[k] != nullptr && acts_[k] != &own_[k]) {
        own_[k] = *acts_[k];
        acts_[k] = &own_[k];
      }
    }
  }

 private:
  std::array<const Act*, kSize> acts_{};
  std::array<Act, kSize> own_;
  std::size_t head_ = 0;  // the oldest
  std::size_t size_ = 0;
};

// The tokens of a lexicon phrase as the lexicon stores it (normalised, one space between tokens).
std::vector<std::string> phrase_tokens(const std::string& phrase) {
  std::vector<std::string> tokens;
  std::size_t start = 0;
  while (true) {
    const std::size_t sp = phrase.find(' ', start);
    tokens.push_back(phrase.substr(start, sp == std::string::npos ? sp : sp - start));
    if (sp == std::string::npos) return tokens;
    start = sp + 1;
  }
}

// Whether a partition id is made only of characters that urn/parse.cpp's partition-id takes
// as they are: ASCII letters and digits, '.', ';', '-', '_', '\'', '=', '(' and ')'.
bool plain_partition_id(std::string_view id) {
  if (id.empty()) return false;
  for (char c : id) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && c != '.' && c != ';' && c != '-' && c != '_' && c != '\'' && c != '=' &&
        c != '(' && c != ')') {
      return false;
    }
  }
  return true;
}

// A hash of a short byte string (the keys of a session's caches: a span of unit symbols, a
// work name), eight bytes at a time, cheaper than std::hash's; transparent, so that a span is
// looked up without being copied into a string first. Not noexcept on purpose: libstdc++ then
// keeps each key's hash in its node (as for std::hash<std::string>), and a look-up neither
// hashes the keys it passes again to find where its bucket ends nor compares keys whose hashes
// differ.
struct ShortKeyHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ s.size();
    auto mix = [&h](std::uint64_t w) {
      h = (h ^ w) * 0xFF51AFD7ED558CCDull;
      h ^= h >> 32;
    };
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
      std::uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      mix(w);
    }
    if (i < s.size()) {
      // The last bytes: the last eight when there are eight (overlapping the word before; the
      // size is mixed in already), else a byte at a time (no library call).
      std::uint64_t w = 0;
      if (s.size() >= 8) {
        std::memcpy(&w, s.data() + s.size() - 8, 8);
      } else {
        for (; i < s.size(); ++i) w = w << 8 | static_cast<unsigned char>(s[i]);
      }
      mix(w);
    }
    return static_cast<std::size_t>(h);
  }
};

// The number of a work name, the digits after its last ';' ("...:2005;3523" -> "3523"), or ""
// when it has none or it is not all digits (a partial name, a local Act's roman chapter).
std::string_view work_number(std::string_view work) {
  const std::size_t semi = work.rfind(';');
  if (semi == std::string_view::npos || semi + 1 == work.size()) return {};
  const std::string_view n = work.substr(semi + 1);
  for (const char ch : n) {
    if (ch < '0' || ch > '9') return {};
  }
  return n;
}

// Whether `text` writes `number` as one of its numbers, thousands separators allowed ("Lei nº
// 10.406" writes 10406; "Order 2005" does not write 3523).
bool writes_number(std::string_view text, std::string_view number) {
  std::string digits;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char ch = i < text.size() ? text[i] : ' ';
    if (ch >= '0' && ch <= '9') {
      digits += ch;
    } else if (ch == '.' && !digits.empty() && i + 1 < text.size() && text[i + 1] >= '0' &&
               text[i + 1] <= '9') {
      continue;  // "10.406"
    } else if (!digits.empty()) {
      if (digits == number) return true;
      digits.clear();
    }
  }
  return false;
}

// The key of a name a document defines for an act (`defines`): its measure type and year.
std::string definition_key(std::string_view measure, std::string_view year) {
  std::string key(measure);
  key += ' ';
  key += year;
  return key;
}

// What same_act() compares of a work name.
struct ActKey {
  bool ok = false;  // the name parses
  std::string jurisdiction, authority, measure, numbers, year;
};
using ActKeys = std::unordered_map<std::string, ActKey, ShortKeyHash, std::equal_to<>>;

// The ActKey of `name`, from `cache` or parsed now.
const ActKey& act_key(ActKeys& cache, const std::string& name) {
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  ActKey k;
  urn::ParseOptions po;
  po.allow_unnumbered = true;
  if (auto x = urn::parse(name, po)) {
    k.ok = true;
    k.jurisdiction = std::string(x->jurisdiction_code());
    k.authority = std::string(x->get(urn::Kind::kAuthority));
    k.measure = std::string(x->get(urn::Kind::kMeasure));
    k.numbers = std::string(x->get(urn::Kind::kNumbers));
    k.year = std::string(x->year());
  }
  return cache.emplace(name, std::move(k)).first->second;
}

// Whether two work names name the same act, one possibly with the year only ("lei:1966;5172"
// and "lei:1966-10-25;5172"). Names are parsed once per document (`cache`, cleared when it
// grows large).
bool same_act(const std::string& a, const std::string& b, ActKeys& cache) {
  if (a == b) return true;
  if (cache.size() >= 4094) cache.clear();  // before the look-ups: `x` stays valid
  const ActKey& x = act_key(cache, a);
  const ActKey& y = act_key(cache, b);
  if (!x.ok || !y.ok) return false;
  return x.jurisdiction == y.jurisdiction && x.authority == y.authority && x.measure == y.measure &&
         x.numbers == y.numbers && x.year == y.year && !x.year.empty();
}

// A rule's program with its captures, compiled the first time a span of symbols matches the
// rule (RE2::Set says which do): most rules never do in a short run, and start-up then compiles
// only the set and the combined program, which hold the same patterns. Thread-safe. Its
// capture groups are the rule's captures in order (grammar::Rule::captures; the pattern has no
// other group), so their numbers are known before it is compiled.
class RuleProgram {
 public:
  explicit RuleProgram(const std::string& regex) : regex_(regex) {}
  const re2::RE2& get() const {
    std::call_once(once_,
                   [this] { re_ = std::make_unique<re2::RE2>(regex_, symbol_options(false)); });
    return *re_;
  }

 private:
  const std::string& regex_;  // the rule's (Rule::regex, which outlives this)
  mutable std::once_flag once_;
  mutable std::unique_ptr<re2::RE2> re_;
};

}  // namespace

struct Extractor::Engine {
  grammar::Grammar g;
  std::shared_ptr<const scan::TriggerScanner> scanner;
  // The rules' programs: all of them at once (combined, leftmost-longest over the units) and as
  // a set (which rules match a span whole). Compiled on first use (programs()): with several
  // grammars, one that no document is read with is never compiled. Extractor::load compiles
  // them at once when it loads one grammar, so that their errors come at load.
  struct Programs {
    std::unique_ptr<re2::RE2> combined;
    std::unique_ptr<re2::RE2::Set> set;
    // The combined program's leftmost-longest search as automata of our own (symbol_dfa.h):
    // the fast path. Null with the RE2 reference engine (ExtractorOptions::engine), or when the
    // expression is outside what SymbolDfa builds; `combined` searches then.
    std::unique_ptr<SymbolDfa> dfa;
    Status status = Status::Ok();
  };
  bool use_dfa = true;  // ExtractorOptions::engine is Hyperscan (the RE2 path keeps RE2 alone)
  std::string combined_regex;  // for Programs::combined
  mutable std::once_flag programs_once;
  mutable Programs programs_;
  const Programs& programs() const {
    std::call_once(programs_once, [this] { compile_programs(); });
    return programs_;
  }
  void compile_programs() const;
  std::vector<std::unique_ptr<RuleProgram>> rule_re;
  std::unique_ptr<ChainSetup> chain;    // how partition chains read (after `g` is in place)
  std::vector<std::string> rule_names;  // "grammar/rule", per rule
  int parts_capture_missing = 0;
  // The settings read for every citation (grammar/settings.h), `g`'s, looked up once.
  const grammar::Settings& settings() const { return g.settings(); }
  bool lines_are_blocks = false;  // line-break = paragraph
  bool title_unlinked = false;    // heading.title = unlinked
  // Per rule with `complete: CLASS`: the class's works by their name without the date
  // ("urn:lex:br:federal:decreto.lei:;5452" -> "...:decreto.lei:1943-05-01;5452").
  std::vector<std::unordered_map<std::string, std::string>> dateless;
  // Capture names: every rule program's named groups, numbered in name order (so that visiting
  // ids in order visits names in order). A match's captures are kept by number.
  std::vector<std::string> capture_names;
  struct RuleCaptures {
    // The capture id of each group of the rule program, by group number (-1 for group 0 and
    // for unnamed groups).
    std::vector<int> group_ids;
    int years_id = -1;  // the capture id of the rule's `years` capture, or -1
    // The capture id of every choice of the rule's templates (-1: no rule captures that name):
    // the emit parts' choices, then refers_measure's, then refers_year's; and the attribute id
    // (ChainSetup::attribute_id) each reads, or -1.
    std::vector<int> choice_ids, choice_attributes;
    std::vector<std::size_t> emit_at;  // per emit part: where its choices start in choice_ids
    std::size_t measure_at = 0, year_at = 0;
  };
  std::vector<RuleCaptures> rule_captures;  // per rule
  int cap_parts = -1, cap_actparts = -1, cap_span = -1, cap_act = -1;

  // Filled by Extractor::load, once `g` and `chain` are in place: the rules' names and what
  // the settings say; the works without their dates; the rule programs (compiled later); the
  // capture ids.
  void read_grammar();
  void index_dateless();
  void add_programs();
  void index_captures();

  // The id of a capture name, or -1.
  int capture_id(std::string_view name) const {
    auto it = std::lower_bound(capture_names.begin(), capture_names.end(), name,
                               [](const std::string& a, std::string_view b) { return a < b; });
    return it != capture_names.end() && *it == name ? static_cast<int>(it - capture_names.begin())
                                                    : -1;
  }
};

namespace {

// `work` with its date left out ("...:lei:1990-09-11;8078" -> "...:lei:;8078"), or "" when it
// has no date before its number.
std::string without_date(std::string_view work) {
  const std::size_t semi = work.rfind(';');
  if (semi == std::string_view::npos) return {};
  const std::size_t colon = work.rfind(':', semi);
  if (colon == std::string_view::npos || colon + 1 == semi) return {};
  return std::string(work.substr(0, colon + 1)) + std::string(work.substr(semi));
}

}  // namespace

// What the rule programs say about one span of unit symbols: the rules whose pattern matches
// it whole (ascending), and for each its named captures by capture id (Engine::capture_names;
// offsets relative to the span).
struct RuleAnswers {
  struct Capture {
    int id;
    std::uint32_t begin, end;
  };
  struct Rule {
    bool matched = false;
    std::vector<Capture> captures;
  };
  std::vector<int> ids;
  std::vector<Rule> rules;
};

// What the extractor needs of a parsed work name.
struct ParsedWork {
  bool ok = false;
  std::string error;  // when not ok
  std::string jurisdiction;
  Act act;  // the work name, its measure type and its year
  bool year_only = false;
  // The name has no '~', '?' or '#': with "~" and a partition id of letters, digits and
  // ".;-_'=()" after it, it is still valid (the parser reads the name the same way up to '~',
  // which ends each of its productions as the end of the text does; partition-id takes those
  // characters).
  bool plain = false;
};

// Work names parsed, by name.
using ParsedWorks = std::unordered_map<std::string, ParsedWork, ShortKeyHash, std::equal_to<>>;

struct Extractor::Session::State {
  std::string self;
  ActHistory history;  // the last 64 acts cited
  std::vector<std::unique_ptr<scan::TriggerScanner::Scratch>> scratch;
  std::unique_ptr<scan::TriggerScanner::Scratch> chooser_scratch;  // with several grammars
  std::vector<std::size_t> chooser_counts;
  UnitText units;
  Captures caps;  // the captures of the match being read
  // Per engine: the rule answers for the symbol spans met so far in this document.
  std::vector<std::unordered_map<std::string, RuleAnswers, ShortKeyHash, std::equal_to<>>> answers;
  std::vector<std::uint32_t> starts;
  std::vector<std::uint8_t> match_starts;    // per symbol: a rule match starts there (SymbolDfa)
  std::vector<SymbolDfa::Cache> dfa_caches;  // per engine: the symbol automata's states
  PodVector<std::uint32_t> word_ids;         // the lexicon word id of each token of `units`
  // Work names parsed so far in this document (the same acts are cited again and again).
  ParsedWorks parsed_works;
  std::vector<std::uint64_t> breaks;  // chunk-relative text offsets of hard breaks
  // Character counting over the original (code points and UTF-16 units): position and counts
  // reached.
  std::uint64_t count_pos = 0;
  text::UnitCount counted;
  bool seen_text = false;      // a chunk was read (the heading check is for the document's start)
  std::size_t wrap_width = 0;  // the document is hard-wrapped at this width (0: it is not)
  bool heading_pass = false;   // reading the document's first lines for its heading
  std::uint64_t heading_end = 0;  // text offset: the end of the heading line that named it
  // Buffers of the citation being read, reused: the work's name, the template values of
  // `refers`, the partition items (and those of the act's own words), the reference name.
  std::string work, measure, year, ref;
  std::vector<Interpreter::PartitionItem> items, head_items;
  ActKeys act_keys;  // same_act()'s parsed names
  // Names the document defines for an act (`defines`: "(“the 2014 Act”)" after its citation),
  // by measure type and year ("act 2014") -> the act's work name.
  std::unordered_map<std::string, std::string> defined;
  // `defines: next`: the name defined ("act 2013") for the citation that follows, and where the
  // definition ended (unit index); cleared by the next citation.
  std::string pending_definition;
  std::uint32_t pending_definition_end = 0;
  int chosen = -1;  // with --jurisdiction auto: the engine this document is read with
  // The last citation emitted in this chunk, for `continues` rules.
  struct Previous {
    std::size_t engine = 0;
    std::size_t rule = 0;
    std::uint32_t end_unit = 0;
    Captures captures;          // its work is the history's newest act
    std::size_t citations = 0;  // how many it emitted (list items)
    bool valid = false;
  } previous;
};

struct Extractor::StatePool {
  static constexpr std::size_t kMaxStates = 256;  // more than the threads that use one extractor
  std::mutex mu;
  std::vector<std::unique_ptr<Session::State>> states;
};

Extractor::~Extractor() = default;

Extractor::Session::~Session() {
  if (pool_ == nullptr || state_ == nullptr) return;
  const std::lock_guard<std::mutex> lock(pool_->mu);
  if (pool_->states.size() < StatePool::kMaxStates) pool_->states.push_back(std::move(state_));
}

namespace {

// The grammars `options` names; {"auto"}: every folder of DATA/grammars, in name order.
Result<std::vector<std::string>> grammar_names(const ExtractorOptions& options) {
  std::vector<std::string> names = options.grammars;
  if (names.size() == 1 && names[0] == "auto") {
    namespace fs = std::filesystem;
    names.clear();
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(options.data_dir) / "grammars", ec)) {
      if (e.is_directory()) names.push_back(e.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    if (names.empty()) {
      return make_error(ErrorCode::kNotFound, "no grammar in " + options.data_dir + "/grammars");
    }
  }
  return names;
}

// Triggers: for every phrase of a trigger class, its longest word (3 letters or more), or the
// whole phrase written compactly when all its words are short ("d.p.r.", "§"); the accented
// spelling of the lexicon file too. A trigger only opens a window, so one word of a phrase is
// enough, and fixed literals keep the scan fast.
std::vector<std::vector<std::string>> trigger_words(const grammar::Grammar& g) {
  std::vector<std::vector<std::string>> triggers;
  std::set<std::string> seen;
  auto add_trigger = [&](const std::string& phrase) {
    const std::vector<std::string> tokens = phrase_tokens(phrase);
    std::size_t best = tokens.size();
    for (std::size_t k = 0; k < tokens.size(); ++k) {
      if (utf8::count_code_points(tokens[k]) >= 3 &&
          lexicon::is_word_char(static_cast<unsigned char>(tokens[k][0])) &&
          (best == tokens.size() || tokens[k].size() > tokens[best].size())) {
        best = k;
      }
    }
    std::vector<std::string> chosen;
    if (best < tokens.size()) {
      chosen.push_back(tokens[best]);
    } else {
      chosen = tokens;  // written together: "d.p.r."
    }
    std::string key;
    for (const auto& t : chosen) key += t + '\x1f';
    if (seen.insert(key).second) triggers.push_back(std::move(chosen));
  };
  for (const auto& cls : g.lexicon().classes()) {
    if (!cls.trigger) continue;
    for (const std::string& v : cls.variants) add_trigger(v);
    for (const std::string& w : cls.written) {
      const bool accented = std::any_of(
          w.begin(), w.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
      if (accented) add_trigger(w);
    }
  }
  return triggers;
}

// The grammar chooser's triggers and groups (with several grammars), and a hash of every
// grammar's data.
struct ChooserInput {
  std::vector<std::vector<std::string>> triggers;
  std::vector<std::uint32_t> groups;
  std::uint64_t hash = 0x63686f6f73657221ull;  // "chooser!"

  // Grammar number `n`: its triggers (group 2n), and its markers (group 2n + 1), each phrase
  // matched with its tokens written together ("s.i.", "by-law").
  void add(std::size_t n, const grammar::Grammar& g,
           const std::vector<std::vector<std::string>>& grammar_triggers) {
    const auto group = static_cast<std::uint32_t>(2 * n);
    hash = (hash ^ g.data_hash()) * 0x100000001b3ull;
    for (const auto& t : grammar_triggers) {
      triggers.push_back(t);
      groups.push_back(group);
    }
    if (!g.markers().classes().empty()) {
      for (const std::string& v : g.markers().classes()[0].variants) {
        triggers.push_back(phrase_tokens(v));
        groups.push_back(group + 1);
      }
    }
  }
};

}  // namespace

void Extractor::Engine::read_grammar() {
  for (const Rule& r : g.rules()) rule_names.push_back(g.name() + "/" + r.name);
  lines_are_blocks = settings().line_break == grammar::Settings::LineBreak::kParagraph;
  title_unlinked = settings().heading_title == grammar::Settings::HeadingTitle::kUnlinked;
}

// Works by their names without the date, for `complete: CLASS` rules.
void Extractor::Engine::index_dateless() {
  dateless.resize(g.rules().size());
  for (std::size_t r = 0; r < g.rules().size(); ++r) {
    const int cls = g.rules()[r].complete_class;
    if (cls < 0) continue;
    const auto& c = g.lexicon().classes()[static_cast<std::size_t>(cls)];
    const auto col = static_cast<std::size_t>(c.column("work"));
    for (const auto& row : c.rows) {
      if (std::string key = without_date(row[col]); !key.empty()) {
        dateless[r].emplace(std::move(key), row[col]);
      }
    }
  }
}

// Rule programs (compiled on first use: programs()).
void Extractor::Engine::add_programs() {
  for (const Rule& r : g.rules()) {
    if (!combined_regex.empty()) combined_regex += '|';
    combined_regex += "(?:" + without_captures(r.regex) + ")";
    rule_re.push_back(std::make_unique<RuleProgram>(r.regex));
  }
}

// Capture names by number (capture_names), and each rule's ids.
void Extractor::Engine::index_captures() {
  std::set<std::string> names;
  for (const Rule& r : g.rules()) names.insert(r.captures.begin(), r.captures.end());
  capture_names.assign(names.begin(), names.end());
  cap_parts = capture_id("parts");
  cap_actparts = capture_id("actparts");
  cap_span = capture_id("span");
  cap_act = capture_id("act");
  rule_captures.resize(g.rules().size());
  for (std::size_t r = 0; r < g.rules().size(); ++r) {
    RuleCaptures& rc = rule_captures[r];
    // Group k + 1 is capture k (RuleProgram).
    const std::vector<std::string>& captures = g.rules()[r].captures;
    rc.group_ids.assign(captures.size() + 1, -1);
    for (std::size_t k = 0; k < captures.size(); ++k) {
      rc.group_ids[k + 1] = capture_id(captures[k]);
    }
    auto add_part = [&](const grammar::TemplatePart& part) {
      const std::size_t at = rc.choice_ids.size();
      for (const auto& c : part.choices) {
        rc.choice_ids.push_back(capture_id(c.capture));
        rc.choice_attributes.push_back(c.attribute.empty() ? -1 : chain->attribute_id(c.attribute));
      }
      return at;
    };
    const Rule& rule = g.rules()[r];
    if (!rule.years_capture.empty()) rc.years_id = capture_id(rule.years_capture);
    for (const auto& part : rule.emit_parts) rc.emit_at.push_back(add_part(part));
    rc.measure_at = add_part(rule.refers_measure);
    rc.year_at = add_part(rule.refers_year);
  }
}

Result<std::shared_ptr<const Extractor>> Extractor::load(const ExtractorOptions& options) {
  if (options.grammars.empty()) {
    return make_error(ErrorCode::kInvalidArgument, "no grammar to load");
  }
  std::shared_ptr<Extractor> x(new Extractor());
  x->pool_ = std::make_shared<StatePool>();
  auto names = grammar_names(options);
  if (!names) return names.error();
  x->choose_per_document_ =
      options.grammars.size() == 1 && options.grammars[0] == "auto" && names->size() > 1;
  ChooserInput choice;
  scan::TriggerOptions to;
  to.engine = options.engine;
  to.cache_dir = options.cache_dir == "-"    ? std::string()
                 : options.cache_dir.empty() ? default_cache_dir()
                                             : options.cache_dir;
  for (const std::string& name : *names) {
    auto g = grammar::Grammar::load(options.data_dir, name);
    if (!g) return g.error();
    {  // the publishers' identifiers of documents this jurisdiction maps (document_name.h)
      const std::string ids = options.data_dir + "/lexicons/" + name + "/document-ids.tsv";
      std::error_code ec;
      if (std::filesystem::exists(ids, ec)) {
        if (Status s = x->document_ids_.load(ids); !s) return s.error();
      }
    }
    auto engine = std::make_unique<Engine>();
    engine->g = std::move(*g);
    engine->use_dfa = options.engine != scan::Engine::kRe2;
    engine->chain = std::make_unique<ChainSetup>(engine->g);
    engine->read_grammar();
    x->any_lines_are_blocks_ = x->any_lines_are_blocks_ || engine->lines_are_blocks;
    const std::vector<std::vector<std::string>> triggers = trigger_words(engine->g);
    if (triggers.empty()) {
      Error e = make_error(ErrorCode::kDataError,
                           "declares no trigger lexicon class (mark one 'lexicon ... trigger')");
      e.file = "grammars/" + name;
      return e;
    }
    to.data_hash = engine->g.data_hash();
    auto scanner = scan::TriggerScanner::compile(triggers, to);
    if (!scanner) return scanner.error();
    engine->scanner = std::move(*scanner);
    choice.add(x->engines_.size(), engine->g, triggers);
    engine->index_dateless();
    engine->add_programs();
    engine->index_captures();
    x->engines_.push_back(std::move(engine));
  }
  if (x->choose_per_document_) {
    to.data_hash = choice.hash;
    auto chooser = scan::TriggerScanner::compile(choice.triggers, to, choice.groups);
    if (!chooser) return chooser.error();
    x->chooser_ = std::move(*chooser);
  }
  // One grammar: its programs now, so that their errors come at load. Several (auto): each on
  // the first document read with it.
  if (x->engines_.size() == 1) {
    if (Status s = x->engines_.front()->programs().status; !s) return s.error();
  }
  if (!x->engines_.empty()) {
    std::size_t back = 0, forward = 0;
    for (const auto& e : x->engines_) {
      back = std::max(back, static_cast<std::size_t>(e->g.window_back()));
      forward = std::max(forward, static_cast<std::size_t>(e->g.window_forward()));
    }
    // Every grammar's triggers: the cut is chosen before the document's grammar may be.
    x->cut_advisor_ = make_window_gap_advisor(
        x->chooser_ ? x->chooser_ : x->engines_.front()->scanner, back, forward);
  }
  return std::shared_ptr<const Extractor>(std::move(x));
}

void Extractor::Engine::compile_programs() const {
  Programs& p = programs_;
  p.set = std::make_unique<re2::RE2::Set>(symbol_options(true), re2::RE2::ANCHOR_BOTH);
  for (const Rule& r : g.rules()) {
    std::string err;
    if (p.set->Add(without_captures(r.regex), &err) < 0) {
      Error e = make_error(ErrorCode::kDataError, "rule '" + r.name + "': " + err);
      e.file = r.where.file;
      e.line = r.where.line;
      p.status = e;
      return;
    }
  }
  if (!p.set->Compile()) {
    p.status =
        make_error(ErrorCode::kDataError, "grammar '" + g.name() + "': the rules are too large");
    return;
  }
  // The combined search: the automata, or RE2 when they cannot be built or are not wanted.
  if (use_dfa) {
    if (auto dfa = SymbolDfa::build(combined_regex); dfa) {
      p.dfa = std::make_unique<SymbolDfa>(std::move(*dfa));
      return;
    }
  }
  p.combined = std::make_unique<re2::RE2>(combined_regex, symbol_options(true));
  if (!p.combined->ok()) {
    p.status =
        make_error(ErrorCode::kDataError, "grammar '" + g.name() + "': " + p.combined->error());
  }
}

bool Extractor::trigger_cache_hit() const {
  for (const auto& e : engines_) {
    if (!e->scanner->loaded_from_cache()) return false;
  }
  return true;
}

std::vector<Extractor::RuleInfo> Extractor::rules() const {
  std::vector<RuleInfo> out;
  for (const auto& e : engines_) {
    for (const Rule& r : e->g.rules()) {
      RuleInfo info;
      info.grammar = e->g.name();
      info.name = r.name;
      info.doc = r.doc;
      info.file = r.where.file;
      info.line = r.where.line;
      for (const auto& ex : r.examples) info.examples.push_back({ex.text, ex.urns, ex.line});
      for (const auto& ex : r.counters) info.counters.push_back({ex.text, ex.urns, ex.line});
      out.push_back(std::move(info));
    }
  }
  return out;
}

std::unique_ptr<Extractor::Session> Extractor::start(const std::string& self_urn) const {
  std::unique_ptr<Session> s(new Session());
  s->pool_ = pool_;
  std::unique_ptr<Session::State> done;  // a finished session's state, if there is one
  if (pool_ != nullptr) {
    const std::lock_guard<std::mutex> lock(pool_->mu);
    if (!pool_->states.empty()) {
      done = std::move(pool_->states.back());
      pool_->states.pop_back();
    }
  }
  s->state_ = std::make_unique<Session::State>();
  Session::State& st = *s->state_;
  st.self = self_urn;
  if (done != nullptr) {
    // Everything of the last document is left behind but what does not depend on it: the
    // scanners' scratch, the caches keyed by text alone (each bounded where it is filled: the
    // rule answers, the parsed works, the symbol automata's states), the unit buffers' room.
    st.scratch = std::move(done->scratch);
    st.chooser_scratch = std::move(done->chooser_scratch);
    st.answers = std::move(done->answers);
    st.dfa_caches = std::move(done->dfa_caches);
    st.match_starts = std::move(done->match_starts);
    st.parsed_works = std::move(done->parsed_works);
    st.units = std::move(done->units);
    st.units.clear();
    return s;
  }
  for (const auto& e : engines_) st.scratch.push_back(e->scanner->make_scratch());
  if (chooser_) st.chooser_scratch = chooser_->make_scratch();
  st.answers.resize(engines_.size());
  st.dfa_caches.resize(engines_.size());
  return s;
}

namespace {

// The width a plain text was hard-wrapped at, or 0. A hard-wrapped text (OCR output, gazettes
// typed for 80 columns) fills its lines to about one width and breaks them mid-sentence: most
// of its lines end within a fifth of the width of its longest ones. A text whose lines are its
// elements (a paragraph, a heading, a list item per line) has lines of every length. Read on
// the first 8 KiB of a document (chunks are larger, so the answer does not depend on them).
std::size_t hard_wrap_width(std::string_view sample) {
  std::vector<std::size_t> widths;
  std::size_t at = 0;
  while (at < sample.size()) {
    const std::size_t nl = sample.find('\n', at);
    if (nl == std::string_view::npos) break;  // the last line may be cut
    if (const std::size_t w = line_width(sample.substr(at, nl - at)); w > 0) widths.push_back(w);
    at = nl + 1;
  }
  if (widths.size() < 8) return 0;
  std::sort(widths.begin(), widths.end());
  const std::size_t width = widths[widths.size() * 9 / 10];  // the 90th percentile
  if (width < 40 || width > 120) return 0;
  const std::size_t full = static_cast<std::size_t>(std::count_if(
      widths.begin(), widths.end(), [&](std::size_t w) { return w >= width - width / 5; }));
  return 2 * full >= widths.size() ? width : 0;
}

}  // namespace

namespace {

std::string describe_span(const grammar::Grammar& g, const UnitText& u, Span span,
                          std::string_view text) {
  std::string out;
  std::uint32_t b = span.begin, e = span.end;
  while (b < e && u.units[b].token_count == 0) ++b;
  while (e > b && u.units[e - 1].token_count == 0) --e;
  if (b < e) {
    const auto& t0 = u.tokens.tokens[u.units[b].first_token];
    const auto& t1 = u.tokens.tokens[u.units[e - 1].first_token + u.units[e - 1].token_count - 1];
    out = "\"" + std::string(text.substr(t0.begin, t1.end - t0.begin)) + "\"";
  }
  for (std::uint32_t i = b; i < e; ++i) {
    const Unit& unit = u.units[i];
    if (unit.cls < 0) continue;
    const auto& c = g.lexicon().classes()[static_cast<std::size_t>(unit.cls)];
    out += " (" + c.name + ", " + c.file + ":" + std::to_string(c.row_lines[unit.row]) + ")";
  }
  return out;
}

Explanation describe_match(const grammar::Grammar& g, const UnitText& u, const Rule& rule,
                           Span span, std::string_view text) {
  Explanation ex;
  ex.rule = g.name() + "/" + rule.name + " (" + rule.where.file + ":" +
            std::to_string(rule.where.line) + ")";
  ex.doc = rule.doc;
  ex.matched_text = describe_span(g, u, span, text);
  for (std::uint32_t i = span.begin; i < span.end; ++i) {
    const Unit& unit = u.units[i];
    if (unit.token_count == 0) continue;
    const auto& t0 = u.tokens.tokens[unit.first_token];
    const auto& t1 = u.tokens.tokens[unit.first_token + unit.token_count - 1];
    ex.units.push_back(std::string(text.substr(t0.begin, t1.end - t0.begin)) + " [" +
                       g.symbol_name(static_cast<std::uint8_t>(u.symbols[i])) + "]");
    if (ex.text_end == 0) ex.text_begin = t0.begin;
    ex.text_end = t1.end;
  }
  return ex;
}

// The document's heading ("DECRETO LEGISLATIVO 3 febbraio 2026, n. 17", "Title 13—") alone on
// one of its first lines, followed by the document's body: it names the document.
bool is_heading(const Citation& c, const text::TextView& chunk) {
  const std::string_view t = chunk.text;
  const std::uint64_t b = c.text_begin - chunk.text_begin, e = c.text_end - chunk.text_begin;
  std::size_t line_begin = t.rfind('\n', b == 0 ? 0 : b - 1);
  line_begin = line_begin == std::string_view::npos || b == 0 ? 0 : line_begin + 1;
  std::size_t line_end = t.find('\n', e);
  if (line_end == std::string_view::npos) line_end = t.size();
  auto blank = [](std::string_view x) {
    for (char ch : x) {
      if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n' && ch != '.' && ch != ',' &&
          ch != ';') {
        return false;
      }
    }
    return true;
  };
  std::size_t lines_before = 0;
  for (std::size_t k = 0; k < line_begin; ++k) lines_before += t[k] == '\n';
  const bool body_follows = line_end < t.size() && !blank(t.substr(line_end));
  return c.urn == c.work && lines_before <= 3 && body_follows &&
         blank(t.substr(line_begin, b - line_begin)) && blank(t.substr(e, line_end - e));
}

}  // namespace

namespace {

// The answers for symbols [s, end), from `cache` or computed (the set program, then each
// matching rule's own program for its captures). The cache is cleared when it grows large, so
// a session's memory stays bounded.
template <class Engine, class Cache>
const RuleAnswers& answers_for(const Engine& e, Cache& cache, const re2::StringPiece& symbols,
                               std::uint32_t s, std::uint32_t end,
                               std::vector<re2::StringPiece>& groups) {
  const std::string_view key(symbols.data() + s, end - s);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  if (cache.size() >= 4096) cache.clear();
  RuleAnswers a;
  e.programs().set->Match(re2::StringPiece(symbols.data() + s, end - s), &a.ids);
  std::sort(a.ids.begin(), a.ids.end());
  a.rules.resize(a.ids.size());
  for (std::size_t k = 0; k < a.ids.size(); ++k) {
    const re2::RE2& re = e.rule_re[static_cast<std::size_t>(a.ids[k])]->get();
    groups.assign(static_cast<std::size_t>(re.NumberOfCapturingGroups()) + 1, {});
    RuleAnswers::Rule& r = a.rules[k];
    // (ok: the set compiled the same pattern without its group names, which the grammar
    // loader checked; tests/grammar compiles every rule.)
    r.matched = re.ok() && re.Match(symbols, s, end, re2::RE2::ANCHOR_BOTH, groups.data(),
                                    static_cast<int>(groups.size()));
    if (!r.matched) continue;
    const std::vector<int>& ids = e.rule_captures[static_cast<std::size_t>(a.ids[k])].group_ids;
    for (std::size_t index = 1; index < groups.size(); ++index) {
      const re2::StringPiece& gp = groups[index];
      if (ids[index] < 0 || gp.data() == nullptr || gp.empty()) continue;
      const auto b = static_cast<std::uint32_t>(gp.data() - symbols.data()) - s;
      r.captures.push_back({ids[index], b, static_cast<std::uint32_t>(b + gp.size())});
    }
  }
  return cache.emplace(std::string(key), std::move(a)).first->second;
}

// `work` parsed, from `cache` or now; the cache is cleared when it grows large (`history`, which
// points into it, copies its acts first).
const ParsedWork& parse_work(ParsedWorks& cache, ActHistory& history, const std::string& work,
                             const urn::ParseOptions& po) {
  if (auto it = cache.find(work); it != cache.end()) return it->second;
  if (cache.size() >= 4096) {
    history.pin();
    cache.clear();
  }
  ParsedWork pw;
  auto parsed = urn::parse(work, po);
  if (parsed) {
    pw.ok = true;
    pw.jurisdiction = std::string(parsed->jurisdiction_code());
    pw.act.work = parsed->work_name();
    pw.act.measure_type = std::string(parsed->get(urn::Kind::kMeasureType));
    pw.year_only = parsed->year_only();
    pw.act.year = std::string(parsed->year());
    pw.plain = work.find_first_of("~?#") == std::string::npos;
  } else {
    pw.error = parsed.error().message;
  }
  return cache.emplace(work, std::move(pw)).first->second;
}

}  // namespace

// Where run_engine() writes the citations it finds: after out[0, size), over the citations
// there (read before, no longer needed: every field is written anew), then at the end, moved
// from the back of `spare` when it has any. Either way their strings' memory is reused.
struct Extractor::CitationSink {
  std::vector<Citation>& out;
  std::size_t size = 0;  // out[0, size) are citations, the rest are to be overwritten
  std::vector<Citation>* spare = nullptr;

  bool empty() const { return size == 0; }
  Citation& back() { return out[size - 1]; }
  void pop_back() { --size; }  // (kept, to be overwritten)
  // The next citation, whose every field the caller sets.
  Citation& next() {
    if (size < out.size()) return out[size++];
    ++size;
    if (spare == nullptr || spare->empty()) return out.emplace_back();
    Citation& c = out.emplace_back(std::move(spare->back()));
    spare->pop_back();
    return c;
  }
  // Cuts `out` to its citations; those after go to `spare`, if any.
  void finish() {
    const auto end = out.begin() + static_cast<long>(size);
    if (spare != nullptr) {
      spare->insert(spare->end(), std::make_move_iterator(end), std::make_move_iterator(out.end()));
    }
    out.erase(end, out.end());
  }
};

namespace {

// Whether `types` (type names separated by spaces) lists `type`.
bool lists_type(std::string_view types, std::string_view type) {
  for (std::size_t at = 0; at <= types.size();) {
    const std::size_t sp = std::min(types.find(' ', at), types.size());
    if (types.substr(at, sp - at) == type) return true;
    at = sp + 1;
  }
  return false;
}

// How work names are parsed: unnumbered acts allowed (the profiles' Constitution of Italy).
urn::ParseOptions work_parse_options() {
  urn::ParseOptions po;
  po.allow_unnumbered = true;
  return po;
}

}  // namespace

// One rule match read into citations, for run_engine(): the rules that match the span whole,
// in order, each checked (does it apply here?), its work named (by its template, or the act
// it points back to), its partitions read and its citations written to the sink. The first
// rule that emits, or defines a name, ends the reading of the span; a rule that does neither
// leaves the session as it was, but for the explanation of why (explain).
struct Extractor::MatchReader {
  const Engine& e;
  std::size_t ei;
  Session::State& st;
  std::string_view text;  // the chunk's
  std::uint64_t text_begin;
  const UnitText& u;
  const Interpreter& interp;
  CitationSink& out;
  std::vector<Explanation>* trace;

  // Reads `match` with the rules of `answers`: true when one emitted or defined a name, with
  // the unit where reading goes on in `resume`.
  bool read(Span match, const RuleAnswers& answers, std::uint32_t& resume);

 private:
  // One rule's reading of the match.
  struct Reading {
    const Rule& rule;
    int id;
    const Engine::RuleCaptures& rc;
    Span match;
    Explanation* ex;  // with explain: what this rule made of the match
    TemplateRenderer renderer;
    void reject(const char* why) const {
      if (ex != nullptr) ex->outcome = why;
    }
  };
  // Where a reading ends: rejected (the next rule is tried), or done (the match is read).
  enum class Outcome : std::uint8_t { kRejected, kDone };
  // A citation of the act cited just before, with only punctuation between (apposition()).
  enum class Repeat : std::uint8_t { kNo, kDropped, kReplaces };

  Outcome read_rule(Reading& r, const RuleAnswers::Rule& answer, std::uint32_t& resume);
  const char* check_applies(const Reading& r, const RuleAnswers::Rule& answer);
  Outcome read_definition(Reading& r);
  const char* refer(Reading& r, bool& failed);
  bool refer_to_self(Reading& r);
  void refer_to_previous_measure(Reading& r);
  const char* read_items(Reading& r, std::string_view separator);
  Repeat apposition(const Reading& r, const std::string& work_name);
  std::size_t write_citations(const Reading& r, const ParsedWork& parsed, bool complete);
  void remember(const Reading& r, const ParsedWork& parsed, std::size_t citations,
                std::uint32_t& resume);
};

bool Extractor::MatchReader::read(Span match, const RuleAnswers& answers, std::uint32_t& resume) {
  for (std::size_t ai = 0; ai < answers.ids.size(); ++ai) {
    const int id = answers.ids[ai];
    const Rule& rule = e.g.rules()[static_cast<std::size_t>(id)];
    if (rule.heading && !st.heading_pass) continue;  // a heading rule names, never cites
    Explanation* ex = nullptr;
    if (trace != nullptr) {
      trace->push_back(describe_match(e.g, u, rule, match, text));
      ex = &trace->back();
    }
    const Engine::RuleCaptures& rc = e.rule_captures[static_cast<std::size_t>(id)];
    Reading r{rule,  id, rc,
              match, ex, TemplateRenderer(interp, st.caps, rc.choice_ids, rc.choice_attributes)};
    resume = match.end;
    if (read_rule(r, answers.rules[ai], resume) == Outcome::kDone) return true;
  }
  return false;
}

// The rule's steps, each of which may reject it.
Extractor::MatchReader::Outcome Extractor::MatchReader::read_rule(Reading& r,
                                                                  const RuleAnswers::Rule& answer,
                                                                  std::uint32_t& resume) {
  if (const char* why = check_applies(r, answer); why != nullptr) {
    r.reject(why);
    return Outcome::kRejected;
  }
  if (r.rule.defines) return read_definition(r);
  bool failed = false;
  if (const char* why = refer(r, failed); why != nullptr) {
    r.reject(why);
    return Outcome::kRejected;
  }
  if (r.ex != nullptr) {
    st.caps.for_each([&](int cid, Span span) {
      r.ex->captures.push_back(e.capture_names[static_cast<std::size_t>(cid)] + " = " +
                               describe_span(e.g, u, span, text));
    });
  }
  if (failed) {
    r.reject("a placeholder of the emit template has no value (unreadable date or number?)");
    return Outcome::kRejected;
  }
  std::string& work = st.work;
  if (r.rule.complete_class >= 0 && !work.empty()) {
    const auto& known = e.dateless[static_cast<std::size_t>(r.id)];
    const auto kit = known.find(work);
    if (kit == known.end()) {
      r.reject("the act has no date, and the catalogue does not know it");
      return Outcome::kRejected;
    }
    work = kit->second;
  }
  if (work.empty()) {
    r.reject(r.rule.refers == Rule::Refers::kSelf
                 ? "refers to the document itself, whose name is unknown (--self)"
                 : "refers to an earlier act, and none was cited before");
    return Outcome::kRejected;
  }
  const ParsedWork& parsed = parse_work(st.parsed_works, st.history, work, work_parse_options());
  if (!parsed.ok) {
    if (r.ex != nullptr) r.ex->outcome = "the name '" + work + "' is invalid: " + parsed.error;
    return Outcome::kRejected;
  }
  const grammar::Settings& settings = e.settings();
  const auto sit = settings.separator_of.find(parsed.jurisdiction);
  if (const char* why =
          read_items(r, sit == settings.separator_of.end() ? settings.separator : sit->second);
      why != nullptr) {
    r.reject(why);
    return Outcome::kRejected;
  }
  // A year instead of a date makes a name partial, unless the jurisdiction's details are
  // year;number (`complete-year.<jur>`: uk "1985;67").
  const bool complete =
      !r.renderer.partial() && !r.renderer.year_only() &&
      (!parsed.year_only || settings.complete_year.count(parsed.jurisdiction) > 0);
  switch (apposition(r, parsed.act.work)) {
    case Repeat::kNo: break;
    case Repeat::kDropped:
      r.reject("names again the act cited just before (an apposition)");
      st.previous.end_unit = r.match.end;
      return Outcome::kDone;
    case Repeat::kReplaces: out.pop_back(); break;  // the explicit citation below replaces it
  }
  const std::size_t citations = write_citations(r, parsed, complete);
  if (citations == 0) {
    r.reject("no valid reference name");
    return Outcome::kRejected;
  }
  if (r.ex != nullptr) r.ex->outcome = "emitted";
  remember(r, parsed, citations, resume);
  return Outcome::kDone;
}

// Fills st.caps with the match's captures; why the rule does not apply here, or nullptr.
const char* Extractor::MatchReader::check_applies(const Reading& r,
                                                  const RuleAnswers::Rule& answer) {
  if (!answer.matched) return "internal: the rule's own program did not match the span";
  const std::uint32_t s = r.match.begin;
  Captures& caps = st.caps;
  caps.reset(e.capture_names.size());
  for (const RuleAnswers::Capture& cap : answer.captures) {
    caps.set(cap.id, Span{s + cap.begin, s + cap.end});
  }
  // `continues`: take the missing captures from the citation just before.
  if (r.rule.continues > 0) {
    if (!st.previous.valid || st.previous.engine != ei || s < st.previous.end_unit ||
        s - st.previous.end_unit > static_cast<std::uint32_t>(r.rule.continues)) {
      return "continues a list, but no citation ends just before";
    }
    caps.add_missing(st.previous.captures);
  }
  // `years`: the rule applies only to the years it names.
  if (!r.rule.years_capture.empty()) {
    const Span* ys = caps.find(r.rc.years_id);
    std::string year;  // four digits: no allocation
    int y = -1;
    if (ys != nullptr && interp.year(*ys, year) && year.size() == 4) y = std::stoi(year);
    if (y < r.rule.years_from || y > r.rule.years_to) return "the year is outside the rule's years";
  }
  return nullptr;
}

// A definition, no citation: "(“the 2014 Act”)" right after its act's citation names that act
// from here on; "“the 2013 Act” means the ... Act 2013" (`defines: next`) names the citation
// that follows (remember()).
Extractor::MatchReader::Outcome Extractor::MatchReader::read_definition(Reading& r) {
  const std::uint32_t s = r.match.begin;
  if (!r.rule.defines_next && (!st.previous.valid || st.history.empty() ||
                               s < st.previous.end_unit || s - st.previous.end_unit > 1)) {
    r.reject("defines a name, but no citation ends just before");
    return Outcome::kRejected;
  }
  std::string& measure = st.measure;
  std::string& year = st.year;
  measure.clear();
  year.clear();
  if (!r.renderer.render(r.rule.refers_measure, r.rc.measure_at, measure) ||
      !r.renderer.render(r.rule.refers_year, r.rc.year_at, year)) {
    r.reject("defines a name, but its type or year cannot be read");
    return Outcome::kRejected;
  }
  if (r.rule.defines_next) {
    st.pending_definition = definition_key(measure, year);
    st.pending_definition_end = r.match.end;
    r.reject("defines a name for the act cited next (no citation)");
    return Outcome::kDone;
  }
  const Act& act = st.history.newest();
  if (act.measure_type != measure || act.year != year) {
    r.reject("defines a name of another type or year than the act cited just before");
    return Outcome::kRejected;
  }
  // A partial name (a title alone: "... Act 1989 (“the 1989 Act”)") binds nothing: a later
  // citation may give the act's number ("1989 c. 4. The 1989 Act ...").
  if (work_number(act.work).empty()) {
    r.reject("defines a name for an act whose name is partial (nothing bound)");
    return Outcome::kRejected;
  }
  st.defined[definition_key(measure, year)] = act.work;
  r.reject("defines a name for the act cited just before (no citation)");
  st.previous.end_unit = r.match.end;
  return Outcome::kDone;
}

// The work the rule names, into st.work: by its emit template, or the act it points back to
// (`refers`). Why the rule does not apply, or nullptr; `failed` when a placeholder of the emit
// template has no value.
const char* Extractor::MatchReader::refer(Reading& r, bool& failed) {
  std::string& work = st.work;
  work.clear();
  switch (r.rule.refers) {
    case Rule::Refers::kNone:
      failed = !r.renderer.render_all(r.rule.emit_parts, r.rc.emit_at, work);
      break;
    case Rule::Refers::kSelf:
      if (!refer_to_self(r))
        return "refers to the document itself, but names an act of another type";
      break;
    case Rule::Refers::kPrevious:
      if (!st.history.empty()) work = st.history.newest().work;
      break;
    case Rule::Refers::kPreviousMeasure: refer_to_previous_measure(r); break;
  }
  return nullptr;
}

// `refers: self {s.measure}`: the document itself, only when it is an act of that type (br
// "desta Lei" in a Medida Provisória is the text of the Lei it amends), or of one of the types
// the value lists, separated by spaces (it "presente decreto": any decree). False when it is
// not.
bool Extractor::MatchReader::refer_to_self(Reading& r) {
  std::string& measure = st.measure;
  measure.clear();
  if (r.rule.refers_measure.choices.empty() ||
      !r.renderer.render(r.rule.refers_measure, r.rc.measure_at, measure) || measure.empty() ||
      st.self.empty() ||
      lists_type(measure, parse_work(st.parsed_works, st.history, st.self, work_parse_options())
                              .act.measure_type)) {
    st.work = st.self;
    return true;
  }
  return false;
}

// `refers: previous-measure {type} [{year}]`: the last act of that type (and year) cited, or
// named by a definition; none cited before ("the 1981 Act" defined elsewhere): the rule's own
// name, if it has one (a partial name).
void Extractor::MatchReader::refer_to_previous_measure(Reading& r) {
  std::string& work = st.work;
  std::string& measure = st.measure;
  std::string& year = st.year;
  measure.clear();
  year.clear();
  const bool by_year = !r.rule.refers_year.choices.empty();
  if (r.renderer.render(r.rule.refers_measure, r.rc.measure_at, measure) &&
      (!by_year || r.renderer.render(r.rule.refers_year, r.rc.year_at, year))) {
    // A name the document defined ("the 2014 Act") before the last act of its year.
    if (by_year && !st.defined.empty()) {
      if (auto it = st.defined.find(definition_key(measure, year)); it != st.defined.end()) {
        work = it->second;
      }
    }
    for (std::size_t k = 0; work.empty() && k < st.history.size(); ++k) {
      const Act& act = st.history.newest(k);
      if (act.measure_type == measure && (!by_year || act.year == year)) {
        work = act.work;
        break;
      }
    }
  }
  if (work.empty() && !r.rule.emit_parts.empty() &&
      !r.renderer.render_all(r.rule.emit_parts, r.rc.emit_at, work)) {
    work.clear();
  }
}

// The citations the match makes, into st.items: one per partition of its chain (the capture
// `parts`), and the act on its own words where the settings say so; without a chain, the act.
// Why the rule does not apply, or nullptr.
const char* Extractor::MatchReader::read_items(Reading& r, std::string_view separator) {
  const grammar::Settings& settings = e.settings();
  const Captures& caps = st.caps;
  const Span match = r.match;
  std::vector<Interpreter::PartitionItem>& items = st.items;
  items.clear();
  const Span* span_cap = caps.find(e.cap_span);
  const Span* parts = caps.find(e.cap_parts);
  if (parts == nullptr) {
    items.push_back(
        Interpreter::PartitionItem{std::string(), span_cap != nullptr ? *span_cap : match});
    return nullptr;
  }
  // `actparts`: levels written inside the act's words, before the chain ("Pub. L. 104-56,
  // title II" before "§§ 201, 202"): the chain starts with them.
  Span chain = *parts;
  const Span* actparts = caps.find(e.cap_actparts);
  const bool act_parts = actparts != nullptr && !actparts->empty() && actparts->begin < chain.begin;
  if (act_parts) chain.begin = actparts->begin;
  // A `span` capture bounds the citation (the words after it were only looked at).
  if (!interp.partitions(chain, span_cap != nullptr ? *span_cap : match, separator, items)) {
    return "the partition chain cannot be read";
  }
  // `partition.range-act = yes`: a range ("arts. 1º a 4º da Lei nº 9.826") stands for its act
  // in the text: each item spans the whole range, and the act is cited on its own words
  // (markup then links the act; extract still lists every item).
  const bool range = std::any_of(items.begin(), items.end(),
                                 [](const Interpreter::PartitionItem& i) { return i.in_range; });
  if (range && settings.range_act) {
    std::uint32_t act_begin = match.end;
    caps.for_each([&](int cid, Span span) {
      if (cid != e.cap_parts && cid != e.cap_span && span.begin >= parts->end) {
        act_begin = std::min(act_begin, span.begin);
      }
    });
    for (auto& item : items) item.span = Span{match.begin, match.end};
    if (act_begin < match.end) {
      items.push_back(Interpreter::PartitionItem{std::string(), Span{act_begin, match.end}});
    }
  }
  // `partition.act-words = yes`: the act is also cited on its own words (the capture `act`),
  // as za publishers link "Act No. 32 of 2000" after "section 12 of the ...".
  if (settings.act_words) {
    if (const Span* act_cap = caps.find(e.cap_act); act_cap != nullptr && !act_cap->empty()) {
      Interpreter::PartitionItem act{std::string(), *act_cap};
      act.act_words = true;
      if (act_parts) {  // the act's words cite the levels written inside them
        std::vector<Interpreter::PartitionItem>& head = st.head_items;
        interp.partitions(*actparts, *actparts, separator, head);
        if (head.size() == 1) act.id = std::move(head[0].id);
      }
      items.push_back(std::move(act));
    }
  }
  return nullptr;
}

// "Lei nº 10.406, de 10 de janeiro de 2002 - Código Civil": the same act named again right
// after its citation, with only punctuation between, is not a second citation. Of the two the
// one that gives the act's number is kept, or without one its date ("testo unico bancario
// (decreto legislativo n. 385 del 1993)": the second; "Lei nº 10.406 ... - Código Civil": the
// first; "The Cambridgeshire Guided Busway Order 2005; S.I. 2005/3523", a title from the
// catalogue: the second, which writes the number).
Extractor::MatchReader::Repeat Extractor::MatchReader::apposition(const Reading& r,
                                                                  const std::string& work_name) {
  const std::vector<Interpreter::PartitionItem>& items = st.items;
  const std::uint32_t s = r.match.begin, end = r.match.end;
  if (!(items.size() == 1 && items[0].id.empty() && st.previous.valid &&
        s >= st.previous.end_unit && s - st.previous.end_unit <= 3 &&
        same_act(st.history.newest().work, work_name, st.act_keys))) {
    return Repeat::kNo;
  }
  for (std::uint32_t k = st.previous.end_unit; k < s; ++k) {
    const Unit& between = u.units[k];
    if (!(between.token_count == 1 && between.cls < 0 &&
          u.tokens.tokens[between.first_token].kind == lexicon::TokenKind::kPunct)) {
      return Repeat::kNo;
    }
  }
  const std::string_view number = work_number(work_name);
  auto gives_number = [&](std::string_view t) {
    return number.empty()
               ? std::any_of(t.begin(), t.end(), [](char ch) { return ch >= '0' && ch <= '9'; })
               : writes_number(t, number);
  };
  std::uint32_t b = s;
  while (b < end && u.units[b].token_count == 0) ++b;
  const auto& ft = u.tokens.tokens[u.units[b].first_token];
  const auto& lt = u.tokens.tokens[u.units[end - 1].first_token + u.units[end - 1].token_count - 1];
  const bool explicit_now = gives_number(text.substr(ft.begin, lt.end - ft.begin));
  if (explicit_now && st.previous.citations == 1 && !out.empty() &&
      !gives_number(out.back().text)) {
    return Repeat::kReplaces;
  }
  return Repeat::kDropped;
}

// Writes a citation per item of st.items whose reference name is valid; how many.
std::size_t Extractor::MatchReader::write_citations(const Reading& r, const ParsedWork& parsed,
                                                    bool complete) {
  const std::string& work = st.work;
  std::size_t written = 0;
  for (const auto& item : st.items) {
    // The reference: the work, or the work and "~" and the partition id. The work is valid
    // (parsed); with a plain partition id so is the reference (ParsedWork::plain), else the
    // whole name is checked.
    std::string& ref = st.ref;
    ref.assign(work);
    if (!item.id.empty()) {
      ref += '~';
      ref += item.id;
      const urn::ParseOptions po = work_parse_options();
      if (!(parsed.plain && plain_partition_id(item.id) && ref.size() <= po.max_length) &&
          !urn::validate(ref, po)) {
        continue;
      }
    }
    // Unit span -> token span -> text offsets.
    std::uint32_t b = item.span.begin, en = item.span.end;
    while (b < en && u.units[b].token_count == 0) ++b;
    while (en > b && u.units[en - 1].token_count == 0) --en;
    if (b >= en) continue;
    const lexicon::Token& t0 = u.tokens.tokens[u.units[b].first_token];
    const lexicon::Token& t1 =
        u.tokens.tokens[u.units[en - 1].first_token + u.units[en - 1].token_count - 1];
    // A reused citation keeps the memory of its strings: every field is set here.
    Citation& c = out.next();
    c.start = c.end = c.char_start = c.char_end = 0;  // extract() maps them
    c.text_begin = text_begin + t0.begin;
    c.text_end = text_begin + t1.end;
    c.text.assign(text.data() + t0.begin, t1.end - t0.begin);
    c.urn.swap(ref);  // (the spare's buffer goes to `ref`, assigned anew for the next)
    c.work = parsed.act.work;
    c.jurisdiction = parsed.jurisdiction;
    c.rule = e.rule_names[static_cast<std::size_t>(r.id)];
    c.complete = complete;
    c.inner = item.act_words;
    if (r.ex != nullptr) {
      r.ex->urns.push_back(c.urn);
      r.ex->citations.push_back(c);
    }
    ++written;
  }
  return written;
}

// What later citations need of this one: the act it cites (and a `defines: next` name for
// it), its captures for `continues`, and where it ends.
void Extractor::MatchReader::remember(const Reading& r, const ParsedWork& parsed,
                                      std::size_t citations, std::uint32_t& resume) {
  const std::uint32_t s = r.match.begin, end = r.match.end;
  // `defines: next`: a definition just before ("“the 2013 Act” means the ... Act 2013") names
  // this act, when it is of that type and year and its name is complete.
  if (!st.pending_definition.empty()) {
    if (s >= st.pending_definition_end && s - st.pending_definition_end <= 2 &&
        !work_number(parsed.act.work).empty() &&
        st.pending_definition == definition_key(parsed.act.measure_type, parsed.act.year)) {
      st.defined[st.pending_definition] = parsed.act.work;
    }
    st.pending_definition.clear();
  }
  st.history.push(parsed.act);
  st.previous.valid = true;
  st.previous.engine = ei;
  st.previous.rule = static_cast<std::size_t>(r.id);
  // A `span` that ends before the match: the words after it were only looked at ("20 U.S.C.
  // 1087 and 42 U.S.C. 300": "and 42" is not a section of title 20) and are read again for the
  // next citation.
  if (const Span* span_cap = st.caps.find(e.cap_span);
      span_cap != nullptr && span_cap->end > s && span_cap->end < end) {
    resume = span_cap->end;
  }
  st.previous.end_unit = resume;
  std::swap(st.previous.captures, st.caps);  // `caps` is reset before it is read again
  st.previous.citations = citations;
}

Status Extractor::run_engine(std::size_t ei, const text::TextView& chunk, Session& session,
                             CitationSink& out, std::vector<Explanation>* trace) const {
  Session::State& st = *session.state_;
  const std::string_view text = chunk.text;
  const Engine& e = *engines_[ei];
  const grammar::Grammar& g = e.g;
  // What is read: the heading pass reads the first lines whole, triggers or not; otherwise the
  // windows around trigger starts (only the starts that make a difference to them are found).
  st.starts.clear();
  Windows windows;
  if (st.heading_pass) {
    windows.emplace_back(0, text.size());
  } else {
    const auto back = static_cast<std::size_t>(g.window_back());
    const auto forward = static_cast<std::size_t>(g.window_forward());
    if (Status s = e.scanner->find_window_starts(text, back, forward, st.breaks, *st.scratch[ei],
                                                 st.starts);
        !s) {
      return s;
    }
    if (st.starts.empty()) return Status::Ok();
    reading_windows(text, st.breaks, st.starts, back, forward, windows);
  }
  // Units of every window, separated by breaks. Line breaks are breaks only in plain text: in
  // HTML and XML a line break in the source is white space, and the elements (<br>, blocks)
  // already break the text.
  UnitText& u = st.units;
  UnitReading reading;
  reading.lines_are_blocks = e.lines_are_blocks && chunk.format == text::Format::kText;
  reading.wrap_width = st.wrap_width;
  build_units(g, text, windows, st.breaks, reading, u, st.word_ids);
  // Leftmost-longest matches, one rule each; after a citation, reading goes on where it ends.
  const Engine::Programs& programs = e.programs();
  if (!programs.status) return programs.status;
  Interpreter interp(g, *e.chain, u);
  st.previous.valid = false;
  const SymbolMatcher matcher(programs.dfa.get(), programs.combined.get(), u.symbols,
                              st.match_starts, st.dfa_caches[ei]);
  MatchReader reader{e, ei, st, text, chunk.text_begin, u, interp, out, trace};
  const re2::StringPiece symbols(u.symbols);
  std::vector<re2::StringPiece> groups;
  std::size_t pos = 0;
  while (pos < u.symbols.size()) {
    Span m;
    bool found = false;
    if (Status s = matcher.next(pos, m, found); !s) return s;
    if (!found) break;
    if (m.end <= m.begin) {
      pos = m.begin + 1;
      continue;
    }
    // Which rules match the span, and their captures: a function of the span's symbols alone
    // (the rule programs have no assertions), so the answers are kept per session.
    const RuleAnswers& answers = answers_for(e, st.answers[ei], symbols, m.begin, m.end, groups);
    std::uint32_t resume = m.end;
    pos = reader.read(m, answers, resume) ? resume : m.begin + 1;
  }
  return Status::Ok();
}

Status Extractor::extract(const text::TextView& chunk, Session& session,
                          std::vector<Citation>& out) const {
  std::vector<Citation> none;
  return extract_from(chunk, session, out, out.size(), none);
}

Status Extractor::extract_over(const text::TextView& chunk, Session& session,
                               std::vector<Citation>& out, std::vector<Citation>& spare) const {
  return extract_from(chunk, session, out, 0, spare);
}

// The grammar whose triggers the first 32 KiB of a document's first chunk hold most often, in
// st.chosen (left -1 when the text holds no trigger yet).
Status Extractor::choose_grammar(const text::TextView& chunk, Session& session) const {
  Session::State& st = *session.state_;
  // The grammar whose triggers the first 32 KiB of this first chunk hold most often, a marker
  // (a word typical of its texts: "S.I.", "municipality") counting as kMarkerWeight triggers
  // (ties: the first by name). 32 KiB tell the languages apart (every document of the shared
  // corpora is read as with 64 KiB; 16 KiB misread two US Code titles); one scan of them counts
  // the triggers and markers of every grammar at once (chooser_).
  constexpr std::size_t kMarkerWeight = 8;
  std::string_view sample = std::string_view(chunk.text).substr(0, kChoiceTextBytes);
  if (sample.size() < chunk.text.size()) {  // end at a line break, not inside a word
    const std::size_t nl = sample.rfind('\n');
    if (nl != std::string_view::npos) sample = sample.substr(0, nl + 1);
  }
  // Text without any trigger or marker (a long preamble, a table of contents, a web page's
  // menus) tells nothing: the rest of the chunk is read, and when it has none either the
  // choice waits for the next chunk (no grammar finds anything without a trigger).
  for (bool whole = false;; whole = true) {
    if (Status s = chooser_->count_starts(sample, *st.chooser_scratch, st.chooser_counts); !s) {
      return s;
    }
    std::size_t best = 0;
    int chosen = -1;
    for (std::size_t ei = 0; ei < engines_.size(); ++ei) {
      auto count = [&](std::size_t group) {
        return group < st.chooser_counts.size() ? st.chooser_counts[group] : 0;
      };
      const std::size_t score = count(2 * ei) + kMarkerWeight * count(2 * ei + 1);
      if (chosen < 0 || score > best) {
        best = score;
        chosen = static_cast<int>(ei);
      }
    }
    if (best > 0) {
      st.chosen = chosen;
      break;
    }
    if (whole || sample.size() == chunk.text.size()) break;
    sample = chunk.text;
  }
  return Status::Ok();
}

// The document's heading, read first from its first lines, so that references to the document
// itself anywhere in the document know its name, wherever chunks are cut (a grammar's
// `heading` rules name documents only here; its other rules may too, when the citation they
// find stands alone on one of the first lines). Leaves the session as it found it but for
// st.self and st.heading_end.
Status Extractor::read_heading(const text::TextView& chunk, Session& session) const {
  Session::State& st = *session.state_;
  std::size_t head_end = 0;
  for (int line = 0; line < 4 && head_end < chunk.text.size(); ++line) {
    const std::size_t nl = chunk.text.find('\n', head_end);
    head_end = nl == std::string::npos ? chunk.text.size() : nl + 1;
  }
  head_end = std::min<std::size_t>(head_end, 1024);
  text::TextView head;
  head.text_begin = chunk.text_begin;
  head.text = chunk.text.substr(0, head_end);
  std::vector<std::uint64_t> saved_breaks = st.breaks;
  st.history.pin();  // the heading pass may clear the parsed names the acts point to
  auto saved_history = st.history;
  auto saved_defined = st.defined;
  std::vector<Citation> found;
  CitationSink found_sink{found};  // (no spares: these citations are dropped)
  st.heading_pass = true;
  for (std::size_t ei = 0; ei < engines_.size(); ++ei) {
    if (choose_per_document_ && static_cast<int>(ei) != st.chosen) continue;
    if (Status s = run_engine(ei, head, session, found_sink, nullptr); !s) {
      st.heading_pass = false;
      return s;
    }
  }
  found_sink.finish();
  st.heading_pass = false;
  st.breaks = std::move(saved_breaks);
  st.history = std::move(saved_history);
  st.defined = std::move(saved_defined);
  st.previous.valid = false;
  std::stable_sort(found.begin(), found.end(), [](const Citation& a, const Citation& b) {
    return a.text_begin < b.text_begin;
  });
  // The first line of the heading names the document; a partial name there ("Health and
  // Social Care (Wales) Act 2025", no chapter) gives way to a complete one on a following
  // heading line ("2025 asc 1").
  if (!found.empty() && is_heading(found.front(), chunk)) {
    const Citation* pick = &found.front();
    for (const Citation& c : found) {
      if (pick->complete) break;
      if (c.complete && is_heading(c, chunk)) pick = &c;
    }
    st.self = pick->work;
    st.heading_end = pick->text_end;
  }
  return Status::Ok();
}

// The document's heading ("DECRETO LEGISLATIVO 3 febbraio 2026, n. 17" alone on one of its
// first lines) named the document (read_heading); it is not a citation: out[first_new] is.
void Extractor::drop_heading(const text::TextView& chunk, Session& session,
                             std::vector<Citation>& out, std::size_t first_new) const {
  Session::State& st = *session.state_;
  auto last = out.begin() + static_cast<long>(first_new) + 1;
  while (last != out.end() && last->text_end <= st.heading_end && is_heading(*last, chunk)) {
    ++last;
  }
  // `heading.title = unlinked`: the line after the heading is the document's title, whose
  // citations are not linked either (Normattiva).
  bool title_unlinked = false;
  for (std::size_t ei = 0; ei < engines_.size(); ++ei) {
    const bool ran = !choose_per_document_ || static_cast<int>(ei) == st.chosen;
    title_unlinked = title_unlinked || (ran && engines_[ei]->title_unlinked);
  }
  const std::size_t title = chunk.text.find('\n', (last - 1)->text_end - chunk.text_begin);
  if (title_unlinked && title != std::string_view::npos) {
    std::size_t title_end = chunk.text.find('\n', title + 1);
    if (title_end == std::string_view::npos) title_end = chunk.text.size();
    while (last != out.end() && last->text_begin - chunk.text_begin < title_end) ++last;
  }
  out.erase(out.begin() + static_cast<long>(first_new), last);
}

namespace {

// The code points and UTF-16 units before original offset `pos` of the chunk: counted forward
// from the last position reached in this document, or back from it. (The positions are within
// the chunk's original bytes: their views are made without substr's check.)
text::UnitCount units_at(const text::TextView& chunk, Extractor::Session::State& st,
                         std::uint64_t pos) {
  if (pos >= st.count_pos) {
    const std::uint64_t from = std::max(st.count_pos, chunk.orig_begin);
    const std::string_view bytes(chunk.original.data() + (from - chunk.orig_begin), pos - from);
    const text::UnitCount n = text::count_units(bytes, chunk.encoding);
    st.counted.code_points += n.code_points;
    st.counted.utf16 += n.utf16;
    st.count_pos = pos;
    return st.counted;
  }
  // pos is behind: subtract what lies between pos and count_pos.
  const std::string_view bytes(chunk.original.data() + (pos - chunk.orig_begin),
                               st.count_pos - pos);
  const text::UnitCount n = text::count_units(bytes, chunk.encoding);
  return {st.counted.code_points - n.code_points, st.counted.utf16 - n.utf16};
}

// A citation's original span (from its span in the view's text) and its code point and UTF-16
// offsets.
void map_citation(const text::TextView& chunk, Extractor::Session::State& st, Citation& c) {
  c.start = chunk.map.to_original_begin(c.text_begin);
  c.end = chunk.map.to_original_end(c.text_end);
  const text::UnitCount at_start = units_at(chunk, st, c.start);
  const text::UnitCount at_end = units_at(chunk, st, c.end);
  c.char_start = at_start.code_points;
  c.char_end = at_end.code_points;
  c.utf16_start = at_start.utf16;
  c.utf16_end = at_end.utf16;
}

// The original spans of out[first_new...] and their code point and UTF-16 offsets, counted
// forward from the last position reached in this document; then counted on to the chunk's end,
// so that the next chunk continues from there.
void set_offsets(const text::TextView& chunk, Extractor::Session::State& st,
                 std::vector<Citation>& out, std::size_t first_new) {
  for (std::size_t i = first_new; i < out.size(); ++i) map_citation(chunk, st, out[i]);
  // Count to the chunk's end, so that the next chunk continues from there.
  if (st.count_pos < chunk.orig_end) {
    const std::uint64_t from = std::max(st.count_pos, chunk.orig_begin);
    const text::UnitCount n = text::count_units(
        std::string_view(chunk.original).substr(from - chunk.orig_begin, chunk.orig_end - from),
        chunk.encoding);
    st.counted.code_points += n.code_points;
    st.counted.utf16 += n.utf16;
    st.count_pos = chunk.orig_end;
  }
}

}  // namespace

Status Extractor::extract_from(const text::TextView& chunk, Session& session,
                               std::vector<Citation>& out, std::size_t first_new,
                               std::vector<Citation>& spare) const {
  Session::State& st = *session.state_;
  if (chunk.text.size() >= 0xFFFFFFF0u) {
    return make_error(ErrorCode::kLimitExceeded, "a text chunk of 4 GB or more");
  }
  // Hard breaks: where the view inserted a synthetic block boundary.
  st.breaks.clear();
  for (const text::Piece& p : chunk.map.pieces()) {
    if (p.kind == text::PieceKind::kSynthetic) st.breaks.push_back(p.text_begin - chunk.text_begin);
  }
  if (choose_per_document_ && st.chosen < 0 && !chunk.text.empty()) {
    if (Status s = choose_grammar(chunk, session); !s) return s;
  }
  if (!st.seen_text && !chunk.text.empty() && any_lines_are_blocks_) {
    // Only plain text is read a line a block (UnitReading::lines_are_blocks): HTML and XML
    // have no hard wrap to find.
    st.wrap_width = chunk.format == text::Format::kText
                        ? hard_wrap_width(std::string_view(chunk.text).substr(0, 8 << 10))
                        : 0;
  }
  if (!st.seen_text && st.self.empty() && !chunk.text.empty()) {
    if (Status s = read_heading(chunk, session); !s) return s;
  }
  CitationSink sink{out, first_new, &spare};
  for (std::size_t ei = 0; ei < engines_.size(); ++ei) {
    if (choose_per_document_ && static_cast<int>(ei) != st.chosen) continue;
    if (Status s = run_engine(ei, chunk, session, sink, nullptr); !s) {
      sink.finish();
      return s;
    }
  }
  sink.finish();
  // Sort this chunk's citations, drop exact duplicates, map to the original.
  // By start; citations starting together keep the order they were read in (list items).
  auto by_start = [](const Citation& a, const Citation& b) { return a.text_begin < b.text_begin; };
  if (!std::is_sorted(out.begin() + static_cast<long>(first_new), out.end(), by_start)) {
    std::stable_sort(out.begin() + static_cast<long>(first_new), out.end(), by_start);
  }
  out.erase(std::unique(out.begin() + static_cast<long>(first_new), out.end(),
                        [](const Citation& a, const Citation& b) {
                          return a.text_begin == b.text_begin && a.text_end == b.text_end &&
                                 a.urn == b.urn;
                        }),
            out.end());
  if (!st.seen_text && first_new < out.size() && is_heading(out[first_new], chunk)) {
    drop_heading(chunk, session, out, first_new);
  }
  if (!chunk.text.empty()) st.seen_text = true;
  set_offsets(chunk, st, out, first_new);
  return Status::Ok();
}

Result<std::vector<Explanation>> Extractor::explain(const std::string& input,
                                                    const std::string& self_urn) const {
  // Read as a plain-text document is (its line ends, invalid bytes), in one chunk.
  text::ViewOptions options;
  options.format = text::ViewOptions::FormatChoice::kText;
  auto chunk = text::make_view(input, options);
  if (!chunk) return chunk.error();
  auto session = start(self_urn);
  std::vector<Explanation> trace;
  std::vector<Citation> citations;
  CitationSink sink{citations};
  for (std::size_t ei = 0; ei < engines_.size(); ++ei) {
    if (Status s = run_engine(ei, *chunk, *session, sink, &trace); !s) {
      return s.error();
    }
  }
  // Offsets in the input, mapped as extract() maps its citations.
  Session::State& st = *session->state_;
  for (Explanation& ex : trace) {
    ex.start = chunk->map.to_original_begin(ex.text_begin);
    ex.end = chunk->map.to_original_end(ex.text_end);
    ex.char_start = units_at(*chunk, st, ex.start).code_points;
    ex.char_end = units_at(*chunk, st, ex.end).code_points;
    for (Citation& c : ex.citations) map_citation(*chunk, st, c);
  }
  return trace;
}

}  // namespace lexlink::extract

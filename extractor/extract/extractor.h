// extract/extractor: finds citations of sources of law in a TextView and names them (URN:LEX).
//
// An Extractor is loaded once from the data folder (grammars/<g>/ with their lexicons),
// compiled (Hyperscan trigger database cached on disk, RE2 rule programs) and then immutable:
// threads share it. (With several grammars a grammar's programs, and with any a rule's own
// program with its captures, are compiled once, thread-safely, when first needed.) Each
// document gets its own Session (the context that relative references need, and the
// per-thread scratch). extract() reads one chunk at a time, in order, and appends the citations
// it finds, sorted by start; every citation carries its byte span in the original input, its
// code-point and UTF-16 spans (text/unit_count.h), the URN of the reference (with ~partition) and
// of the work, the rule that produced it and whether the name is complete. Work per chunk is linear
// in its size: only bounded windows around triggers are read.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "extract/document_name.h"
#include "scan/trigger_scanner.h"
#include "text/cut_advisor.h"
#include "text/text_view.h"

namespace lexlink::extract {

struct Citation {
  std::uint64_t start = 0;  // original byte offsets [start, end)
  std::uint64_t end = 0;
  std::uint64_t char_start = 0;  // the same span in code points of the original
  std::uint64_t char_end = 0;
  std::uint64_t utf16_start = 0;  // and in UTF-16 code units of the original
  std::uint64_t utf16_end = 0;
  std::uint64_t text_begin = 0;  // the span in the view's text
  std::uint64_t text_end = 0;
  std::string text;          // the cited text, as the view reads it
  std::string urn;           // the reference: the work plus "~partition" when one is cited;
                             // always a valid URN:LEX name (it parses with allow_unnumbered)
  std::string work;          // the name of the act
  std::string jurisdiction;  // of the name ("it", "eu", ...)
  std::string rule;          // "grammar/rule"
  bool complete = true;      // false for partial names (year without date, issuer unknown)
  // The act cited on its own words inside a citation of its partition (partition.act-words):
  // markup links the partition citation instead.
  bool inner = false;
};

// With several grammars ({"auto"}), the text a document is read with is chosen from: the first
// kChoiceTextBytes of its first chunk's text (text::ViewOptions::first_chunk_text_bytes makes
// the first chunk hold them); when they hold no trigger of any grammar, the whole chunk, and
// when it holds none either, the next chunk (and so on).
inline constexpr std::size_t kChoiceTextBytes = 32 << 10;

struct ExtractorOptions {
  std::string data_dir;  // holds grammars/ and lexicons/
  // Grammars to load, e.g. {"it"}; {"auto"} loads every folder of grammars/ and reads each
  // document with the one whose triggers its first 32 KiB of text hold most often.
  std::vector<std::string> grammars;
  // kHyperscan: triggers found by Hyperscan, rule matches by SymbolDfa (symbol_dfa.h); kRe2:
  // both by RE2, the slow reference path the fast one is tested against.
  scan::Engine engine = scan::Engine::kHyperscan;
  // Where compiled trigger databases are cached; empty: $XDG_CACHE_HOME/lexlink or
  // ~/.cache/lexlink; "-": no cache.
  std::string cache_dir;
};

// One match of a rule, for `lexlink explain`.
struct Explanation {
  std::string rule;  // "grammar/rule (file:line)"
  std::string doc;
  std::string matched_text;
  // The match's span in the text explained: bytes and code points (and in the view's text).
  std::uint64_t start = 0, end = 0, char_start = 0, char_end = 0;
  std::uint64_t text_begin = 0, text_end = 0;
  std::vector<std::string> units;     // "text [symbol]" per unit of the match
  std::vector<std::string> captures;  // "name = text (class, file:line)"
  std::vector<std::string> urns;
  std::vector<Citation> citations;  // the citations it emitted, with their offsets
  std::string outcome;              // "emitted" or why not
};

class Extractor {
 public:
  class Session;

  static Result<std::shared_ptr<const Extractor>> load(const ExtractorOptions& options);
  ~Extractor();

  // A document's session. `self_urn` names the document itself (for "del presente decreto").
  std::unique_ptr<Session> start(const std::string& self_urn = {}) const;

  // The document's own name from the metadata in its first bytes (document_name.h), publishers'
  // identifiers mapped with the loaded grammars' lexicons/<jur>/document-ids.tsv; "" if none.
  std::string document_name(std::string_view head) const {
    return document_urn(head, &document_ids_);
  }

  // Appends the citations of `chunk` (chunks of one document, in order) to `out`.
  Status extract(const text::TextView& chunk, Session& session, std::vector<Citation>& out) const;
  // The same, `out` overwritten: the citations in it (read before, no longer needed) are reused
  // in place, then those at the back of `spare`, so that the new ones keep their strings' memory
  // instead of allocating their own; those not reused go to `spare`. The citations are the same
  // either way.
  Status extract_over(const text::TextView& chunk, Session& session, std::vector<Citation>& out,
                      std::vector<Citation>& spare) const;

  // What each rule match in `text` was made of (read as a plain-text document, one chunk).
  Result<std::vector<Explanation>> explain(const std::string& text,
                                           const std::string& self_urn = {}) const;

  // Grammars loaded, their rules and examples, for tests and `lexlink grammar`.
  struct RuleInfo {
    std::string grammar, name, doc, file;
    std::uint32_t line = 0;
    struct Example {
      std::string text;
      std::vector<std::string> urns;
      std::uint32_t line = 0;
    };
    std::vector<Example> examples, counters;
  };
  std::vector<RuleInfo> rules() const;
  bool trigger_cache_hit() const;

  // Where text without block boundaries or line ends may be cut into chunks without changing
  // the citations found (text::ViewOptions::cut_advisor): white space that no reading window
  // of any loaded grammar reaches.
  std::shared_ptr<const text::CutAdvisor> cut_advisor() const { return cut_advisor_; }

  struct StatePool;  // (private use: the finished sessions' states, see pool_)

 private:
  Extractor() = default;
  struct Engine;
  bool choose_per_document_ = false;
  bool any_lines_are_blocks_ = false;  // some grammar has `line-break = paragraph`
  // With several grammars: every grammar's triggers (group 2 * engine) and markers (group
  // 2 * engine + 1) in one scanner, for choosing a grammar per document in one scan.
  std::shared_ptr<const scan::TriggerScanner> chooser_;
  struct CitationSink;  // where run_engine() writes citations (extractor.cpp)
  struct MatchReader;   // how run_engine() reads a rule match into citations (extractor.cpp)
  // extract() and extract_over(): out[first_new, ...) are citations to overwrite.
  Status extract_from(const text::TextView& chunk, Session& session, std::vector<Citation>& out,
                      std::size_t first_new, std::vector<Citation>& spare) const;
  Status run_engine(std::size_t engine, const text::TextView& chunk, Session& session,
                    CitationSink& out, std::vector<Explanation>* trace) const;
  // extract_from()'s steps on a document's first chunk: the grammar to read it with (several
  // grammars), its heading (the document's own name), and the heading's citations left out.
  Status choose_grammar(const text::TextView& chunk, Session& session) const;
  Status read_heading(const text::TextView& chunk, Session& session) const;
  void drop_heading(const text::TextView& chunk, Session& session, std::vector<Citation>& out,
                    std::size_t first_new) const;
  std::vector<std::unique_ptr<Engine>> engines_;
  DocumentIds document_ids_;
  std::shared_ptr<const text::CutAdvisor> cut_advisor_;
  // The states of finished sessions, handed to the next ones (start()): their scanner scratch
  // and their caches of what is a function of the text alone (rule answers per symbol span,
  // parsed work names) go on from document to document, so a run of many small documents does
  // not rebuild them for each. Shared with the sessions, which give their state back when they
  // end (the extractor may be gone by then).
  std::shared_ptr<StatePool> pool_;
};

class Extractor::Session {
 public:
  struct State;
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

 private:
  friend class Extractor;
  Session() = default;
  std::unique_ptr<State> state_;
  std::shared_ptr<StatePool> pool_;  // where state_ goes back at the end
};

}  // namespace lexlink::extract

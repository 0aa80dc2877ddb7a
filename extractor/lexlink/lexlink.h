// lexlink/lexlink.h: the lexlink library's C++ API (C++17 or later). lexlink finds citations of
// sources of law in plain text, HTML and XML, names them with URN:LEX (RFC 9676), and writes
// documents back with links on their citations, not one other byte changed.
//
//   auto x = lexlink::Extractor::load();               // every jurisdiction of the data folder
//   if (!x) { std::cerr << x.error().to_string(); ... }
//   auto cites = x->extract("ai sensi della legge 3 aprile 2000, n. 56");
//   for (const lexlink::Citation& c : *cites) std::cout << c.urn << '\n';
//
// Ownership: every call returns values the caller owns (strings, vectors); nothing returned
// points into the library or into the caller's buffers. Buffers passed in are read during the
// call only.
//
// Errors: nothing here throws (but std::bad_alloc when memory runs out, as any C++ library, and
// Result::value() of an error). Every call that can fail returns a Result or a Status whose
// Error says what went wrong: ErrorCode::kInvalidArgument (a bad option, an empty or oversized
// buffer, invalid UTF-8 where UTF-8 was promised), kDataError (a grammar or lexicon file is
// malformed: Error::file, line and col say where), kNotFound (a data folder, a jurisdiction or
// a file that does not exist), kLimitExceeded (a document over the configured size),
// kUnsupported (a file that looks binary), kIoError.
//
// Threads: an Extractor is immutable once loaded; copies share it (a copy is a reference
// count), and any number of threads may call its const functions at once. The free functions
// keep no state.
//
// Offsets: every citation carries its span three ways, computed once: in bytes of the document
// as it was given (its own encoding), in Unicode code points, and in UTF-16 code units (what
// JavaScript, Java, .NET, Word and LSP clients count in).
//
// Nothing in this header (or lexlink/status.h) includes a third-party header; the library's
// internals are not reachable from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lexlink/status.h"

namespace lexlink {

// The library's version, "MAJOR.MINOR.PATCH".
LEXLINK_API const char* version();

// --- The data folder ---------------------------------------------------------------------------

// The data folder (the one holding grammars/ and lexicons/) used when ExtractorOptions names
// none: $LEXLINK_DATA when set, else the installed data (PREFIX/share/lexlink, found from where
// the library lies), else the source tree the library was built from.
LEXLINK_API std::string default_data_folder();

// The jurisdictions a data folder holds (the folders of DATA/grammars), sorted: what
// ExtractorOptions::jurisdictions may name. `data_folder` empty: default_data_folder().
LEXLINK_API std::vector<std::string> jurisdictions(const std::string& data_folder = {});

// --- Finding citations -------------------------------------------------------------------------

struct Span {
  std::uint64_t begin = 0;  // [begin, end)
  std::uint64_t end = 0;
};

struct Citation {
  Span bytes;                // in the document's bytes as given
  Span code_points;          // the same span in Unicode code points
  Span utf16;                // the same span in UTF-16 code units
  std::string text;          // the cited text, as read (markup between its words left out)
  std::string urn;           // the name cited: the act, plus "~partition" when a partition is cited
  std::string work;          // the name of the act
  std::string jurisdiction;  // of the name ("it", "eu", ...)
  std::string rule;          // the grammar rule that read it ("it/act-date-number")
  bool complete = true;      // false for a partial name (a year without the date, ...)
  // The act cited on its own words inside a citation of one of its partitions ("Act No. 32 of
  // 2000" in "section 12 of the ... Act, 2000 (Act No. 32 of 2000)"): markup links the
  // partition citation instead.
  bool inner = false;
};

enum class Format { kAuto, kText, kHtml, kXml };

struct DocumentOptions {
  Format format = Format::kAuto;  // kAuto: told from the document (markup, XML declaration)
  // "auto" (told from the document: BOM, <meta charset>, XML declaration, UTF-8 validity,
  // else a guess among the supported encodings) or a label: utf-8, utf-16le, utf-16be,
  // iso-8859-1 (latin1), windows-1252, iso-8859-15 (latin9) and their aliases. With "utf-8", a
  // buffer that is not valid UTF-8 is refused (kInvalidArgument, naming the first bad byte).
  std::string encoding = "auto";
  // The document's own name, for "del presente decreto", "this Act" (a valid URN:LEX name);
  // empty: the name its metadata gives (HTML and XML), if any.
  std::string self_urn;
};

struct ExtractorOptions {
  std::string data_folder;  // empty: default_data_folder()
  // The grammars to load, e.g. {"it"}; {"auto"}: every jurisdiction of the data folder, each
  // document being read with the one whose words its first 32 KiB hold most often.
  std::vector<std::string> jurisdictions = {"auto"};
  // Read with RE2 alone, the slow reference path the fast one (Hyperscan) is tested against.
  bool reference_engine = false;
  // Where compiled trigger databases are cached: empty, $XDG_CACHE_HOME/lexlink or
  // ~/.cache/lexlink; "-": no cache.
  std::string cache_folder;
  // Documents (buffers and files, once decompressed) longer than this are refused with
  // kLimitExceeded; 0: no limit.
  std::uint64_t max_document_bytes = std::uint64_t{256} << 20;
};

// --- Linking citations -------------------------------------------------------------------------

enum class Href { kUrn, kResolver };

struct MarkupOptions {
  DocumentOptions document;
  // The links written: "auto" (by the document: akn, nir or lexml for those XML vocabularies,
  // else html), "html", "akn", "nir", "lexml" or "lexml-span".
  std::string profile = "auto";
  Href href = Href::kUrn;  // the URN itself, or the jurisdiction's resolver URL
  // How the partition is attached in the href: '~' or '#'; 0: '~' for kUrn, '#' for kResolver.
  char partition_sep = 0;
};

// What became of one citation: linked, or not and why.
struct LinkOutcome {
  Span bytes;        // of the citation in the input document (after widening to characters)
  std::string urn;   // the name linked to
  std::string rule;  // who proposed it
  bool linked = false;
  std::string reason;  // "linked", or why not: "existing_link", "block_break", ...
  std::string detail;  // a sentence for people, when there is more to say
  std::string href;    // the href written (linked only)
};

struct MarkupResult {
  std::string document;               // the input with the links inserted
  std::vector<LinkOutcome> outcomes;  // one per citation found, in document order
};

class LEXLINK_API Extractor {
 public:
  // Loads the grammars and lexicons and compiles them (a few tens of milliseconds; the trigger
  // database is cached on disk). kNotFound: no such data folder or jurisdiction; kDataError: a
  // data file is malformed (file:line:col); kInvalidArgument: a bad option.
  static Result<Extractor> load(const ExtractorOptions& options = {});

  // The citations of a document held in memory, in document order. kInvalidArgument for an
  // empty buffer or (encoding "utf-8") invalid UTF-8; kLimitExceeded over max_document_bytes.
  Result<std::vector<Citation>> extract(std::string_view document,
                                        const DocumentOptions& options = {}) const;
  // The citations of a file ("-": standard input); .gz and .zst files are decompressed. Also
  // kNotFound, kIoError, and kUnsupported for a file that looks binary.
  Result<std::vector<Citation>> extract_file(const std::string& path,
                                             const DocumentOptions& options = {}) const;

  // The document with a link on every citation; every other byte unchanged, so that
  // unmark(markup(x)) == x. Errors as extract().
  Result<MarkupResult> markup(std::string_view document, const MarkupOptions& options = {}) const;

  // The jurisdictions loaded, and the data folder they came from.
  const std::vector<std::string>& jurisdictions() const;
  const std::string& data_folder() const;

  struct Impl;  // (private)

 private:
  explicit Extractor(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

// The document without the links lexlink inserted (and nothing else removed). Links are found
// in UTF-8, 8-bit and UTF-16 documents alike.
LEXLINK_API Result<std::string> unmark(std::string_view document);

// --- The URN:LEX toolkit -----------------------------------------------------------------------
// Errors of a name are kInvalidArgument (kLimitExceeded over max_length) with a message that
// names the byte where reading stopped and what was expected there; Error::col is that byte's
// position counted from 1.

struct UrnOptions {
  bool iri = false;                    // accept raw non-ASCII letters (the "unicode" form)
  bool allow_empty_authority = false;  // accept urn:lex:eu::... (the gold data's wildcard)
  bool allow_unnumbered = false;       // accept details without a number (URN:NIR's forms)
  std::size_t max_length = 64 * 1024;  // longest name accepted, in bytes
};

// Whether `name` is a valid URN:LEX name (or reference: partition, query, fragment).
LEXLINK_API Status urn_validate(std::string_view name, const UrnOptions& options = {});

// The parts of a name, read from its canonical form: "URN:LEX:IT:Stato:..." gives jurisdiction
// "it"; the JSON structure is that of the name as written.
struct UrnParts {
  std::string canonical;      // the canonical form (urn_normalize)
  std::string jurisdiction;   // "it", "eu", "br" ...
  std::string work;           // the name at work level: urn:lex:JURISDICTION:WORK
  std::string document_name;  // the name without ~partition, ?query and #fragment
  std::string partition;      // the partition id, without '~' (empty: none)
  std::string year;           // of the first date, or a four-digit period; empty otherwise
  bool year_only = false;     // the details give a year, not a date (a partial name)
  // The whole structure as `lexlink urn parse` prints it (a JSON object): issuers, measure,
  // details, annexes, expression, manifestation, partition, query, fragment.
  std::string json;
};

LEXLINK_API Result<UrnParts> urn_parse(std::string_view name, const UrnOptions& options = {});

// The canonical form: lower case but the partition id, Unicode in NFC and percent-encoded.
// `fold`: non-ASCII text transliterated to ASCII first (sanità -> sanita).
LEXLINK_API Result<std::string> urn_normalize(std::string_view name, const UrnOptions& options = {},
                                              bool fold = false);

// Whether two names are lexically equivalent (RFC 8141 section 3 plus LEX's case rule: names
// that differ only in case are the same name, partition ids included).
LEXLINK_API Result<bool> urn_equal(std::string_view a, std::string_view b,
                                   const UrnOptions& options = {});

// The resolver URL of a name, from the data folder's lexicons/<jurisdiction>/resolvers.tsv;
// `partition_sep` '#' (the specification's resolver rule) or '~'. kNotFound: no rule applies.
LEXLINK_API Result<std::string> urn_resolve(std::string_view name, char partition_sep = '#',
                                            const std::string& data_folder = {});

}  // namespace lexlink

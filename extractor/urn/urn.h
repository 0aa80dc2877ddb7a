// urn/urn: parse and validate URN:LEX names and references (RFC 9676, spec/urn-lex-abnf.txt).
//
// `parse` turns a name such as "urn:lex:it:stato:legge:2000-04-03;56~art3-com2" into a parse
// tree whose nodes are the ABNF productions (jurisdiction, authority, issuer, measure, details,
// dates, numbers, annexes, expression, manifestation, partition, ...), each a byte span of the
// input. `validate` runs the same parser without building anything. Both are linear in the
// input, never throw, and report a failure as a ParseError: the byte position, what was expected,
// the production being parsed, and a message a person can act on.
//
// Grammar notes (where the ABNF is silent or ambiguous; README.md "URN:LEX toolkit" repeats them):
// - A reference is `URN-document ["~" partition-id] ["?" query] ["#" fragment]`; the ABNF leaves
//   partition-id open, we accept `1*(alfadot / other / ";")` (profiles use `-`, `_` and `;`).
// - `jurisdiction-code = 2*alf-dot` is read as "an alf-dot of at least two characters".
// - An issuer made of one alf-dot is reported as an institution (the ABNF cannot tell an office).
// - Details are dates when they start with `dddd-`, else a period (so the year-only partial form
//   `2000;56` parses, as a period; Urn::year_only() tells it apart).
// - Dates are checked against the calendar (month 01-12, day within the month).
// - A literal `|` is accepted after a date (LEX reserves it for the local date form).
// - Percent-encoding: `%` + two hex digits, never %00, never an unreserved character (letters,
//   digits, `.`, `-`, `_`, `'`, `=`, `(`, `)`), and encoded bytes must form valid UTF-8.
// - Raw non-ASCII characters (the "unicode" form of section 3.4) are rejected unless
//   ParseOptions::allow_iri is set; canonical names carry them percent-encoded. In that form a
//   raw character counts as the alfanum its percent-encoding is, except white space, controls,
//   format and unassigned code points.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace lexlink::urn {

// The productions reported in the parse tree; the names are the ABNF's.
enum class Kind : std::uint8_t {
  kReference,     // URN-reference: the whole input
  kJurisdiction,  // jurisdiction = jurisdiction-code *(";" jurisdiction-unit)
  kJurisdictionCode,
  kJurisdictionUnit,
  kWork,       // work = authority ":" measure ":" details *(":" annex)
  kAuthority,  // authority = issuer *("+" issuer)
  kIssuer,     // issuer = (institution *(";" body-function)) / office
  kInstitution,
  kBodyFunction,
  kMeasure,  // measure = measure-type *(";" specification)
  kMeasureType,
  kSpecification,  // in measure, annex, version and every manifestation element
  kDetails,        // details = (dates / period) ";" numbers
  kDates,
  kDate,  // date = date-iso ["|" date-loc]
  kDateIso,
  kDateLocal,
  kPeriod,
  kNumbers,  // numbers = (document-id *("," document-id)) / number-lex
  kDocumentId,
  kNumberLex,
  kAnnex,  // annex = annex-id *(";" specification)
  kAnnexId,
  kExpression,  // expression = version [":" language]
  kVersion,     // version = (amendment-date / specification) *(";" (event-date / event))
  kEvent,       // (event dates are kDate children of kVersion)
  kLanguage,
  kManifestation,  // manifestation = format ":" editor [":" component [":" feature]]
  kFormat,
  kMime,
  kEditor,
  kPublisher,
  kComponent,
  kPart,
  kFeature,
  kAttribute,
  kPartition,  // after "~"
  kQuery,      // after "?" (RFC 2141bis urn-query)
  kFragment,   // after "#"
};

const char* to_string(Kind kind);

struct Node {
  Kind kind;
  std::int32_t parent;  // index of the parent node, -1 for the root
  std::uint32_t begin;  // byte span in Urn::text()
  std::uint32_t end;
};

struct ParseError {
  std::size_t position = 0;  // byte offset into the input where parsing stopped
  std::string expected;      // what would have been valid there, e.g. "':' after the measure"
  std::string production;    // the ABNF production being parsed, e.g. "work"
  std::string message;       // one line for a person: what is wrong and how to fix it
  ErrorCode code = ErrorCode::kInvalidArgument;
};

struct ParseOptions {
  // Accept raw non-ASCII letters and digits (the "unicode" display form of section 3.4).
  bool allow_iri = false;
  // Accept an empty authority (`urn:lex:eu::regulation:...`), the wildcard that gold rows derived
  // from Normattiva and CELEX carry; never valid in a name we emit.
  bool allow_empty_authority = false;
  // Accept details without ";" numbers (`urn:lex:it:stato:costituzione:1947-12-27`), as URN:NIR
  // and ../shared/jurisdictions.md write the Italian Constitution; the ABNF requires a number
  // (spec 6.3.3 gives unnumbered measures a `lex-N` one), so this is off by default.
  bool allow_unnumbered = false;
  // Longer inputs are refused with ErrorCode::kLimitExceeded before any parsing.
  std::size_t max_length = 64 * 1024;
};

// A parsed URN:LEX name or reference: owns its text and a pre-order parse tree over it.
// A value type: copyable, movable, no pointers into other objects.
class Urn {
 public:
  Urn() = default;

  std::string_view text() const { return text_; }
  std::span<const Node> nodes() const { return nodes_; }
  std::string_view view(const Node& n) const {
    return std::string_view(text_).substr(n.begin, n.end - n.begin);
  }
  // The first node of `kind` in document order, or nullptr.
  const Node* find(Kind kind) const;
  // Text of the first node of `kind`, empty when absent.
  std::string_view get(Kind kind) const;
  // Texts of every node of `kind` whose parent is `parent` (or anywhere when parent is null).
  std::vector<std::string_view> all(Kind kind, const Node* parent = nullptr) const;
  // Children of node `index`, in order.
  std::vector<std::size_t> children(std::size_t index) const;

  // Conveniences over the tree.
  std::string_view jurisdiction_code() const { return get(Kind::kJurisdictionCode); }
  std::string_view work() const { return get(Kind::kWork); }
  std::string_view partition() const { return get(Kind::kPartition); }
  // The name without "~partition", "?query" and "#fragment".
  std::string_view document_name() const;
  // "urn:lex:" + jurisdiction + ":" + work: the name at work level.
  std::string work_name() const;
  // Year of the first date, or the period when it is four digits; empty otherwise.
  std::string_view year() const;
  // True when the details give a four-digit year instead of a full date (`2000;56`): the
  // documented partial form, flagged `"complete": false` by the extractor.
  bool year_only() const;

 private:
  friend bool parse_into(std::string_view, const ParseOptions&, Urn&, ParseError*);
  std::string text_;
  std::vector<Node> nodes_;
};

// Parses `text`; on failure returns the error (and leaves nothing half-built).
Result<Urn, ParseError> parse(std::string_view text, const ParseOptions& options = {});
// Same, reusing `out`'s buffers (no allocation once they have grown). Returns false on failure
// and fills `error` when given.
bool parse_into(std::string_view text, const ParseOptions& options, Urn& out, ParseError* error);
// Checks `text` without building a tree. Returns true when valid; fills `error` otherwise.
bool validate(std::string_view text, const ParseOptions& options = {}, ParseError* error = nullptr);

// Converts a ParseError into the library's generic Error (message prefixed with the position).
Error to_error(const ParseError& e);

}  // namespace lexlink::urn

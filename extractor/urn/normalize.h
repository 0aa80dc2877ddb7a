// urn/normalize: canonical form, ASCII folding and lexical equivalence of URN:LEX names.
//
// normalize() accepts a name in canonical or "unicode" display form (raw UTF-8, spec 3.4) and
// returns the canonical string: "urn:lex:" and the whole name in lower case (LEX names are
// case-insensitive, spec 3.3), Unicode text in NFC and percent-encoded as UTF-8 with upper-case
// hex, reserved characters that are percent-encoded kept so (upper-case hex); the partition id
// keeps its case unless asked (partition ids mirror publishers' labels such as `part-IV` or
// `sec7002-m-1-B`), query and fragment are kept as they are. With `fold`, non-ASCII text is
// first transliterated to ASCII (spec 3.4: `sanità` -> `sanita`; with the German transform
// `München` -> `muenchen`). The result is validated; normalize(normalize(x)) == normalize(x).
//
// equivalent() is lexical equivalence as RFC 2141bis section 5 defines it (case of "urn" and of
// the NID, case of percent-encoding, fragment removed, query removed: step 5a) plus LEX's own
// rule that names differing only in case are the same name (ASCII and Unicode lower case, the
// partition id included). Percent-encoding is never removed; a raw `ü` (accepted with
// allow_iri) is compared in its percent-encoded UTF-8 form, as RFC 3987 maps an IRI to a URI.
// A decomposed `u%CC%88` equals `%C3%BC` only when `nfc` asks for the normalised comparison.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "urn/urn.h"

namespace lexlink::urn {

// The ICU transform used to fold to ASCII when none is configured for a jurisdiction.
inline constexpr const char* kDefaultFoldTransform = "Any-Latin; Latin-ASCII";

struct NormalizeOptions {
  bool fold = false;                 // transliterate non-ASCII text to ASCII (spec 3.4)
  std::string fold_transform;        // ICU transform id; empty means kDefaultFoldTransform
  bool nfc = true;                   // compose Unicode text (NFC)
  bool lower_partition = false;      // lower-case the partition id too
  bool drop_query_fragment = false;  // remove "?query" and "#fragment"
  ParseOptions parse{.allow_iri = true};
};

// The canonical string of `name`, or why it is not a valid URN:LEX name.
Result<std::string, ParseError> normalize(std::string_view name,
                                          const NormalizeOptions& options = {});

struct EquivalenceOptions {
  bool nfc = false;   // also compare after NFC (beyond RFC 2141bis lexical equivalence)
  bool fold = false;  // also compare after folding to ASCII
  std::string fold_transform;
  bool allow_iri = false;  // accept raw non-ASCII in the inputs
};

// True when `a` and `b` are lexically equivalent URN:LEX names (see the header comment).
// Fails when either is not a valid name; ParseError::production then starts with "a: " or "b: ".
Result<bool, ParseError> equivalent(std::string_view a, std::string_view b,
                                    const EquivalenceOptions& options = {});

// Transliterates UTF-8 `text` to ASCII with the ICU transform `transform_id`.
Result<std::string> fold_to_ascii(std::string_view text, const std::string& transform_id);

}  // namespace lexlink::urn

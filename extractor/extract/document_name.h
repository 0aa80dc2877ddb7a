// extract/document_name: the document's own URN:LEX name, read from the metadata at its start,
// for references to the document itself ("del presente decreto", "desta Lei") when the user gave
// no --self.
//
// Recognised, in the first bytes of the original document (ASCII-compatible encodings):
// - LexML: <Identificacao URN="urn:lex:...">;
// - Akoma Ntoso: an FRBRthis, FRBRuri or FRBRalias whose value is a urn:lex name (the first one:
//   the work's, which comes first in FRBRWork);
// - NormeInRete: <urn>urn:nir:...</urn>, read as urn:lex:it:...;
// - HTML: <meta name="urn|dc.identifier|dcterms.identifier" content="urn:lex:...">.
// Only a name that validates is returned (its partition, if any, dropped); otherwise "".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lexlink::extract {

// How far into the document metadata is looked for.
inline constexpr std::size_t kDocumentNameBytes = 64 * 1024;

std::string document_urn(std::string_view head);

}  // namespace lexlink::extract

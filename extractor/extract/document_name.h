// extract/document_name: the document's own URN:LEX name, read from the metadata at its start,
// for references to the document itself ("del presente decreto", "desta Lei") when the user gave
// no --self.
//
// Recognised, in the first bytes of the original document (ASCII-compatible encodings):
// - LexML: <Identificacao URN="urn:lex:...">;
// - Akoma Ntoso: an FRBRthis, FRBRuri or FRBRalias whose value is a urn:lex name (the first one:
//   the work's, which comes first in FRBRWork);
// - NormeInRete: <urn>urn:nir:...</urn>, read as urn:lex:it:...;
// - HTML: <meta name="urn|dc.identifier|dcterms.identifier" content="urn:lex:...">;
// - failing those, a publisher's identifier of the document that `DocumentIds` maps to a name:
//   the text of <dc:identifier> or <dcterms:identifier> (legislation.gov.uk CLML:
//   "http://www.legislation.gov.uk/ukpga/1996/16/section/101"), the value of an Akoma Ntoso
//   FRBRthis or FRBRuri, the content of an HTML <meta name="dc.identifier">; the first in the
//   document that a row maps wins.
// Only a name that validates is returned (its partition, if any, dropped); otherwise "".
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace re2 {
class RE2;
}

namespace lexlink::extract {

// How far into the document metadata is looked for.
inline constexpr std::size_t kDocumentNameBytes = 64 * 1024;

// Publishers' identifiers of documents -> their URN:LEX names: the rows of the loaded grammars'
// lexicons/<jur>/document-ids.tsv (`pattern`, RE2, unanchored unless it says ^; `urn`, with \1 ..
// \9 for its groups; format in lexicons/README.md), tried in load order. Immutable once loaded,
// shared by threads.
class DocumentIds {
 public:
  DocumentIds();
  ~DocumentIds();
  DocumentIds(DocumentIds&&) noexcept;
  DocumentIds& operator=(DocumentIds&&) noexcept;

  // Adds the rows of `path`; a bad header, pattern or template is an error at file:line:col.
  Status load(const std::string& path);
  bool empty() const { return patterns_.empty(); }
  // The work name the first matching row gives `id` (partition dropped), if it validates; "".
  std::string name_of(std::string_view id) const;
  // What the first matching row writes for `id`, as written (partition kept, not validated);
  // "" when no row matches (`lexlink eval` maps publishers' links with it).
  std::string rewrite(std::string_view id) const;

 private:
  std::vector<std::unique_ptr<re2::RE2>> patterns_;
  std::vector<std::string> urns_;
};

std::string document_urn(std::string_view head, const DocumentIds* ids = nullptr);

}  // namespace lexlink::extract

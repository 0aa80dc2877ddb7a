#include "document/options.h"

#include <string>

#include "text/charset.h"
#include "urn/urn.h"

namespace lexlink::document {

Result<text::ViewOptions::FormatChoice> parse_format(std::string_view label) {
  using FC = text::ViewOptions::FormatChoice;
  if (label == "auto") return FC::kAuto;
  if (label == "text") return FC::kText;
  if (label == "html") return FC::kHtml;
  if (label == "xml") return FC::kXml;
  return make_error(ErrorCode::kInvalidArgument,
                    "unknown format '" + std::string(label) + "' (auto, text, html or xml)");
}

Result<std::optional<text::Encoding>> parse_encoding(std::string_view label) {
  if (label.empty() || label == "auto") return std::optional<text::Encoding>();
  if (auto e = text::encoding_from_label(label, /*html=*/false)) {
    return std::optional<text::Encoding>(*e);
  }
  return make_error(ErrorCode::kInvalidArgument,
                    "unknown encoding '" + std::string(label) +
                        "' (auto, utf-8, utf-16le, utf-16be, iso-8859-1, windows-1252, "
                        "iso-8859-15, or another label of one of them)");
}

std::string self_name_error(std::string_view name) {
  if (name.empty()) return {};
  urn::ParseOptions po;
  po.allow_unnumbered = true;
  urn::ParseError e;
  return urn::validate(name, po, &e) ? std::string() : e.message;
}

text::ViewOptions citation_view(text::ViewOptions view, const extract::Extractor* extractor) {
  view.chunk_bytes = kCitationChunkBytes;
  if (extractor != nullptr) {
    view.first_chunk_text_bytes = extract::kChoiceTextBytes;
    view.cut_advisor = extractor->cut_advisor();
  }
  return view;
}

}  // namespace lexlink::document

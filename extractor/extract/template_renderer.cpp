#include "extract/template_renderer.h"

namespace lexlink::extract {

bool TemplateRenderer::read(const grammar::TemplatePart::Choice& choice, Span span, int attribute,
                            std::string& into) {
  if (!choice.attribute.empty()) return interp_.attribute(span, attribute, into);
  using Read = grammar::TemplatePart::Choice::Read;
  switch (choice.read) {
    case Read::kDate: {
      bool yo = false;
      const bool ok = interp_.date(span, yo, into);
      year_only_ = year_only_ || (ok && yo);
      return ok;
    }
    case Read::kYear: return interp_.year(span, into);
    case Read::kDigits: return interp_.digits(span, into);
    case Read::kRoman: return interp_.roman(span, into);
    case Read::kText: return interp_.text(span, into);
    case Read::kNumber: return interp_.number(span, into);
  }
  return false;
}

bool TemplateRenderer::render(const grammar::TemplatePart& part, std::size_t at,
                              std::string& into) {
  if (part.choices.empty()) {
    into += part.text;
    return true;
  }
  for (std::size_t k = 0; k < part.choices.size(); ++k) {
    const auto& c = part.choices[k];
    if (c.capture.empty()) {
      into += c.literal;
      partial_ = partial_ || c.partial;
      return true;
    }
    const Span* span = caps_.find(ids_[at + k]);
    if (span == nullptr) continue;
    const std::size_t mark = into.size();
    if (read(c, *span, attributes_[at + k], into) && into.size() > mark) return true;
    into.resize(mark);  // no value, or an empty one: the next choice
  }
  return false;
}

bool TemplateRenderer::render_all(const std::vector<grammar::TemplatePart>& parts,
                                  const std::vector<std::size_t>& at, std::string& into) {
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const grammar::TemplatePart& part = parts[p];
    if (part.choices.empty()) {  // literal text ("urn:lex:it:"): no call
      into += part.text;
    } else if (!render(part, at[p], into)) {
      return false;
    }
  }
  return true;
}

}  // namespace lexlink::extract

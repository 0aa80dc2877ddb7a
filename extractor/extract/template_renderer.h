// extract/template_renderer: a rule's templates (`emit`, and the type and year of `refers`)
// filled in from the captures of one match.
//
// A template is a list of parts: literal text, or placeholders with choices ("{date|year}",
// "{issuer.code|!stato}"), the first choice whose capture is set and reads a non-empty value
// winning. Values are read by the interpreters (units.h): a date, a year, digits, a Roman
// numeral, text, a number, or a lexicon attribute. Rendering appends to the caller's string and
// allocates nothing else. The renderer remembers, over every template it rendered, whether a
// `!literal` fallback was used (the name is partial) and whether a date was only a year.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "extract/captures.h"
#include "extract/units.h"
#include "grammar/grammar.h"

namespace lexlink::extract {

class TemplateRenderer {
 public:
  // `choice_ids` and `choice_attributes` hold, for every choice of the rule's templates, the
  // capture id it reads and the attribute id (ChainSetup::attribute_id) or -1; a part's choices
  // are at the offset given to render(). All four must outlive the renderer.
  TemplateRenderer(const Interpreter& interp, const Captures& caps,
                   const std::vector<int>& choice_ids, const std::vector<int>& choice_attributes)
      : interp_(interp), caps_(caps), ids_(choice_ids), attributes_(choice_attributes) {}

  // Appends the first choice of `part` that has a value (a part without choices: its text);
  // its choices are at `at`. False, and `into` as it was, when no choice has one.
  bool render(const grammar::TemplatePart& part, std::size_t at, std::string& into);
  // Appends every part of `parts` (part p's choices at at[p]); false when one has no value
  // (`into` then holds the parts before it).
  bool render_all(const std::vector<grammar::TemplatePart>& parts,
                  const std::vector<std::size_t>& at, std::string& into);

  bool partial() const { return partial_; }      // a `!literal` fallback was rendered
  bool year_only() const { return year_only_; }  // a date was read as a year alone

 private:
  // Appends the value of `choice` (whose capture is set at `span`); false when unreadable.
  bool read(const grammar::TemplatePart::Choice& choice, Span span, int attribute,
            std::string& into);

  const Interpreter& interp_;
  const Captures& caps_;
  const std::vector<int>& ids_;
  const std::vector<int>& attributes_;
  bool partial_ = false;
  bool year_only_ = false;
};

}  // namespace lexlink::extract

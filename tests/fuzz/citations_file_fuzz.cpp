// libFuzzer target: the citations file of `lexlink markup --citations FILE` (JSON Lines,
// rewrite/citations_file.h) on arbitrary bytes, and the markup it drives. The input is the file;
// it is read both ways the header describes, CitationsFile::parse (held whole) and
// CitationsFile::load from a regular file (streamed when in order), and each reading drives the
// markup of three small documents (plain text, HTML, XML), in view chunks of 64 bytes so that
// spans fall across chunks. Checks: no crash, leak or hang; both readings accept or refuse the
// file alike, a refused file named at one of its lines; every citation of the file is answered
// once (linked with links, or not with a reason); both readings give the same answers; the
// documents' bytes are unchanged (unmark(markup(x)) == x).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_data.h"
#include "io/sink.h"
#include "rewrite/citations_file.h"
#include "rewrite/document.h"
#include "rewrite/unmark.h"

namespace {

using namespace lexlink;
using test::die;

constexpr const char* kTarget = "citations_file_fuzz";
std::string g_path;

struct Document {
  text::ViewOptions::FormatChoice format;
  const char* bytes;
};

const Document kDocuments[] = {
    {text::ViewOptions::FormatChoice::kText,
     "Visto l'art. 5 della legge 3 aprile 2000, n. 56, e il decreto legislativo 30 marzo 2001, "
     "n. 165.\n\nArticolo 1\nLe disposizioni della legge n. 241/1990 si applicano. \xC3\xA8 "
     "cos\xC3\xAC.\n"},
    {text::ViewOptions::FormatChoice::kHtml,
     "<html><head><title>Legge 56/2000</title></head><body><p>Visto l'art. 5 della <b>legge</b> "
     "3 aprile 2000, n.&nbsp;56 &amp; il <a href=\"x\">decreto</a> 165/2001.</p><!-- legge -->"
     "<p>Ancora: legge 241/1990.</p><script>legge 1</script></body></html>"},
    {text::ViewOptions::FormatChoice::kXml,
     "<?xml version=\"1.0\"?><akomaNtoso><act><body><p>Visto l'art. 5 della legge 3 aprile "
     "2000, n. 56.</p><p>Il decreto &#233; 165/2001<![CDATA[ legge 1/2000 ]]></p><ref "
     "href=\"/x\">legge 2/2001</ref></body></act></akomaNtoso>"},
};

std::size_t line_count(std::string_view s) {
  std::size_t n = 1;
  for (const char c : s) n += c == '\n' ? 1 : 0;
  return n;
}

std::string describe(const rewrite::Outcome& o) {
  std::string s = std::to_string(o.request.id) + (o.linked ? " linked " : " not linked ") +
                  rewrite::to_string(o.reason);
  for (const rewrite::Span& l : o.links) {
    s += " " + std::to_string(l.begin) + "-" + std::to_string(l.end);
  }
  return s + " " + o.href;
}

// Marks up `doc` with the citations of `source`; the answers, one line each.
std::vector<std::string> markup(const Document& doc, rewrite::CitationsFile& source) {
  text::ViewOptions view;
  view.format = doc.format;
  view.chunk_bytes = 64;
  std::string out;
  io::StringSink sink(out);
  std::vector<std::string> answers;
  const std::size_t expected = source.size();
  {
    rewrite::DocumentRewriter d(view, rewrite::RewriteOptions{}, source, sink);
    const std::string_view bytes(doc.bytes);
    for (std::size_t i = 0; i < bytes.size(); i += 50) {
      if (Status s = d.feed(bytes.substr(i, 50)); !s) die(kTarget, s.error().to_string());
    }
    if (Status s = d.finish(); !s) die(kTarget, s.error().to_string());
    for (const rewrite::Outcome& o : d.outcomes()) {
      if (o.linked != !o.links.empty()) die(kTarget, "linked without links: " + describe(o));
      if (!o.linked && o.detail.empty()) die(kTarget, "not linked, no reason: " + describe(o));
      answers.push_back(describe(o));
    }
  }
  if (answers.size() != expected) {
    die(kTarget,
        std::to_string(expected) + " citations, " + std::to_string(answers.size()) + " answers");
  }
  if (rewrite::unmark(out) != doc.bytes) die(kTarget, "unmark(markup(x)) != x");
  return answers;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_path = test::scratch_dir() + "/citations.jsonl";
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  test::write_file_or_die(g_path, input);
  auto parsed = rewrite::CitationsFile::parse(g_path, input);
  auto loaded = rewrite::CitationsFile::load(g_path);
  if (parsed.ok() != loaded.ok()) {
    die(kTarget, std::string("parse and load disagree: ") +
                     (parsed ? loaded.error().to_string() : parsed.error().to_string()));
  }
  if (!parsed) {
    const Error& e = parsed.error();
    if (e.file != g_path || e.line == 0 || e.line > line_count(input)) {
      die(kTarget, "an error not at a line of the file: " + e.to_string());
    }
    if (loaded.error().to_string() != e.to_string()) {
      die(kTarget, "parse and load refuse differently: " + e.to_string() + " | " +
                       loaded.error().to_string());
    }
    return 0;
  }
  if (parsed->size() != loaded->size()) die(kTarget, "parse and load count differently");
  for (const Document& doc : kDocuments) {
    auto whole = rewrite::CitationsFile::parse(g_path, input);
    auto streamed = rewrite::CitationsFile::load(g_path);
    if (!whole || !streamed) die(kTarget, "a second reading fails");
    if (markup(doc, *whole) != markup(doc, *streamed)) {
      die(kTarget, "the held and the streamed file give different answers");
    }
  }
  return 0;
}

// Where the text is cut into chunks does not change what is found: every bundled corpus text
// (corpora/*/text/*.txt) and the documents of tests/data/extract/chunking/ (a heading that
// names the document, then references to it and to acts cited before, well past the first
// chunk), read whole and read in chunks of 64 KiB and of 16 KiB, give the same citations (spans
// in the original and names); and so does reading them with the citations read before handed
// back as spares (Extractor::extract's reuse of their strings). The same texts on one line,
// where chunks end where the extractor's cut advisor says, give the same citations too.
#include <catch2/catch.hpp>
#include <filesystem>

#include "extract/extractor.h"
#include "extract/extractors.h"
#include "support/test_support.h"
#include "text/view_builder.h"

using namespace lexlink;

namespace {

// One line per citation: original span, code point span, names and the rest of its fields.
// With `spare`, the citations of each chunk are overwritten by the next's, the spares kept
// there (Extractor::extract_over).
// Without `advised`, text without line ends is cut at any white space (the control).
std::vector<std::string> citations(const extract::Extractor& x, const std::string& doc,
                                   std::size_t chunk_bytes,
                                   std::vector<extract::Citation>* spare = nullptr,
                                   bool advised = true) {
  text::ViewOptions vo;
  vo.format = text::ViewOptions::FormatChoice::kText;
  vo.chunk_bytes = chunk_bytes;
  vo.first_chunk_text_bytes = extract::kChoiceTextBytes;
  if (advised) vo.cut_advisor = x.cut_advisor();
  text::ViewBuilder builder(vo);
  auto session = x.start();
  std::vector<std::string> lines;
  std::vector<extract::Citation> out;
  std::size_t chunks = 0;
  auto drain = [&] {
    while (auto chunk = builder.next()) {
      ++chunks;
      if (spare != nullptr) {
        REQUIRE(x.extract_over(*chunk, *session, out, *spare));
      } else {
        out.clear();
        REQUIRE(x.extract(*chunk, *session, out));
      }
      for (const auto& c : out) {
        lines.push_back(std::to_string(c.start) + "-" + std::to_string(c.end) + " " +
                        std::to_string(c.char_start) + "-" + std::to_string(c.char_end) + " " +
                        c.urn + " " + c.work + " " + (c.complete ? "complete" : "partial") + " " +
                        c.jurisdiction + " " + c.rule + " " + (c.inner ? "inner" : "") + " [" +
                        c.text + "]");
      }
    }
  };
  // Fed in pieces of 10,000 bytes, as a stream arrives.
  for (std::size_t at = 0; at < doc.size(); at += 10000) {
    REQUIRE(builder.feed(std::string_view(doc).substr(at, 10000)));
    drain();
  }
  REQUIRE(builder.finish());
  drain();
  if (chunk_bytes != 0 && doc.size() > 4 * chunk_bytes) CHECK(chunks > 2);
  if (spare != nullptr) spare->swap(out);  // the next document reuses these
  return lines;
}

}  // namespace

TEST_CASE("citations do not depend on where the text is cut into chunks", "[extract]") {
  namespace fs = std::filesystem;
  std::vector<fs::path> files = test::corpus_texts();
  for (const auto& file : fs::directory_iterator(test::data_path("tests/data/extract/chunking"))) {
    if (file.path().extension() == ".txt") files.push_back(file.path());
  }
  const extract::Extractor& x = test::extractor_for("auto");
  std::size_t found = 0, self_references = 0;
  std::vector<extract::Citation> spare;  // from document to document
  for (const fs::path& path : files) {
    const std::string doc = test::read_file(path);
    INFO(path.string());
    const auto whole = citations(x, doc, 0);
    CHECK(citations(x, doc, 64 << 10) == whole);
    CHECK(citations(x, doc, 16 << 10) == whole);
    CHECK(citations(x, doc, 16 << 10, &spare) == whole);
    found += whole.size();
    for (const std::string& line : whole) {
      self_references += line.find("decreto.legislativo:2026-02-09;22~") != std::string::npos ||
                         line.find("medida.provisoria:2021-12-27;1085~") != std::string::npos;
    }
  }
  CHECK(files.size() >= 12);
  CHECK(found > 1000);
  // The same texts on one line each (line ends become spaces): no line end to cut at, so the
  // chunks end at white space the extractor's cut advisor accepts, which these texts offer
  // within the quarter of a 32 KiB chunk where it is looked for (not always within the 4 KiB
  // of a 16 KiB chunk: one of them is then cut at any white space, inside a citation).
  for (const fs::path& path : files) {
    std::string doc = test::read_file(path);
    for (char& c : doc) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    INFO(path.string() << " on one line");
    const auto whole = citations(x, doc, 0);
    CHECK(citations(x, doc, 32 << 10) == whole);
  }
  CHECK(self_references >= 240);  // the chunking documents' references to themselves, resolved

  // One line where runs of citations (where any white space is inside one) alternate with
  // text that holds no trigger: every quarter chunk holds a place to cut that splits nothing.
  std::string line;
  for (int run = 0; line.size() < (1u << 20); ++run) {
    for (int i = 0; i < 40; ++i) {
      line += "art. " + std::to_string(run % 90 + 1) + ", comma 2, della legge 3 aprile 2000, n. " +
              std::to_string(i + 10) + "; ";
    }
    for (int i = 0; i < 24; ++i) line += "lorem ipsum dolor sit amet consectetur adipiscing ";
  }
  const auto whole = citations(x, line, 0);
  CHECK(whole.size() > 10000);
  CHECK(citations(x, line, 16 << 10) == whole);
  CHECK(citations(x, line, 16 << 10, nullptr, false) != whole);  // cut at any white space
}

TEST_CASE("a CR that no LF follows (classic Mac OS line ends) is a line end", "[extract]") {
  namespace fs = std::filesystem;
  const extract::Extractor& x = test::extractor_for("auto");
  // Every corpus text with its LFs made CRs gives the same citations: same offsets (one byte
  // for one), same names, and the same text (a lone CR reads "\n").
  std::size_t files = 0, found = 0;
  for (const fs::path& path : test::corpus_texts()) {
    const std::string doc = test::read_file(path);
    if (doc.find('\r') != std::string::npos) continue;
    std::string mac = doc;
    for (char& c : mac) {
      if (c == '\n') c = '\r';
    }
    INFO(path.string());
    const auto lf = citations(x, doc, 0);
    CHECK(citations(x, mac, 0) == lf);
    CHECK(citations(x, mac, 16 << 10) == lf);
    ++files;
    found += lf.size();
  }
  CHECK(files >= 12);
  CHECK(found > 1000);
  // A line end between "articolo 5" and the act: Normattiva's texts never link across it. The
  // CR is the last byte of the second 10,000-byte feed (read in 16 KiB chunks, the text is
  // read from there on, as it comes; the first chunk waits for 32 KiB of text, so no cut falls
  // near), so whether a LF follows is known only with the next feed; CR LF there is one line
  // end, not two.
  const std::string head = "Modifiche all'articolo 5";
  const std::string pad(20000 - 1 - head.size(), ' ');
  const std::string tail = "della legge 3 aprile 2000, n. 56.\n";
  for (const std::string eol : {"\n", "\r", "\r\n"}) {
    INFO("line end " << (eol == "\n" ? "LF" : eol == "\r" ? "CR" : "CR LF"));
    const auto got = citations(x, pad + head + eol + tail, 16 << 10);
    REQUIRE(got.size() == 1);
    CHECK(got[0].find("urn:lex:it:stato:legge:2000-04-03;56 ") != std::string::npos);  // no ~art5
  }
  CHECK(citations(x, pad + head + " " + tail, 16 << 10)[0].find("~art5") != std::string::npos);
  // In Brazilian text one line end is white space and a blank line ends a paragraph: the
  // article and the act join across CR, LF and CR LF alike, CR LF split between two feeds too.
  const std::string br_head = "conforme o art. 5";
  const std::string br_pad(20000 - 1 - br_head.size(), ' ');
  const std::string br_tail = "da Lei n\u00ba 8.078, de 11 de setembro de 1990.\n";
  for (const std::string eol : {"\n", "\r", "\r\n"}) {
    INFO("br, line end " << (eol == "\n" ? "LF" : eol == "\r" ? "CR" : "CR LF"));
    const auto got = citations(x, br_pad + br_head + eol + br_tail, 16 << 10);
    REQUIRE(got.size() == 1);
    CHECK(got[0].find("urn:lex:br:federal:lei:1990-09-11;8078~art5 ") != std::string::npos);
  }
}

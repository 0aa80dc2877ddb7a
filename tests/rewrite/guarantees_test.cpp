// The rewriter's guarantees, on every document of the project's corpora/ and on generated HTML
// and XML documents (seeded, so failures reproduce), with citations proposed by content (like
// an extractor) and at random text and original offsets (inside tags, entities, characters):
// - unmark(markup(x)) == x byte for byte, and every proposed citation gets one answer;
// - well-formed XML in gives well-formed XML out (parsed with pugixml);
// - re-tokenising the output finds every inserted link in text, never inside another link, a
//   comment, a script, a style, CDATA, a processing instruction or an attribute value;
// - markup(markup(x)) == markup(x) with the same (content-found) citations;
// - the document may come in small view chunks (the rewriter works chunk by chunk).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <pugixml.hpp>
#include <random>

#include "common/tsv.h"
#include "rewrite/document.h"
#include "rewrite/rewriter.h"
#include "rewrite/unmark.h"
#include "support/test_support.h"
#include "text/view_builder.h"

using namespace lexlink;
namespace fs = std::filesystem;

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Proposes "word[.] number" spans found in the text, as an extractor would (by content).
class PatternSource final : public rewrite::CitationSource {
 public:
  Status find(const text::TextView& chunk, std::vector<rewrite::Request>& out) override {
    const std::string& t = chunk.text;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (!is_digit(t[i]) || (i > 0 && is_digit(t[i - 1]))) continue;
      std::size_t end = i;
      while (end < t.size() && is_digit(t[end])) ++end;
      std::size_t b = i;
      bool space = false;
      while (b > 0 && (t[b - 1] == ' ' || (b > 1 && t[b - 2] == '\xC2' && t[b - 1] == '\xA0'))) {
        b -= t[b - 1] == ' ' ? 1 : 2;
        space = true;
      }
      if (b > 0 && t[b - 1] == '.') --b;
      const std::size_t word_end = b;
      while (b > 0 && is_letter(t[b - 1])) --b;
      if (b == word_end || (!space && word_end == i)) continue;
      rewrite::Request r;
      r.text = rewrite::Span{chunk.text_begin + b, chunk.text_begin + end};
      r.urn = "urn:lex:it:stato:legge:2000-04-03;56~art" +
              t.substr(i, std::min<std::size_t>(end - i, 6));
      r.id = ++count;
      out.push_back(std::move(r));
    }
    return Status::Ok();
  }
  std::uint64_t count = 0;
};

// Proposes random spans in text and original offsets.
class RandomSource final : public rewrite::CitationSource {
 public:
  explicit RandomSource(std::uint32_t seed) : rng_(seed) {}
  Status find(const text::TextView& chunk, std::vector<rewrite::Request>& out) override {
    const std::size_t n = chunk.text.size() / 40 + 1;
    for (std::size_t k = 0; k < n; ++k) {
      rewrite::Request r;
      r.urn =
          k % 17 == 0 ? "urn:lex:it:stato:legge:2000;bad number" : "urn:lex:it:stato:legge:2000;1";
      if (k % 23 == 0) r.href = "https://x.org/?a=\"1\"&b=<2>&c='3'\xC3\xA0";
      const std::uint64_t len = 1 + rng_() % 40;
      if (rng_() % 2 == 0 && !chunk.text.empty()) {
        const std::uint64_t b = chunk.text_begin + rng_() % chunk.text.size();
        r.text = rewrite::Span{b, b + len};
      } else {
        const std::uint64_t size = chunk.orig_end - chunk.orig_begin;
        if (size == 0) continue;
        const std::uint64_t b = chunk.orig_begin + rng_() % size;
        r.original = rewrite::Span{b, b + len};
      }
      r.id = ++count;
      out.push_back(std::move(r));
    }
    return Status::Ok();
  }
  std::uint64_t count = 0;

 private:
  std::mt19937 rng_;
};

// ---- the output re-tokeniser ----------------------------------------------------------------

enum class State { kData, kTag, kComment, kCdata, kPi, kDecl, kRawText };

const char* state_name(State s) {
  switch (s) {
    case State::kData: return "text";
    case State::kTag: return "a tag or attribute value";
    case State::kComment: return "a comment";
    case State::kCdata: return "CDATA";
    case State::kPi: return "a processing instruction";
    case State::kDecl: return "a declaration";
    case State::kRawText: return "a script, style, title or textarea";
  }
  return "?";
}

bool starts(std::string_view s, std::size_t i, std::string_view p) {
  return s.size() - i >= p.size() && s.compare(i, p.size(), p) == 0;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_link_element(const std::string& name, bool html, std::string_view tag) {
  if (html) return lower(name) == "a";
  const std::size_t colon = name.find(':');
  const std::string local = colon == std::string::npos ? name : name.substr(colon + 1);
  if (local == "ref" || local == "rif" || local == "Remissao" || local == "Citation" ||
      local == "CitationSubRef" || local == "a") {
    return true;
  }
  return local == "span" && tag.find("xlink:href") != std::string_view::npos;
}

// Every problem with the lexlink links of `out` (empty when none): a marker anywhere but in
// text, or inside another link. `out` must hold no marker of its own apart from ours.
std::vector<std::string> link_problems(std::string_view out, bool html) {
  std::vector<std::string> problems;
  std::vector<std::string> links;  // open link elements
  State state = State::kData;
  std::string raw_end;
  bool after_pi = false;
  auto marker_at = [&](std::size_t i) {
    return starts(out, i, rewrite::kHtmlMarkerPrefix) || starts(out, i, rewrite::kXmlMarker);
  };
  auto problem = [&](std::size_t i, const std::string& what) {
    problems.push_back("byte " + std::to_string(i) + ": a link " + what);
  };
  std::size_t i = 0;
  while (i < out.size()) {
    if (state != State::kData) {
      if (out[i] == '<' && marker_at(i)) problem(i, std::string("inside ") + state_name(state));
      std::string_view end = state == State::kComment ? "-->"
                             : state == State::kCdata ? "]]>"
                             : state == State::kPi    ? "?>"
                             : state == State::kDecl  ? ">"
                                                      : std::string_view(raw_end);
      if (state == State::kRawText ? lower(std::string(out.substr(i, end.size()))) == end
                                   : starts(out, i, end)) {
        if (state == State::kRawText) {
          state = State::kData;  // the end tag is read as a tag below
          continue;
        }
        i += end.size();
        state = State::kData;
        continue;
      }
      ++i;
      continue;
    }
    if (out[i] != '<') {
      after_pi = false;
      ++i;
      continue;
    }
    const bool ours_xml = starts(out, i, rewrite::kXmlMarker);
    const bool ours_html = starts(out, i, rewrite::kHtmlMarkerPrefix);
    if ((ours_xml || ours_html) && !links.empty()) {
      problem(i, "inside another link (<" + links.back() + ">)");
    }
    if (starts(out, i, "<!--")) {
      state = State::kComment;
      i += 4;
      continue;
    }
    if (starts(out, i, "<![CDATA[")) {
      state = State::kCdata;
      i += 9;
      continue;
    }
    if (starts(out, i, "<?")) {
      state = State::kPi;
      after_pi = ours_xml;
      i += 2;
      if (ours_xml) {
        i += rewrite::kXmlMarker.size() - 2;
        state = State::kData;
      }
      continue;
    }
    if (starts(out, i, "<!")) {
      state = State::kDecl;
      i += 2;
      continue;
    }
    const bool close = starts(out, i, "</");
    std::size_t j = i + (close ? 2 : 1);
    if (j >= out.size() || !(is_letter(out[j]) || out[j] == '_')) {
      ++i;  // a '<' that starts no tag: text
      continue;
    }
    std::string name;
    while (j < out.size() && out[j] != ' ' && out[j] != '>' && out[j] != '/' && out[j] != '\t' &&
           out[j] != '\n' && out[j] != '\r') {
      name += out[j++];
    }
    // To the end of the tag, quotes honoured; markers inside are in an attribute value.
    char q = 0;
    while (j < out.size()) {
      if (out[j] == '<' && marker_at(j)) problem(j, "inside a tag or attribute value");
      if (q != 0) {
        if (out[j] == q) q = 0;
      } else if (out[j] == '"' || out[j] == '\'') {
        if (!html || (j > 0 && (out[j - 1] == '='))) q = out[j];
      } else if (out[j] == '>') {
        break;
      }
      ++j;
    }
    const std::string_view tag = out.substr(i, j - i + 1);
    const bool self = j > 0 && j < out.size() && out[j - 1] == '/';
    i = j + 1;
    const bool was_pi = after_pi;
    after_pi = false;
    if (close) {
      const std::string n = html ? lower(name) : name;
      if (!links.empty() && links.back() == n) links.pop_back();
      continue;
    }
    if (self) continue;
    const std::string n = html ? lower(name) : name;
    if (is_link_element(name, html, tag) || was_pi || ours_html) links.push_back(n);
    if (html && (n == "script" || n == "style" || n == "title" || n == "textarea")) {
      state = State::kRawText;
      raw_end = "</" + n;
    }
  }
  return problems;
}

bool xml_well_formed(std::string_view doc) {
  pugi::xml_document d;
  return d.load_buffer(
              doc.data(), doc.size(),
              pugi::parse_default | pugi::parse_doctype | pugi::parse_pi | pugi::parse_comments)
             .status == pugi::status_ok;
}

text::ViewOptions view_options(text::ViewOptions::FormatChoice format, std::size_t chunk) {
  text::ViewOptions o;
  o.format = format;
  o.chunk_bytes = chunk;
  return o;
}

// Keeps a failing document and its output in /tmp/lexlink-rewrite-failures/ to reproduce it.
void keep_failure(const std::string& name, const std::string& doc, const std::string& out) {
  const fs::path dir = "/tmp/lexlink-rewrite-failures";
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::string file = name;
  for (char& c : file) {
    if (c == '/' || c == ' ' || c == '#') c = '_';
  }
  std::ofstream(dir / (file + ".in"), std::ios::binary) << doc;
  std::ofstream(dir / (file + ".out"), std::ios::binary) << out;
}

struct Checked {
  std::uint64_t linked = 0;
  std::uint64_t citations = 0;
};

// Runs every guarantee on one document; returns counts for the summary.
Checked check_document(const std::string& name, const std::string& doc,
                       text::ViewOptions::FormatChoice format,
                       std::optional<rewrite::Profile> profile, std::uint32_t seed,
                       std::size_t chunk) {
  INFO(name << " (profile " << (profile ? rewrite::to_string(*profile) : "auto") << ", chunks of "
            << chunk << ", seed " << seed << ")");
  Checked c;
  rewrite::RewriteOptions options;
  options.profile = profile;
  const text::ViewOptions view = view_options(format, chunk);
  // The format the view settled on.
  text::ViewBuilder probe(view);
  REQUIRE(probe.feed(doc).ok());
  REQUIRE(probe.finish().ok());
  const bool is_xml = probe.format() == text::Format::kXml;
  const bool is_text = probe.format() == text::Format::kText;
  const bool html_tokens = !is_xml;
  const bool wf = is_xml && xml_well_formed(doc);

  for (int pass = 0; pass < 2; ++pass) {
    std::vector<rewrite::Outcome> outcomes;
    PatternSource patterns;
    RandomSource randoms(seed);
    rewrite::CitationSource& source =
        pass == 0 ? static_cast<rewrite::CitationSource&>(patterns) : randoms;
    auto out = rewrite::markup_document(doc, view, options, source, &outcomes);
    REQUIRE(out.ok());
    const std::uint64_t proposed = pass == 0 ? patterns.count : randoms.count;
    CHECK(outcomes.size() == proposed);  // never dropped silently
    for (const rewrite::Outcome& o : outcomes) {
      c.citations++;
      if (o.linked) {
        c.linked++;
        CHECK(!o.links.empty());
      } else {
        CHECK(!o.detail.empty());
      }
    }
    CHECK(rewrite::unmark(*out) == doc);
    // Plain text has no markup to re-tokenise: the round trip and idempotence cover it.
    const auto problems = is_text ? std::vector<std::string>{} : link_problems(*out, html_tokens);
    CHECK(problems.empty());
    if (!problems.empty()) {
      keep_failure(name, doc, *out);
      FAIL_CHECK(problems.front());
    }
    if (wf) CHECK(xml_well_formed(*out));
    if (pass == 0 && chunk >= (1u << 20)) {
      // Idempotent: the same citations found again in the output take no new link. (With tiny
      // view chunks a chunk may end inside a citation, which then is found in one pass and not
      // in the other: real chunks end at block boundaries.)
      PatternSource again;
      std::vector<rewrite::Outcome> again_outcomes;
      auto twice = rewrite::markup_document(*out, view, options, again, &again_outcomes);
      REQUIRE(twice.ok());
      CHECK(*twice == *out);
      if (*twice != *out) keep_failure(name + ".twice", *out, *twice);
      for (const rewrite::Outcome& o : again_outcomes) CHECK_FALSE(o.linked);
    }
  }
  return c;
}

// ---- generated documents ---------------------------------------------------------------------

class Generator {
 public:
  explicit Generator(std::uint32_t seed) : rng_(seed) {}

  std::string html() {
    out_.clear();
    out_ += pick({"", "<!DOCTYPE html>\n", "\xEF\xBB\xBF<!doctype html>"});
    out_ += "<html><head><meta charset=\"utf-8\"><title>art. 5 " + word() + "</title>";
    if (coin(3)) out_ += "<style>p { content: \"<a href='x'>art. 5</a>\" }</style>";
    out_ += "</head><body>";
    const int blocks = 1 + static_cast<int>(rng_() % 12);
    for (int b = 0; b < blocks; ++b) html_block(0);
    if (coin(4)) out_ += "<!-- unclosed comment art. 5";
    if (coin(4)) out_ += "<b class=\"unclosed";
    return out_;
  }

  std::string xml() {
    out_.clear();
    static const char* roots[] = {
        "<akomaNtoso xmlns=\"http://docs.oasis-open.org/legaldocml/ns/akn/3.0\">",
        "<akn:akomaNtoso xmlns:akn=\"http://docs.oasis-open.org/legaldocml/ns/akn/3.0\">",
        "<NIR xmlns=\"http://www.normeinrete.it/nir/2.2/\" "
        "xmlns:xlink=\"http://www.w3.org/1999/xlink\">",
        "<NIR xmlns='http://www.normeinrete.it/nir/2.2/'>",
        "<LexML xmlns=\"http://www.lexml.gov.br/1.0\" "
        "xmlns:xlink=\"http://www.w3.org/1999/xlink\">",
        "<doc>",
    };
    static const char* ends[] = {"</akomaNtoso>", "</akn:akomaNtoso>", "</NIR>",
                                 "</NIR>",        "</LexML>",          "</doc>"};
    const std::size_t r = rng_() % 6;
    prefix_ = r == 1 ? "akn:" : "";
    xlink_ = r == 2 || r == 4;
    out_ += pick({"", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"});
    if (coin(3)) out_ += "<!-- art. 5 della legge 56 -->\n";
    out_ += roots[r];
    const int blocks = 1 + static_cast<int>(rng_() % 10);
    for (int b = 0; b < blocks; ++b) xml_block(0);
    out_ += ends[r];
    out_ += pick({"", "\n", "\r\n<!-- end -->"});
    return out_;
  }

 private:
  bool coin(unsigned n) { return rng_() % n == 0; }
  std::string pick(std::initializer_list<const char*> options) {
    auto it = options.begin();
    std::advance(it, rng_() % options.size());
    return *it;
  }
  std::string word() {
    return pick({"art.",
                 "5",
                 "legge",
                 "n.",
                 "56",
                 "Act",
                 "No.",
                 "93",
                 "of",
                 "1996",
                 "comma",
                 "2",
                 "sanit\xC3\xA0",
                 "\xE2\x82\xAC",
                 "\xF0\x9F\x98\x80",
                 "section",
                 "1",
                 "del",
                 "d.lgs.",
                 "165/2001",
                 "c.",
                 "Lei",
                 "12.111"});
  }
  void words(bool html) {
    const int n = 1 + static_cast<int>(rng_() % 8);
    for (int k = 0; k < n; ++k) {
      out_ += word();
      const auto r = static_cast<unsigned>(rng_() % 20);
      if (r == 0) {
        out_ += html ? "&nbsp;" : "&#160;";
      } else if (r == 1) {
        out_ += "&#160;";
      } else if (r == 2) {
        out_ += "\r\n";
      } else if (r == 3) {
        out_ += html ? "&shy;" : "&#173;";
      } else if (r == 4) {
        out_ += " &amp; ";
      } else if (r == 5 && html) {
        if (coin(6)) {
          out_ += '\0';
        } else {
          out_ += pick({"\xFF", "&bogus;", "& ", "<", "a < b", "\xC3"});
        }
      } else if (r == 6) {
        out_ += "&#x20AC;";
      } else {
        out_ += ' ';
      }
    }
  }
  void html_inline(int depth) {
    const auto r = static_cast<unsigned>(rng_() % 14);
    if (depth > 4 || r < 5) return words(true);
    switch (r) {
      case 5:
      case 6: {
        const std::string t = pick({"b", "i", "span", "em", "sup", "font", "u", "small"});
        out_ += "<" + t + pick({"", " class=\"x\"", " title=\"a > b </a>\"", " data-x='1'"}) + ">";
        html_inline(depth + 1);
        if (!coin(8)) out_ += "</" + t + ">";
        break;
      }
      case 7:
        out_ += "<a href=\"https://x.org/?q=1&amp;r=2\">";
        html_inline(depth + 1);
        out_ += "</a>";
        break;
      case 8: out_ += "<!-- art. 5 <a href=x>legge 56</a> -->"; break;
      case 9: out_ += "<script>var s = '<a href=\"x\">art. 5</a>'; if (a < b) {}</script>"; break;
      case 10:
        out_ += pick({"<br>", "<img src=\"a>b.png\" alt='art. 5'>", "<wbr>", "<br/>"});
        break;
      case 11: out_ += "<b><i>art. 5</b> legge</i>"; break;
      case 12:
        out_ += pick({"</a>", "</b>", "<textarea>art. 5</textarea>", "<a name=\"n\"></a>"});
        break;
      default:
        out_ += "<a data-lexlink-like=\"x\">";
        words(true);
        out_ += "</a>";
        break;
    }
    if (coin(2)) html_inline(depth + 1);
  }
  void html_block(int depth) {
    const std::string t = pick({"p", "div", "li", "td", "h1", "blockquote"});
    out_ += "<" + t + ">";
    const int n = 1 + static_cast<int>(rng_() % 5);
    for (int k = 0; k < n; ++k) {
      if (depth < 3 && coin(6)) {
        html_block(depth + 1);
      } else {
        html_inline(0);
      }
    }
    if (!coin(10)) out_ += "</" + t + ">";
    out_ += pick({"", "\n", "\r\n"});
  }
  void xml_inline(int depth) {
    const auto r = static_cast<unsigned>(rng_() % 12);
    if (depth > 4 || r < 5) return words(false);
    const std::string p = prefix_;
    switch (r) {
      case 5:
      case 6: {
        const std::string t = pick({"i", "b", "sup", "term", "span"});
        out_ +=
            "<" + p + t + pick({"", " class='x'", " title=\"a > b\"", " refersTo=\"#x\""}) + ">";
        xml_inline(depth + 1);
        out_ += "</" + p + t + ">";
        break;
      }
      case 7:
        if (xlink_) {
          const std::string t = pick({"rif", "span", "Remissao"});
          out_ += "<" + p + t + " xlink:href=\"urn:x\">";
          xml_inline(depth + 1);
          out_ += "</" + p + t + ">";
        } else {
          out_ += "<" + p + "ref href=\"/akn/x\">";
          xml_inline(depth + 1);
          out_ += "</" + p + "ref>";
        }
        break;
      case 8: out_ += "<![CDATA[art. 5 <a> & legge 56]]>"; break;
      case 9: out_ += "<!-- art. 5 -->"; break;
      case 10: out_ += "<?pi art. 5?>"; break;
      default: out_ += "<" + p + "br/>"; break;
    }
    if (coin(2)) xml_inline(depth + 1);
  }
  void xml_block(int depth) {
    const std::string t = prefix_ + pick({"p", "section", "num", "content", "corpo", "Caput"});
    out_ += "<" + t + pick({"", " eId=\"sec_1\"", " id='a1'"}) + ">";
    const int n = 1 + static_cast<int>(rng_() % 5);
    for (int k = 0; k < n; ++k) {
      if (depth < 3 && coin(5)) {
        xml_block(depth + 1);
      } else {
        xml_inline(0);
      }
    }
    out_ += "</" + t + ">" + pick({"", "\n", "\r\n  "});
  }

  std::mt19937 rng_;
  std::string out_;
  std::string prefix_;
  bool xlink_ = false;
};

}  // namespace

TEST_CASE("the re-tokeniser finds misplaced links", "[rewrite]") {
  // The checker itself must be able to fail.
  const std::string a = "<a data-lexlink=\"\" href=\"u\" data-urn=\"u\">x</a>";
  CHECK(link_problems("t " + a + " t", true).empty());
  CHECK_FALSE(link_problems("<!-- " + a + " -->", true).empty());
  CHECK_FALSE(link_problems("<script>" + a + "</script>", true).empty());
  CHECK_FALSE(link_problems("<style>" + a + "</style>", true).empty());
  CHECK_FALSE(link_problems("<b title=\"" + a + "\">x</b>", true).empty());
  CHECK_FALSE(link_problems("<a href=\"v\">" + a + "</a>", true).empty());
  CHECK_FALSE(link_problems(a.substr(0, a.size() - 4) + a + "</a>", true).empty());
  CHECK_FALSE(
      link_problems("<r><![CDATA[<?lexlink?><ref href=\"u\">x</ref>]]></r>", false).empty());
  CHECK_FALSE(
      link_problems("<r><ref href=\"u\"><?lexlink?><ref href=\"u\">x</ref></ref></r>", false)
          .empty());
  CHECK(link_problems("<r><ref href=\"u\">x</ref><?lexlink?><ref href=\"u\">x</ref></r>", false)
            .empty());
}

TEST_CASE("guarantees on every corpus document", "[rewrite][corpus]") {
  const fs::path root = test::data_path("corpora");
  std::vector<fs::path> docs;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    const fs::path& p = e.path();
    if (p.parent_path().filename() != "raw") continue;
    const std::string ext = p.extension().string();
    if (ext != ".xml" && ext != ".html" && ext != ".htm" && ext != ".md" && ext != ".txt") continue;
    docs.push_back(p);
  }
  std::sort(docs.begin(), docs.end());
  std::uint64_t linked = 0;
  std::uint64_t citations = 0;
  std::uint32_t seed = 1;
  for (const fs::path& p : docs) {
    std::string doc;
    REQUIRE(read_file(p.string(), doc).ok());
    if (doc.find("lexlink") != std::string::npos) continue;  // would not round-trip by design
    const auto name = fs::relative(p, root).string();
    const auto format = text::ViewOptions::FormatChoice::kAuto;
    for (std::size_t chunk : {std::size_t{4} << 20, std::size_t{2048}}) {
      const Checked c = check_document(name, doc, format, std::nullopt, seed++, chunk);
      linked += c.linked;
      citations += c.citations;
    }
    if (p.extension() == ".xml") {
      for (rewrite::Profile profile : {rewrite::Profile::kHtml, rewrite::Profile::kLexmlSpan}) {
        check_document(name, doc, format, profile, seed++, 4 << 20);
      }
    }
  }
  WARN(docs.size() << " corpus documents, " << citations << " citations proposed, " << linked
                   << " linked");
  CHECK(linked > 0);
}

TEST_CASE("guarantees on generated documents", "[rewrite][generated]") {
  const int n = 150;
  std::uint64_t linked = 0;
  std::uint64_t citations = 0;
  for (int k = 0; k < n; ++k) {
    const auto seed = static_cast<std::uint32_t>(1000 + k);
    Generator g(seed);
    const std::string h = g.html();
    const Checked ch = check_document("generated HTML #" + std::to_string(k), h,
                                      text::ViewOptions::FormatChoice::kHtml, std::nullopt, seed,
                                      k % 3 == 0 ? 256 : 4 << 20);
    const std::string x = g.xml();
    REQUIRE(xml_well_formed(x));
    static const std::optional<rewrite::Profile> profiles[] = {std::nullopt,
                                                               rewrite::Profile::kAkn,
                                                               rewrite::Profile::kNir,
                                                               rewrite::Profile::kLexml,
                                                               rewrite::Profile::kLexmlSpan,
                                                               rewrite::Profile::kHtml};
    const Checked cx = check_document("generated XML #" + std::to_string(k), x,
                                      text::ViewOptions::FormatChoice::kXml, profiles[k % 6], seed,
                                      k % 4 == 0 ? 256 : 4 << 20);
    linked += ch.linked + cx.linked;
    citations += ch.citations + cx.citations;
  }
  WARN(2 * n << " generated documents, " << citations << " citations proposed, " << linked
             << " linked");
  CHECK(linked > 0);
}

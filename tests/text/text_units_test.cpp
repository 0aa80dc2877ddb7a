// Table-driven unit tests of the text views' parts: OffsetMap lookups, the HTML5 entity table,
// the single-byte charsets, is_binary, charset labels, make_view's refusal of binary input.
#include <catch2/catch.hpp>

#include "common/utf8.h"
#include "support/test_support.h"
#include "text/charset.h"
#include "text/html_entities.h"
#include "text/view_builder.h"
#include "text/xml_reader.h"

using namespace lexlink;
using namespace lexlink::test;

namespace {

std::uint64_t to_u64(std::string_view s) {
  return std::stoull(std::string(s));
}

std::vector<text::Piece> parse_pieces(std::string_view spec) {
  std::vector<text::Piece> out;
  if (spec == "-") return out;
  for (const std::string& item : split(spec, " ")) {
    // text_begin+text_len@orig_begin+orig_len:kind[/ctl:col]
    text::Piece p;
    const auto at = item.find('@'), colon = item.find(':');
    const auto t = split(item.substr(0, at), "+");
    const auto o = split(item.substr(at + 1, colon - at - 1), "+");
    p.text_begin = to_u64(t[0]);
    p.text_len = static_cast<std::uint32_t>(to_u64(t[1]));
    p.orig_begin = to_u64(o[0]);
    p.orig_len = static_cast<std::uint32_t>(to_u64(o[1]));
    const std::string kind = item.substr(colon + 1);
    if (kind == "copy") {
      p.kind = text::PieceKind::kCopy;
    } else if (kind == "decoded") {
      p.kind = text::PieceKind::kDecoded;
    } else if (kind == "synthetic") {
      p.kind = text::PieceKind::kSynthetic;
    } else {
      REQUIRE(kind.rfind("transcoded/", 0) == 0);
      const auto w = split(kind.substr(11), ":");
      p.kind = text::PieceKind::kTranscoded;
      p.char_text_len = static_cast<std::uint8_t>(to_u64(w[0]));
      p.char_orig_len = static_cast<std::uint8_t>(to_u64(w[1]));
    }
    out.push_back(p);
  }
  return out;
}

std::vector<char32_t> code_points(std::string_view utf8) {
  std::vector<char32_t> out;
  for (std::size_t i = 0; i < utf8.size();) {
    std::size_t len = 1;
    out.push_back(utf8::decode(utf8, i, len));
    i += len;
  }
  return out;
}

}  // namespace

TEST_CASE("OffsetMap lookups", "[text][offset_map]") {
  const TsvFile table = load_table("tests/data/text/offset-map.tsv",
                                   {"pieces", "map_orig", "t", "begin", "end", "piece"});
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line);
    const text::OffsetMap map(parse_pieces(row.fields[0]), to_u64(row.fields[1]));
    const std::uint64_t t = to_u64(row.fields[2]);
    CHECK(map.to_original_begin(t) == to_u64(row.fields[3]));
    CHECK(map.to_original_end(t) == to_u64(row.fields[4]));
    CHECK(map.piece_at(t) == to_u64(row.fields[5]));
  }
}

TEST_CASE("the HTML5 entity table is complete and matches Python's html.entities",
          "[text][entities]") {
  const auto table = text::html_entities();
  CHECK(table.size() == 2231);
  std::size_t legacy = 0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table[i].name.back() != ';') ++legacy;
    if (i > 0) CHECK(table[i - 1].name < table[i].name);
    CHECK(utf8::is_valid(table[i].utf8));
    CHECK(!table[i].utf8.empty());
  }
  CHECK(legacy == 106);
  const TsvFile sample = load_table("tests/data/text/html-entities-sample.tsv", {"name", "value"});
  CHECK(sample.rows().size() > 300);
  for (const TsvRow& row : sample.rows()) {
    INFO(sample.path() << ":" << row.line << ": &" << row.fields[0]);
    const text::HtmlEntity* e = text::find_html_entity(row.fields[0]);
    REQUIRE(e != nullptr);
    std::vector<char32_t> expected;
    for (const std::string& hex : split(row.fields[1], " ")) {
      expected.push_back(static_cast<char32_t>(std::stoul(hex, nullptr, 16)));
    }
    CHECK(code_points(e->utf8) == expected);
    // Read in text: the whole reference is consumed and decodes to the value.
    const std::string ref = std::string(row.fields[0]) + " ";
    const text::CharRef r = text::scan_html_char_ref(ref, true);
    CHECK(r.status == text::CharRef::Status::kFound);
    CHECK(r.length == row.fields[0].size());
    CHECK(r.utf8 == e->utf8);
  }
}

TEST_CASE("single-byte charsets match Python's codecs", "[text][charset]") {
  const TsvFile table = load_table("tests/data/text/charsets.tsv",
                                   {"byte", "iso-8859-1", "windows-1252", "iso-8859-15"});
  CHECK(table.rows().size() == 128);
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line);
    const auto b = static_cast<unsigned char>(std::stoul(std::string(row.fields[0]), nullptr, 16));
    auto cp = [](std::string_view hex) {
      return static_cast<char32_t>(std::stoul(std::string(hex), nullptr, 16));
    };
    CHECK(text::single_byte_to_code_point(text::Encoding::kIso8859_1, b) == cp(row.fields[1]));
    CHECK(text::single_byte_to_code_point(text::Encoding::kWindows1252, b) == cp(row.fields[2]));
    CHECK(text::single_byte_to_code_point(text::Encoding::kIso8859_15, b) == cp(row.fields[3]));
  }
}

TEST_CASE("charset labels", "[text][charset]") {
  using text::Encoding;
  CHECK(text::encoding_from_label(" UTF-8 ", false) == Encoding::kUtf8);
  CHECK(text::encoding_from_label("latin1", false) == Encoding::kIso8859_1);
  CHECK(text::encoding_from_label("ISO-8859-1", true) == Encoding::kWindows1252);
  CHECK(text::encoding_from_label("us-ascii", true) == Encoding::kWindows1252);
  CHECK(text::encoding_from_label("Latin-9", false) == Encoding::kIso8859_15);
  CHECK(text::encoding_from_label("utf-16", true) == Encoding::kUtf8);
  CHECK(text::encoding_from_label("UTF-16BE", false) == Encoding::kUtf16Be);
  CHECK_FALSE(text::encoding_from_label("shift_jis", false).has_value());
  CHECK(std::string(text::to_string(Encoding::kWindows1252)) == "windows-1252");
  CHECK(std::string(text::to_string(text::Format::kXml)) == "xml");
}

TEST_CASE("is_binary and make_view's refusal", "[text][binary]") {
  const TsvFile table = load_table("tests/data/text/binary.tsv", {"head", "binary", "what"});
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[2]);
    const std::string head = unescape(row.fields[0]);
    const bool binary = row.fields[1] == "yes";
    CHECK(text::is_binary(head) == binary);
    auto view = text::make_view(head);
    CHECK(view.ok() == !binary);
    if (!view) {
      CHECK(view.error().code == ErrorCode::kUnsupported);
      CHECK(view.error().message.find("binary") != std::string::npos);
    }
  }
}

TEST_CASE("built-in XML profiles", "[text][xml]") {
  std::vector<std::string> names;
  for (const auto& p : text::xml_profiles()) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"akn", "nir", "lexml", "clml", "xhtml", "generic"});
  REQUIRE(text::find_xml_profile("clml") != nullptr);
  CHECK(text::find_xml_profile("clml")->link_elements.front() == "Citation");
  CHECK(text::find_xml_profile("nope") == nullptr);
}

TEST_CASE("a user profile replaces the built-in choice", "[text][xml]") {
  const std::string doc =
      "<akomaNtoso xmlns=\"http://docs.oasis-open.org/legaldocml/ns/akn/3.0\"><p>see <cite>Act "
      "5</cite> and <ref>x</ref></p></akomaNtoso>";
  text::ViewOptions o;
  o.xml_profile = text::XmlProfile{"mine", {"cite"}, {}, {}, {}, {}, {}};
  auto view = text::make_view(doc, o);
  REQUIRE(view);
  CHECK(view->xml_profile == "mine");
  REQUIRE(view->no_link.size() == 1);
  CHECK(view->text_at(view->no_link[0].text_begin, view->no_link[0].text_end) == "Act 5");
  // <ref> is a block in this profile: it breaks the text.
  CHECK(view->text == "see Act 5 and \nx\n");
}

TEST_CASE("a builder refuses XML beyond max_document_bytes", "[text][xml]") {
  text::ViewOptions o;
  o.max_document_bytes = 1000;
  o.chunk_bytes = 4096;
  text::ViewBuilder b(o);
  const std::string head = "<?xml version=\"1.0\"?><doc>" + std::string(5000, 'x');
  Status s = b.feed(head);
  if (s) s = b.finish();
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().code == ErrorCode::kLimitExceeded);
  // Further calls keep failing; feed after finish is refused.
  CHECK_FALSE(b.feed("x").ok());
  text::ViewBuilder done(text::ViewOptions{});
  REQUIRE(done.finish());
  CHECK_FALSE(done.feed("x").ok());
  auto only = done.next();
  REQUIRE(only.has_value());
  CHECK(only->last);
  CHECK(only->text.empty());
}

TEST_CASE("the XML tokenizer refuses whatever pugixml refuses", "[text][xml]") {
  const TsvFile table =
      load_table("tests/data/text/xml-wellformed.tsv", {"document", "pugixml", "lexlink", "what"});
  for (const TsvRow& row : table.rows()) {
    INFO(table.path() << ":" << row.line << ": " << row.fields[3]);
    const std::string doc = unescape(row.fields[0]);
    const bool pugixml_ok = text::check_xml(doc).ok;
    CHECK(pugixml_ok == (row.fields[1] == "ok"));
    text::ViewOptions o;
    o.format = text::ViewOptions::FormatChoice::kXml;
    o.encoding = text::Encoding::kUtf8;
    text::ViewBuilder b(o);
    REQUIRE(b.feed(doc));
    REQUIRE(b.finish());
    auto view = b.next();
    REQUIRE(view.has_value());
    const bool ours_ok = view->format == text::Format::kXml;
    CHECK(ours_ok == (row.fields[2] == "ok"));
    if (!pugixml_ok) CHECK_FALSE(ours_ok);
    CHECK(view->warnings.size() == (ours_ok ? 0u : 1u));
  }
}

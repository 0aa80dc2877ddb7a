// libFuzzer target: the C API (lexlink/lexlink_c.h) on arbitrary documents and options, every
// grammar loaded ("auto"), with the default size limit and with one of 256 bytes. The first
// two input bytes choose the options, the rest is the document:
//   byte 0: bits 0-1 format (auto, text, html, xml); bits 2-4 encoding (NULL, "auto", "utf-8",
//           "utf-16le", "utf-16be", "windows-1252", "latin1", or an unknown label); bits 5-6
//           self_urn (NULL, "", a valid name, an invalid one); bit 7 the 256-byte limit;
//   byte 1: bits 0-2 markup profile (NULL, "auto", "html", "akn", "nir", "lexml",
//           "lexml-span", or an unknown one); bit 3 resolver links; bits 4-5 partition_sep
//           (0, '~', '#', 'x'); bit 6 an empty document passed as NULL; bit 7 the document's
//           first 300 bytes also go through the URN functions.
// Checks: no crash, leak, hang, abort or exception; every status is the one the header
// promises for those options and that document (bad options, then empty, then over the limit,
// then invalid UTF-8 when "utf-8" was promised, else LEXLINK_OK), never NO_MEMORY or INTERNAL,
// and a failure comes with an error object of the same code and a message; the citations are
// those of the C++ API field by field, in order, inside the document, and their code point and
// UTF-16 offsets are those of their bytes when the document is UTF-8; markup's output unmarks
// (lexlink_unmark) to the document (unless it holds lexlink's own markers), with found
// citations as the C++ API's markup and linked <= found; the URN functions agree with each
// other (validate ok iff parse ok; a normalised name validates).
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "common/utf8.h"
#include "fuzz/fuzz_data.h"
#include "lexlink/lexlink.h"
#include "lexlink/lexlink_c.h"

namespace {

using lexlink::test::die;

constexpr const char* kTarget = "c_api_fuzz";
constexpr std::uint64_t kSmallLimit = 256;

lexlink_extractor* g_c[2] = {nullptr, nullptr};  // default limit, 256 bytes
std::optional<lexlink::Extractor> g_cpp[2];

const char* const kEncodings[8] = {nullptr,    "auto",         "utf-8",  "utf-16le",
                                   "utf-16be", "windows-1252", "latin1", "ebcdic-37"};
const char* const kSelf[4] = {nullptr, "", "urn:lex:it:stato:legge:2000-04-03;56", "urn:lex:"};
const char* const kProfiles[8] = {nullptr, "auto",  "html",       "akn",
                                  "nir",   "lexml", "lexml-span", "pdf"};
const char kSeps[4] = {0, '~', '#', 'x'};

void open_extractors() {
  for (int i = 0; i < 2; ++i) {
    lexlink_options o;
    lexlink_options_init(&o);
    const std::string data = lexlink::test::source_dir();
    o.data_folder = data.c_str();
    o.cache_folder = LEXLINK_FUZZ_CACHE_DIR;
    if (i == 1) o.max_document_bytes = kSmallLimit;
    lexlink_error* err = nullptr;
    if (lexlink_extractor_open(&o, &g_c[i], &err) != LEXLINK_OK) {
      die(kTarget, std::string("lexlink_extractor_open: ") + lexlink_error_message(err));
    }
    lexlink::ExtractorOptions co;
    co.data_folder = data;
    co.cache_folder = LEXLINK_FUZZ_CACHE_DIR;
    if (i == 1) co.max_document_bytes = kSmallLimit;
    auto x = lexlink::Extractor::load(co);
    if (!x) die(kTarget, "Extractor::load: " + x.error().to_string());
    g_cpp[i].emplace(std::move(*x));
  }
}

// A status with its error: the code the caller expects, an error of that code with a message
// when it is a failure, none otherwise. Frees the error.
void check_status(const char* call, lexlink_status got, lexlink_status expected,
                  lexlink_error* err) {
  if (got == LEXLINK_ERROR_NO_MEMORY || got == LEXLINK_ERROR_INTERNAL || got != expected) {
    die(kTarget, std::string(call) + ": status " + std::to_string(got) + ", expected " +
                     std::to_string(expected) + ": " + lexlink_error_message(err));
  }
  if (got != LEXLINK_OK) {
    if (err == nullptr) die(kTarget, std::string(call) + ": a failure without an error");
    if (lexlink_error_code(err) != got || std::strlen(lexlink_error_message(err)) == 0) {
      die(kTarget, std::string(call) + ": the error's code or message is wrong");
    }
  } else if (err != nullptr) {
    die(kTarget, std::string(call) + ": success with an error");
  }
  lexlink_error_free(err);
}

std::uint64_t code_points(std::string_view s) {
  std::uint64_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

std::uint64_t utf16_units(std::string_view s) {
  std::uint64_t n = code_points(s);
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xF8) == 0xF0 ? 1 : 0;
  return n;
}

void same(bool ok, const char* what) {
  if (!ok) die(kTarget, std::string("a C citation differs from the C++ one: ") + what);
}

// The C citations against the C++ API's, and against the document.
void check_citations(const lexlink_citations& c, const std::vector<lexlink::Citation>& cpp,
                     std::string_view doc, bool utf8) {
  if (c.count != cpp.size()) die(kTarget, "C and C++ find different numbers of citations");
  std::uint64_t last = 0;
  for (std::size_t i = 0; i < c.count; ++i) {
    const lexlink_citation& a = c.items[i];
    const lexlink::Citation& b = cpp[i];
    same(a.byte_start == b.bytes.begin && a.byte_end == b.bytes.end, "bytes");
    same(a.cp_start == b.code_points.begin && a.cp_end == b.code_points.end, "code points");
    same(a.utf16_start == b.utf16.begin && a.utf16_end == b.utf16.end, "utf-16");
    if (std::string_view(a.text, a.text_length) != b.text || a.urn != b.urn || a.work != b.work) {
      die(kTarget, std::string("a C citation differs from the C++ one: '") + a.text + "' " + a.urn +
                       " " + a.work + " | '" + b.text + "' " + b.urn + " " + b.work);
    }
    same(a.jurisdiction == b.jurisdiction && a.rule == b.rule, "jurisdiction or rule");
    same((a.complete != 0) == b.complete && (a.inner != 0) == b.inner, "complete or inner");
    if (a.byte_start > a.byte_end || a.byte_end > doc.size() || a.byte_start < last) {
      die(kTarget, "a citation outside the document or out of order");
    }
    last = a.byte_start;
    if (utf8) {
      const std::string_view before = doc.substr(0, a.byte_start);
      const std::string_view inside = doc.substr(a.byte_start, a.byte_end - a.byte_start);
      if (a.cp_start != code_points(before) || a.cp_end != a.cp_start + code_points(inside) ||
          a.utf16_start != utf16_units(before) ||
          a.utf16_end != a.utf16_start + utf16_units(inside)) {
        die(kTarget, "code point or UTF-16 offsets are not those of the bytes");
      }
    }
  }
}

void check_urn_functions(std::string_view name) {
  lexlink_urn_options o;
  lexlink_urn_options_init(&o);
  o.iri = 1;
  o.allow_unnumbered = 1;
  lexlink_error* err = nullptr;
  const lexlink_status valid = lexlink_urn_validate(name.data(), name.size(), &o, &err);
  lexlink_error_free(err);
  char* json = nullptr;
  err = nullptr;
  const lexlink_status parsed = lexlink_urn_parse(name.data(), name.size(), &o, &json, &err);
  if (valid != parsed) die(kTarget, "lexlink_urn_validate and lexlink_urn_parse disagree");
  if ((parsed == LEXLINK_OK) != (json != nullptr)) die(kTarget, "lexlink_urn_parse's output");
  lexlink_string_free(json);
  lexlink_error_free(err);
  char* canonical = nullptr;
  err = nullptr;
  if (lexlink_urn_normalize(name.data(), name.size(), &o, 1, &canonical, &err) == LEXLINK_OK) {
    if (canonical == nullptr) die(kTarget, "lexlink_urn_normalize: ok without a name");
    lexlink_error* again = nullptr;
    const lexlink_status s = lexlink_urn_validate(canonical, std::strlen(canonical), &o, &again);
    lexlink_error_free(again);
    if (s != LEXLINK_OK) die(kTarget, "a normalised name does not validate");
  }
  lexlink_string_free(canonical);
  lexlink_error_free(err);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  open_extractors();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint8_t b0 = data[0], b1 = data[1];
  const std::string_view doc(reinterpret_cast<const char*>(data) + 2, size - 2);
  const int which = b0 >> 7;
  lexlink_document_options d;
  lexlink_document_options_init(&d);
  d.format = static_cast<lexlink_format>(b0 & 3);
  d.encoding = kEncodings[(b0 >> 2) & 7];
  d.self_urn = kSelf[(b0 >> 5) & 3];
  const char* pointer = doc.empty() && (b1 & 0x40) != 0 ? nullptr : doc.data();

  // What the header promises, in the order it checks.
  const bool bad_options = ((b0 >> 2) & 7) == 7 || ((b0 >> 5) & 3) == 3;
  const bool utf8 = ((b0 >> 2) & 7) == 2;
  lexlink_status expected = LEXLINK_OK;
  if (bad_options || doc.empty()) {
    expected = LEXLINK_ERROR_INVALID_ARGUMENT;
  } else if (which == 1 && doc.size() > kSmallLimit) {
    expected = LEXLINK_ERROR_LIMIT_EXCEEDED;
  } else if (utf8 && !lexlink::utf8::is_valid(doc)) {
    expected = LEXLINK_ERROR_INVALID_ARGUMENT;
  }

  lexlink_citations cites;
  lexlink_error* err = nullptr;
  const lexlink_status s = lexlink_extract(g_c[which], pointer, doc.size(), &d, &cites, &err);
  check_status("lexlink_extract", s, expected, err);
  if (s == LEXLINK_OK) {
    lexlink::DocumentOptions co;
    co.format = static_cast<lexlink::Format>(d.format);
    co.encoding = d.encoding == nullptr ? "auto" : d.encoding;
    co.self_urn = d.self_urn == nullptr ? "" : d.self_urn;
    auto cpp = g_cpp[which]->extract(doc, co);
    if (!cpp) die(kTarget, "the C++ API fails where the C API does not");
    check_citations(cites, *cpp, doc, utf8);
  } else if (cites.count != 0 || cites.items != nullptr) {
    die(kTarget, "lexlink_extract failed with citations");
  }
  lexlink_citations_free(&cites);

  lexlink_markup_options m;
  lexlink_markup_options_init(&m);
  m.document = d;
  m.profile = kProfiles[b1 & 7];
  m.resolver_href = (b1 >> 3) & 1;
  m.partition_sep = kSeps[(b1 >> 4) & 3];
  if (expected == LEXLINK_OK && ((b1 & 7) == 7 || ((b1 >> 4) & 3) == 3)) {
    expected = LEXLINK_ERROR_INVALID_ARGUMENT;
  }
  char* out = nullptr;
  std::size_t out_length = 0, linked = 0, found = 0;
  err = nullptr;
  const lexlink_status ms =
      lexlink_markup(g_c[which], pointer, doc.size(), &m, &out, &out_length, &linked, &found, &err);
  check_status("lexlink_markup", ms, expected, err);
  if (ms == LEXLINK_OK) {
    if (out == nullptr || out[out_length] != '\0' || linked > found) {
      die(kTarget, "lexlink_markup: no output, no NUL at its end, or more linked than found");
    }
    char* plain = nullptr;
    std::size_t plain_length = 0;
    err = nullptr;
    check_status("lexlink_unmark", lexlink_unmark(out, out_length, &plain, &plain_length, &err),
                 LEXLINK_OK, err);
    if (std::string_view(plain, plain_length) != doc && !lexlink::test::has_lexlink_markers(doc)) {
      die(kTarget, "unmark(markup(x)) != x");
    }
    lexlink_string_free(plain);
    lexlink::MarkupOptions co;
    co.document.format = static_cast<lexlink::Format>(d.format);
    co.document.encoding = d.encoding == nullptr ? "auto" : d.encoding;
    co.document.self_urn = d.self_urn == nullptr ? "" : d.self_urn;
    co.profile = m.profile == nullptr ? "auto" : m.profile;
    co.href = m.resolver_href != 0 ? lexlink::Href::kResolver : lexlink::Href::kUrn;
    co.partition_sep = m.partition_sep;
    auto cpp = g_cpp[which]->markup(doc, co);
    if (!cpp) die(kTarget, "the C++ markup fails where the C one does not");
    std::size_t cpp_linked = 0;
    for (const lexlink::LinkOutcome& o : cpp->outcomes) cpp_linked += o.linked ? 1 : 0;
    if (cpp->document != std::string_view(out, out_length) || cpp->outcomes.size() != found ||
        cpp_linked != linked) {
      die(kTarget, "the C and C++ markups differ");
    }
  } else if (out != nullptr) {
    die(kTarget, "lexlink_markup failed with an output");
  }
  lexlink_string_free(out);

  if ((b1 & 0x80) != 0) check_urn_functions(doc.substr(0, 300));
  return 0;
}

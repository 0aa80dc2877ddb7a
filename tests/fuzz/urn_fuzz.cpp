// libFuzzer target: the URN:LEX parser and normaliser (extractor/urn/) on arbitrary bytes, the
// whole input being one name. Every input is read with each combination of the parse options
// the CLI offers (--iri, --allow-empty-authority, --allow-unnumbered) and checked against what
// urn.h and normalize.h promise:
// - validate agrees with parse (same answer; on failure the same position and code);
// - a parsed name's text is the input and its tree is a pre-order tree of spans, each inside
//   its parent's, the root (URN-reference) the whole input;
// - --max-length: a limit of the input's size reads it as the default does, one byte less
//   refuses it with kLimitExceeded;
// - normalize (parse options as `lexlink urn normalize`: raw non-ASCII allowed): its result
//   validates without allow_iri and normalize(normalize(x)) == normalize(x), with and without
//   folding, NFC, the partition lower-cased, the query and fragment dropped;
// - equivalent(x, normalize(x)) and equivalent(normalize(x), x) hold when both are defined
//   (same NFC and folding on both sides), and equivalent(x, x) always;
// - the written forms (to_unicode, to_punycode, to_http) and the resolvers of the repository's
//   lexicons/ run on every canonical name without failing (their output is not checked).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "urn/normalize.h"
#include "urn/profiles.h"
#include "urn/render.h"
#include "urn/urn.h"

namespace {

using namespace lexlink;
using namespace lexlink::urn;

std::string_view g_input;

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
  std::fprintf(stderr, "urn_fuzz: %s\n  input (%zu bytes): '%.*s'\n", what, g_input.size(),
               static_cast<int>(g_input.size()), g_input.data());
  if (!detail.empty()) {
    std::fprintf(stderr, "  %.*s\n", static_cast<int>(detail.size()), detail.data());
  }
  std::abort();
}

void check(bool ok, const char* what, std::string_view detail = {}) {
  if (!ok) fail(what, detail);
}

const Profiles* g_profiles = nullptr;

// The tree is pre-order, every span inside its parent's, the root the whole text.
void check_tree(const Urn& u, std::string_view input) {
  check(u.text() == input, "parse: text() is not the input");
  const auto nodes = u.nodes();
  check(!nodes.empty(), "parse: no node");
  check(nodes[0].kind == Kind::kReference && nodes[0].parent == -1 && nodes[0].begin == 0 &&
            nodes[0].end == input.size(),
        "parse: the root is not a URN-reference over the whole input");
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    check(n.parent >= 0 && static_cast<std::size_t>(n.parent) < i, "parse: not pre-order");
    const Node& p = nodes[static_cast<std::size_t>(n.parent)];
    check(n.begin <= n.end && p.begin <= n.begin && n.end <= p.end,
          "parse: a node's span is not inside its parent's", to_string(n.kind));
  }
}

void check_parse(std::string_view input, const ParseOptions& options) {
  ParseError pe, ve;
  Urn u;
  const bool parsed = parse_into(input, options, u, &pe);
  const bool valid = validate(input, options, &ve);
  check(parsed == valid, "validate disagrees with parse", parsed ? "parsed" : pe.message);
  if (!parsed) {
    check(pe.position == ve.position && pe.code == ve.code,
          "validate and parse fail at different places", pe.message + " | " + ve.message);
    check(pe.position <= input.size() && !pe.message.empty(), "a parse error without a place");
  } else {
    check_tree(u, input);
  }
  // The limit: the input's own size reads it as the default does; one byte less refuses it.
  ParseOptions limit = options;
  limit.max_length = input.size();
  check(validate(input, limit) == valid, "max_length == size changes the answer");
  if (!input.empty()) {
    limit.max_length = input.size() - 1;
    ParseError le;
    check(!validate(input, limit, &le) && le.code == ErrorCode::kLimitExceeded,
          "an input longer than max_length is not refused with kLimitExceeded");
  }
}

// The written forms and the resolvers on a canonical name: no crash, nothing more promised.
void render(const std::string& canonical, const ParseOptions& options) {
  auto u = parse(canonical, options);
  if (!u) return;
  (void)to_unicode(*u);
  (void)to_punycode(*u);
  (void)to_http(*u, HttpOptions{"https://example.org/", '~'});
  if (g_profiles != nullptr) (void)g_profiles->resolve(*u, ResolveOptions{'#'});
}

void check_normalize(std::string_view input, NormalizeOptions n, bool render_it) {
  auto once = normalize(input, n);
  if (!once) {
    // A valid name fails only when what normalize made of it does not validate (folding or
    // composing gave a character the ABNF refuses, percent-encoding outgrew the limit), which
    // an ASCII name without '%' (only lower-cased) never does.
    check(!once.error().message.empty(), "normalize fails without a message");
    if (validate(input, n.parse)) {
      check(once.error().message.find("the normalised name") != std::string::npos,
            "normalize refuses a valid name", once.error().message);
      bool ascii = true;
      for (const char c : input) ascii = ascii && c != '%' && static_cast<unsigned char>(c) < 0x80;
      check(!ascii, "normalize refuses a valid ASCII name", once.error().message);
    }
    return;
  }
  ParseOptions strict = n.parse;
  strict.allow_iri = false;
  ParseError e;
  check(validate(*once, strict, &e), "normalize's result does not validate",
        *once + ": " + e.message);
  auto twice = normalize(*once, n);
  check(twice.ok(), "normalize(normalize(x)) fails",
        *once + ": " + (twice ? std::string() : twice.error().message));
  check(*twice == *once, "normalize is not idempotent", *once + " -> " + *twice);
  if (render_it) render(*once, strict);
}

void check_equivalent(std::string_view input, bool nfc, bool fold) {
  EquivalenceOptions e;
  e.nfc = nfc;
  e.fold = fold;
  e.allow_iri = true;
  auto self = equivalent(input, input, e);
  if (!self) return;  // not a valid name
  check(*self, "equivalent(x, x) is false");
  NormalizeOptions n;
  n.nfc = nfc;
  n.fold = fold;
  auto canonical = normalize(input, n);
  if (!canonical) return;
  auto ab = equivalent(input, *canonical, e);
  auto ba = equivalent(*canonical, input, e);
  check(ab.ok() && ba.ok(), "equivalent fails on a name and its normal form", *canonical);
  check(*ab && *ba, "a name is not equivalent to its normal form", *canonical);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  static auto loaded = Profiles::load(LEXLINK_SOURCE_DIR);
  if (!loaded) {
    std::fprintf(stderr, "urn_fuzz: %s\n", loaded.error().to_string().c_str());
    std::abort();
  }
  g_profiles = &*loaded;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  g_input = input;
  for (int bits = 0; bits < 8; ++bits) {
    ParseOptions options;
    options.allow_iri = (bits & 1) != 0;
    options.allow_empty_authority = (bits & 2) != 0;
    options.allow_unnumbered = (bits & 4) != 0;
    check_parse(input, options);
  }
  // Normalize as the CLI does (raw non-ASCII allowed), in each leniency.
  for (int bits = 0; bits < 4; ++bits) {
    NormalizeOptions n;
    n.parse.allow_empty_authority = (bits & 1) != 0;
    n.parse.allow_unnumbered = (bits & 2) != 0;
    check_normalize(input, n, bits == 3);
    if (bits != 3) continue;  // the other options once, in the most lenient parse
    NormalizeOptions folded = n;
    folded.fold = true;
    check_normalize(input, folded, false);
    NormalizeOptions other = n;
    other.nfc = false;
    other.lower_partition = true;
    other.drop_query_fragment = true;
    check_normalize(input, other, false);
  }
  check_equivalent(input, false, false);
  check_equivalent(input, true, false);
  check_equivalent(input, true, true);
  return 0;
}

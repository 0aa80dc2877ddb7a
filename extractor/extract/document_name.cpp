#include "extract/document_name.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <re2/re2.h>

#include "common/tsv.h"
#include "urn/urn.h"

namespace lexlink::extract {
namespace {

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// The position of `needle` (lower case) in `s`, compared case-insensitively, from `from`. The
// candidates are found with memchr on the needle's first character (both cases), so the 64 KiB
// head of every document is read at memory speed, not byte by byte.
std::size_t ifind(std::string_view s, std::string_view needle, std::size_t from = 0) {
  if (needle.empty() || s.size() < needle.size()) return std::string_view::npos;
  const char first = needle[0];
  const char first_upper = first >= 'a' && first <= 'z' ? static_cast<char>(first - 32) : first;
  const std::size_t last = s.size() - needle.size();  // the last position a match can start at
  for (std::size_t i = from; i <= last; ++i) {
    const void* lo = std::memchr(s.data() + i, first, last - i + 1);
    std::size_t at = lo == nullptr
                         ? last + 1
                         : static_cast<std::size_t>(static_cast<const char*>(lo) - s.data());
    if (first_upper != first) {
      if (const void* up = std::memchr(s.data() + i, first_upper, at - i); up != nullptr) {
        at = static_cast<std::size_t>(static_cast<const char*>(up) - s.data());
      }
    }
    if (at > last) return std::string_view::npos;
    std::size_t k = 1;
    while (k < needle.size() && lower(s[at + k]) == needle[k]) ++k;
    if (k == needle.size()) return at;
    i = at;
  }
  return std::string_view::npos;
}

// True when `needle` (lower case) starts at s[at], compared ignoring case.
bool starts_here(std::string_view s, std::size_t at, std::string_view needle) {
  if (s.size() - at < needle.size()) return false;
  for (std::size_t k = 0; k < needle.size(); ++k) {
    if (lower(s[at + k]) != needle[k]) return false;
  }
  return true;
}

// Where the names searched in the head can start: a '<' followed by i, u, m or d (<Identificacao,
// <urn, <meta, <dc:identifier, <dcterms:identifier), or "fr" after '<' or ':' or at the start
// (<FRBRthis, <akn:FRBRuri, FRBRalias: only read there), in any case. One pass over the head,
// sixteen positions at a time, instead of one memchr walk per name stopping at every tag.
class Candidates {
 public:
  explicit Candidates(std::string_view s) : s_(s), at_(positions()) {
    at_.clear();
    const std::size_t n = s.size();
    if (n >= 2 && lower(s[0]) == 'f' && lower(s[1]) == 'r') at_.push_back(0);
    std::size_t i = 0;
#if defined(__SSE2__)
    const __m128i lt = _mm_set1_epi8('<');
    const __m128i colon = _mm_set1_epi8(':');
    const __m128i bit = _mm_set1_epi8(0x20);
    const __m128i ci = _mm_set1_epi8('i');
    const __m128i cu = _mm_set1_epi8('u');
    const __m128i cm = _mm_set1_epi8('m');
    const __m128i cd = _mm_set1_epi8('d');
    const __m128i cf = _mm_set1_epi8('f');
    const __m128i cr = _mm_set1_epi8('r');
    for (; i + 18 <= n; i += 16) {
      const __m128i v0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
      const __m128i is_lt = _mm_cmpeq_epi8(v0, lt);
      const __m128i mark = _mm_or_si128(is_lt, _mm_cmpeq_epi8(v0, colon));
      // Most blocks of text hold neither '<' nor ':': skip them.
      if (_mm_movemask_epi8(mark) == 0) continue;
      // Letters folded to lower case.
      const __m128i f1 =
          _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i + 1)), bit);
      const __m128i f2 =
          _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i + 2)), bit);
      const __m128i tag = _mm_and_si128(
          is_lt, _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(f1, ci), _mm_cmpeq_epi8(f1, cu)),
                              _mm_or_si128(_mm_cmpeq_epi8(f1, cm), _mm_cmpeq_epi8(f1, cd))));
      const __m128i fr =
          _mm_and_si128(mark, _mm_and_si128(_mm_cmpeq_epi8(f1, cf), _mm_cmpeq_epi8(f2, cr)));
      // A tag starts at its '<', "fr" one past its mark: never the same position (a '<' is no
      // 'f'), and in order (bit 16 is the next block's first position, which cannot be a '<').
      auto mask = static_cast<std::uint32_t>(_mm_movemask_epi8(tag)) |
                  (static_cast<std::uint32_t>(_mm_movemask_epi8(fr)) << 1);
      while (mask != 0) {
        at_.push_back(
            static_cast<std::uint32_t>(i + static_cast<std::size_t>(__builtin_ctz(mask))));
        mask &= mask - 1;
      }
    }
#endif
    for (; i + 1 < n; ++i) {
      const char a = s[i];
      const char b = lower(s[i + 1]);
      if (a == '<' && (b == 'i' || b == 'u' || b == 'm' || b == 'd')) {
        at_.push_back(static_cast<std::uint32_t>(i));
      } else if ((a == '<' || a == ':') && b == 'f' && i + 2 < n && lower(s[i + 2]) == 'r') {
        at_.push_back(static_cast<std::uint32_t>(i + 1));
      }
    }
  }

  // As ifind(s, needle, from), for a needle starting with one of the pairs above.
  std::size_t find(std::string_view needle, std::size_t from = 0) const {
    auto it = std::lower_bound(at_.begin(), at_.end(), from);
    for (; it != at_.end(); ++it) {
      if (starts_here(s_, *it, needle)) return *it;
    }
    return std::string_view::npos;
  }

 private:
  // The list is the thread's, reused from document to document (no allocation per document).
  static std::vector<std::uint32_t>& positions() {
    static thread_local std::vector<std::uint32_t> at;
    return at;
  }

  std::string_view s_;
  std::vector<std::uint32_t>& at_;
};

// The value of attribute `name` (lower case) in the tag s[tag, '>'), or npos-empty.
std::string_view attribute(std::string_view s, std::size_t tag, std::string_view name) {
  const std::size_t end = s.find('>', tag);
  const std::string_view t = s.substr(tag, end == std::string_view::npos ? 4096 : end - tag);
  for (std::size_t at = ifind(t, name); at != std::string_view::npos; at = ifind(t, name, at + 1)) {
    const char before = at > 0 ? t[at - 1] : ' ';
    std::size_t k = at + name.size();
    if (before != ' ' && before != '\t' && before != '\n' && before != '\r') continue;
    while (k < t.size() && (t[k] == ' ' || t[k] == '\t' || t[k] == '\n' || t[k] == '\r')) ++k;
    if (k >= t.size() || t[k] != '=') continue;
    ++k;
    while (k < t.size() && (t[k] == ' ' || t[k] == '\t' || t[k] == '\n' || t[k] == '\r')) ++k;
    if (k >= t.size() || (t[k] != '"' && t[k] != '\'')) continue;
    const std::size_t close = t.find(t[k], k + 1);
    if (close == std::string_view::npos) return {};
    return t.substr(k + 1, close - k - 1);
  }
  return {};
}

// `candidate` as a valid work name (partition dropped), or "".
std::string valid_work(std::string_view candidate) {
  std::string name(candidate.substr(0, candidate.find('~')));
  while (!name.empty() && (name.back() == ' ' || name.back() == '\n' || name.back() == '\r')) {
    name.pop_back();
  }
  if (name.rfind("urn:lex:", 0) != 0) return {};
  urn::ParseOptions po;
  po.allow_unnumbered = true;
  return urn::validate(name, po, nullptr) ? name : std::string();
}

}  // namespace

std::string document_urn(std::string_view head, const DocumentIds* ids) {
  head = head.substr(0, kDocumentNameBytes);
  const Candidates names(head);
  // LexML.
  if (std::size_t at = names.find("<identificacao"); at != std::string_view::npos) {
    if (std::string n = valid_work(attribute(head, at, "urn")); !n.empty()) return n;
  }
  // Akoma Ntoso.
  static constexpr std::array<std::string_view, 3> kFrbr = {"frbrthis", "frbruri", "frbralias"};
  std::size_t first = std::string_view::npos;
  std::string found;
  // Values that are no urn:lex name, where they are: a publisher's identifier `ids` may map
  // (FRBRthis, FRBRuri, <meta name="dc.identifier">, <dc:identifier>).
  std::vector<std::pair<std::size_t, std::string_view>> identifiers;
  const bool want_ids = ids != nullptr && !ids->empty();
  for (std::string_view element : kFrbr) {
    for (std::size_t at = names.find(element); at != std::string_view::npos;
         at = names.find(element, at + 1)) {
      if (at > 0 && head[at - 1] != '<' && head[at - 1] != ':') continue;
      const std::string_view value = attribute(head, at, "value");
      std::string n = valid_work(value);
      if (n.empty()) {
        if (want_ids && element != "frbralias") identifiers.emplace_back(at, value);
        continue;
      }
      if (at < first) {
        first = at;
        found = std::move(n);
      }
      break;
    }
  }
  if (!found.empty()) return found;
  // NormeInRete.
  for (std::size_t at = names.find("<urn"); at != std::string_view::npos;
       at = names.find("<urn", at + 1)) {
    const std::size_t gt = head.find('>', at);
    if (gt == std::string_view::npos) break;
    const char after = head[at + 4];
    if (after != '>' && after != ' ' && after != '\t' && after != '\n') continue;
    const std::size_t lt = head.find('<', gt);
    if (lt == std::string_view::npos) break;
    const std::string_view v = head.substr(gt + 1, lt - gt - 1);
    const std::size_t nir = ifind(v, "urn:nir:");
    if (nir == std::string_view::npos) continue;
    const std::string lex = "urn:lex:it:" + std::string(v.substr(nir + 8));
    if (std::string n = valid_work(lex); !n.empty()) return n;
  }
  // HTML.
  for (std::size_t at = names.find("<meta"); at != std::string_view::npos;
       at = names.find("<meta", at + 1)) {
    std::string name(attribute(head, at, "name"));
    for (char& c : name) c = lower(c);
    if (name != "urn" && name != "dc.identifier" && name != "dcterms.identifier") continue;
    const std::string_view content = attribute(head, at, "content");
    if (std::string n = valid_work(content); !n.empty()) return n;
    if (want_ids && name != "urn") identifiers.emplace_back(at, content);
  }
  if (!want_ids) return {};
  for (std::string_view element :
       {std::string_view("<dc:identifier"), std::string_view("<dcterms:identifier")}) {
    for (std::size_t at = names.find(element); at != std::string_view::npos;
         at = names.find(element, at + 1)) {
      const std::size_t gt = head.find('>', at);
      if (gt == std::string_view::npos) break;
      const char after = head[at + element.size()];
      if (after != '>' && after != ' ' && after != '\t' && after != '\n' && after != '\r') {
        continue;
      }
      const std::size_t lt = head.find('<', gt);
      if (lt == std::string_view::npos) break;
      identifiers.emplace_back(at, head.substr(gt + 1, lt - gt - 1));
    }
  }
  // The first identifier in the document that the loaded jurisdictions map wins.
  std::sort(identifiers.begin(), identifiers.end());
  auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  for (auto [at, id] : identifiers) {
    while (!id.empty() && space(id.front())) id.remove_prefix(1);
    while (!id.empty() && space(id.back())) id.remove_suffix(1);
    if (id.empty()) continue;
    if (std::string n = ids->name_of(id); !n.empty()) return n;
  }
  return {};
}

DocumentIds::DocumentIds() = default;
DocumentIds::~DocumentIds() = default;
DocumentIds::DocumentIds(DocumentIds&&) noexcept = default;
DocumentIds& DocumentIds::operator=(DocumentIds&&) noexcept = default;

Status DocumentIds::load(const std::string& path) {
  auto tsv = TsvFile::load(path, {"pattern", "urn"});
  if (!tsv) return tsv.error();
  for (const TsvRow& row : tsv->rows()) {
    auto re = std::make_unique<re2::RE2>(std::string(row.fields[0]), re2::RE2::Quiet);
    if (!re->ok()) return tsv->error_at(row, 0, 0, "bad pattern: " + re->error());
    std::string why;
    if (!re->CheckRewriteString(std::string(row.fields[1]), &why)) {
      return tsv->error_at(row, 1, 0, "bad template: " + why);
    }
    patterns_.push_back(std::move(re));
    urns_.emplace_back(row.fields[1]);
  }
  return Status::Ok();
}

std::string DocumentIds::rewrite(std::string_view id) const {
  std::string out;
  for (std::size_t i = 0; i < patterns_.size(); ++i) {
    if (re2::RE2::Extract(id, *patterns_[i], urns_[i], &out)) return out;
  }
  return {};
}

std::string DocumentIds::name_of(std::string_view id) const {
  const std::string out = rewrite(id);
  return out.empty() ? out : valid_work(out);
}

}  // namespace lexlink::extract

#include "extract/document_name.h"

#include <array>
#include <cstring>

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

std::string document_urn(std::string_view head) {
  head = head.substr(0, kDocumentNameBytes);
  // LexML.
  if (std::size_t at = ifind(head, "<identificacao"); at != std::string_view::npos) {
    if (std::string n = valid_work(attribute(head, at, "urn")); !n.empty()) return n;
  }
  // Akoma Ntoso.
  static constexpr std::array<std::string_view, 3> kFrbr = {"frbrthis", "frbruri", "frbralias"};
  std::size_t first = std::string_view::npos;
  std::string found;
  for (std::string_view element : kFrbr) {
    for (std::size_t at = ifind(head, element); at != std::string_view::npos;
         at = ifind(head, element, at + 1)) {
      if (at > 0 && head[at - 1] != '<' && head[at - 1] != ':') continue;
      std::string n = valid_work(attribute(head, at, "value"));
      if (n.empty()) continue;
      if (at < first) {
        first = at;
        found = std::move(n);
      }
      break;
    }
  }
  if (!found.empty()) return found;
  // NormeInRete.
  for (std::size_t at = ifind(head, "<urn"); at != std::string_view::npos;
       at = ifind(head, "<urn", at + 1)) {
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
  for (std::size_t at = ifind(head, "<meta"); at != std::string_view::npos;
       at = ifind(head, "<meta", at + 1)) {
    std::string name(attribute(head, at, "name"));
    for (char& c : name) c = lower(c);
    if (name != "urn" && name != "dc.identifier" && name != "dcterms.identifier") continue;
    if (std::string n = valid_work(attribute(head, at, "content")); !n.empty()) return n;
  }
  return {};
}

}  // namespace lexlink::extract

#include "rewrite/link_markup.h"

#include <array>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/utf8.h"
#include "urn/profiles.h"
#include "urn/urn.h"

namespace lexlink::rewrite {
namespace {

constexpr std::string_view kXlinkNs = "http://www.w3.org/1999/xlink";

struct ProfileInfo {
  Profile profile;
  const char* name;
  const char* element;    // local name
  const char* href_attr;  // "href" or "xlink:href"
  const char* ns_prefix;  // namespace URIs of the vocabulary start with this ("" for html)
  bool xml;
};

constexpr std::array<ProfileInfo, 5> kProfiles{{
    {Profile::kHtml, "html", "a", "href", "", false},
    {Profile::kAkn, "akn", "ref", "href", "http://docs.oasis-open.org/legaldocml/ns/akn/", true},
    {Profile::kNir, "nir", "rif", "xlink:href", "http://www.normeinrete.it/nir/", true},
    {Profile::kLexml, "lexml", "Remissao", "xlink:href", "http://www.lexml.gov.br/", true},
    {Profile::kLexmlSpan, "lexml-span", "span", "xlink:href", "http://www.lexml.gov.br/", true},
}};

const ProfileInfo& info(Profile p) {
  return kProfiles[static_cast<std::size_t>(p)];
}

// Older Akoma Ntoso namespaces (2.0) also count as akn.
bool namespace_matches(const ProfileInfo& p, std::string_view uri) {
  if (p.ns_prefix[0] == 0) return false;
  if (uri.starts_with(p.ns_prefix)) return true;
  return p.profile == Profile::kAkn && uri.starts_with("http://www.akomantoso.org/");
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

}  // namespace

const char* to_string(Profile profile) {
  return info(profile).name;
}

Result<Profile> parse_profile(std::string_view name) {
  for (const ProfileInfo& p : kProfiles) {
    if (name == p.name) return p.profile;
  }
  return make_error(ErrorCode::kInvalidArgument, "unknown profile '" + std::string(name) +
                                                     "' (html, akn, nir, lexml, lexml-span)");
}

StartTag read_start_tag(std::string_view s) {
  StartTag tag;
  std::size_t i = 0;
  if (i < s.size() && s[i] == '<') ++i;
  while (i < s.size() && !is_space(s[i]) && s[i] != '>' && s[i] != '/') tag.name += s[i++];
  while (i < s.size()) {
    while (i < s.size() && (is_space(s[i]) || s[i] == '/')) ++i;
    if (i >= s.size() || s[i] == '>') break;
    std::string name;
    while (i < s.size() && !is_space(s[i]) && s[i] != '=' && s[i] != '>' && s[i] != '/') {
      name += s[i++];
    }
    while (i < s.size() && is_space(s[i])) ++i;
    std::string value;
    if (i < s.size() && s[i] == '=') {
      ++i;
      while (i < s.size() && is_space(s[i])) ++i;
      if (i < s.size() && (s[i] == '"' || s[i] == '\'')) {
        const char q = s[i++];
        const std::size_t end = s.find(q, i);
        const std::size_t stop = end == std::string_view::npos ? s.size() : end;
        value = std::string(s.substr(i, stop - i));
        i = stop == s.size() ? stop : stop + 1;
      } else {
        while (i < s.size() && !is_space(s[i]) && s[i] != '>') value += s[i++];
      }
    }
    if (name.empty()) {
      ++i;  // a stray character: skip it
      continue;
    }
    tag.attributes.emplace_back(std::move(name), std::move(value));
  }
  return tag;
}

std::string markup_to_utf8(std::string_view s, text::Encoding encoding) {
  using text::Encoding;
  std::string out;
  if (encoding == Encoding::kUtf16Le || encoding == Encoding::kUtf16Be) {
    const bool le = encoding == Encoding::kUtf16Le;
    for (std::size_t i = 0; i + 1 < s.size(); i += 2) {
      const auto lo = static_cast<unsigned char>(s[le ? i : i + 1]);
      const auto hi = static_cast<unsigned char>(s[le ? i + 1 : i]);
      const char32_t unit = static_cast<char32_t>(hi << 8 | lo);
      if (unit < 0x80) {
        out += static_cast<char>(unit);
      } else if (unit >= 0xD800 && unit <= 0xDFFF) {
        out += '?';
      } else {
        utf8::append(out, unit);
      }
    }
    return out;
  }
  if (encoding == Encoding::kUtf8) return std::string(s);
  out.reserve(s.size());
  for (char c : s) out += static_cast<unsigned char>(c) < 0x80 ? c : '?';
  return out;
}

Profile default_profile(text::Format format, std::string_view root_start_tag_utf8) {
  if (format != text::Format::kXml) return Profile::kHtml;
  const StartTag root = read_start_tag(root_start_tag_utf8);
  const std::size_t colon = root.name.find(':');
  const std::string prefix = colon == std::string::npos ? "" : root.name.substr(0, colon);
  const std::string ns_attr = prefix.empty() ? "xmlns" : "xmlns:" + prefix;
  for (const auto& [name, value] : root.attributes) {
    if (name != ns_attr) continue;
    for (const ProfileInfo& p : kProfiles) {
      if (p.profile != Profile::kLexmlSpan && namespace_matches(p, value)) return p.profile;
    }
  }
  return Profile::kHtml;
}

namespace {

// Bytes an attribute value takes as they are, per escaping rule (index 0: HTML, 1: XML):
// printable ASCII other than & " < > (and ' in XML). Every other byte goes through the
// one-character path of append_attribute_value.
struct PlainBytes {
  bool plain[2][256] = {};
  PlainBytes() {
    for (int x = 0; x < 2; ++x) {
      for (int c = 0x20; c < 0x80; ++c) plain[x][c] = true;
      for (unsigned char c : {'&', '"', '<', '>'}) plain[x][c] = false;
    }
    plain[1][static_cast<unsigned char>('\'')] = false;
  }
};
const PlainBytes kPlainBytes;

// The end of the run of plain bytes (kPlainBytes) of value[i, ...), sixteen bytes at a time.
std::size_t plain_run_end(std::string_view value, std::size_t i, bool xml) {
  const bool* plain = kPlainBytes.plain[xml ? 1 : 0];
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20);
  const __m128i amp = _mm_set1_epi8('&');
  const __m128i quot = _mm_set1_epi8('"');
  const __m128i lt = _mm_set1_epi8('<');
  const __m128i gt = _mm_set1_epi8('>');
  const __m128i apos = _mm_set1_epi8(xml ? '\'' : '&');  // HTML: '&' again (no effect)
  for (; i + 16 <= value.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(value.data() + i));
    // Signed: bytes 0x80-0xFF are negative, so below 0x20 too.
    const __m128i bad =
        _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, amp)),
                     _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quot), _mm_cmpeq_epi8(v, lt)),
                                  _mm_or_si128(_mm_cmpeq_epi8(v, gt), _mm_cmpeq_epi8(v, apos))));
    const auto mask = static_cast<unsigned>(_mm_movemask_epi8(bad));
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
#endif
  while (i < value.size() && plain[static_cast<unsigned char>(value[i])]) ++i;
  return i;
}

}  // namespace

bool append_attribute_value(std::string& out, std::string_view value, bool xml, bool ascii_only) {
  const std::size_t mark = out.size();
  for (std::size_t i = 0; i < value.size();) {
    // A run of bytes written as they are (a URN is one such run): one append.
    const std::size_t j = plain_run_end(value, i, xml);
    if (j > i) {
      out.append(value.data() + i, j - i);
      i = j;
      if (i == value.size()) break;
    }
    const char c = value[i];
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x80) {
      ++i;
      switch (c) {
        case '&': out += "&amp;"; continue;
        case '"': out += "&quot;"; continue;
        case '<': out += "&lt;"; continue;
        case '>': out += "&gt;"; continue;
        case '\'': out += xml ? "&apos;" : "'"; continue;
        default: break;
      }
      if (c == 0 || (xml && u < 0x20 && c != '\t' && c != '\n' && c != '\r')) {
        out.resize(mark);
        return false;
      }
      if (xml && (c == '\t' || c == '\n' || c == '\r')) {
        out += "&#" + std::to_string(u) + ";";
        continue;
      }
      out += c;
      continue;
    }
    std::size_t len = 0;
    const char32_t cp = utf8::decode(value, i, len);
    if (cp == utf8::kInvalid || (xml && (cp == 0xFFFE || cp == 0xFFFF))) {
      out.resize(mark);
      return false;
    }
    if (ascii_only) {
      out += "&#" + std::to_string(static_cast<std::uint32_t>(cp)) + ";";
    } else {
      out.append(value.substr(i, len));
    }
    i += len;
  }
  return true;
}

std::string encode_ascii(std::string_view ascii, text::Encoding encoding) {
  using text::Encoding;
  if (encoding != Encoding::kUtf16Le && encoding != Encoding::kUtf16Be) return std::string(ascii);
  std::string out;
  out.reserve(ascii.size() * 2);
  const bool le = encoding == Encoding::kUtf16Le;
  for (char c : ascii) {
    if (le) {
      out += c;
      out += '\0';
    } else {
      out += '\0';
      out += c;
    }
  }
  return out;
}

LinkMarkup::LinkMarkup(const LinkOptions& options, text::Format format, text::Encoding encoding,
                       std::string_view root_start_tag)
    : options_(options), profile_(options.profile), format_(format), encoding_(encoding) {
  const ProfileInfo& p = info(profile_);
  xml_ = format_ == text::Format::kXml || p.xml;
  ascii_only_ = encoding_ != text::Encoding::kUtf8;
  fold_case_ = format_ != text::Format::kXml && profile_ == Profile::kHtml;
  std::string prefix;
  bool xlink_bound = false;
  if (p.xml && format_ == text::Format::kXml) {
    const StartTag root = read_start_tag(markup_to_utf8(root_start_tag, encoding_));
    bool default_matches = false;
    for (const auto& [name, value] : root.attributes) {
      if (name == "xmlns" && namespace_matches(p, value)) default_matches = true;
      if (name.starts_with("xmlns:") && namespace_matches(p, value) && prefix.empty()) {
        prefix = name.substr(6);
      }
      if (name == "xmlns:xlink" && value == kXlinkNs) xlink_bound = true;
    }
    if (default_matches) prefix.clear();
  }
  element_ = prefix.empty() ? std::string(p.element) : prefix + ":" + p.element;
  declare_xlink_ = std::string_view(p.href_attr).starts_with("xlink:") && !xlink_bound;
  close_ = encode_ascii("</" + element_ + ">", encoding_);
}

std::string_view LinkMarkup::local_name() const {
  const std::size_t colon = element_.find(':');
  return colon == std::string::npos ? std::string_view(element_)
                                    : std::string_view(element_).substr(colon + 1);
}

Result<std::string> LinkMarkup::href(const Request& request, std::string& note) const {
  std::string out;
  if (Status s = href_into(request, out, note); !s) return s.error();
  return out;
}

Status href_of(const LinkOptions& options, std::string_view name, std::string& out,
               std::string& note) {
  if (options.href == HrefMode::kResolver) {
    if (options.resolvers == nullptr) {
      return make_error(ErrorCode::kInvalidArgument, "resolver hrefs need the lexicons");
    }
    urn::ParseOptions po;
    po.allow_unnumbered = true;
    auto parsed = urn::parse(name, po);
    if (!parsed) return urn::to_error(parsed.error());
    auto url = options.resolvers->resolve(*parsed, urn::ResolveOptions{options.partition_sep});
    if (url) {
      out = std::move(*url);
      return Status::Ok();
    }
    note = "no resolver rule (" + url.error().message + "): the href is the URN";
  }
  out.assign(name);
  if (options.partition_sep == '#') {
    const std::size_t tilde = out.find('~');
    if (tilde != std::string::npos) out[tilde] = '#';
  }
  return Status::Ok();
}

Status LinkMarkup::href_into(const Request& request, std::string& out, std::string& note) const {
  if (!request.href.empty()) {
    out.assign(request.href);
    return Status::Ok();
  }
  return href_of(options_, request.urn, out, note);
}

Result<std::string> LinkMarkup::open(std::string_view href, std::string_view urn) const {
  std::string tag;
  tag.reserve(href.size() + urn.size() + 64);
  if (Status s = open_into(tag, href, urn); !s) return s.error();
  return tag;
}

Status LinkMarkup::open_into(std::string& tag, std::string_view href, std::string_view urn) const {
  const ProfileInfo& p = info(profile_);
  tag.clear();
  if (profile_ == Profile::kHtml) {
    tag += kHtmlMarkerPrefix;
    tag += " href=\"";
  } else {
    tag += kXmlMarker;
    tag += '<';
    tag += element_;
    if (declare_xlink_) {
      tag += " xmlns:xlink=\"";
      tag += kXlinkNs;
      tag += '"';
    }
    tag += ' ';
    tag += p.href_attr;
    tag += "=\"";
  }
  const std::size_t value_begin = tag.size();
  if (!append_attribute_value(tag, href, xml_, ascii_only_)) {
    return make_error(ErrorCode::kInvalidArgument,
                      "the href holds a character the document cannot carry");
  }
  const std::size_t value_end = tag.size();
  tag += '"';
  if (profile_ == Profile::kHtml) {
    tag += " data-urn=\"";
    if (urn == href) {  // the usual case (--href urn): the same escaped bytes again
      const std::size_t n = value_end - value_begin;
      tag.reserve(tag.size() + n + 2);  // no reallocation while appending from itself
      tag.append(std::string_view(tag).substr(value_begin, n));
    } else if (!append_attribute_value(tag, urn, xml_, ascii_only_)) {
      return make_error(ErrorCode::kInvalidArgument,
                        "the URN holds a character the document cannot carry");
    }
    tag += '"';
  }
  tag += '>';
  if (ascii_only_ &&
      (encoding_ == text::Encoding::kUtf16Le || encoding_ == text::Encoding::kUtf16Be)) {
    tag = encode_ascii(tag, encoding_);
  }
  return Status::Ok();
}

}  // namespace lexlink::rewrite

#include "text/xml_reader.h"

#include <cstring>
#include <exception>
#include <pugixml.hpp>

#include "text/html_entities.h"

namespace lexlink::text {

namespace {

// The element classes of each XML vocabulary the views know. long-function: a table, one name
// per line as clang-format lays it out, read top to bottom; splitting it would only scatter it.
std::vector<XmlProfile> make_profiles() {
  std::vector<XmlProfile> p;
  // Akoma Ntoso 2.0 / 3.0 (OASIS LegalDocML): the inline and marker elements of its schema.
  p.push_back(XmlProfile{"akn",
                         {"ref", "mref", "rref", "a"},
                         {"b",
                          "i",
                          "u",
                          "sup",
                          "sub",
                          "span",
                          "abbr",
                          "term",
                          "def",
                          "date",
                          "time",
                          "docNumber",
                          "docTitle",
                          "docType",
                          "docDate",
                          "docProponent",
                          "docAuthority",
                          "docPurpose",
                          "docCommittee",
                          "docIntroducer",
                          "docStage",
                          "docStatus",
                          "docJurisdiction",
                          "docketNumber",
                          "shortTitle",
                          "legislature",
                          "session",
                          "person",
                          "organization",
                          "concept",
                          "object",
                          "event",
                          "location",
                          "process",
                          "role",
                          "quantity",
                          "entity",
                          "inline",
                          "mod",
                          "mmod",
                          "rmod",
                          "remark",
                          "recordedTime",
                          "vote",
                          "outcome",
                          "ins",
                          "del",
                          "omissis",
                          "extractText",
                          "placeholder",
                          "fillIn",
                          "decoration",
                          "noteRef",
                          "eol",
                          "eop",
                          "marker",
                          "img",
                          "signature",
                          "affectedDocument",
                          "relatedDocument",
                          "change",
                          "courtType",
                          "neutralCitation",
                          "party",
                          "judge",
                          "lawyer",
                          "argument",
                          "opinion",
                          "embeddedText",
                          "documentRef"},
                         {"meta"},
                         {},
                         {"akomantoso", "docs.oasis-open.org/legaldocml"},
                         {"akomaNtoso"}});
  // NormeInRete (Italy), with its XHTML inline elements.
  p.push_back(XmlProfile{"nir",
                         {"rif", "mrif", "irif", "a"},
                         {"ndr", "def", "atto", "soggetto", "ente", "data", "luogo", "importo",
                          "entita", "vuoto", "dsp", "span", "b", "i", "u", "sup", "sub", "img"},
                         {"meta"},
                         {},
                         {"normeinrete"},
                         {"NIR"}});
  // LexML Brasil.
  p.push_back(XmlProfile{"lexml",
                         {"Remissao", "RemissaoMultipla", "a"},
                         {"span", "b", "i", "u", "sup", "sub", "img", "NotaReferenciada"},
                         {"Metadado"},
                         {"xlink:href"},
                         {"lexml.gov.br"},
                         {"LexML"}});
  // legislation.gov.uk Crown Legislation Markup Language, with inline MathML.
  p.push_back(XmlProfile{
      "clml",
      {"Citation", "CitationSubRef", "CitationListRef", "InternalLink", "ExternalLink", "a"},
      {"Emphasis",
       "Strong",
       "Underline",
       "SmallCaps",
       "Superior",
       "Inferior",
       "Uppercase",
       "Expanded",
       "Term",
       "Definition",
       "Addition",
       "Repeal",
       "Substitution",
       "CommentaryRef",
       "FootnoteRef",
       "MarginNoteRef",
       "Abbreviation",
       "Acronym",
       "Span",
       "Character",
       "InlineAmendment",
       "DateText",
       "Proviso",
       "math",
       "mi",
       "mo",
       "mn",
       "mrow",
       "msub",
       "msup",
       "mfrac",
       "mtext",
       "msubsup",
       "mspace",
       "mfenced",
       "img",
       "Image"},
      {"Metadata"},
      {},
      {"legislation.gov.uk/namespaces/legislation"},
      {"Legislation"}});
  // XHTML.
  p.push_back(XmlProfile{
      "xhtml",
      {"a"},
      {"abbr",  "acronym", "b",      "bdi",    "bdo", "big", "cite",  "code", "data", "del", "dfn",
       "em",    "font",    "i",      "img",    "ins", "kbd", "label", "mark", "q",    "s",   "samp",
       "small", "span",    "strike", "strong", "sub", "sup", "time",  "tt",   "u",    "var", "wbr"},
      {"head", "script", "style", "textarea"},
      {},
      {"www.w3.org/1999/xhtml"},
      {"html"}});
  // Anything else: the usual formatting and reference names.
  p.push_back(
      XmlProfile{"generic",
                 {"a", "ref", "rif", "Remissao", "Citation", "CitationSubRef", "xref", "link"},
                 {"b", "i", "u", "em", "strong", "sup", "sub", "span", "small", "font", "abbr",
                  "term", "def", "date"},
                 {"meta", "Metadata", "head", "script", "style"},
                 {},
                 {},
                 {}});
  return p;
}

std::string_view local_name(std::string_view qname) {
  const std::size_t colon = qname.find(':');
  return colon == std::string_view::npos ? qname : qname.substr(colon + 1);
}

bool contains(const std::vector<std::string>& v, std::string_view s) {
  for (const auto& x : v) {
    if (x == s) return true;
  }
  return false;
}

bool is_ws(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
struct NameChars {
  bool start[256] = {};
  bool other[256] = {};
  NameChars() {
    for (int c = 0; c < 256; ++c) {
      start[c] =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || c >= 0x80;
      other[c] = start[c] || (c >= '0' && c <= '9') || c == '-' || c == '.';
    }
  }
};
const NameChars kNameChars;
bool is_name_start(char c) {
  return kNameChars.start[static_cast<unsigned char>(c)];
}
bool is_name_char(char c) {
  return kNameChars.other[static_cast<unsigned char>(c)];
}

std::size_t find_str(std::string_view s, std::size_t from, std::string_view lit) {
  return s.find(lit, from);
}

// A quick hash of an element name: its length and its first and last bytes (up to 8 each).
// `readable` bytes may be read from s.data() (at least s.size()): with 8 of them, the head is
// one load, masked to the name.
std::uint64_t hash_name(std::string_view s, std::size_t readable) {
  std::uint64_t head = 0, tail = 0;
  const std::size_t n = s.size();
  if (n >= 8) {
    std::memcpy(&head, s.data(), 8);
    std::memcpy(&tail, s.data() + n - 8, 8);
    if (n == 8) tail = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  } else if (readable >= 8) {
    std::memcpy(&head, s.data(), 8);
    head &= (std::uint64_t{1} << (8 * n)) - 1;  // the first n bytes
#endif
  } else {
    std::memcpy(&head, s.data(), n);
  }
  std::uint64_t h = (head ^ (tail * 0x9E3779B97F4A7C15ull) ^ n) * 0xFF51AFD7ED558CCDull;
  return h ^ (h >> 29);
}

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && same_bytes(a.data(), b.data(), a.size());
}

}  // namespace

const std::vector<XmlProfile>& xml_profiles() {
  static const std::vector<XmlProfile> profiles = make_profiles();
  return profiles;
}

const XmlProfile* find_xml_profile(std::string_view name) {
  for (const auto& p : xml_profiles()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

const XmlProfile& choose_xml_profile(std::string_view root_name, std::string_view root_namespace) {
  const auto& all = xml_profiles();
  if (!root_namespace.empty()) {
    for (const auto& p : all) {
      for (const auto& mark : p.namespace_marks) {
        if (root_namespace.find(mark) != std::string_view::npos) return p;
      }
    }
  }
  const std::string_view local = local_name(root_name);
  for (const auto& p : all) {
    if (contains(p.root_elements, local)) return p;
  }
  return all.back();
}

XmlCheck check_xml(std::string_view doc) {
  XmlCheck out;
  try {
    pugi::xml_document d;
    const pugi::xml_parse_result r =
        d.load_buffer(doc.data(), doc.size(), pugi::parse_minimal, pugi::encoding_utf8);
    if (!r) {
      out.message = r.description();
      out.offset = static_cast<std::size_t>(r.offset);
      return out;
    }
    const pugi::xml_node root = d.document_element();
    if (!root) {
      out.message = "no root element";
      return out;
    }
    out.root_name = root.name();
    const std::string_view qname = out.root_name;
    const std::size_t colon = qname.find(':');
    const std::string attr =
        colon == std::string_view::npos ? "xmlns" : "xmlns:" + std::string(qname.substr(0, colon));
    out.root_namespace = root.attribute(attr.c_str()).value();
    out.ok = true;
  } catch (const std::exception& ex) {
    out.ok = false;
    out.message = std::string("XML parser failed: ") + ex.what();
  }
  return out;
}

XmlCheck sniff_xml_root(std::string_view s) {
  XmlCheck out;
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    const std::size_t lt = s.find('<', i);
    if (lt == std::string_view::npos || lt + 1 >= n) return out;
    if (s[lt + 1] == '?') {
      const std::size_t close = s.find("?>", lt + 2);
      if (close == std::string_view::npos) return out;
      i = close + 2;
    } else if (s.substr(lt, 4) == "<!--") {
      const std::size_t close = s.find("-->", lt + 4);
      if (close == std::string_view::npos) return out;
      i = close + 3;
    } else if (s[lt + 1] == '!') {
      // A doctype, perhaps with an internal subset.
      std::size_t close = s.find('>', lt);
      const std::size_t bracket = s.find('[', lt);
      if (bracket != std::string_view::npos && bracket < close) close = s.find("]>", bracket);
      if (close == std::string_view::npos) return out;
      i = close + 1;
    } else if (is_name_start(s[lt + 1])) {
      std::size_t k = lt + 1;
      while (k < n && is_name_char(s[k])) ++k;
      out.root_name.assign(s.substr(lt + 1, k - lt - 1));
      const std::size_t gt = s.find('>', k);
      const std::string_view tag = s.substr(k, gt == std::string_view::npos ? n - k : gt - k);
      const std::size_t colon = out.root_name.find(':');
      const std::string attr =
          colon == std::string::npos ? "xmlns=" : "xmlns:" + out.root_name.substr(0, colon) + "=";
      const std::size_t at = tag.find(attr);
      if (at != std::string_view::npos && at + attr.size() < tag.size()) {
        const char q = tag[at + attr.size()];
        const std::size_t end = tag.find(q, at + attr.size() + 1);
        if (end != std::string_view::npos) {
          out.root_namespace.assign(tag.substr(at + attr.size() + 1, end - at - attr.size() - 1));
        }
      }
      return out;
    } else {
      i = lt + 1;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

XmlTokenizer::XmlTokenizer(const XmlProfile& profile) : profile_(profile) {
  slots_.resize(256);
  stack_.reserve(64);
}

std::size_t XmlTokenizer::fail(std::size_t at, std::string message) {
  if (error_.empty()) {
    error_ = std::move(message);
    error_offset_ = at;
  }
  return at;
}

XmlTokenizer::Slot& XmlTokenizer::lookup(std::string_view qname, std::size_t readable) {
  std::size_t mask = slots_.size() - 1;
  std::size_t i = hash_name(qname, readable) & mask;
  while (slots_[i].used) {
    if (same_name(slots_[i].name, qname)) return slots_[i];
    i = (i + 1) & mask;
  }
  const std::string_view local = local_name(qname);
  Class cls = kBlock;
  if (contains(profile_.link_elements, local)) {
    cls = kLink;
  } else if (contains(profile_.skip_elements, local)) {
    cls = kSkip;
  } else if (contains(profile_.inline_elements, local)) {
    cls = kInline;
  }
  if ((slot_count_ + 1) * 2 > slots_.size()) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (!s.used) continue;
      std::size_t k = hash_name(s.name, s.name.size()) & mask;
      while (slots_[k].used) k = (k + 1) & mask;
      slots_[k] = s;
    }
    i = hash_name(qname, readable) & mask;
    while (slots_[i].used) i = (i + 1) & mask;
  }
  slots_[i] = Slot{qname, cls, true, 0, 0};
  ++slot_count_;
  return slots_[i];
}

std::uint32_t XmlTokenizer::name_index(Slot& slot, ChunkEmitter& e) {
  if (slot.epoch != e.chunk_epoch()) {
    slot.epoch = e.chunk_epoch();
    slot.index = e.name(slot.name);
  }
  return slot.index;
}

bool XmlTokenizer::is_link_attribute(std::string_view qname) const {
  return contains(profile_.link_attributes, qname);
}

std::size_t XmlTokenizer::run(std::string_view s, std::size_t pos, ChunkEmitter& e) {
  const std::size_t n = s.size();
  check_ = e.discarding();
  if (!scanned_for_nul_) {
    // XML has no U+0000 (and pugixml stops at one): refuse it wherever it is.
    scanned_for_nul_ = true;
    if (const void* nul = std::memchr(s.data(), 0, n)) {
      return fail(static_cast<std::size_t>(static_cast<const char*>(nul) - s.data()), "NUL byte");
    }
  }
  while (pos < n) {
    if (failed()) return pos;
    if (s[pos] == '<') {
      pos = markup(s, pos, e);
      if (failed() || e.cut_requested()) return pos;
      if (skip_depth_ == 0 && e.offer_token_cut(pos)) return pos;
      continue;
    }
    bool non_ascii = false;
    const std::size_t q = find_markup(s, pos, n, non_ascii);
    if (q > pos) {
      if (stack_.empty()) {
        for (std::size_t k = pos; k < q; ++k) {
          if (!is_ws(s[k])) return fail(k, "text outside the root element");
        }
      } else if (skip_depth_ == 0 && !check_) {
        const std::size_t reached = emit_text_run(e, s, 0, pos, q, false, !non_ascii);
        if (e.cut_requested()) return reached;
      }
      pos = q;
      continue;
    }
    // '&'
    if (stack_.empty()) return fail(pos, "reference outside the root element");
    const CharRef r = scan_xml_char_ref(s.substr(pos + 1));
    if (r.status != CharRef::Status::kFound) return fail(pos, "malformed reference");
    const std::size_t end = pos + 1 + r.length;
    if (skip_depth_ == 0 && !check_) {
      if (r.utf8.empty() && r.code_point == 0) {
        e.text(pos, s.substr(pos, end - pos));  // an entity we cannot expand: kept as written
      } else {
        e.decoded(pos, end, r.utf8, r.code_point);
      }
    }
    pos = end;
    if (skip_depth_ == 0 && e.offer_token_cut(pos)) return pos;
  }
  if (!failed() && pos >= n) {
    if (!stack_.empty()) return fail(n, "unclosed element at the end of the document");
    if (!seen_root_) return fail(n, "no root element");
    done_ = true;
  }
  return pos;
}

std::size_t XmlTokenizer::markup(std::string_view s, std::size_t pos, ChunkEmitter& e) {
  const std::size_t n = s.size();
  if (pos + 1 >= n) return fail(pos, "'<' at the end of the document");
  const char c = s[pos + 1];
  const bool report = skip_depth_ == 0;
  if (c == '?') {
    if (pos + 2 >= n || !is_name_start(s[pos + 2])) return fail(pos, "bad processing instruction");
    const std::size_t close = find_str(s, pos + 2, "?>");
    if (close == std::string_view::npos) return fail(pos, "unclosed processing instruction");
    const std::size_t end = close + 2;
    if (report) e.tag(Tag::Kind::kOther, pos, end, 0, true);
    if (s.substr(pos, end - pos) == "<?lexlink?>") lexlink_pi_end_ = end;
    return end;
  }
  if (c == '!') {
    if (s.substr(pos, 4) == "<!--") {
      const std::size_t close = find_str(s, pos + 4, "-->");
      if (close == std::string_view::npos) return fail(pos, "unclosed comment");
      if (report) e.tag(Tag::Kind::kOther, pos, close + 3, 0, true);
      return close + 3;
    }
    if (s.substr(pos, 9) == "<![CDATA[") {
      if (stack_.empty()) return fail(pos, "CDATA section outside the root element");
      const std::size_t close = find_str(s, pos + 9, "]]>");
      if (close == std::string_view::npos) return fail(pos, "unclosed CDATA section");
      if (report) {
        e.tag(Tag::Kind::kOther, pos, pos + 9, 0, true);
        if (close > pos + 9) {
          e.zone_begin(Zone::Reason::kCdata);
          e.text(pos + 9, s.substr(pos + 9, close - pos - 9));
          e.zone_end();
        }
        e.tag(Tag::Kind::kOther, close, close + 3, 0, true);
      }
      return close + 3;
    }
    if (s.substr(pos, 9) == "<!DOCTYPE") {
      if (seen_root_) return fail(pos, "doctype after the root element");
      std::size_t i = pos + 9;
      int depth = 0;  // inside the internal subset
      while (i < n) {
        const char ch = s[i];
        if (ch == '"' || ch == '\'') {
          const std::size_t close = s.find(ch, i + 1);
          if (close == std::string_view::npos) return fail(pos, "unclosed doctype");
          i = close + 1;
          continue;
        }
        if (depth > 0 && s.substr(i, 4) == "<!--") {
          const std::size_t close = find_str(s, i + 4, "-->");
          if (close == std::string_view::npos) return fail(pos, "unclosed doctype");
          i = close + 3;
          continue;
        }
        if (ch == '[') ++depth;
        if (ch == ']' && depth > 0) --depth;
        if (ch == '>' && depth == 0) break;
        ++i;
      }
      if (i >= n) return fail(pos, "unclosed doctype");
      e.tag(Tag::Kind::kOther, pos, i + 1, 0, true);
      return i + 1;
    }
    return fail(pos, "unknown markup declaration");
  }
  if (c == '/') return end_tag(s, pos, e);
  return start_tag(s, pos, e);
}

std::size_t XmlTokenizer::start_tag(std::string_view s, std::size_t pos, ChunkEmitter& e) {
  const std::size_t n = s.size();
  if (seen_root_ && stack_.empty()) return fail(pos, "a second root element");
  std::size_t i = pos + 1;
  if (i >= n || !is_name_start(s[i])) return fail(pos, "bad element name");
  const std::size_t name_begin = i;
  while (i < n && is_name_char(s[i])) ++i;
  const std::string_view qname = s.substr(name_begin, i - name_begin);
  bool link_attribute = false;
  bool empty = false;
  std::size_t end = std::string_view::npos;
  while (i < n) {
    const char ch = s[i];
    if (is_ws(ch)) {
      ++i;
      continue;
    }
    if (ch == '>') {
      end = i + 1;
      break;
    }
    if (ch == '/') {
      if (i + 1 < n && s[i + 1] == '>') {
        empty = true;
        end = i + 2;
        break;
      }
      return fail(i, "'/' not followed by '>' in a tag");
    }
    if (!is_name_start(ch)) return fail(i, "bad attribute name");
    if (!is_ws(s[i - 1])) return fail(i, "no white space before an attribute");
    const std::size_t an = i;
    while (i < n && is_name_char(s[i])) ++i;
    const std::string_view attr = s.substr(an, i - an);
    if (!profile_.link_attributes.empty() && is_link_attribute(attr)) link_attribute = true;
    while (i < n && is_ws(s[i])) ++i;
    if (i >= n || s[i] != '=') return fail(i, "attribute without '='");
    ++i;
    while (i < n && is_ws(s[i])) ++i;
    if (i >= n || (s[i] != '"' && s[i] != '\'')) return fail(i, "unquoted attribute value");
    const char quote = s[i];
    const std::size_t close = find_either(s.data(), i + 1, n, quote, '<');
    if (close == n || s[close] == '<') {
      if (s.find(quote, close) == std::string_view::npos) {
        return fail(i, "unclosed attribute value");
      }
      return fail(i, "'<' in an attribute value");
    }
    i = close + 1;
  }
  if (end == std::string_view::npos) return fail(pos, "unclosed tag");
  seen_root_ = true;
  if (check_) {
    if (!empty) stack_.push_back(Open{name_begin, qname.size(), kBlock, false, 0, 0});
    return end;
  }
  const bool marked = lexlink_pi_end_ == pos;

  if (skip_depth_ > 0) {
    if (!empty) {
      ++skip_depth_;
      stack_.push_back(Open{name_begin, qname.size(), kSkip, false, 0, 0});
    }
    return end;
  }
  Slot& slot = lookup(qname, n - name_begin);
  Class cls = slot.cls;
  if (marked || link_attribute) cls = kLink;
  if (cls == kSkip) {
    e.block_break(pos);
    if (empty) {
      e.tag(Tag::Kind::kOther, pos, end, 0, false);
      e.offer_cut(CutLevel::kBlock, end);
    } else {
      skip_depth_ = 1;
      skip_begin_ = pos;
      stack_.push_back(Open{name_begin, qname.size(), kSkip, false, 0, 0});
    }
    return end;
  }
  const bool block = cls == kBlock;
  if (block) e.block_break(pos);
  const std::uint32_t index = name_index(slot, e);
  e.tag(empty ? Tag::Kind::kEmpty : Tag::Kind::kOpen, pos, end, index, !block);
  if (!empty) {
    const bool zone = cls == kLink;
    if (zone) e.zone_begin(Zone::Reason::kExistingLink);
    stack_.push_back(Open{name_begin, qname.size(), cls, zone, e.chunk_epoch(), index});
  }
  if (block) e.offer_cut(CutLevel::kBlock, end);
  return end;
}

std::size_t XmlTokenizer::end_tag(std::string_view s, std::size_t pos, ChunkEmitter& e) {
  const std::size_t n = s.size();
  std::size_t i = pos + 2;
  const std::size_t name_begin = i;
  while (i < n && is_name_char(s[i])) ++i;
  const std::string_view qname = s.substr(name_begin, i - name_begin);
  while (i < n && is_ws(s[i])) ++i;
  if (i >= n || s[i] != '>') return fail(pos, "malformed end tag");
  const std::size_t end = i + 1;
  if (stack_.empty()) return fail(pos, "end tag without a start tag");
  const Open open = stack_.back();
  if (open.name_len != qname.size() ||
      !same_bytes(s.data() + open.name_begin, qname.data(), open.name_len)) {
    return fail(pos, "end tag </" + std::string(qname) + "> does not match <" +
                         std::string(s.substr(open.name_begin, open.name_len)) + ">");
  }
  stack_.pop_back();
  if (check_) return end;
  if (skip_depth_ > 0) {
    if (--skip_depth_ == 0) {
      e.tag(Tag::Kind::kOther, skip_begin_, end, 0, false);
      e.block_break(end);
      e.offer_cut(CutLevel::kBlock, end);
    }
    return end;
  }
  if (open.zone) e.zone_end();
  const bool block = open.cls == kBlock;
  if (block) e.block_break(pos);
  const std::uint32_t index = open.name_epoch == e.chunk_epoch()
                                  ? open.name_index
                                  : name_index(lookup(qname, n - name_begin), e);
  e.tag(Tag::Kind::kClose, pos, end, index, !block);
  if (block) e.offer_cut(CutLevel::kBlock, end);
  return end;
}

}  // namespace lexlink::text

#include "text/view_builder.h"

#include <algorithm>
#include <deque>

#include "common/utf8.h"
#include "text/charset.h"
#include "text/chunk_emitter.h"
#include "text/html_tokenizer.h"
#include "text/xml_reader.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lexlink::text {

namespace {

constexpr std::size_t kMinDetectBytes = 4096;
constexpr std::size_t kMinSliceBytes = 64 * 1024;

bool is_ws(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool starts_with_ci(std::string_view s, std::size_t pos, std::string_view lit) {
  if (s.size() - std::min(pos, s.size()) < lit.size()) return false;
  for (std::size_t i = 0; i < lit.size(); ++i) {
    if (lower(s[pos + i]) != lit[i]) return false;
  }
  return true;
}

// HTML element names that make a document HTML when they start it or appear in it.
bool is_common_html_element(std::string_view lowered) {
  static constexpr std::string_view kNames[] = {
      "a",       "b",       "body", "br",     "center", "div",   "em",   "font",   "h1",
      "h2",      "h3",      "h4",   "h5",     "h6",     "head",  "hr",   "html",   "i",
      "img",     "li",      "meta", "ol",     "p",      "pre",   "span", "strong", "sub",
      "sup",     "table",   "td",   "th",     "title",  "tr",    "u",    "ul",     "blockquote",
      "section", "article", "link", "script", "style",  "small", "dl",   "dt",     "dd"};
  return std::find(std::begin(kNames), std::end(kNames), lowered) != std::end(kNames);
}

// Reads a tag name at s[pos] (after '<' or '</'), lower-cased.
std::string tag_name_at(std::string_view s, std::size_t pos) {
  std::string name;
  while (pos < s.size() && !is_ws(s[pos]) && s[pos] != '>' && s[pos] != '/' && name.size() < 32) {
    name += lower(s[pos++]);
  }
  return name;
}

Format sniff_format(std::string_view s) {
  std::size_t i = 0;
  auto skip_ws = [&] {
    while (i < s.size() && is_ws(s[i])) ++i;
  };
  skip_ws();
  if (s.substr(i, 5) == "<?xml") return Format::kXml;
  // Leading comments and processing instructions.
  while (i < s.size()) {
    if (s.substr(i, 4) == "<!--") {
      const std::size_t close = s.find("-->", i + 4);
      if (close == std::string_view::npos) return Format::kHtml;
      i = close + 3;
    } else if (s.substr(i, 2) == "<?") {
      const std::size_t close = s.find("?>", i + 2);
      if (close == std::string_view::npos) break;
      i = close + 2;
    } else {
      break;
    }
    skip_ws();
  }
  if (starts_with_ci(s, i, "<!doctype")) {
    std::size_t k = i + 9;
    while (k < s.size() && is_ws(s[k])) ++k;
    return tag_name_at(s, k) == "html" ? Format::kHtml : Format::kXml;
  }
  if (i + 1 < s.size() && s[i] == '<' && is_alpha(s[i + 1])) {
    const std::string name = tag_name_at(s, i + 1);
    if (name == "html") return Format::kHtml;
    const std::size_t gt = s.find('>', i);
    const std::string_view first_tag = s.substr(i, gt == std::string_view::npos ? 512 : gt - i);
    if (first_tag.find("xmlns") != std::string_view::npos) return Format::kXml;
    return is_common_html_element(name) ? Format::kHtml : Format::kXml;
  }
  // Text with markup in it: HTML when common HTML tags occur often enough. The links lexlink
  // writes into plain text (`<a data-lexlink="" ...>...</a>`) do not count, so that a marked-up
  // text is read as text again.
  std::size_t tags = 0;
  bool other_anchor = false;
  for (std::size_t k = s.find('<', i); k != std::string_view::npos && k + 1 < s.size();
       k = s.find('<', k + 1)) {
    std::size_t at = k + 1;
    const bool close = s[at] == '/';
    if (close) ++at;
    if (at >= s.size() || !is_alpha(s[at])) continue;
    const std::string name = tag_name_at(s, at);
    if (!is_common_html_element(name)) continue;
    if (name == "a") {
      if (!close && s.substr(k, 18) == "<a data-lexlink=\"\"") continue;
      if (!close) other_anchor = true;
      if (close && !other_anchor) continue;
    }
    if (++tags >= 3) return Format::kHtml;
  }
  return Format::kText;
}

// The encoding="..." of an XML declaration at the start of `s`.
std::optional<std::string> xml_declared_encoding(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && is_ws(s[i])) ++i;
  if (s.substr(i, 5) != "<?xml") return std::nullopt;
  const std::size_t close = s.find("?>", i);
  if (close == std::string_view::npos) return std::nullopt;
  const std::string_view decl = s.substr(i, close - i);
  const std::size_t k = decl.find("encoding");
  if (k == std::string_view::npos) return std::nullopt;
  std::size_t v = k + 8;
  while (v < decl.size() && (is_ws(decl[v]) || decl[v] == '=')) ++v;
  if (v >= decl.size() || (decl[v] != '"' && decl[v] != '\'')) return std::nullopt;
  const std::size_t end = decl.find(decl[v], v + 1);
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(decl.substr(v + 1, end - v - 1));
}

bool is_utf16(Encoding e) {
  return e == Encoding::kUtf16Le || e == Encoding::kUtf16Be;
}

HtmlExtraNames extra_names(const XmlProfile& profile) {
  HtmlExtraNames extra;
  auto lowered = [](std::string_view s) {
    std::string out;
    for (char c : s) out += lower(c);
    return out;
  };
  for (const auto& n : profile.link_elements) {
    // HTML's own rule applies to <a>: a link when it has an href.
    if (n != "a") extra.link_elements.push_back(lowered(n));
  }
  for (const auto& n : profile.link_attributes) extra.link_attributes.push_back(lowered(n));
  return extra;
}

}  // namespace

struct ViewBuilder::Impl {
  // kXmlEmit: a well-formed XML document whose chunks next() builds one at a time.
  enum class Phase : std::uint8_t { kDetect, kText, kHtml, kXml, kXmlEmit, kDone, kFailed };

  explicit Impl(ViewOptions o) : options(std::move(o)) {}

  ViewOptions options;
  Phase phase = Phase::kDetect;
  Status failure;
  Format format = Format::kText;
  Encoding encoding = Encoding::kUtf8;
  bool bom = false;
  std::size_t bom_len = 0;
  std::vector<std::string> detect_warnings;

  std::string orig;  // original bytes not yet in a chunk; orig[0] is at orig_base
  std::uint64_t orig_base = 0;
  std::size_t decoded = 0;  // orig[0, decoded) went through the transcoder
  std::string mid_own;      // decoded bytes (not UTF-8 input); mid_own[0] is at mid_base
  std::uint64_t mid_base = 0;
  std::size_t pos = 0;  // where the tokenizer stands, relative to the mid bytes
  std::uint64_t fed = 0;
  std::uint64_t valid_until = 0;  // mid bytes before it are known to be valid UTF-8
  std::optional<Transcoder> transcoder;
  RunMap map;
  std::unique_ptr<ChunkEmitter> emitter;
  std::optional<HtmlTokenizer> html;
  std::optional<XmlTokenizer> xml;
  std::size_t xml_pos = 0;  // where the XML tokenizer stands (kXmlEmit)
  std::uint64_t xml_chunk_orig = 0;
  std::deque<TextView> ready;
  bool own_link_open = false;  // plain text: inside one of lexlink's own links

  bool identity() const { return map.identity(); }
  std::string_view mid() const { return identity() ? std::string_view(orig) : mid_own; }
  // The emitter of the document's chunks, as the options say.
  std::unique_ptr<ChunkEmitter> new_emitter() const {
    auto e =
        std::make_unique<ChunkEmitter>(map, options.chunk_bytes, options.first_chunk_text_bytes);
    e->set_cut_advisor(options.cut_advisor.get());
    return e;
  }
  std::size_t detect_bytes() const {
    return options.chunk_bytes == 0 ? SIZE_MAX : std::max(options.chunk_bytes, kMinDetectBytes);
  }
  std::size_t slice_bytes() const {
    return options.chunk_bytes == 0 ? SIZE_MAX : std::max(options.chunk_bytes / 4, kMinSliceBytes);
  }

  Status fail(Error e) {
    phase = Phase::kFailed;
    failure = Status(std::move(e));
    return failure;
  }

  void grow(std::size_t take);
  void detect(bool eof);
  void setup_stream();
  Status step(bool eof);
  void decode_pending(bool eof);
  void cut(std::uint64_t mid_abs, bool last);
  Status process_xml();
  void next_xml_chunk();
  void run_html_whole(const XmlProfile* fallback_profile, std::string warning);
  std::size_t run_text(std::string_view m, std::size_t from, std::size_t end, bool eof,
                       bool known_valid);
};

// Room in `orig` for `take` more bytes. Detection needs detect_bytes() before it starts; XML is
// kept whole, so its buffer jumps to kXmlReserveBytes of address space (pages untouched until
// written, huge pages once written), then grows 4x: a document up to that size is copied once
// (its first detect_bytes()), not at every doubling.
void ViewBuilder::Impl::grow(std::size_t take) {
  static constexpr std::size_t kXmlReserveBytes = 64u << 20;
  const std::size_t need = orig.size() + take;
  std::size_t want = std::max(need, orig.capacity() * 2);
  if (phase == Phase::kDetect && options.chunk_bytes != 0) {
    want = std::max(want, detect_bytes() + slice_bytes());
  }
  if (phase == Phase::kXml) {
    want = std::max({want, orig.capacity() * 4, kXmlReserveBytes});
    want = std::max(need, std::min(want, options.max_document_bytes + take));
  }
  reserve_large(orig, want);
}

void ViewBuilder::Impl::detect(bool eof) {
  std::string_view head = orig;
  Encoding bom_encoding = Encoding::kUtf8;
  const std::size_t bl = bom_length(head, &bom_encoding);
  bool known = false;
  if (options.encoding) {
    encoding = *options.encoding;
    known = true;
    if (bl > 0 && bom_encoding == encoding) {
      bom = true;
      bom_len = bl;
    }
  } else if (bl > 0) {
    encoding = bom_encoding;
    bom = true;
    bom_len = bl;
    known = true;
  } else if (auto u16 = detect_utf16_without_bom(head)) {
    encoding = *u16;
    known = true;
  }

  // An ASCII-compatible sample of the head for sniffing the format and reading declarations.
  std::string decoded_sample;
  std::string_view sample = head.substr(bom_len);
  if (known && is_utf16(encoding)) {
    Transcoder t(encoding);
    std::vector<MidRun> runs;
    t.decode(sample.substr(0, 256 * 1024), 0, 0, true, decoded_sample, runs);
    sample = decoded_sample;
  }
  switch (options.format) {
    case ViewOptions::FormatChoice::kText: format = Format::kText; break;
    case ViewOptions::FormatChoice::kHtml: format = Format::kHtml; break;
    case ViewOptions::FormatChoice::kXml: format = Format::kXml; break;
    case ViewOptions::FormatChoice::kAuto:
      format = sniff_format(sample.substr(0, 1024 * 1024));
      break;
  }

  if (!known) {
    std::optional<std::string> label;
    if (format == Format::kXml) label = xml_declared_encoding(sample);
    if (format == Format::kHtml) label = html_meta_charset(sample.substr(0, 1024 * 1024));
    if (label) {
      auto e = encoding_from_label(*label, format == Format::kHtml);
      if (e && !is_utf16(*e)) {
        encoding = *e;
        known = true;
      } else if (!e) {
        detect_warnings.push_back("unsupported charset \"" + *label +
                                  "\" declared: the encoding is detected instead");
      }
    }
  }
  if (!known) {
    std::string_view probe = head.substr(bom_len);
    const std::size_t end = eof ? probe.size() : complete_utf8_prefix(probe, probe.size());
    if (utf8::is_valid(probe.substr(0, end))) {
      encoding = Encoding::kUtf8;
      valid_until = bom_len + end;  // no need to validate these bytes again
    } else {
      encoding = guess_single_byte(probe.substr(0, 1024 * 1024));
    }
  } else if (encoding == Encoding::kUtf8 && format != Format::kXml) {
    // Declared UTF-8 (a BOM, <meta charset>, the caller): one check of the head here, so its
    // text runs are not each validated again (up to the first invalid byte, if any).
    const std::string_view probe = head.substr(bom_len);
    const std::size_t end = eof ? probe.size() : complete_utf8_prefix(probe, probe.size());
    const std::size_t bad = utf8::find_invalid(probe.substr(0, end));
    valid_until = bom_len + (bad == std::string_view::npos ? end : bad);
  }

  map = RunMap(encoding == Encoding::kUtf8);
  if (!identity()) {
    map.set_origin(0, bom_len);
    transcoder.emplace(encoding);
    decoded = bom_len;
  } else {
    pos = bom_len;
  }
  emitter = new_emitter();
  emitter->set_document(format, encoding, bom, "");
  emitter->begin_chunk(0, 0);
  // The whole document is here (make_view, or input shorter than a chunk, known at the end):
  // it is one chunk, whose room is reserved at once rather than grown by doubling.
  if ((options.chunk_bytes == 0 || eof) && format != Format::kXml) emitter->reserve(orig.size());
  if (format != Format::kXml) {  // XML keeps them for the emitter it makes once parsed
    for (auto& w : detect_warnings) emitter->warn(std::move(w));
    detect_warnings.clear();
  }
  switch (format) {
    case Format::kText: phase = Phase::kText; break;
    case Format::kHtml:
      phase = Phase::kHtml;
      html.emplace();
      html->set_valid_until(identity() ? valid_until : UINT64_MAX);
      break;
    case Format::kXml: phase = Phase::kXml; break;
  }
}

void ViewBuilder::Impl::decode_pending(bool eof) {
  if (identity() || !transcoder) return;
  if (decoded >= orig.size() && !eof) return;
  const std::uint64_t mid_end = mid_base + mid_own.size();
  transcoder->decode(std::string_view(orig).substr(decoded), orig_base + decoded, mid_end, eof,
                     mid_own, map.runs());
  decoded = orig.size();
}

void ViewBuilder::Impl::cut(std::uint64_t mid_abs, bool last) {
  const std::uint64_t orig_abs = last ? orig_base + orig.size() : map.orig_at(mid_abs);
  const std::size_t take = static_cast<std::size_t>(orig_abs - orig_base);
  std::string chunk_original;
  if (last) {
    chunk_original = std::move(orig);
    orig.clear();
  } else {
    // The chunk keeps the buffer; the few bytes after the cut move to a new one.
    std::string rest;
    reserve_large(rest, std::max(orig.size() - take, options.chunk_bytes * 2));
    rest.append(orig, take, std::string::npos);
    orig.resize(take);
    chunk_original = std::move(orig);
    orig = std::move(rest);
  }
  ready.push_back(emitter->end_chunk(mid_abs, orig_abs, std::move(chunk_original), last));
  orig_base = orig_abs;
  decoded = decoded > take ? decoded - take : 0;
  const auto mid_taken = static_cast<std::size_t>(mid_abs - mid_base);
  if (identity()) {
    mid_base = orig_base;
  } else {
    mid_own.erase(0, std::min(mid_taken, mid_own.size()));
    mid_base = mid_abs;
    map.drop_before(mid_abs);
  }
  pos = pos > mid_taken ? pos - mid_taken : 0;
  if (!last) emitter->begin_chunk(mid_abs, orig_abs);
}

Status ViewBuilder::Impl::step(bool eof) {
  if (phase == Phase::kDetect) {
    if (!eof && orig.size() < detect_bytes()) return Status::Ok();
    detect(eof);
  }
  if (phase == Phase::kXml) {
    if (fed > options.max_document_bytes) {
      return fail(make_error(ErrorCode::kLimitExceeded,
                             "XML document larger than " +
                                 std::to_string(options.max_document_bytes) +
                                 " bytes (max_document_bytes): XML is parsed whole"));
    }
    if (!eof) return Status::Ok();
    return process_xml();
  }
  if (phase != Phase::kText && phase != Phase::kHtml) return Status::Ok();
  decode_pending(eof);
  while (true) {
    const std::string_view m = mid();
    if (phase == Phase::kText) {
      std::size_t end = eof ? m.size() : complete_utf8_prefix(m, m.size());
      // A CR that ends the input so far waits for the next byte: CR LF or a lone CR (a line end
      // of its own, see emit_text).
      if (!eof && end > pos && m[end - 1] == '\r') --end;
      const bool known_valid = !identity() || mid_base + end <= valid_until;
      pos = run_text(m, pos, end, eof, known_valid);
    } else {
      pos = html->run(m, pos, mid_base, eof, *emitter);
    }
    if (!emitter->cut_requested()) break;
    cut(mid_base + pos, false);
  }
  if (eof) {
    cut(mid_base + mid().size(), true);
    phase = Phase::kDone;
  }
  return Status::Ok();
}

// Plain text, where the only markup is the links lexlink itself wrote into it
// (`<a data-lexlink="" ...>...</a>`, see rewrite/link_markup.h): their tags are markup and their
// content a no-link zone, so a marked-up text reads as it did before (markup is idempotent and
// the extractor sees the same words). Returns where it stopped: at a cut the emitter requested,
// or, before more input comes, where a marker might be cut in two.
std::size_t ViewBuilder::Impl::run_text(std::string_view m, std::size_t from, std::size_t end,
                                        bool eof, bool known_valid) {
  static constexpr std::string_view kOpen = "<a data-lexlink=\"\"";
  static constexpr std::string_view kClose = "</a>";
  static constexpr std::size_t kMaxOpenTag = 64 * 1024;  // longer: not one of ours
  // Where text may be emitted up to when `marker` is not found in m[at, end): before a trailing
  // prefix of it that more input might complete.
  auto safe_end = [&](std::string_view marker, std::size_t at) {
    if (eof) return end;
    const std::size_t lo = end - std::min(end - at, marker.size() - 1);
    for (std::size_t k = lo; k < end; ++k) {
      if (m[k] == '<' && marker.substr(0, end - k) == m.substr(k, end - k)) return k;
    }
    return end;
  };
  std::size_t p = from;
  while (p < end) {
    const std::string_view window = m.substr(0, end);
    if (own_link_open) {
      const std::size_t close = window.find(kClose, p);
      const std::size_t stop = close == std::string_view::npos ? safe_end(kClose, p) : close;
      p = emit_text_run(*emitter, m, mid_base, p, stop, true, known_valid);
      if (emitter->cut_requested() || close == std::string_view::npos) return p;
      emitter->zone_end();
      emitter->tag(Tag::Kind::kClose, mid_base + close, mid_base + close + kClose.size(),
                   emitter->name("a"), true);
      own_link_open = false;
      p = close + kClose.size();
      continue;
    }
    std::size_t open = window.find(kOpen, p);
    std::size_t gt = std::string_view::npos;
    if (open != std::string_view::npos) {
      gt = window.substr(0, std::min(end, open + kMaxOpenTag)).find('>', open);
      if (gt == std::string_view::npos && !eof && end - open < kMaxOpenTag) {
        // The tag may end in the input still to come.
        p = emit_text_run(*emitter, m, mid_base, p, open, true, known_valid);
        return p;
      }
    }
    if (gt == std::string_view::npos) {  // no marker (or an unterminated one: text)
      const std::size_t stop = open == std::string_view::npos ? safe_end(kOpen, p) : end;
      p = emit_text_run(*emitter, m, mid_base, p, stop, true, known_valid, !eof);
      return p;
    }
    p = emit_text_run(*emitter, m, mid_base, p, open, true, known_valid);
    if (emitter->cut_requested()) return p;
    emitter->tag(Tag::Kind::kOpen, mid_base + open, mid_base + gt + 1, emitter->name("a"), true);
    emitter->zone_begin(Zone::Reason::kExistingLink);
    own_link_open = true;
    p = gt + 1;
  }
  return p;
}

void ViewBuilder::Impl::run_html_whole(const XmlProfile* fallback_profile, std::string warning) {
  format = Format::kHtml;
  emitter = new_emitter();
  emitter->set_document(Format::kHtml, encoding, bom, "");
  emitter->begin_chunk(0, 0);
  for (auto& w : detect_warnings) emitter->warn(std::move(w));
  detect_warnings.clear();
  if (!warning.empty()) emitter->warn(std::move(warning));
  html.emplace(fallback_profile ? extra_names(*fallback_profile) : HtmlExtraNames{});
  html->set_valid_until(identity() ? valid_until : UINT64_MAX);
  phase = Phase::kHtml;
  pos = identity() ? bom_len : 0;
  while (true) {
    const std::string_view m = mid();
    pos = html->run(m, pos, mid_base, true, *emitter);
    if (!emitter->cut_requested()) break;
    cut(mid_base + pos, false);
  }
  cut(mid_base + mid().size(), true);
  phase = Phase::kDone;
}

Status ViewBuilder::Impl::process_xml() {
  decode_pending(true);
  const std::string_view m = mid();
  const std::size_t start = identity() ? bom_len : 0;
  const XmlProfile* profile = options.xml_profile ? &*options.xml_profile : nullptr;
  if (profile == nullptr) {
    const XmlCheck root = sniff_xml_root(m.substr(start, 1024 * 1024));
    profile = &choose_xml_profile(root.root_name, root.root_namespace);
  }
  emitter = new_emitter();
  emitter->set_document(Format::kXml, encoding, bom, profile->name);
  emitter->begin_chunk(0, 0);
  for (const auto& w : detect_warnings) emitter->warn(w);
  xml.emplace(*profile);
  xml_pos = start;
  xml_chunk_orig = 0;
  std::string error;
  std::size_t error_offset = 0;
  if (options.chunk_bytes == 0 || m.size() <= 2 * options.chunk_bytes) {
    // One chunk (make_view) or a few: build them all now; a document the tokenizer refuses (it
    // is at least as strict as pugixml, see xml_reader.h) is then read as HTML from scratch.
    if (options.chunk_bytes == 0) emitter->reserve(m.size());
    phase = Phase::kXmlEmit;
    while (phase == Phase::kXmlEmit && !xml->failed()) next_xml_chunk();
    // Done: the last chunk reset `xml`; otherwise it failed (and is still there).
    if (phase != Phase::kXmlEmit) return Status::Ok();
    ready.clear();
    error = xml->error();
    error_offset = xml->error_offset();
  } else {
    // A large document: check it whole first (a tokenizer pass that records nothing), then
    // next() builds the chunks one at a time, so they need not all be in memory together.
    ChunkEmitter check(map, 0);
    check.set_document(Format::kXml, encoding, bom, profile->name);
    check.set_discard();
    check.begin_chunk(0, 0);
    XmlTokenizer checker(*profile);
    checker.run(m, start, check);
    if (!checker.failed()) {
      phase = Phase::kXmlEmit;
      return Status::Ok();
    }
    error = checker.error();
    error_offset = checker.error_offset();
  }
  xml.reset();
  const std::uint64_t at = map.orig_at(std::min<std::uint64_t>(error_offset, m.size()));
  run_html_whole(profile,
                 "malformed XML at byte " + std::to_string(at) + " (" + error + "): read as HTML");
  return Status::Ok();
}

// The next chunk of a checked XML document (kXmlEmit), into `ready`.
void ViewBuilder::Impl::next_xml_chunk() {
  const std::string_view m = mid();
  xml_pos = xml->run(m, xml_pos, *emitter);
  if (xml->failed()) return;
  if (emitter->cut_requested()) {
    const std::uint64_t orig_abs = map.orig_at(xml_pos);
    ready.push_back(emitter->end_chunk(
        xml_pos, orig_abs, orig.substr(xml_chunk_orig, orig_abs - xml_chunk_orig), false));
    xml_chunk_orig = orig_abs;
    emitter->begin_chunk(xml_pos, orig_abs);
    return;
  }
  const std::uint64_t orig_size = orig.size();
  ready.push_back(emitter->end_chunk(
      m.size(), orig_size, xml_chunk_orig == 0 ? std::move(orig) : orig.substr(xml_chunk_orig),
      true));
  detect_warnings.clear();
  xml.reset();
  orig.clear();
  orig.shrink_to_fit();
  mid_own.clear();
  mid_own.shrink_to_fit();
  phase = Phase::kDone;
}

// ---------------------------------------------------------------------------------------------

ViewBuilder::ViewBuilder(ViewOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
ViewBuilder::~ViewBuilder() = default;
ViewBuilder::ViewBuilder(ViewBuilder&&) noexcept = default;
ViewBuilder& ViewBuilder::operator=(ViewBuilder&&) noexcept = default;

Status ViewBuilder::feed(std::string_view bytes) {
  Impl& m = *impl_;
  if (m.phase == Impl::Phase::kFailed) return m.failure;
  if (m.phase == Impl::Phase::kDone || m.phase == Impl::Phase::kXmlEmit) {
    return make_error(ErrorCode::kInvalidArgument, "ViewBuilder::feed after finish");
  }
  try {
    while (!bytes.empty()) {
      const std::size_t take = std::min(bytes.size(), m.slice_bytes());
      if (m.orig.size() + take > m.orig.capacity()) m.grow(take);
      m.orig.append(bytes.substr(0, take));
      m.fed += take;
      bytes.remove_prefix(take);
      Status s = m.step(false);
      if (!s) return s;
    }
  } catch (const std::bad_alloc&) {
    return m.fail(make_error(ErrorCode::kLimitExceeded, "out of memory building the text view"));
  }
  return Status::Ok();
}

Status ViewBuilder::finish() {
  Impl& m = *impl_;
  if (m.phase == Impl::Phase::kFailed) return m.failure;
  if (m.phase == Impl::Phase::kDone || m.phase == Impl::Phase::kXmlEmit) return Status::Ok();
  try {
    return m.step(true);
  } catch (const std::bad_alloc&) {
    return m.fail(make_error(ErrorCode::kLimitExceeded, "out of memory building the text view"));
  }
}

std::optional<TextView> ViewBuilder::next() {
  Impl& m = *impl_;
  if (m.ready.empty() && m.phase == Impl::Phase::kXmlEmit) {
    try {
      m.next_xml_chunk();
    } catch (const std::bad_alloc&) {
      (void)m.fail(make_error(ErrorCode::kLimitExceeded, "out of memory building the text view"));
    }
  }
  if (m.ready.empty()) return std::nullopt;
  TextView v = std::move(m.ready.front());
  m.ready.pop_front();
  return v;
}

Format ViewBuilder::format() const {
  return impl_->format;
}
Encoding ViewBuilder::encoding() const {
  return impl_->encoding;
}

Result<TextView> make_view(std::string_view document, const ViewOptions& options) {
  if (is_binary(document.substr(0, kBinaryProbeBytes))) {
    return make_error(ErrorCode::kUnsupported, "binary input (NUL or control bytes in the first " +
                                                   std::to_string(kBinaryProbeBytes) +
                                                   " bytes): not a text, HTML or XML document");
  }
  ViewOptions o = options;
  o.chunk_bytes = 0;
  ViewBuilder builder(o);
  if (Status s = builder.feed(document); !s) return s.error();
  if (Status s = builder.finish(); !s) return s.error();
  std::optional<TextView> view = builder.next();
  if (!view) return make_error(ErrorCode::kInternal, "make_view: no chunk");
  return std::move(*view);
}

bool is_binary(std::string_view head) {
  if (head.empty()) return false;
  Encoding e = Encoding::kUtf8;
  if (bom_length(head, &e) > 0 && is_utf16(e)) return false;
  if (detect_utf16_without_bom(head)) return false;
  std::size_t controls = 0;
  std::size_t i = 0;
#if defined(__SSE2__)
  // Sixteen bytes at a time: a NUL anywhere answers (the loop below would meet it too), and
  // the C0 controls counted are those below 0x20 other than 0x09-0x0D, 0x1A and 0x1B.
  const __m128i zero = _mm_setzero_si128();
  const __m128i c1f = _mm_set1_epi8(0x1F);
  const __m128i c09 = _mm_set1_epi8(0x09);
  const __m128i c04 = _mm_set1_epi8(0x04);
  const __m128i c1a = _mm_set1_epi8(0x1A);
  const __m128i c01 = _mm_set1_epi8(0x01);
  for (; i + 16 <= head.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(head.data() + i));
    const __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(v, c1f), v);  // v <= 0x1F
    if (_mm_movemask_epi8(low) == 0) continue;
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) != 0) return true;
    const __m128i v9 = _mm_sub_epi8(v, c09);
    const __m128i space = _mm_cmpeq_epi8(_mm_min_epu8(v9, c04), v9);  // 0x09..0x0D
    const __m128i v1a = _mm_sub_epi8(v, c1a);
    const __m128i eof_esc = _mm_cmpeq_epi8(_mm_min_epu8(v1a, c01), v1a);  // 0x1A, 0x1B
    const auto ctrl = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_andnot_si128(_mm_or_si128(space, eof_esc), low)));
    if (ctrl != 0) controls += static_cast<std::size_t>(__builtin_popcount(ctrl));
  }
#endif
  for (char c : head.substr(i)) {
    const auto b = static_cast<unsigned char>(c);
    if (b == 0) return true;
    // C0 controls other than tab, line feed, vertical tab, form feed, carriage return, escape
    // and substitute (the DOS end-of-file mark).
    if (b < 0x20 && b != '\t' && b != '\n' && b != '\v' && b != '\f' && b != '\r' && b != 0x1B &&
        b != 0x1A) {
      ++controls;
    }
  }
  return controls * 20 > head.size();
}

}  // namespace lexlink::text

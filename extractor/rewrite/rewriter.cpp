#include "rewrite/rewriter.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "rewrite/search.h"
#include "rewrite/unmark.h"
#include "urn/urn.h"

namespace lexlink::rewrite {

using text::Encoding;
using text::Piece;
using text::PieceKind;
using text::Tag;
using text::TextView;

const char* to_string(Reason reason) {
  switch (reason) {
    case Reason::kLinked: return "linked";
    case Reason::kExistingLink: return "existing_link";
    case Reason::kBlockBreak: return "block_break";
    case Reason::kForbiddenContext: return "forbidden_context";
    case Reason::kInsideMarkup: return "inside_markup";
    case Reason::kInsideAtomic: return "inside_atomic";
    case Reason::kOverlapsCitation: return "overlaps_citation";
    case Reason::kNoText: return "no_text";
    case Reason::kOutOfRange: return "out_of_range";
    case Reason::kCrossesChunk: return "crosses_chunk";
    case Reason::kInvalidUrn: return "invalid_urn";
    case Reason::kUnrepresentable: return "unrepresentable";
    case Reason::kUnsafeContent: return "unsafe_content";
    case Reason::kTooLong: return "too_long";
  }
  return "?";
}

namespace {

bool is_cont(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

bool is_utf16(Encoding e) {
  return e == Encoding::kUtf16Le || e == Encoding::kUtf16Be;
}

bool ieq(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

std::string_view local_of(std::string_view name) {
  const std::size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

bool is_name_delim(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '>' || c == '/';
}

// True when `s` (ASCII-compatible) holds `<NAME` or `</NAME` followed by a delimiter (or the end).
bool holds_element_tag(std::string_view s, std::string_view name, bool fold) {
  for (std::size_t i = s.find('<'); i != std::string_view::npos; i = s.find('<', i + 1)) {
    std::size_t j = i + 1;
    if (j < s.size() && s[j] == '/') ++j;
    if (s.size() - j < name.size()) continue;
    const std::string_view candidate = s.substr(j, name.size());
    if (!(fold ? ieq(candidate, name) : candidate == name)) continue;
    const std::size_t k = j + name.size();
    if (k == s.size() || is_name_delim(s[k])) return true;
  }
  return false;
}

bool is_blank_text(std::string_view t) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') continue;
    if (c == '\xC2' && i + 1 < t.size() && t[i + 1] == '\xA0') {
      ++i;
      continue;
    }
    return false;
  }
  return true;
}

struct Blocked {
  std::uint64_t begin;
  std::uint64_t end;
  Reason reason;
  const char* what;
};

struct OpenElement {
  std::string name;
  int depth;
  std::uint64_t start;  // text offset where its content starts
  Reason reason;
  const char* what;
};

// A request mapped to a text span of the chunk (or refused before that).
struct Mapped {
  std::size_t index = 0;
  bool ok = false;
  Reason reason = Reason::kLinked;
  std::string detail;
  std::uint64_t tb = 0;
  std::uint64_t te = 0;
  std::uint64_t raw_tb = 0;  // before snapping
  std::uint64_t raw_te = 0;
  bool snapped = false;
};

}  // namespace

struct Rewriter::Impl {
  RewriteOptions options;
  io::Sink& sink;
  std::optional<LinkMarkup> markup;
  std::vector<OpenElement> open;
  std::optional<std::uint64_t> cdata_start;
  bool started = false;

  // Per chunk.
  const TextView* v = nullptr;
  std::string html_marker;
  std::string xml_marker;
  std::string cdata_open;
  std::string cdata_close;
  std::vector<Blocked> blocked;
  std::vector<std::uint8_t> name_flags;  // scan_zones(): per name of the chunk
  std::vector<std::uint64_t> max_end;    // prefix maximum of blocked[i].end
  Insertions insertions;
  std::uint64_t last_text_end = 0;
  std::uint64_t last_raw_text_end = 0;  // before snapping
  std::uint64_t last_orig_end = 0;
  // plan()'s working lists, kept between citations.
  std::vector<std::string_view> scratch_stack;
  std::vector<std::string_view> scratch_unmatched;
  std::vector<Span> scratch_runs;
  std::string href_buf;  // the href and the opening markup of the citation being planned
  std::string open_buf;
  // Where the last piece_at() and tag_from() answers were in this chunk (partition_point_from:
  // citations are planned in document order).
  mutable std::size_t piece_hint = 0;
  mutable std::size_t tag_hint = 0;

  Impl(RewriteOptions o, io::Sink& s) : options(std::move(o)), sink(s) {}

  std::span<const Piece> pieces() const { return v->map.pieces(); }
  std::uint64_t text_end() const { return v->text_begin + v->text.size(); }
  std::string_view orig(std::uint64_t begin, std::uint64_t end) const {
    return std::string_view(v->original).substr(begin - v->orig_begin, end - begin);
  }
  std::string_view tag_bytes(const Tag& t) const { return orig(t.orig_begin, t.orig_end); }
  std::string_view tag_name(const Tag& t) const {
    if (t.kind == Tag::Kind::kOther || t.name >= v->names.size()) return {};
    return v->names[t.name];
  }

  void start(const TextView& chunk) {
    started = true;
    std::string_view root;
    for (const Tag& t : chunk.tags) {
      if (t.kind == Tag::Kind::kOpen || t.kind == Tag::Kind::kEmpty) {
        root = std::string_view(chunk.original)
                   .substr(t.orig_begin - chunk.orig_begin, t.orig_end - t.orig_begin);
        break;
      }
    }
    LinkOptions link = options.link;
    link.profile = options.profile
                       ? *options.profile
                       : default_profile(chunk.format, markup_to_utf8(root, chunk.encoding));
    markup.emplace(link, chunk.format, chunk.encoding, root);
    html_marker = encode_ascii(kHtmlMarkerPrefix, chunk.encoding);
    xml_marker = encode_ascii(kXmlMarker, chunk.encoding);
    cdata_open = encode_ascii("<![CDATA[", chunk.encoding);
    cdata_close = encode_ascii("]]>", chunk.encoding);
  }

  // Index of the piece holding text offset t (v->text_begin <= t < text_end()).
  std::size_t piece_at(std::uint64_t t) const {
    piece_hint = partition_point_from(pieces(), piece_hint,
                                      [t](const Piece& q) { return q.text_begin <= t; });
    return piece_hint == 0 ? 0 : piece_hint - 1;
  }

  // Index of the first tag starting at or after original offset o (tags.size() if none).
  std::size_t tag_from(std::uint64_t o) const {
    tag_hint = partition_point_from(std::span<const Tag>(v->tags), tag_hint,
                                    [o](const Tag& t) { return t.orig_begin < o; });
    return tag_hint;
  }

  // Text offset of original offset o: inside a piece, the boundary at or before it; else the
  // start of the first text after it.
  std::uint64_t text_pos(std::uint64_t o) const {
    auto p = pieces();
    auto it = std::lower_bound(p.begin(), p.end(), o,
                               [](const Piece& q, std::uint64_t x) { return q.orig_begin < x; });
    if (it != p.begin()) {
      const Piece& q = *(it - 1);
      if (o < q.orig_begin + q.orig_len) {
        bool snapped = false;
        return text_at(q, o, false, snapped);
      }
    }
    return it == p.end() ? text_end() : it->text_begin;
  }

  // Original offset of text offset t, a boundary inside or at an end of piece `p`.
  std::uint64_t orig_at(const Piece& p, std::uint64_t t) const {
    if (t <= p.text_begin) return p.orig_begin;
    if (t >= p.text_begin + p.text_len) return p.orig_begin + p.orig_len;
    switch (p.kind) {
      case PieceKind::kCopy: return p.orig_begin + (t - p.text_begin);
      case PieceKind::kTranscoded: {
        if (p.char_text_len == 0) return p.orig_begin;
        const std::uint64_t chars = (t - p.text_begin) / p.char_text_len;
        return p.orig_begin + chars * p.char_orig_len;
      }
      case PieceKind::kDecoded:
      case PieceKind::kSynthetic: return p.orig_begin;
    }
    return p.orig_begin;
  }

  // Text offset for original offset o inside piece p: the boundary at or before it (`end`:
  // at or after it). Sets `snapped` when o is not a boundary.
  std::uint64_t text_at(const Piece& p, std::uint64_t o, bool end, bool& snapped) const {
    if (o <= p.orig_begin) return p.text_begin;
    if (o >= p.orig_begin + p.orig_len) return p.text_begin + p.text_len;
    switch (p.kind) {
      case PieceKind::kCopy: {
        std::uint64_t t = p.text_begin + (o - p.orig_begin);
        const std::uint64_t stop = p.text_begin + p.text_len;
        if (end) {
          while (t < stop && is_cont(v->text[t - v->text_begin])) ++t, snapped = true;
        } else {
          while (t > p.text_begin && is_cont(v->text[t - v->text_begin])) --t, snapped = true;
        }
        return t;
      }
      case PieceKind::kTranscoded: {
        if (p.char_orig_len == 0) return p.text_begin;
        const std::uint64_t chars = (o - p.orig_begin) / p.char_orig_len;
        const bool inside = (o - p.orig_begin) % p.char_orig_len != 0;
        if (inside) snapped = true;
        return p.text_begin + (chars + (inside && end ? 1 : 0)) * p.char_text_len;
      }
      case PieceKind::kDecoded:
      case PieceKind::kSynthetic:
        snapped = true;
        return end ? p.text_begin + p.text_len : p.text_begin;
    }
    return p.text_begin;
  }

  // The tag whose bytes strictly contain original offset o, if any.
  const Tag* tag_containing(std::uint64_t o) const {
    const auto& tags = v->tags;
    auto it = std::upper_bound(tags.begin(), tags.end(), o,
                               [](std::uint64_t x, const Tag& t) { return x < t.orig_begin; });
    if (it == tags.begin()) return nullptr;
    --it;
    return (it->orig_begin < o && o < it->orig_end) ? &*it : nullptr;
  }

  // ---- forbidden zones of the chunk ------------------------------------------------------

  bool link_named(std::string_view name) const {
    const std::string_view local = local_of(name);
    const bool fold = v->format != text::Format::kXml;
    return fold ? ieq(local, markup->local_name()) : local == markup->local_name();
  }

  void close_element(std::size_t i, std::uint64_t end) {
    const OpenElement& e = open[i];
    if (end > e.start) blocked.push_back(Blocked{e.start, end, e.reason, e.what});
    open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));
  }

  void scan_zones() {
    blocked.clear();
    for (const text::Zone& z : v->no_link) {
      if (z.reason == text::Zone::Reason::kCdata) {
        blocked.push_back(
            Blocked{z.text_begin, z.text_end, Reason::kForbiddenContext, "it is inside CDATA"});
      } else {
        blocked.push_back(Blocked{z.text_begin, z.text_end, Reason::kExistingLink,
                                  "it overlaps an existing link"});
      }
    }
    for (OpenElement& e : open) e.start = v->text_begin;
    if (cdata_start) cdata_start = v->text_begin;
    const bool html = v->format == text::Format::kHtml;
    // What an element's name alone says, per name of the chunk (tags share a few names).
    enum : std::uint8_t { kLinkNamed = 1, kTextOnly = 2 };
    name_flags.assign(v->names.size(), 0);
    for (std::size_t i = 1; i < v->names.size(); ++i) {
      const std::string_view name = v->names[i];
      if (link_named(name) && !markup->generic_element()) name_flags[i] |= kLinkNamed;
      if (html && (name == "title" || name == "textarea")) name_flags[i] |= kTextOnly;
    }
    bool after_pi = false;
    std::uint64_t pi_end = 0;
    for (const Tag& t : v->tags) {
      const std::string_view bytes = tag_bytes(t);
      if (t.kind == Tag::Kind::kOther) {
        after_pi = false;
        if (bytes == xml_marker) {
          after_pi = true;
          pi_end = t.orig_end;
        } else if (bytes.starts_with(cdata_open) && !bytes.ends_with(cdata_close)) {
          cdata_start = text_pos(t.orig_end);
        } else if (bytes == cdata_close && cdata_start) {
          const std::uint64_t end = text_pos(t.orig_begin);
          if (end > *cdata_start) {
            blocked.push_back(
                Blocked{*cdata_start, end, Reason::kForbiddenContext, "it is inside CDATA"});
          }
          cdata_start.reset();
        }
        continue;
      }
      const std::string_view name = tag_name(t);
      const bool own_pi = after_pi && t.orig_begin == pi_end;
      after_pi = false;
      if (t.kind == Tag::Kind::kEmpty) continue;
      std::size_t found = open.size();
      for (std::size_t i = open.size(); i-- > 0;) {
        if (open[i].name == name) {
          found = i;
          break;
        }
      }
      if (t.kind == Tag::Kind::kClose) {
        if (found < open.size() && --open[found].depth == 0) {
          close_element(found, text_pos(t.orig_begin));
        }
        continue;
      }
      if (found < open.size()) {
        ++open[found].depth;
        continue;
      }
      const std::uint8_t flags = t.name < name_flags.size() ? name_flags[t.name] : 0;
      auto block = [&](Reason reason, const char* what) {
        open.push_back({std::string(name), 1, text_pos(t.orig_end), reason, what});
      };
      if (own_pi || bytes.starts_with(html_marker)) {
        block(Reason::kExistingLink, "it overlaps one of lexlink's links");
      } else if ((flags & kLinkNamed) != 0) {
        block(Reason::kExistingLink,
              "it is inside an existing element named like the link element");
      } else if (v->format == text::Format::kXml && has_href(bytes)) {
        block(Reason::kExistingLink, "it is inside an existing link (an element with an href)");
      } else if ((flags & kTextOnly) != 0) {
        block(Reason::kForbiddenContext, "it is inside an HTML title or textarea (text only)");
      }
    }
    // Elements still open at the end of the chunk block the rest of it.
    for (const OpenElement& e : open) {
      if (text_end() > e.start) blocked.push_back(Blocked{e.start, text_end(), e.reason, e.what});
    }
    if (cdata_start && text_end() > *cdata_start) {
      blocked.push_back(
          Blocked{*cdata_start, text_end(), Reason::kForbiddenContext, "it is inside CDATA"});
    }
    if (v->format == text::Format::kText) scan_text_links();
    std::sort(blocked.begin(), blocked.end(),
              [](const Blocked& a, const Blocked& b) { return a.begin < b.begin; });
    max_end.resize(blocked.size());
    std::uint64_t m = 0;
    for (std::size_t i = 0; i < blocked.size(); ++i) {
      m = std::max(m, blocked[i].end);
      max_end[i] = m;
    }
  }

  // True when an XML start tag carries an `href` or `prefix:href` attribute: whatever the
  // vocabulary, such an element is a link, and no link goes inside it.
  bool has_href(std::string_view bytes) const {
    std::string decoded;
    if (is_utf16(v->encoding)) {
      decoded = markup_to_utf8(bytes, v->encoding);
      bytes = decoded;
    }
    if (bytes.find("href") == std::string_view::npos) return false;
    for (const auto& [name, value] : read_start_tag(bytes).attributes) {
      if (local_of(name) == "href") return true;
    }
    return false;
  }

  // Plain text has no tags: lexlink's links in it (from an earlier markup) are found in the bytes,
  // exactly as unmark finds them, and block the text they span, their tags included.
  void scan_text_links() {
    // A text whose bytes hold neither marker (in its encoding) holds no link: most texts, read
    // here at memchr speed ('<' is rare in text) rather than through an unmarker.
    const std::string_view original(v->original);
    if (original.find(html_marker) == std::string_view::npos &&
        original.find(xml_marker) == std::string_view::npos) {
      return;
    }
    struct Discard final : io::Sink {
      Status write(std::string_view) override { return Status::Ok(); }
    } discard;
    UnmarkOptions uo;
    uo.encoding = v->encoding;
    uo.max_link_bytes = options.max_link_bytes;
    Unmarker finder(discard, uo);
    std::vector<Span> links;
    finder.record(&links);
    (void)finder.feed(v->original);
    (void)finder.finish();
    for (const Span& s : links) {
      blocked.push_back(Blocked{text_pos(v->orig_begin + s.begin), text_pos(v->orig_begin + s.end),
                                Reason::kExistingLink, "it overlaps one of lexlink's links"});
    }
  }

  // A zone (with text) overlapping [b, e), or null.
  const Blocked* blocked_by(std::uint64_t b, std::uint64_t e) const {
    auto it = std::lower_bound(blocked.begin(), blocked.end(), e,
                               [](const Blocked& z, std::uint64_t x) { return z.begin < x; });
    std::size_t n = static_cast<std::size_t>(it - blocked.begin());
    if (n == 0 || max_end[n - 1] <= b) return nullptr;
    for (std::size_t i = n; i-- > 0;) {
      if (blocked[i].end > b && blocked[i].end > blocked[i].begin) return &blocked[i];
      if (max_end[i] <= b) break;
    }
    return nullptr;
  }

  // ---- mapping requests ------------------------------------------------------------------

  void refuse(Mapped& m, Reason r, std::string detail) {
    m.ok = false;
    m.reason = r;
    m.detail = std::move(detail);
  }

  void map_text(Mapped& m, Span s) {
    if (s.begin >= s.end) return refuse(m, Reason::kNoText, "the span is empty or reversed");
    if (s.begin < v->text_begin || s.begin >= text_end()) {
      return refuse(m, Reason::kOutOfRange, "the span is outside this chunk of text");
    }
    if (s.end > text_end()) {
      return refuse(m, Reason::kCrossesChunk, "the span runs past the end of its text chunk");
    }
    std::uint64_t tb = s.begin;
    std::uint64_t te = s.end;
    while (tb > v->text_begin && is_cont(v->text[tb - v->text_begin])) --tb, m.snapped = true;
    while (te < text_end() && is_cont(v->text[te - v->text_begin])) ++te, m.snapped = true;
    const Piece& pb = pieces()[piece_at(tb)];
    if (pb.kind == PieceKind::kDecoded && tb > pb.text_begin) tb = pb.text_begin, m.snapped = true;
    const Piece& pe = pieces()[piece_at(te - 1)];
    if (pe.kind == PieceKind::kDecoded && te < pe.text_begin + pe.text_len) {
      te = pe.text_begin + pe.text_len;
      m.snapped = true;
    }
    m.ok = true;
    m.raw_tb = s.begin;
    m.raw_te = s.end;
    m.tb = tb;
    m.te = te;
  }

  void map_original(Mapped& m, Span s) {
    if (s.begin >= s.end) return refuse(m, Reason::kNoText, "the span is empty or reversed");
    if (s.begin < v->orig_begin || s.begin >= v->orig_end) {
      return refuse(m, Reason::kOutOfRange, "the span is outside this chunk of the document");
    }
    if (s.end > v->orig_end) {
      return refuse(m, Reason::kCrossesChunk,
                    "the span runs past the end of its chunk (a block boundary)");
    }
    if (tag_containing(s.begin) != nullptr) {
      return refuse(m, Reason::kInsideMarkup, "the span starts inside a tag or comment");
    }
    if (tag_containing(s.end) != nullptr) {
      return refuse(m, Reason::kInsideMarkup, "the span ends inside a tag or comment");
    }
    auto p = pieces();
    // First piece with text ending after s.begin.
    auto first = std::lower_bound(p.begin(), p.end(), s.begin, [](const Piece& q, std::uint64_t x) {
      return q.orig_begin + q.orig_len <= x;
    });
    while (first != p.end() && first->orig_len == 0 && first->orig_begin < s.end) ++first;
    // Last piece with text starting before s.end.
    auto last = std::lower_bound(p.begin(), p.end(), s.end,
                                 [](const Piece& q, std::uint64_t x) { return q.orig_begin < x; });
    while (last != p.begin() && (last - 1)->orig_len == 0) --last;
    if (first == p.end() || last == p.begin() || first->orig_begin >= s.end) {
      return refuse(m, Reason::kNoText, "the span holds no text, only markup");
    }
    const Piece& pl = *(last - 1);
    if (pl.orig_begin + pl.orig_len <= s.begin) {
      return refuse(m, Reason::kNoText, "the span holds no text, only markup");
    }
    bool snapped = false;
    const std::uint64_t tb = text_at(*first, s.begin, false, snapped);
    const std::uint64_t te = text_at(pl, s.end, true, snapped);
    if (tb >= te) return refuse(m, Reason::kNoText, "the span holds no text, only markup");
    m.ok = true;
    m.snapped = snapped;
    m.tb = tb;
    m.raw_tb = tb;
    m.raw_te = te;
    m.te = te;
  }

  // ---- planning one citation -------------------------------------------------------------

  // Plans the links of a mapped request; fills `o` and adds insertions when it links: one link
  // over the whole span (widened over the inline tags that balance it) when its markup allows,
  // else one link per run of text between tags.
  void plan(const Mapped& m, Outcome& o) {
    const std::uint64_t tb = m.tb;
    const std::uint64_t te = m.te;
    o.snapped = m.snapped;
    const std::size_t ib = piece_at(tb);
    const std::size_t ie = piece_at(te - 1);
    const auto p = pieces();
    const Span orig{orig_at(p[ib], tb), orig_at(p[ie], te)};
    o.original = orig;
    const bool details = options.outcome_details;
    if (details) o.text = std::string(v->text_at(tb, te));
    std::string note;
    if (!linkable(m, ib, ie, orig, o, note)) return;
    if (details) o.href = href_buf;
    bool whole = true;
    Span wide = orig;
    if (!scan_tags(orig, o, whole, wide)) return;
    std::uint64_t last_link_end = 0;  // where the last link inserted for it ends
    if (whole) {
      insertions.add(wide.begin, open_buf);
      insertions.add(wide.end, markup->close());
      if (details) o.links.push_back(wide);
      last_link_end = wide.end;
    } else if (!link_runs(ib, ie, tb, te, o, last_link_end)) {
      return;
    }
    o.linked = true;
    o.reason = Reason::kLinked;
    o.detail = std::move(note);
    last_text_end = te;
    last_raw_text_end = m.raw_te;
    last_orig_end = last_link_end;
  }

  // Marks `o` not linked, for `r`; false.
  static bool refuse_link(Outcome& o, Reason r, std::string detail) {
    o.linked = false;
    o.reason = r;
    o.detail = std::move(detail);
    return false;
  }

  // Whether the citation can be linked at all (its pieces, what blocks or precedes it, its
  // length, its name, its href and open tag, left in href_buf and open_buf); else false with
  // `o` saying why. `note` receives what the href's making has to say.
  bool linkable(const Mapped& m, std::size_t ib, std::size_t ie, Span orig, Outcome& o,
                std::string& note) {
    const auto p = pieces();
    for (std::size_t i = ib; i <= ie; ++i) {
      if (p[i].kind == PieceKind::kSynthetic) {
        return refuse_link(o, Reason::kBlockBreak, "it runs across a block boundary");
      }
    }
    if (const Blocked* z = blocked_by(m.tb, m.te)) return refuse_link(o, z->reason, z->what);
    if (m.tb < last_text_end || orig.begin < last_orig_end) {
      if (m.snapped && m.raw_tb >= last_raw_text_end) {
        return refuse_link(o, Reason::kInsideAtomic,
                           "it starts inside an entity or character, and widening it to the "
                           "boundary runs into the citation before it");
      }
      return refuse_link(o, Reason::kOverlapsCitation, "it overlaps a citation linked before it");
    }
    if (orig.end - orig.begin > options.max_link_bytes) {
      return refuse_link(o, Reason::kTooLong,
                         "it is longer than " + std::to_string(options.max_link_bytes) + " bytes");
    }
    urn::ParseOptions parse_options;
    parse_options.allow_unnumbered = true;
    if (!o.request.urn_checked && !urn::validate(o.request.urn, parse_options)) {
      return refuse_link(o, Reason::kInvalidUrn,
                         "'" + o.request.urn + "' is not a valid URN:LEX name");
    }
    if (Status s = markup->href_into(o.request, href_buf, note); !s) {
      return refuse_link(o, Reason::kInvalidUrn, s.error().message);
    }
    if (href_buf.size() > options.link.max_href_bytes) {
      return refuse_link(
          o, Reason::kTooLong,
          "its href is longer than " + std::to_string(options.link.max_href_bytes) + " bytes");
    }
    if (Status s = markup->open_into(open_buf, href_buf, o.request.urn); !s) {
      return refuse_link(o, Reason::kUnrepresentable, s.error().message);
    }
    return true;
  }

  // The markup inside `orig`: false (and `o` says why) when a block element is inside. `whole`
  // stays true when one link can hold the span: no link element inside, no crossing tags, and
  // the tags left open or closed balanced by adjacent ones, over which `wide` is widened.
  bool scan_tags(Span orig, Outcome& o, bool& whole, Span& wide) {
    const auto& tags = v->tags;
    const std::size_t tfirst = tag_from(orig.begin);
    const std::size_t tlast = tag_from(orig.end);  // one past
    std::vector<std::string_view>& stack = scratch_stack;
    std::vector<std::string_view>& unmatched_close = scratch_unmatched;
    stack.clear();
    unmatched_close.clear();
    for (std::size_t i = tfirst; i < tlast; ++i) {
      const Tag& t = tags[i];
      if (!t.is_inline)
        return refuse_link(o, Reason::kBlockBreak, "it runs across a block element");
      const std::string_view name = tag_name(t);
      if (t.kind != Tag::Kind::kOther && link_named(name)) whole = false;
      if (t.kind == Tag::Kind::kOpen) {
        stack.push_back(name);
      } else if (t.kind == Tag::Kind::kClose) {
        if (!stack.empty() && stack.back() == name) {
          stack.pop_back();
        } else if (stack.empty()) {
          unmatched_close.push_back(name);
        } else {
          whole = false;  // crossing tags
        }
      }
    }
    if (!whole) return true;
    // Widen over adjacent tags that balance the range.
    for (std::size_t j = tlast; !stack.empty() && j < tags.size(); ++j) {
      const Tag& t = tags[j];
      if (t.orig_begin != wide.end || t.kind != Tag::Kind::kClose || !t.is_inline ||
          tag_name(t) != stack.back()) {
        break;
      }
      wide.end = t.orig_end;
      stack.pop_back();
    }
    for (std::size_t j = tfirst; !unmatched_close.empty() && j-- > 0;) {
      const Tag& t = tags[j];
      if (t.orig_end != wide.begin || t.kind != Tag::Kind::kOpen || !t.is_inline ||
          tag_name(t) != unmatched_close.back() || t.orig_begin < last_orig_end) {
        break;
      }
      wide.begin = t.orig_begin;
      unmatched_close.pop_back();
    }
    whole = stack.empty() && unmatched_close.empty() &&
            wide.end - wide.begin <= options.max_link_bytes && !holds_tag(wide.begin, wide.end) &&
            !misaligned(wide.begin, wide.end);
    return true;
  }

  // In UTF-16 a tag must start on a code unit: a span ending in a stray byte (a truncated
  // document) cannot be linked there.
  bool misaligned(std::uint64_t b, std::uint64_t e) const {
    return is_utf16(v->encoding) && (b % 2 != 0 || e % 2 != 0);
  }

  // One link per run of text between tags of text [tb, te) (pieces ib..ie); false (and `o` says
  // why) when a run cannot hold one. `last_link_end` receives where the last link ends.
  bool link_runs(std::size_t ib, std::size_t ie, std::uint64_t tb, std::uint64_t te, Outcome& o,
                 std::uint64_t& last_link_end) {
    const auto p = pieces();
    std::vector<Span>& runs = scratch_runs;
    runs.clear();
    std::size_t i = ib;
    while (i <= ie) {
      std::size_t j = i;
      while (j < ie && p[j].orig_begin + p[j].orig_len == p[j + 1].orig_begin) ++j;
      const std::uint64_t rtb = i == ib ? tb : p[i].text_begin;
      const std::uint64_t rte = j == ie ? te : p[j].text_begin + p[j].text_len;
      if (rte > rtb && !is_blank_text(v->text_at(rtb, rte))) {
        const Span run{orig_at(p[i], rtb), orig_at(p[j], rte)};
        if (misaligned(run.begin, run.end)) {
          return refuse_link(
              o, Reason::kUnrepresentable,
              "it starts or ends in a stray byte of a UTF-16 document, where no tag can go");
        }
        if (holds_tag(run.begin, run.end)) {
          return refuse_link(o, Reason::kUnsafeContent,
                             "its text holds the link element's own tag (" + markup->element() +
                                 "), which would make the link unrecognisable");
        }
        runs.push_back(run);
      }
      i = j + 1;
    }
    if (runs.empty()) return refuse_link(o, Reason::kNoText, "it holds only white space");
    for (const Span& r : runs) {
      insertions.add(r.begin, open_buf);
      insertions.add(r.end, markup->close());
    }
    if (options.outcome_details) o.links.assign(runs.begin(), runs.end());
    o.split = runs.size() > 1;
    last_link_end = runs.back().end;
    return true;
  }

  // True when original bytes [b, e) hold a start or end tag named like the link element.
  bool holds_tag(std::uint64_t b, std::uint64_t e) const {
    const std::string_view bytes = orig(b, e);
    const bool fold = markup->fold_case() || v->format != text::Format::kXml;
    if (is_utf16(v->encoding)) {
      return holds_element_tag(markup_to_utf8(bytes, v->encoding), markup->element(), fold);
    }
    return holds_element_tag(bytes, markup->element(), fold);
  }

  Status rewrite(const TextView& chunk, std::vector<Request> requests,
                 std::vector<Outcome>& outcomes) {
    if (!started) start(chunk);
    v = &chunk;
    piece_hint = tag_hint = 0;
    insertions.clear();
    last_text_end = chunk.text_begin;
    last_raw_text_end = chunk.text_begin;
    last_orig_end = chunk.orig_begin;
    scan_zones();
    std::vector<Mapped> mapped(requests.size());
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      Mapped& m = mapped[i];
      m.index = i;
      const Request& r = requests[i];
      if (r.text) {
        map_text(m, *r.text);
      } else if (r.original) {
        map_original(m, *r.original);
      } else {
        refuse(m, Reason::kOutOfRange, "the request has no span");
      }
      if (m.ok) order.push_back(i);
    }
    // Mapped requests in document order (ties: the order they came in).
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return mapped[a].tb < mapped[b].tb; });
    // An inner request (the act's own words inside a citation of its partition) gives way to
    // a request holding it. Each looks at most 1024 requests around it.
    {
      std::vector<std::size_t> outer;
      outer.reserve(order.size());
      for (std::size_t k = 0; k < order.size(); ++k) {
        const Mapped& c = mapped[order[k]];
        bool held = false;
        if (requests[order[k]].inner) {
          for (std::size_t j = k + 1; j < order.size() && j <= k + 1024 && !held; ++j) {
            const Mapped& n = mapped[order[j]];
            if (n.tb > c.tb) break;
            held = !requests[order[j]].inner && n.te >= c.te;  // same start, as long or longer
          }
          for (std::size_t j = k; j-- > 0 && k - j <= 1024 && !held;) {
            const Mapped& n = mapped[order[j]];
            held = !requests[order[j]].inner && n.te >= c.te;
          }
        }
        if (held) {
          Mapped& m = mapped[order[k]];
          m.ok = false;
          m.reason = Reason::kOverlapsCitation;
          m.detail = "the act's own words inside a citation of its partition, linked instead";
        } else {
          outer.push_back(order[k]);
        }
      }
      order = std::move(outer);
    }
    // A citation whose span holds another, narrower one gives way to it (the inside of a range
    // "arts. 1º a 4º da Lei ..." spans the whole range; the items and the act have their own
    // words). Each request looks at most 1024 requests ahead.
    std::vector<std::size_t> kept;
    kept.reserve(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
      const Mapped& c = mapped[order[k]];
      bool holds = false;
      for (std::size_t j = k + 1; j < order.size() && j <= k + 1024 && !holds; ++j) {
        const Mapped& n = mapped[order[j]];
        if (n.tb >= c.te) break;
        holds = n.te <= c.te && (n.tb > c.tb || n.te < c.te);
      }
      // Sorted by start: only the requests just before with the same start can.
      for (std::size_t j = k; j-- > 0 && k - j <= 1024 && !holds;) {
        const Mapped& n = mapped[order[j]];
        if (n.tb != c.tb) break;
        holds = n.te < c.te;
      }
      if (holds) {
        Mapped& m = mapped[order[k]];
        m.ok = false;
        m.reason = Reason::kOverlapsCitation;
        m.detail = "it holds a narrower citation, linked instead";
      } else {
        kept.push_back(order[k]);
      }
    }
    order = std::move(kept);
    std::vector<Outcome> done(requests.size());
    for (std::size_t i : order) {
      done[i].request = std::move(requests[i]);
      plan(mapped[i], done[i]);
    }
    for (std::size_t i = 0; i < requests.size(); ++i) {
      if (mapped[i].ok) continue;
      done[i].request = std::move(requests[i]);
      done[i].reason = mapped[i].reason;
      done[i].detail = std::move(mapped[i].detail);
      done[i].snapped = mapped[i].snapped;
    }
    // Report in document order of original offsets.
    auto key = [](const Outcome& x) -> std::uint64_t {
      if (x.original) return x.original->begin;
      if (x.request.original) return x.request.original->begin;
      if (x.request.text) return x.request.text->begin;
      return 0;
    };
    auto before = [&](const Outcome& a, const Outcome& b) { return key(a) < key(b); };
    // Requests mostly come in document order already: then there is nothing to move.
    if (!std::is_sorted(done.begin(), done.end(), before)) {
      std::stable_sort(done.begin(), done.end(), before);
    }
    if (outcomes.empty()) {
      outcomes = std::move(done);
    } else {  // (an exact reserve here would reallocate at every chunk)
      outcomes.insert(outcomes.end(), std::make_move_iterator(done.begin()),
                      std::make_move_iterator(done.end()));
    }
    Status s = splice(chunk.original, chunk.orig_begin, insertions, sink);
    v = nullptr;
    return s;
  }
};

Rewriter::Rewriter(RewriteOptions options, io::Sink& sink)
    : impl_(std::make_unique<Impl>(std::move(options), sink)) {}
Rewriter::~Rewriter() = default;

Status Rewriter::rewrite(const text::TextView& chunk, std::vector<Request> requests,
                         std::vector<Outcome>& outcomes) {
  return impl_->rewrite(chunk, std::move(requests), outcomes);
}

void Rewriter::reject(std::vector<Request> requests, std::vector<Outcome>& outcomes) const {
  for (Request& r : requests) {
    Outcome o;
    o.request = std::move(r);
    o.reason = Reason::kOutOfRange;
    o.detail = "the span is past the end of the document";
    outcomes.push_back(std::move(o));
  }
}

Status Rewriter::finish() {
  return impl_->sink.flush();
}

const LinkMarkup* Rewriter::markup() const {
  return impl_->markup ? &*impl_->markup : nullptr;
}

Result<std::string> rewrite_view(const text::TextView& view, std::vector<Request> requests,
                                 const RewriteOptions& options, std::vector<Outcome>* outcomes) {
  std::string out;
  out.reserve(view.original.size() + requests.size() * 96);
  io::StringSink sink(out);
  Rewriter rewriter(options, sink);
  std::vector<Outcome> local;
  if (Status s = rewriter.rewrite(view, std::move(requests), outcomes ? *outcomes : local); !s) {
    return s.error();
  }
  if (Status s = rewriter.finish(); !s) return s.error();
  return out;
}

}  // namespace lexlink::rewrite

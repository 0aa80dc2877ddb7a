#include "text/view_check.h"

#include <unicode/ucnv.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "common/utf8.h"
#include "text/html_entities.h"

namespace lexlink::test {

using text::Encoding;
using text::Piece;
using text::PieceKind;
using text::Tag;
using text::TextView;

namespace {

const char* icu_name(Encoding e) {
  switch (e) {
    case Encoding::kUtf8: return "UTF-8";
    case Encoding::kUtf16Le: return "UTF-16LE";
    case Encoding::kUtf16Be: return "UTF-16BE";
    case Encoding::kIso8859_1: return "ISO-8859-1";
    case Encoding::kWindows1252: return "windows-1252";
    case Encoding::kIso8859_15: return "ISO-8859-15";
  }
  return "UTF-8";
}

const char* kind_name(PieceKind k) {
  switch (k) {
    case PieceKind::kCopy: return "copy";
    case PieceKind::kDecoded: return "decoded";
    case PieceKind::kTranscoded: return "transcoded";
    case PieceKind::kSynthetic: return "synthetic";
  }
  return "?";
}

const char* tag_kind_name(Tag::Kind k) {
  switch (k) {
    case Tag::Kind::kOpen: return "open";
    case Tag::Kind::kClose: return "close";
    case Tag::Kind::kEmpty: return "empty";
    case Tag::Kind::kOther: return "other";
  }
  return "?";
}

std::string utf8_of(char32_t cp) {
  std::string s;
  utf8::append(s, cp);
  return s;
}

// What a reference's original bytes ("&...") mean, by the HTML and by the XML rules.
bool reference_reads(std::string_view original, std::string_view text) {
  if (original.size() < 2 || original[0] != '&') return false;
  const std::string_view rest = original.substr(1);
  for (int xml = 0; xml < 2; ++xml) {
    const text::CharRef r =
        xml != 0 ? text::scan_xml_char_ref(rest) : text::scan_html_char_ref(rest, true);
    if (r.status != text::CharRef::Status::kFound || r.length != rest.size()) continue;
    const std::string value = r.utf8.empty() ? utf8_of(r.code_point) : std::string(r.utf8);
    if (value == text) return true;
  }
  return false;
}

class Checker {
 public:
  Checker(std::string_view doc, std::size_t max) : doc_(doc), max_(max) {}

  template <class... A>
  void fail(const A&... parts) {
    if (out_.size() >= max_) return;
    std::ostringstream s;
    (s << ... << parts);
    out_.push_back(s.str());
  }

  void chunk(const TextView& v, std::size_t index);
  std::vector<std::string> take() { return std::move(out_); }

 private:
  void piece(const TextView& v, const Piece& p);
  bool after_break(const TextView& v, std::uint64_t at) const;
  void round_trip(const TextView& v);
  void coverage(const TextView& v, std::size_t index);

  std::string_view doc_;
  std::size_t max_;
  bool previous_ends_with_break_ = true;  // the chunks before end with a break, or are empty
  std::vector<std::string> out_;
};

void Checker::piece(const TextView& v, const Piece& p) {
  const std::string_view t = v.text_at(p.text_begin, p.text_begin + p.text_len);
  const std::string_view o = doc_.substr(p.orig_begin, p.orig_len);
  switch (p.kind) {
    case PieceKind::kCopy:
      if (p.text_len != p.orig_len || t != o) {
        fail("copy piece at text ", p.text_begin, ": text \"", escape_field(t), "\" != original \"",
             escape_field(o), "\"");
      }
      break;
    case PieceKind::kSynthetic:
      if (p.orig_len != 0 || t != "\n") fail("synthetic piece at text ", p.text_begin, " bad");
      break;
    case PieceKind::kTranscoded: {
      if (v.encoding == Encoding::kUtf8 || p.char_text_len == 0 || p.char_orig_len == 0 ||
          p.text_len % p.char_text_len != 0 || p.orig_len % p.char_orig_len != 0 ||
          p.text_len / p.char_text_len != p.orig_len / p.char_orig_len) {
        fail("transcoded piece at text ", p.text_begin, ": inconsistent widths");
        break;
      }
      const std::string d = icu_decode(o, v.encoding);
      if (d != t) {
        fail("transcoded piece at text ", p.text_begin, ": \"", escape_field(t),
             "\" but the original decodes to \"", escape_field(d), "\"");
      }
      break;
    }
    case PieceKind::kDecoded: {
      if (p.orig_len == 0) {
        fail("decoded piece at text ", p.text_begin, " has no original bytes");
        break;
      }
      const bool utf16 = v.encoding == Encoding::kUtf16Le || v.encoding == Encoding::kUtf16Be;
      const std::string decoded = utf16 ? icu_decode(o, v.encoding) : std::string(o);
      if (reference_reads(decoded, t)) break;
      // Plain text: a CR alone (no LF before or after it) is a line end and reads "\n".
      if (v.format == text::Format::kText && t == "\n" && decoded == "\r") {
        const std::uint64_t b = p.orig_begin, e = b + p.orig_len;
        // (Its neighbours are checked in byte encodings; in UTF-16 a byte is half a unit.)
        const bool lf_before = !utf16 && b > 0 && doc_[b - 1] == '\n';
        const bool lf_after = !utf16 && e < doc_.size() && doc_[e] == '\n';
        if (!lf_before && !lf_after) break;
      }
      if (t == "\xEF\xBF\xBD") {
        // An invalid byte (UTF-8), a lone surrogate or a trailing odd byte (UTF-16).
        const bool ok = utf16 ? (o.size() <= 2 && icu_decode(o, v.encoding) == t)
                              : (o.size() == 1 && !utf8::is_valid(doc_.substr(p.orig_begin, 1)));
        if (ok || (v.encoding == Encoding::kUtf8 && o.size() == 1)) break;
      }
      if (v.encoding != Encoding::kUtf8 && icu_decode(o, v.encoding) == t) break;
      fail("decoded piece at text ", p.text_begin, ": original \"", escape_field(o),
           "\" does not read \"", escape_field(t), "\"");
      break;
    }
  }
}

void Checker::round_trip(const TextView& v) {
  const auto pieces = v.map.pieces();
  const std::uint64_t end = v.text_begin + v.text.size();
  for (std::uint64_t t = v.text_begin; t < end;) {
    std::size_t len = 1;
    utf8::decode(v.text, static_cast<std::size_t>(t - v.text_begin), len);
    const std::size_t k = v.map.piece_at(t);
    const Piece& p = pieces[k];
    if (t < p.text_begin || t >= p.text_begin + p.text_len) {
      fail("piece_at(", t, ") = ", k, " does not hold it");
      return;
    }
    const std::uint64_t b = v.map.to_original_begin(t);
    const std::uint64_t e = v.map.to_original_end(t + len);
    const std::string_view ch = v.text_at(t, t + len);
    if (b > e || b < p.orig_begin || e > p.orig_begin + p.orig_len) {
      fail("character at text ", t, " maps to [", b, ", ", e, ") outside its piece [", p.orig_begin,
           ", ", p.orig_begin + p.orig_len, ")");
      return;
    }
    const std::string_view o = doc_.substr(b, e - b);
    bool ok = true;
    switch (p.kind) {
      case PieceKind::kCopy: ok = o == ch; break;
      case PieceKind::kTranscoded: ok = icu_decode(o, v.encoding) == ch; break;
      case PieceKind::kDecoded: ok = b == p.orig_begin && e == p.orig_begin + p.orig_len; break;
      case PieceKind::kSynthetic: ok = b == e; break;
    }
    if (!ok) {
      fail("character \"", escape_field(ch), "\" at text ", t, " maps to original \"",
           escape_field(o), "\" (", kind_name(p.kind), " piece)");
      return;
    }
    t += len;
  }
}

// True when the last piece before original offset `at` is a synthetic break, or when no text
// precedes it in the document.
bool Checker::after_break(const TextView& v, std::uint64_t at) const {
  // Pieces are sorted by original offset and none covers `at` (it is in a gap).
  const auto pieces = v.map.pieces();
  auto it = std::upper_bound(pieces.begin(), pieces.end(), at,
                             [](std::uint64_t x, const Piece& p) { return x < p.orig_begin; });
  if (it == pieces.begin()) return previous_ends_with_break_;
  return std::prev(it)->kind == PieceKind::kSynthetic;
}

void Checker::coverage(const TextView& v, std::size_t index) {
  struct Range {
    std::uint64_t b, e;
    const char* what;
  };
  std::vector<Range> ranges;
  for (const Piece& p : v.map.pieces()) {
    if (p.orig_len > 0) ranges.push_back({p.orig_begin, p.orig_begin + p.orig_len, "piece"});
  }
  for (const Tag& t : v.tags) ranges.push_back({t.orig_begin, t.orig_end, "tag"});
  std::stable_sort(ranges.begin(), ranges.end(),
                   [](const Range& a, const Range& b) { return a.b < b.b; });
  std::uint64_t at = v.orig_begin;
  if (index == 0 && v.bom) at += v.encoding == Encoding::kUtf8 ? 3 : 2;
  auto gap = [&](std::uint64_t from, std::uint64_t to) {
    if (from >= to) return;
    const std::string_view g = doc_.substr(from, to - from);
    // Markup formats: white space after a block boundary (or the start of the document), or
    // outside the XML root, is not text.
    if (v.format != text::Format::kText) {
      const std::string d =
          v.encoding == Encoding::kUtf8 ? std::string(g) : icu_decode(g, v.encoding);
      if (d.find_first_not_of(" \t\r\n\f") == std::string::npos &&
          (v.format == text::Format::kXml || after_break(v, from))) {
        return;
      }
    }
    fail("original bytes [", from, ", ", to, ") \"", escape_field(g.substr(0, 60)),
         "\" are neither text nor markup");
  };
  for (const Range& r : ranges) {
    if (r.b < at) {
      fail(r.what, " [", r.b, ", ", r.e, ") overlaps what precedes it (up to ", at, ")");
    } else {
      gap(at, r.b);
    }
    at = std::max(at, r.e);
  }
  gap(at, v.orig_end);
  if (at > v.orig_end) fail("markup or text past the chunk's end ", v.orig_end);
}

void Checker::chunk(const TextView& v, std::size_t index) {
  if (v.orig_begin > v.orig_end || v.orig_end > doc_.size()) {
    fail("chunk ", index, " range [", v.orig_begin, ", ", v.orig_end, ") out of the document");
    return;
  }
  if (v.original != doc_.substr(v.orig_begin, v.orig_end - v.orig_begin)) {
    fail("chunk ", index, ": original is not the document's bytes");
  }
  if (!utf8::is_valid(v.text)) fail("chunk ", index, ": text is not valid UTF-8");
  // Pieces tile the text.
  std::uint64_t t = v.text_begin;
  std::uint64_t o = v.orig_begin;
  for (const Piece& p : v.map.pieces()) {
    if (p.text_begin != t) fail("piece at text ", p.text_begin, " should start at ", t);
    if (p.text_len == 0) fail("empty piece at text ", p.text_begin);
    if (p.orig_begin < o) fail("piece at text ", p.text_begin, " goes back in the original");
    if (p.orig_begin + p.orig_len > v.orig_end) {
      fail("piece at text ", p.text_begin, " ends past the chunk");
      return;
    }
    t = p.text_begin + p.text_len;
    o = p.orig_begin + p.orig_len;
    if (t > v.text_begin + v.text.size()) {
      fail("pieces run past the text");
      return;
    }
    piece(v, p);
  }
  if (t != v.text_begin + v.text.size())
    fail("pieces end at ", t, ", the text at ", v.text_begin + v.text.size());
  // Tags.
  if (v.names.empty() || !v.names[0].empty()) fail("names[0] is not \"\"");
  std::uint64_t prev = v.orig_begin;
  for (const Tag& tag : v.tags) {
    if (tag.orig_begin < prev || tag.orig_end < tag.orig_begin || tag.orig_end > v.orig_end) {
      fail("tag [", tag.orig_begin, ", ", tag.orig_end, ") out of order or range");
    }
    prev = tag.orig_end;
    if (tag.name >= v.names.size()) fail("tag name index ", tag.name, " out of range");
    if ((tag.kind == Tag::Kind::kOther) != (tag.name == 0)) {
      fail("tag [", tag.orig_begin, ", ", tag.orig_end, ") ", tag_kind_name(tag.kind),
           " with name index ", tag.name);
    }
  }
  // Zones.
  std::uint64_t z = v.text_begin;
  for (const text::Zone& zone : v.no_link) {
    if (zone.text_begin < z || zone.text_end < zone.text_begin ||
        zone.text_end > v.text_begin + v.text.size()) {
      fail("zone [", zone.text_begin, ", ", zone.text_end, ") out of order or range");
    }
    z = zone.text_end;
  }
  coverage(v, index);
  round_trip(v);
  if (!v.map.pieces().empty()) {
    previous_ends_with_break_ = v.map.pieces().back().kind == PieceKind::kSynthetic;
  }
}

}  // namespace

std::string escape_field(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b == '\t') {
      out += "\\t";
    } else if (b == '\n') {
      out += "\\n";
    } else if (b == '\r') {
      out += "\\r";
    } else if (b == '\\') {
      out += "\\\\";
    } else if (b < 0x20 || b == 0x7F) {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 15];
    } else if (b >= 0x80) {
      std::size_t len = 1;
      if (utf8::decode(s, i, len) == utf8::kInvalid) {
        out += "\\x";
        out += kHex[b >> 4];
        out += kHex[b & 15];
        ++i;
        continue;
      }
      out.append(s.substr(i, len));
      i += len;
      continue;
    } else {
      out += static_cast<char>(b);
    }
    ++i;
  }
  return out;
}

namespace {

// One ICU converter per encoding, opened once (converting is the checker's hot spot).
UConverter* converter(Encoding e) {
  static UConverter* open[6] = {};
  UConverter*& c = open[static_cast<int>(e)];
  if (c == nullptr) {
    UErrorCode err = U_ZERO_ERROR;
    c = ucnv_open(icu_name(e), &err);
    if (U_FAILURE(err)) c = nullptr;
  }
  return c;
}

std::string icu_convert(std::string_view bytes, Encoding e) {
  UConverter* c = converter(e);
  if (c == nullptr) return "<ICU error>";
  std::u16string utf16(bytes.size() + 4, u'\0');
  UErrorCode err = U_ZERO_ERROR;
  const int32_t n = ucnv_toUChars(c, utf16.data(), static_cast<int32_t>(utf16.size()), bytes.data(),
                                  static_cast<int32_t>(bytes.size()), &err);
  if (U_FAILURE(err)) return "<ICU error>";
  std::string out;
  for (int32_t i = 0; i < n; ++i) {
    char32_t cp = utf16[static_cast<std::size_t>(i)];
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n) {
      const char32_t lo = utf16[static_cast<std::size_t>(i) + 1];
      if (lo >= 0xDC00 && lo <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        ++i;
      }
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
    utf8::append(out, cp);
  }
  return out;
}

}  // namespace

std::string icu_decode(std::string_view bytes, Encoding encoding) {
  if (bytes.empty()) return {};
  if (encoding != Encoding::kWindows1252) return icu_convert(bytes, encoding);
  // WHATWG maps Windows-1252's five undefined bytes to the C1 controls of the same value; ICU
  // may not: decode them here, the rest by ICU.
  static constexpr std::string_view kUndefined = "\x81\x8D\x8F\x90\x9D";
  std::string out;
  std::size_t from = 0;
  for (std::size_t i = 0; i <= bytes.size(); ++i) {
    const bool undefined = i < bytes.size() && kUndefined.find(bytes[i]) != std::string_view::npos;
    if (i < bytes.size() && !undefined) continue;
    if (i > from) out += icu_convert(bytes.substr(from, i - from), encoding);
    if (undefined) utf8::append(out, static_cast<unsigned char>(bytes[i]));
    from = i + 1;
  }
  return out;
}

std::vector<std::string> check_chunks(std::string_view document,
                                      const std::vector<TextView>& chunks, std::size_t max) {
  Checker c(document, max);
  if (chunks.empty()) {
    c.fail("no chunk");
    return c.take();
  }
  std::uint64_t orig = 0, text = 0;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const TextView& v = chunks[i];
    if (v.orig_begin != orig)
      c.fail("chunk ", i, " starts at original ", v.orig_begin, ", not ", orig);
    if (v.text_begin != text) c.fail("chunk ", i, " starts at text ", v.text_begin, ", not ", text);
    if (v.last != (i + 1 == chunks.size())) c.fail("chunk ", i, ": wrong `last`");
    c.chunk(v, i);
    orig = v.orig_end;
    text = v.text_begin + v.text.size();
  }
  if (orig != document.size())
    c.fail("chunks end at ", orig, ", the document at ", document.size());
  return c.take();
}

std::vector<TextView> build_chunks(std::string_view document, const text::ViewOptions& options,
                                   std::size_t feed_bytes, std::string* error) {
  std::vector<TextView> out;
  text::ViewBuilder b(options);
  auto drain = [&] {
    while (auto c = b.next()) out.push_back(std::move(*c));
  };
  while (!document.empty()) {
    const std::size_t n = feed_bytes == 0 ? document.size() : std::min(feed_bytes, document.size());
    if (Status s = b.feed(document.substr(0, n)); !s) {
      if (error) *error = s.error().message;
      return out;
    }
    document.remove_prefix(n);
    drain();
  }
  if (Status s = b.finish(); !s) {
    if (error) *error = s.error().message;
    return out;
  }
  drain();
  return out;
}

std::string dump_view(const TextView& v) {
  std::ostringstream s;
  s << "format\t" << text::to_string(v.format) << "\n";
  s << "encoding\t" << text::to_string(v.encoding) << "\n";
  s << "bom\t" << (v.bom ? "yes" : "no") << "\n";
  s << "profile\t" << (v.xml_profile.empty() ? "-" : v.xml_profile) << "\n";
  s << "\n[pieces]\ttext_begin\ttext_len\torig_begin\torig_len\tkind\ttext\toriginal\n";
  for (const Piece& p : v.map.pieces()) {
    s << "piece\t" << p.text_begin << "\t" << p.text_len << "\t" << p.orig_begin << "\t"
      << p.orig_len << "\t" << kind_name(p.kind);
    if (p.kind == PieceKind::kTranscoded) {
      s << "/" << int{p.char_text_len} << ":" << int{p.char_orig_len};
    }
    s << "\t" << escape_field(v.text_at(p.text_begin, p.text_begin + p.text_len)) << "\t"
      << escape_field(std::string_view(v.original).substr(p.orig_begin - v.orig_begin, p.orig_len))
      << "\n";
  }
  s << "\n[tags]\torig_begin\torig_end\tkind\tname\tinline\toriginal\n";
  for (const Tag& t : v.tags) {
    std::string_view o =
        std::string_view(v.original).substr(t.orig_begin - v.orig_begin, t.orig_end - t.orig_begin);
    std::string shown = escape_field(o.substr(0, 80));
    if (o.size() > 80) shown += "...(" + std::to_string(o.size()) + " bytes)";
    s << "tag\t" << t.orig_begin << "\t" << t.orig_end << "\t" << tag_kind_name(t.kind) << "\t"
      << (t.name < v.names.size() ? v.names[t.name] : "?") << "\t"
      << (t.is_inline ? "inline" : "block") << "\t" << shown << "\n";
  }
  s << "\n[zones]\ttext_begin\ttext_end\treason\ttext\n";
  for (const text::Zone& z : v.no_link) {
    s << "zone\t" << z.text_begin << "\t" << z.text_end << "\t"
      << (z.reason == text::Zone::Reason::kExistingLink ? "existing_link" : "cdata") << "\t"
      << escape_field(v.text_at(z.text_begin, z.text_end)) << "\n";
  }
  s << "\n[warnings]\n";
  for (const auto& w : v.warnings) s << "warning\t" << escape_field(w) << "\n";
  return s.str();
}

}  // namespace lexlink::test

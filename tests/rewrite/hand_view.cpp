#include "rewrite/hand_view.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>

#include "common/utf8.h"

namespace lexlink::test {
namespace {

using text::Piece;
using text::PieceKind;
using text::Tag;
using text::TextView;
using text::Zone;

bool is_inline_name(std::string_view n) {
  static constexpr std::array<std::string_view, 15> kInline{
      "b", "i",     "em", "strong", "span", "sup",      "sub", "font",
      "u", "small", "a",  "ref",    "rif",  "Remissao", "code"};
  return std::find(kInline.begin(), kInline.end(), n) != kInline.end();
}

bool is_link_name(std::string_view n) {
  return n == "a" || n == "ref" || n == "rif" || n == "Remissao";
}

bool is_void_name(std::string_view n) {
  return n == "br" || n == "img" || n == "hr";
}

struct Builder {
  std::string_view d;
  TextView v;
  std::vector<Piece> pieces;
  int link_depth = 0;
  std::uint64_t zone_start = 0;
  bool next_is_link = false;  // after <?lexlink?>
  std::size_t pi_end = 0;

  std::uint32_t name_index(const std::string& n) {
    for (std::size_t i = 0; i < v.names.size(); ++i) {
      if (v.names[i] == n) return static_cast<std::uint32_t>(i);
    }
    v.names.push_back(n);
    return static_cast<std::uint32_t>(v.names.size() - 1);
  }

  void add_text(std::size_t ob, std::size_t olen, PieceKind kind, std::string_view t) {
    if (kind == PieceKind::kCopy && !pieces.empty() && pieces.back().kind == PieceKind::kCopy &&
        pieces.back().orig_begin + pieces.back().orig_len == ob) {
      pieces.back().orig_len += static_cast<std::uint32_t>(olen);
      pieces.back().text_len += static_cast<std::uint32_t>(t.size());
    } else {
      Piece p;
      p.text_begin = v.text.size();
      p.orig_begin = ob;
      p.text_len = static_cast<std::uint32_t>(t.size());
      p.orig_len = static_cast<std::uint32_t>(olen);
      p.kind = kind;
      pieces.push_back(p);
    }
    v.text.append(t);
  }

  void synthetic(std::size_t at) {
    Piece p;
    p.text_begin = v.text.size();
    p.orig_begin = at;
    p.text_len = 1;
    p.orig_len = 0;
    p.kind = PieceKind::kSynthetic;
    pieces.push_back(p);
    v.text += '\n';
  }

  void tag(std::size_t b, std::size_t e, Tag::Kind kind, const std::string& name, bool inl) {
    Tag t;
    t.orig_begin = b;
    t.orig_end = e;
    t.kind = kind;
    t.name = kind == Tag::Kind::kOther ? 0 : name_index(name);
    t.is_inline = inl;
    v.tags.push_back(t);
  }

  std::size_t find_gt(std::size_t i) const {
    char q = 0;
    for (; i < d.size(); ++i) {
      if (q != 0) {
        if (d[i] == q) q = 0;
      } else if (d[i] == '"' || d[i] == '\'') {
        q = d[i];
      } else if (d[i] == '>') {
        return i + 1;
      }
    }
    return d.size();
  }

  bool entity(std::size_t i, std::size_t& end, std::string& out) const {
    const std::size_t semi = d.find(';', i);
    if (semi == std::string_view::npos || semi - i > 10) return false;
    const std::string_view body = d.substr(i + 1, semi - i - 1);
    char32_t cp = 0;
    if (body.size() >= 2 && body[0] == '#') {
      const bool hex = body[1] == 'x' || body[1] == 'X';
      const std::string digits(body.substr(hex ? 2 : 1));
      if (digits.empty()) return false;
      char* stop = nullptr;
      cp = static_cast<char32_t>(std::strtoul(digits.c_str(), &stop, hex ? 16 : 10));
      if (*stop != 0 || cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    } else if (body == "amp") {
      cp = '&';
    } else if (body == "lt") {
      cp = '<';
    } else if (body == "gt") {
      cp = '>';
    } else if (body == "quot") {
      cp = '"';
    } else if (body == "apos") {
      cp = '\'';
    } else if (body == "nbsp") {
      cp = 0xA0;
    } else if (body == "shy") {
      cp = 0xAD;
    } else {
      return false;
    }
    out.clear();
    utf8::append(out, cp);
    end = semi + 1;
    return true;
  }

  void open_link() {
    if (link_depth++ == 0) zone_start = v.text.size();
  }
  void close_link() {
    if (link_depth > 0 && --link_depth == 0 && v.text.size() > zone_start) {
      v.no_link.push_back(Zone{zone_start, v.text.size(), Zone::Reason::kExistingLink});
    }
  }

  void run() {
    std::size_t i = 0;
    std::vector<std::string> link_stack;  // names of open elements that are links
    const bool markup = v.format != text::Format::kText;
    while (i < d.size()) {
      const char c = markup ? d[i] : '\0';
      if (c == '<' && d.substr(i).starts_with("<!--")) {
        const std::size_t e = d.find("-->", i + 4);
        const std::size_t end = e == std::string_view::npos ? d.size() : e + 3;
        tag(i, end, Tag::Kind::kOther, "", true);
        i = end;
        continue;
      }
      if (c == '<' && d.substr(i).starts_with("<![CDATA[")) {
        tag(i, i + 9, Tag::Kind::kOther, "", true);
        const std::size_t e = d.find("]]>", i + 9);
        const std::size_t stop = e == std::string_view::npos ? d.size() : e;
        const std::uint64_t t0 = v.text.size();
        if (stop > i + 9)
          add_text(i + 9, stop - i - 9, PieceKind::kCopy, d.substr(i + 9, stop - i - 9));
        if (v.text.size() > t0) v.no_link.push_back(Zone{t0, v.text.size(), Zone::Reason::kCdata});
        if (e != std::string_view::npos) tag(e, e + 3, Tag::Kind::kOther, "", true);
        i = e == std::string_view::npos ? d.size() : e + 3;
        continue;
      }
      if (c == '<' && i + 1 < d.size() && (d[i + 1] == '?' || d[i + 1] == '!')) {
        const std::size_t end = find_gt(i);
        tag(i, end, Tag::Kind::kOther, "", true);
        if (d.substr(i, end - i) == "<?lexlink?>") {
          next_is_link = true;
          pi_end = end;
        }
        i = end;
        continue;
      }
      if (c == '<' && i + 1 < d.size() &&
          (std::isalpha(static_cast<unsigned char>(d[i + 1])) || d[i + 1] == '/')) {
        const bool close = d[i + 1] == '/';
        std::size_t j = i + (close ? 2 : 1);
        std::string name;
        while (j < d.size() && d[j] != ' ' && d[j] != '>' && d[j] != '/' && d[j] != '\n') {
          name += d[j++];
        }
        if (v.format == text::Format::kHtml) {
          std::transform(name.begin(), name.end(), name.begin(),
                         [](char x) { return static_cast<char>(std::tolower(x)); });
        }
        const std::size_t end = find_gt(i);
        const bool self = end >= 2 && d[end - 2] == '/';
        if (!close && (name == "script" || name == "style")) {
          const std::string stop = "</" + name + ">";
          const std::size_t e = d.find(stop, end);
          const std::size_t all = e == std::string_view::npos ? d.size() : e + stop.size();
          tag(i, all, Tag::Kind::kOther, "", true);
          i = all;
          continue;
        }
        const bool inl = is_inline_name(name);
        Tag::Kind kind = close
                             ? Tag::Kind::kClose
                             : (self || is_void_name(name) ? Tag::Kind::kEmpty : Tag::Kind::kOpen);
        const bool own = next_is_link && pi_end == i && kind == Tag::Kind::kOpen;
        next_is_link = false;
        if (!inl) synthetic(i);
        tag(i, end, kind, name, inl);
        if (kind == Tag::Kind::kOpen && (is_link_name(name) || own)) {
          link_stack.push_back(name);
          open_link();
        } else if (kind == Tag::Kind::kClose && !link_stack.empty() && link_stack.back() == name) {
          link_stack.pop_back();
          close_link();
        }
        i = end;
        continue;
      }
      if (c == '&') {
        std::size_t end = 0;
        std::string decoded;
        if (entity(i, end, decoded)) {
          add_text(i, end - i, PieceKind::kDecoded, decoded);
          i = end;
          continue;
        }
      }
      std::size_t len = 0;
      const char32_t cp = utf8::decode(d, i, len);
      if (cp == utf8::kInvalid) {
        add_text(i, 1, PieceKind::kDecoded, "\xEF\xBF\xBD");
        i += 1;
        continue;
      }
      add_text(i, len, PieceKind::kCopy, d.substr(i, len));
      i += len;
    }
    if (link_depth > 0) {
      link_depth = 1;
      close_link();
    }
    std::sort(v.no_link.begin(), v.no_link.end(),
              [](const Zone& a, const Zone& b) { return a.text_begin < b.text_begin; });
  }
};

}  // namespace

text::TextView hand_view(std::string_view document, text::Format format) {
  Builder b;
  b.d = document;
  b.v.format = format;
  b.v.encoding = text::Encoding::kUtf8;
  b.v.orig_begin = 0;
  b.v.orig_end = document.size();
  b.v.original = std::string(document);
  b.v.text_begin = 0;
  b.v.names.push_back("");
  b.v.last = true;
  b.run();
  b.v.map = text::OffsetMap(std::move(b.pieces), 0);
  return std::move(b.v);
}

text::TextView to_utf16le(const text::TextView& in) {
  const std::string_view src = in.original;
  std::string out = "\xFF\xFE";
  std::vector<std::uint64_t> at(src.size() + 1, 0);  // UTF-8 offset -> UTF-16 offset
  auto unit = [&](char32_t u) {
    out += static_cast<char>(u & 0xFF);
    out += static_cast<char>((u >> 8) & 0xFF);
  };
  for (std::size_t i = 0; i < src.size();) {
    std::size_t len = 0;
    char32_t cp = utf8::decode(src, i, len);
    if (cp == utf8::kInvalid) {
      cp = 0xFFFD;
      len = 1;
    }
    for (std::size_t k = 0; k < len; ++k) at[i + k] = out.size();
    if (cp >= 0x10000) {
      const char32_t c = cp - 0x10000;
      unit(0xD800 + (c >> 10));
      unit(0xDC00 + (c & 0x3FF));
    } else {
      unit(cp);
    }
    i += len;
  }
  at[src.size()] = out.size();
  TextView v = in;
  v.encoding = text::Encoding::kUtf16Le;
  v.bom = true;
  v.original = out;
  v.orig_begin = 0;
  v.orig_end = out.size();
  for (Tag& t : v.tags) {
    t.orig_begin = at[t.orig_begin];
    t.orig_end = at[t.orig_end];
  }
  std::vector<Piece> pieces;
  for (const Piece& p : in.map.pieces()) {
    if (p.kind != PieceKind::kCopy) {
      Piece q = p;
      q.orig_begin = at[p.orig_begin];
      q.orig_len = static_cast<std::uint32_t>(at[p.orig_begin + p.orig_len] - q.orig_begin);
      pieces.push_back(q);
      continue;
    }
    // Runs of characters with the same widths.
    std::size_t i = 0;
    const std::string_view t = std::string_view(in.text).substr(p.text_begin, p.text_len);
    while (i < t.size()) {
      std::size_t len = 0;
      (void)utf8::decode(t, i, len);
      const std::uint8_t olen = len == 4 ? 4 : 2;
      Piece q;
      q.kind = PieceKind::kTranscoded;
      q.text_begin = p.text_begin + i;
      q.orig_begin = at[p.orig_begin + i];
      q.char_text_len = static_cast<std::uint8_t>(len);
      q.char_orig_len = olen;
      std::size_t j = i;
      while (j < t.size()) {
        std::size_t l2 = 0;
        (void)utf8::decode(t, j, l2);
        if (l2 != len) break;
        j += l2;
      }
      q.text_len = static_cast<std::uint32_t>(j - i);
      q.orig_len = static_cast<std::uint32_t>((j - i) / len * olen);
      pieces.push_back(q);
      i = j;
    }
  }
  v.map = text::OffsetMap(std::move(pieces), 0);
  return v;
}

}  // namespace lexlink::test

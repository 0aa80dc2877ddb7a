#include "text/html_tokenizer.h"

#include <array>
#include <cstring>

#include "text/html_entities.h"

namespace lexlink::text {

namespace {

enum ElementFlag : std::uint8_t {
  kVoid = 1,
  kBlock = 2,
  kRaw = 4,      // content is raw text up to the matching close tag
  kEndless = 8,  // content is raw text to the end of the input (plaintext)
  kAnchor = 16,  // <a>
};

struct ElementInfo {
  std::string_view name;
  std::uint8_t flags;
};

constexpr ElementInfo kElements[] = {
    {"a", kAnchor},
    {"address", kBlock},
    {"area", kVoid},
    {"article", kBlock},
    {"aside", kBlock},
    {"base", kVoid},
    {"basefont", kVoid},
    {"bgsound", kVoid},
    {"blockquote", kBlock},
    {"body", kBlock},
    {"br", kVoid | kBlock},
    {"caption", kBlock},
    {"center", kBlock},
    {"col", kVoid | kBlock},
    {"colgroup", kBlock},
    {"dd", kBlock},
    {"details", kBlock},
    {"dialog", kBlock},
    {"dir", kBlock},
    {"div", kBlock},
    {"dl", kBlock},
    {"dt", kBlock},
    {"embed", kVoid},
    {"fieldset", kBlock},
    {"figcaption", kBlock},
    {"figure", kBlock},
    {"footer", kBlock},
    {"form", kBlock},
    {"frame", kVoid | kBlock},
    {"frameset", kBlock},
    {"h1", kBlock},
    {"h2", kBlock},
    {"h3", kBlock},
    {"h4", kBlock},
    {"h5", kBlock},
    {"h6", kBlock},
    {"head", kBlock},
    {"header", kBlock},
    {"hgroup", kBlock},
    {"hr", kVoid | kBlock},
    {"html", kBlock},
    {"iframe", kRaw},
    {"image", kVoid},
    {"img", kVoid},
    {"input", kVoid},
    {"keygen", kVoid},
    {"legend", kBlock},
    {"li", kBlock},
    {"link", kVoid},
    {"listing", kBlock},
    {"main", kBlock},
    {"menu", kBlock},
    {"meta", kVoid},
    {"nav", kBlock},
    {"noembed", kRaw},
    {"noframes", kRaw},
    {"ol", kBlock},
    {"optgroup", kBlock},
    {"option", kBlock},
    {"p", kBlock},
    {"param", kVoid},
    {"plaintext", kBlock | kEndless},
    {"pre", kBlock},
    {"script", kRaw},
    {"search", kBlock},
    {"section", kBlock},
    {"source", kVoid},
    {"style", kRaw},
    {"summary", kBlock},
    {"table", kBlock},
    {"tbody", kBlock},
    {"td", kBlock},
    {"textarea", kRaw},
    {"tfoot", kBlock},
    {"th", kBlock},
    {"thead", kBlock},
    {"title", kBlock | kRaw},
    {"tr", kBlock},
    {"track", kVoid},
    {"ul", kBlock},
    {"wbr", kVoid},
    {"xmp", kBlock | kRaw},
};

std::uint32_t hash_name(std::string_view s) {
  std::uint32_t h = 2166136261u;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}

// Element name -> flags, open addressing over a power-of-two table.
class ElementTable {
 public:
  ElementTable() {
    slots_.fill(-1);
    for (std::size_t i = 0; i < std::size(kElements); ++i) {
      std::size_t s = hash_name(kElements[i].name) & (kSlots - 1);
      while (slots_[s] >= 0) s = (s + 1) & (kSlots - 1);
      slots_[s] = static_cast<std::int16_t>(i);
    }
  }
  // The index of `name` in kElements, or -1.
  int find(std::string_view name) const { return find_hashed(name, hash_name(name)); }
  // The same, `hash` being hash_name(name).
  int find_hashed(std::string_view name, std::uint32_t hash) const {
    for (std::size_t s = hash & (kSlots - 1);; s = (s + 1) & (kSlots - 1)) {
      const int i = slots_[s];
      if (i < 0) return -1;
      const std::string_view k = kElements[i].name;
      if (k.size() == name.size() && same_bytes(k.data(), name.data(), k.size())) return i;
    }
  }
  std::uint8_t flags(std::string_view name) const {
    const int i = find(name);
    return i < 0 ? 0 : kElements[i].flags;
  }

 private:
  static constexpr std::size_t kSlots = 512;
  std::array<std::int16_t, kSlots> slots_{};
};

const ElementTable kElementTable;
const ElementTable& elements() {
  return kElementTable;
}

// Character classes of the tag scanner.
enum CharClass : std::uint8_t { kWs = 1, kGt = 2, kSlash = 4, kEq = 8 };
struct CharClasses {
  std::uint8_t c[256] = {};
  CharClasses() {
    for (char x : {' ', '\t', '\n', '\r', '\f'}) c[static_cast<unsigned char>(x)] = kWs;
    c[static_cast<unsigned char>('>')] = kGt;
    c[static_cast<unsigned char>('/')] = kSlash;
    c[static_cast<unsigned char>('=')] = kEq;
  }
};
const CharClasses kClasses;
inline std::uint8_t cls(char ch) {
  return kClasses.c[static_cast<unsigned char>(ch)];
}

bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_ws(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != b[i]) return false;
  }
  return true;
}

// `s` from `pos` starts with `lit` (lower case) ignoring ASCII case. `partial` is set when `s`
// ends before `lit` does but what is there matches.
bool starts_with_ci(std::string_view s, std::size_t pos, std::string_view lit, bool& partial) {
  partial = false;
  for (std::size_t i = 0; i < lit.size(); ++i) {
    if (pos + i >= s.size()) {
      partial = true;
      return false;
    }
    if (lower(s[pos + i]) != lit[i]) return false;
  }
  return true;
}

std::size_t find_char(std::string_view s, std::size_t from, char c) {
  if (from >= s.size()) return std::string_view::npos;
  const void* hit = std::memchr(s.data() + from, c, s.size() - from);
  return hit == nullptr ? std::string_view::npos
                        : static_cast<std::size_t>(static_cast<const char*>(hit) - s.data());
}

// The end of a comment whose content starts at `from` ("-->" or "--!>"), or npos; `safe` is
// where a later search must restart (the terminator may straddle the end of `s`).
std::size_t find_comment_end(std::string_view s, std::size_t from, std::size_t& safe) {
  const std::size_t n = s.size();
  std::size_t i = from;
  while (true) {
    const std::size_t d = find_char(s, i, '-');
    if (d == std::string_view::npos) {
      safe = n;
      return std::string_view::npos;
    }
    if (d + 1 >= n) {
      safe = d;
      return std::string_view::npos;
    }
    if (s[d + 1] == '-') {
      if (d + 2 >= n) {
        safe = d;
        return std::string_view::npos;
      }
      if (s[d + 2] == '>') return d + 3;
      if (s[d + 2] == '!') {
        if (d + 3 >= n) {
          safe = d;
          return std::string_view::npos;
        }
        if (s[d + 3] == '>') return d + 4;
      }
    }
    i = d + 1;
  }
}

}  // namespace

HtmlTokenizer::HtmlTokenizer(HtmlExtraNames extra) : extra_(std::move(extra)) {
  name_cache_.resize(std::size(kElements));
}

bool HtmlTokenizer::is_extra_link(std::string_view name) const {
  for (const auto& n : extra_.link_elements) {
    if (n == name) return true;
  }
  return false;
}

// Inline: run() calls it for every tag.
inline std::size_t HtmlTokenizer::simple_tag(std::string_view s, std::size_t pos,
                                             std::uint64_t base, ChunkEmitter& e) {
  const std::size_t n = s.size();
  std::size_t i = pos + 1;
  const bool is_end = i < n && s[i] == '/';
  if (is_end) ++i;
  if (i >= n || !is_alpha(s[i])) return 0;
  const std::size_t begin = i;
  std::uint32_t hash = 2166136261u;
  while (i < n && i - begin < sizeof(name_buf_)) {
    const char ch = s[i];
    if (!is_alpha(ch) && !(ch >= '0' && ch <= '9')) break;
    const char lc = lower(ch);
    name_buf_[i - begin] = lc;
    hash = (hash ^ static_cast<unsigned char>(lc)) * 16777619u;
    ++i;
  }
  if (i >= n || s[i] != '>') return 0;  // attributes, an odd name, or the end of the input
  name_ = std::string_view(name_buf_, i - begin);
  element_ = elements().find_hashed(name_, hash);
  // Most tags (<p>, </p>, <b>...): a known element that is neither void, raw text nor <a>, with
  // no link zone open and no link rule that could apply. What start_element and end_element
  // would do, without their checks.
  const std::uint8_t flags = element_ < 0 ? 0 : kElements[element_].flags;
  if (element_ >= 0 && (flags & (kVoid | kRaw | kEndless | kAnchor)) == 0 && zone_name_.empty() &&
      extra_.link_elements.empty() && (is_end || base + pos != lexlink_pi_end_)) {
    const bool block = (flags & kBlock) != 0;
    if (block) e.block_break(base + pos);
    e.tag(is_end ? Tag::Kind::kClose : Tag::Kind::kOpen, base + pos, base + i + 1,
          name_index(element_, e), !block);
    if (block) e.offer_cut(CutLevel::kBlock, base + i + 1);
    return i + 1;
  }
  if (is_end) {
    end_element(base + pos, base + i + 1, e);
  } else {
    StartTag t;
    t.begin = base + pos;
    t.end = base + i + 1;
    t.marked = base + pos == lexlink_pi_end_;
    start_element(t, e);
  }
  return i + 1;
}

std::size_t HtmlTokenizer::run(std::string_view s, std::size_t pos, std::uint64_t base, bool eof,
                               ChunkEmitter& e) {
  const std::size_t n = s.size();
  while (pos < n) {
    if (mode_ != Mode::kData) {
      const std::size_t next = continue_markup(s, pos, base, eof, e);
      if (mode_ != Mode::kData || e.cut_requested()) return next;
      pos = next;
      if (e.offer_token_cut(base + pos)) return pos;
      continue;
    }
    bool non_ascii = false;
    const std::size_t q = find_markup(s, pos, n, non_ascii);
    if (q > pos && e.drops_space() && base + q < e.first_threshold()) {
      // White space between blocks (the line end after </p>): not text, and no cut can fall
      // in it below the first threshold, so emit_text_run would do nothing with it.
      std::size_t k = pos;
      while (k < q && is_ws(s[k])) ++k;
      if (k == q) pos = q;
    }
    if (q > pos) {
      std::size_t end = q;
      if (q == n && !eof && non_ascii) end = complete_utf8_prefix(s, n);
      pos = emit_text_run(e, s, base, pos, end, false, !non_ascii || base + end <= valid_until_);
      if (e.cut_requested() || pos < q) return pos;
    }
    if (pos >= n) break;
    if (s[pos] == '&') {
      const CharRef r = scan_html_char_ref(s.substr(pos + 1), eof);
      if (r.status == CharRef::Status::kNeedMore) return pos;
      if (r.status == CharRef::Status::kNone) {
        e.valid_text(base + pos, s.substr(pos, 1));
        ++pos;
      } else {
        e.decoded(base + pos, base + pos + 1 + r.length, r.utf8, r.code_point);
        pos += 1 + r.length;
      }
      if (e.offer_token_cut(base + pos)) return pos;
      continue;
    }
    if (const std::size_t end = simple_tag(s, pos, base, e); end != 0) {
      pos = end;
      if (e.cut_requested()) return pos;
      if (mode_ == Mode::kData && e.offer_token_cut(base + pos)) return pos;
      continue;
    }
    const std::size_t next = markup(s, pos, base, eof, e);
    if (next == pos) return pos;  // needs more input
    pos = next;
    if (e.cut_requested()) return pos;
    if (mode_ == Mode::kData && e.offer_token_cut(base + pos)) return pos;
  }
  if (eof && mode_ != Mode::kData) finish_markup(base + n, e);  // unclosed to the end
  return pos;
}

std::size_t HtmlTokenizer::markup(std::string_view s, std::size_t pos, std::uint64_t base, bool eof,
                                  ChunkEmitter& e) {
  const std::size_t n = s.size();
  // Most markup is a start or end tag whose name follows at once: straight to tag().
  if (pos + 2 < n && (is_alpha(s[pos + 1]) || (s[pos + 1] == '/' && is_alpha(s[pos + 2])))) {
    return tag(s, pos, base, eof, e);
  }
  if (pos + 1 >= n) {
    if (!eof) return pos;
    e.valid_text(base + pos, "<");
    return pos + 1;
  }
  const char c = s[pos + 1];
  bool partial = false;
  if (c == '!') {
    if (starts_with_ci(s, pos + 2, "--", partial)) {
      // Abrupt empty comments "<!-->" and "<!--->".
      if (pos + 4 >= n) {
        if (!eof) return pos;
      } else if (s[pos + 4] == '>') {
        e.tag(Tag::Kind::kOther, base + pos, base + pos + 5, 0, true);
        return pos + 5;
      } else if (s[pos + 4] == '-') {
        if (pos + 5 >= n) {
          if (!eof) return pos;
        } else if (s[pos + 5] == '>') {
          e.tag(Tag::Kind::kOther, base + pos, base + pos + 6, 0, true);
          return pos + 6;
        }
      }
      markup_inline_ = true;
      markup_block_end_ = false;
      return enter(Mode::kComment, base + pos, s, pos + 4, base, eof, e);
    }
    if (partial && !eof) return pos;
    // <!doctype ...>, <![CDATA[...]]> outside foreign content, and other <!...>: up to '>'.
    markup_inline_ = true;
    markup_block_end_ = false;
    return enter(Mode::kBogus, base + pos, s, pos + 2, base, eof, e);
  }
  if (c == '?') {
    if (s.substr(pos, 11) == "<?lexlink?>") {
      e.tag(Tag::Kind::kOther, base + pos, base + pos + 11, 0, true);
      lexlink_pi_end_ = base + pos + 11;
      return pos + 11;
    }
    if (!eof && n - pos < 11 &&
        std::string_view("<?lexlink?>").substr(0, n - pos) == s.substr(pos)) {
      return pos;
    }
    markup_inline_ = true;
    markup_block_end_ = false;
    return enter(Mode::kBogus, base + pos, s, pos + 2, base, eof, e);
  }
  if (c == '/') {
    if (pos + 2 >= n) {
      if (!eof) return pos;
      e.valid_text(base + pos, "</");
      return pos + 2;
    }
    const char c2 = s[pos + 2];
    if (c2 == '>') {  // "</>": ignored
      e.tag(Tag::Kind::kOther, base + pos, base + pos + 3, 0, true);
      return pos + 3;
    }
    if (!is_alpha(c2)) {
      markup_inline_ = true;
      markup_block_end_ = false;
      return enter(Mode::kBogus, base + pos, s, pos + 2, base, eof, e);
    }
    return tag(s, pos, base, eof, e);
  }
  if (is_alpha(c)) return tag(s, pos, base, eof, e);
  e.valid_text(base + pos, "<");
  return pos + 1;
}

std::size_t HtmlTokenizer::tag(std::string_view s, std::size_t pos, std::uint64_t base, bool eof,
                               ChunkEmitter& e) {
  const std::size_t n = s.size();
  const bool is_end = s[pos + 1] == '/';
  std::size_t i = pos + (is_end ? 2 : 1);
  const std::size_t name_begin = i;
  // The name, lower-cased as it is scanned (into name_buf_, or name_big_ when longer), and
  // its hash_name() for the element table.
  std::size_t len = 0;
  std::uint32_t hash = 2166136261u;
  while (i < n) {
    const char ch = s[i];
    if ((cls(ch) & (kWs | kSlash | kGt)) != 0) break;
    const char lc = lower(ch);
    if (len < sizeof(name_buf_)) name_buf_[len] = lc;
    hash = (hash ^ static_cast<unsigned char>(lc)) * 16777619u;
    ++len;
    ++i;
  }
  if (len <= sizeof(name_buf_)) {
    name_ = std::string_view(name_buf_, len);
  } else {
    name_big_.assign(s.data() + name_begin, len);
    for (char& ch : name_big_) ch = lower(ch);
    name_ = name_big_;
  }
  element_ = elements().find_hashed(name_, hash);

  StartTag t;
  t.begin = base + pos;
  t.marked = !is_end && base + pos == lexlink_pi_end_;
  // Attributes.
  TagState state = TagState::kBetween;
  char quote = 0;
  std::size_t j = i;
  std::size_t end = std::string_view::npos;
  while (j < n) {
    const char ch = s[j];
    const std::uint8_t c = cls(ch);
    if (c == kWs) {
      ++j;
      continue;
    }
    if (c == kGt) {
      end = j + 1;
      break;
    }
    if (c == kSlash) {
      if (j + 1 < n && s[j + 1] == '>') {
        t.self_closing = true;
        end = j + 2;
        break;
      }
      ++j;
      continue;
    }
    // An attribute name (a leading '=' belongs to it).
    const std::size_t an = j;
    ++j;
    while (j < n && cls(s[j]) == 0) ++j;
    if (j >= n) break;
    const std::string_view attr = s.substr(an, j - an);
    if (!is_end) {
      if (attr.size() == 4 && iequals(attr, "href")) t.has_href = true;
      if (attr.size() == 12 && iequals(attr, "data-lexlink")) t.marked = true;
      for (const auto& la : extra_.link_attributes) {
        if (iequals(attr, la)) t.extra_link_attribute = true;
      }
    }
    while (j < n && cls(s[j]) == kWs) ++j;
    if (j >= n) break;
    if (s[j] != '=') continue;
    ++j;
    while (j < n && cls(s[j]) == kWs) ++j;
    if (j >= n) {
      state = TagState::kAfterEquals;
      break;
    }
    if (s[j] == '"' || s[j] == '\'') {
      const std::size_t close = find_either(s.data(), j + 1, n, s[j], s[j]);
      if (close == n) {
        state = TagState::kQuoted;
        quote = s[j];
        j = n;
        break;
      }
      j = close + 1;
    } else {
      while (j < n && (cls(s[j]) & (kWs | kGt)) == 0) ++j;
      if (j >= n) {
        state = TagState::kUnquoted;
        break;
      }
    }
  }
  if (end != std::string_view::npos) {
    t.end = base + end;
    if (is_end) {
      end_element(t.begin, t.end, e);
    } else {
      start_element(t, e);
    }
    return end;
  }
  // The tag does not end within `s`.
  if (!eof && n - pos < kMaxWaitBytes) return pos;
  if (eof) {
    // The standard drops a tag cut by the end of the input: markup to the end.
    e.tag(Tag::Kind::kOther, base + pos, base + n, 0, true);
    return n;
  }
  // A huge tag: read it in pieces, remembering where its attributes stand.
  long_tag_ = t;
  long_tag_is_end_ = is_end;
  long_name_ = name_;
  tag_state_ = state;
  tag_quote_ = quote;
  markup_inline_ = true;
  markup_block_end_ = false;
  mode_ = Mode::kLongTag;
  markup_begin_ = base + pos;
  return n;
}

std::uint32_t HtmlTokenizer::name_index(int element, ChunkEmitter& e) {
  if (element < 0) return e.name(name_);
  auto& cached = name_cache_[static_cast<std::size_t>(element)];
  if (cached.epoch != e.chunk_epoch()) {
    cached.epoch = e.chunk_epoch();
    cached.index = e.name(name_);
  }
  return cached.index;
}

void HtmlTokenizer::start_element(const StartTag& t, ChunkEmitter& e) {
  const int element = element_;
  const std::uint8_t flags = element < 0 ? 0 : kElements[element].flags;
  const bool is_void = (flags & kVoid) != 0;
  const bool block = (flags & kBlock) != 0;
  if (block) e.block_break(t.begin);
  if ((flags & (kRaw | kEndless)) != 0) {
    // Skipped: the open tag, the content and the close tag are one kOther extent.
    raw_name_ = name_;
    markup_begin_ = t.begin;
    markup_inline_ = !block;
    markup_block_end_ = block;
    mode_ = (flags & kEndless) != 0 ? Mode::kEndless : Mode::kRawText;
    return;
  }
  const bool anchor = (flags & kAnchor) != 0;
  if (anchor && zone_name_ == "a") {  // a new <a> closes the open one
    e.zone_end();
    zone_name_.clear();
  }
  const Tag::Kind kind = is_void || t.self_closing ? Tag::Kind::kEmpty : Tag::Kind::kOpen;
  e.tag(kind, t.begin, t.end, name_index(element, e), !block);
  const bool link = t.marked || (anchor && t.has_href) || t.extra_link_attribute ||
                    (!extra_.link_elements.empty() && is_extra_link(name_));
  if (link && !is_void && zone_name_.empty() && (!t.self_closing || anchor)) {
    e.zone_begin(Zone::Reason::kExistingLink);
    zone_name_ = name_;
  }
  if (block) e.offer_cut(CutLevel::kBlock, t.end);
}

void HtmlTokenizer::end_element(std::uint64_t begin, std::uint64_t end, ChunkEmitter& e) {
  const int element = element_;
  const std::uint8_t flags = element < 0 ? 0 : kElements[element].flags;
  const bool block = (flags & kBlock) != 0;
  if (!zone_name_.empty() && name_ == zone_name_) {
    e.zone_end();
    zone_name_.clear();
  }
  if (block) e.block_break(begin);
  e.tag(Tag::Kind::kClose, begin, end, name_index(element, e), !block);
  if (block) e.offer_cut(CutLevel::kBlock, end);
}

std::size_t HtmlTokenizer::enter(Mode mode, std::uint64_t begin, std::string_view s,
                                 std::size_t from, std::uint64_t base, bool eof, ChunkEmitter& e) {
  mode_ = mode;
  markup_begin_ = begin;
  return continue_markup(s, from, base, eof, e);
}

void HtmlTokenizer::finish_markup(std::uint64_t end, ChunkEmitter& e) {
  e.tag(Tag::Kind::kOther, markup_begin_, end, 0, markup_inline_);
  if (markup_block_end_) e.block_break(end);
  mode_ = Mode::kData;
}

std::size_t HtmlTokenizer::continue_markup(std::string_view s, std::size_t pos, std::uint64_t base,
                                           bool eof, ChunkEmitter& e) {
  const std::size_t n = s.size();
  std::size_t end = std::string_view::npos;
  std::size_t safe = n;  // bytes before it are inside the construct
  switch (mode_) {
    case Mode::kComment: end = find_comment_end(s, pos, safe); break;
    case Mode::kBogus: {
      const std::size_t gt = find_char(s, pos, '>');
      if (gt != std::string_view::npos) end = gt + 1;
      break;
    }
    case Mode::kRawText: {
      std::size_t i = pos;
      while (true) {
        const std::size_t lt = find_char(s, i, '<');
        if (lt == std::string_view::npos) break;
        const std::size_t after = lt + 2 + raw_name_.size();
        if (after >= n) {  // too close to the end to tell
          safe = lt;
          break;
        }
        if (s[lt + 1] == '/' && iequals(s.substr(lt + 2, raw_name_.size()), raw_name_) &&
            (is_ws(s[after]) || s[after] == '/' || s[after] == '>')) {
          const std::size_t gt = find_char(s, after, '>');
          if (gt == std::string_view::npos) {
            safe = lt;
            break;
          }
          end = gt + 1;
          break;
        }
        i = lt + 1;
      }
      break;
    }
    case Mode::kEndless: break;
    case Mode::kLongTag: {
      std::size_t i = pos;
      while (i < n && end == std::string_view::npos) {
        const char c = s[i];
        switch (tag_state_) {
          case TagState::kQuoted: {
            const std::size_t close = find_char(s, i, tag_quote_);
            if (close == std::string_view::npos) {
              i = n;
              continue;
            }
            i = close + 1;
            tag_state_ = TagState::kBetween;
            continue;
          }
          case TagState::kUnquoted:
            if (c == '>') {
              end = i + 1;
            } else if (is_ws(c)) {
              tag_state_ = TagState::kBetween;
            }
            break;
          case TagState::kAfterEquals:
            if (c == '"' || c == '\'') {
              tag_state_ = TagState::kQuoted;
              tag_quote_ = c;
            } else if (c == '>') {
              end = i + 1;
            } else if (!is_ws(c)) {
              tag_state_ = TagState::kUnquoted;
            }
            break;
          case TagState::kBetween:
            if (c == '>') {
              end = i + 1;
            } else if (c == '=') {
              tag_state_ = TagState::kAfterEquals;
            }
            break;
        }
        ++i;
      }
      if (end != std::string_view::npos) {
        // The element takes effect now that its start tag is complete.
        mode_ = Mode::kData;
        name_ = long_name_;
        element_ = elements().find(name_);
        if (markup_begin_ == long_tag_.begin) {
          long_tag_.end = base + end;
          if (long_tag_is_end_) {
            end_element(long_tag_.begin, long_tag_.end, e);
          } else {
            start_element(long_tag_, e);
          }
        } else {
          // Its start is in an earlier chunk: only the rest is markup here.
          e.tag(Tag::Kind::kOther, markup_begin_, base + end, 0, true);
          if (!long_tag_is_end_) {
            const std::uint8_t flags = elements().flags(name_);
            if ((flags & kRaw) != 0) {
              raw_name_ = name_;
              markup_begin_ = base + end;
              markup_inline_ = (flags & kBlock) == 0;
              markup_block_end_ = (flags & kBlock) != 0;
              mode_ = Mode::kRawText;
            }
          }
        }
        return end;
      }
      break;
    }
    case Mode::kData: return pos;
  }
  if (end != std::string_view::npos) {
    finish_markup(base + end, e);
    return end;
  }
  if (eof) {
    finish_markup(base + n, e);
    return n;
  }
  // Inside the construct until `safe`: consume that much; a long one may end the chunk here.
  const std::size_t reached = safe > pos ? safe : pos;
  if (e.offer_cut(CutLevel::kAny, base + reached)) {
    e.tag(Tag::Kind::kOther, markup_begin_, base + reached, 0, markup_inline_);
    markup_begin_ = base + reached;
  }
  return reached;
}

// ---------------------------------------------------------------------------------------------

std::optional<std::string> html_meta_charset(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  bool partial = false;
  while (i < n) {
    const std::size_t lt = find_char(s, i, '<');
    if (lt == std::string_view::npos) break;
    if (starts_with_ci(s, lt, "<!--", partial)) {
      const std::size_t close = s.find("-->", lt + 4);
      if (close == std::string_view::npos) break;
      i = close + 3;
      continue;
    }
    if (starts_with_ci(s, lt, "<body", partial)) break;
    const bool meta = starts_with_ci(s, lt, "<meta", partial) && lt + 5 < n &&
                      (is_ws(s[lt + 5]) || s[lt + 5] == '/');
    if (!meta) {
      // Skip the tag (quote-aware enough for a prescan).
      std::size_t j = lt + 1;
      char q = 0;
      while (j < n && (q != 0 || s[j] != '>')) {
        if (q != 0 && s[j] == q) {
          q = 0;
        } else if (q == 0 && (s[j] == '"' || s[j] == '\'') && j > 0 && s[j - 1] == '=') {
          q = s[j];
        }
        ++j;
      }
      i = j + 1;
      continue;
    }
    // Read the attributes of <meta>.
    std::size_t j = lt + 5;
    std::string charset, content;
    bool http_equiv_content_type = false;
    while (j < n && s[j] != '>') {
      if (is_ws(s[j]) || s[j] == '/') {
        ++j;
        continue;
      }
      const std::size_t an = j;
      while (j < n && !is_ws(s[j]) && s[j] != '/' && s[j] != '>' && s[j] != '=') ++j;
      std::string name;
      for (std::size_t k = an; k < j; ++k) name += lower(s[k]);
      while (j < n && is_ws(s[j])) ++j;
      std::string value;
      if (j < n && s[j] == '=') {
        ++j;
        while (j < n && is_ws(s[j])) ++j;
        if (j < n && (s[j] == '"' || s[j] == '\'')) {
          const std::size_t close = find_char(s, j + 1, s[j]);
          if (close == std::string_view::npos) return std::nullopt;
          value.assign(s.substr(j + 1, close - j - 1));
          j = close + 1;
        } else {
          const std::size_t vb = j;
          while (j < n && !is_ws(s[j]) && s[j] != '>') ++j;
          value.assign(s.substr(vb, j - vb));
        }
      }
      if (name == "charset") charset = value;
      if (name == "content") content = value;
      if (name == "http-equiv" && iequals(value, "content-type")) http_equiv_content_type = true;
    }
    if (!charset.empty()) return charset;
    if (http_equiv_content_type && !content.empty()) {
      // "text/html; charset=iso-8859-1"
      std::string lowered;
      for (char c : content) lowered += lower(c);
      std::size_t k = lowered.find("charset");
      while (k != std::string::npos) {
        std::size_t v = k + 7;
        while (v < lowered.size() && is_ws(lowered[v])) ++v;
        if (v < lowered.size() && lowered[v] == '=') {
          ++v;
          while (v < lowered.size() && is_ws(lowered[v])) ++v;
          char q = 0;
          if (v < lowered.size() && (lowered[v] == '"' || lowered[v] == '\'')) q = lowered[v++];
          const std::size_t vb = v;
          while (v < lowered.size() && lowered[v] != q && lowered[v] != ';' &&
                 !(q == 0 && is_ws(lowered[v]))) {
            ++v;
          }
          if (v > vb) return std::string(content.substr(vb, v - vb));
        }
        k = lowered.find("charset", k + 7);
      }
    }
    i = j + 1;
  }
  return std::nullopt;
}

}  // namespace lexlink::text

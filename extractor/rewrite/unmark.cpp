#include "rewrite/unmark.h"

#include <cstring>

namespace lexlink::rewrite {
namespace {

constexpr std::string_view kAnchor = "lexlink";
constexpr std::string_view kHtmlBefore = "<a data-";  // precedes the anchor in an HTML marker
constexpr std::string_view kHtmlAfter = "=\"\"";
constexpr std::string_view kPiBefore = "<?";
constexpr std::string_view kPiAfter = "?>";

bool is_delim(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '>' || c == '/';
}

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

Unmarker::Unmarker(io::Sink& sink, UnmarkOptions options) : sink_(sink), options_(options) {
  // The marker in each code unit form: bytes, UTF-16LE, UTF-16BE. Without a given encoding all
  // three are looked for: no guess about the encoding (which markup's own insertions could sway)
  // is needed, and a UTF-16 marker is made of NUL-interleaved ASCII no 8-bit text holds.
  auto add = [&](int width, bool le) {
    Form f;
    f.width = width;
    f.little_endian = le;
    for (char c : kAnchor) {
      if (width == 2 && !le) f.anchor += '\0';
      f.anchor += c;
      if (width == 2 && le) f.anchor += '\0';
    }
    forms_.push_back(std::move(f));
  };
  const auto e = options_.encoding;
  const bool le = e && *e == text::Encoding::kUtf16Le;
  const bool be = e && *e == text::Encoding::kUtf16Be;
  if (!e || (!le && !be)) add(1, true);
  if (!e || le) add(2, true);
  if (!e || be) add(2, false);
}

char Unmarker::ascii_at(std::size_t i) const {
  if (width_ == 1) return buf_[i];
  const auto a = static_cast<unsigned char>(buf_[i]);
  const auto b = static_cast<unsigned char>(buf_[i + 1]);
  const unsigned char lo = little_endian_ ? a : b;
  const unsigned char hi = little_endian_ ? b : a;
  if (hi == 0 && lo < 0x80) return static_cast<char>(lo);
  return '\x80';
}

bool Unmarker::match(std::size_t i, std::string_view ascii) const {
  const std::size_t u = static_cast<std::size_t>(width_);
  if (i + ascii.size() * u > buf_.size()) return false;
  for (std::size_t k = 0; k < ascii.size(); ++k) {
    if (ascii_at(i + k * u) != ascii[k]) return false;
  }
  return true;
}

std::size_t Unmarker::find_ascii(std::size_t from, std::size_t to, char c) const {
  to = std::min(to, buf_.size());
  if (width_ == 1) {
    if (from >= to) return std::string::npos;
    const void* p = std::memchr(buf_.data() + from, c, to - from);
    return p == nullptr ? std::string::npos
                        : static_cast<std::size_t>(static_cast<const char*>(p) - buf_.data());
  }
  for (std::size_t i = from; i + 2 <= to; i += 2) {
    if (ascii_at(i) == c) return i;
  }
  return std::string::npos;
}

std::size_t Unmarker::find_anchor(std::size_t from) {
  std::size_t best = std::string::npos;
  const Form* chosen = nullptr;
  for (Form& f : forms_) {
    if (f.next == kStale || (f.next != std::string::npos && f.next < from)) {
      f.next = std::string::npos;
      std::size_t at = from;
      while (at < buf_.size()) {
        const void* p =
            memmem(buf_.data() + at, buf_.size() - at, f.anchor.data(), f.anchor.size());
        if (p == nullptr) break;
        const auto hit = static_cast<std::size_t>(static_cast<const char*>(p) - buf_.data());
        if (f.width == 1 || (consumed_ + hit) % 2 == 0) {
          f.next = hit;
          break;
        }
        at = hit + 1;
      }
    }
    if (f.next < best) {
      best = f.next;
      chosen = &f;
    }
  }
  if (chosen != nullptr) {
    width_ = chosen->width;
    little_endian_ = chosen->little_endian;
  }
  return best;
}

Unmarker::Look Unmarker::look(std::size_t anchor, bool final, std::size_t& start,
                              std::size_t& open_end, std::size_t& close_begin,
                              std::size_t& close_end) const {
  const std::size_t u = static_cast<std::size_t>(width_);
  const std::size_t size = buf_.size();
  const Look more = final ? Look::kNotOurs : Look::kNeedMore;
  const std::size_t after = anchor + kAnchor.size() * u;
  if (after + 3 * u > size) return final ? Look::kNotOurs : Look::kNeedMore;
  std::string name;
  bool fold = false;
  std::size_t tag_from = 0;
  if (anchor >= kHtmlBefore.size() * u && match(anchor - kHtmlBefore.size() * u, kHtmlBefore) &&
      match(after, kHtmlAfter)) {
    start = anchor - kHtmlBefore.size() * u;
    name = "a";
    fold = true;
    tag_from = after + kHtmlAfter.size() * u;
    if (tag_from + u > size) return more;
    if (ascii_at(tag_from) != ' ' && ascii_at(tag_from) != '>') return Look::kNotOurs;
  } else if (anchor >= kPiBefore.size() * u && match(anchor - kPiBefore.size() * u, kPiBefore) &&
             match(after, kPiAfter)) {
    start = anchor - kPiBefore.size() * u;
    const std::size_t pi_end = after + kPiAfter.size() * u;
    if (pi_end + u > size) return more;
    if (ascii_at(pi_end) != '<') return Look::kNotOurs;
    std::size_t i = pi_end + u;
    const std::size_t limit = start + options_.max_tag_bytes;
    while (i + u <= size && i < limit && !is_delim(ascii_at(i))) {
      const char c = ascii_at(i);
      if (c == '\x80' || c == '<' || c == '"' || c == '\'' || c == '=') return Look::kNotOurs;
      name += c;
      i += u;
    }
    if (i + u > size) return i >= limit ? Look::kNotOurs : more;
    if (name.empty() || i >= limit) return Look::kNotOurs;
    tag_from = i;
  } else {
    return Look::kNotOurs;
  }
  if (start < emitted_) return Look::kNotOurs;
  // The end of the start tag: our attribute values escape '>'.
  const std::size_t tag_limit = start + options_.max_tag_bytes;
  const std::size_t gt = find_ascii(tag_from, tag_limit, '>');
  if (gt == std::string::npos) return size >= tag_limit ? Look::kNotOurs : more;
  if (ascii_at(gt - u) == '/') return Look::kNotOurs;  // self-closing: not a link
  open_end = gt + u;
  // The end tag: the first tag of NAME after the start tag must be `</NAME>`.
  // The end tag's '<' is at most max_link_bytes after the start tag.
  const std::size_t limit = open_end + options_.max_link_bytes + u;
  for (std::size_t i = find_ascii(open_end, limit, '<'); i != std::string::npos;
       i = find_ascii(i + u, limit, '<')) {
    std::size_t j = i + u;
    if (j + u > size) return more;
    const bool closing = ascii_at(j) == '/';
    if (closing) j += u;
    if (j + (name.size() + 1) * u > size) return more;
    bool same = true;
    for (std::size_t k = 0; k < name.size() && same; ++k) {
      const char c = ascii_at(j + k * u);
      same = fold ? lower(c) == name[k] : c == name[k];
    }
    if (!same) continue;
    const std::size_t k = j + name.size() * u;
    if (!is_delim(ascii_at(k))) continue;
    if (!closing || ascii_at(k) != '>' || !match(i + 2 * u, name)) return Look::kNotOurs;
    close_begin = i;
    close_end = k + u;
    return Look::kLink;
  }
  return size >= limit ? Look::kNotOurs : more;
}

Status Unmarker::process(bool final) {
  for (Form& f : forms_) f.next = kStale;  // bytes were added
  // Bytes before a marker's anchor that belong to the marker ("<a data-", in UTF-16 too).
  const std::size_t lookbehind = kHtmlBefore.size() * 2;
  while (true) {
    const std::size_t a = find_anchor(scan_);
    const std::size_t u = static_cast<std::size_t>(width_);
    if (a == std::string::npos) {
      if (final) {
        scan_ = buf_.size();
      } else {
        const std::size_t tail = kAnchor.size() * 2 - 1;
        if (buf_.size() > tail) scan_ = std::max(scan_, buf_.size() - tail);
      }
      const std::size_t emit_to =
          final ? buf_.size() : (scan_ > lookbehind ? scan_ - lookbehind : 0);
      if (emit_to > emitted_) {
        if (Status s = sink_.write(std::string_view(buf_).substr(emitted_, emit_to - emitted_));
            !s) {
          return s;
        }
        emitted_ = emit_to;
      }
      break;
    }
    std::size_t start = 0;
    std::size_t open_end = 0;
    std::size_t close_begin = 0;
    std::size_t close_end = 0;
    const Look r = look(a, final, start, open_end, close_begin, close_end);
    if (r == Look::kNeedMore) {
      scan_ = a;
      const std::size_t emit_to = a > lookbehind ? a - lookbehind : 0;
      if (emit_to > emitted_) {
        if (Status s = sink_.write(std::string_view(buf_).substr(emitted_, emit_to - emitted_));
            !s) {
          return s;
        }
        emitted_ = emit_to;
      }
      break;
    }
    if (r == Look::kNotOurs) {
      const bool marker_shaped =
          (a >= kHtmlBefore.size() * u && match(a - kHtmlBefore.size() * u, kHtmlBefore) &&
           match(a + kAnchor.size() * u, kHtmlAfter)) ||
          (a >= 2 * u && match(a - 2 * u, kPiBefore) && match(a + kAnchor.size() * u, kPiAfter));
      if (marker_shaped) ++unrecognised_;
      scan_ = a + u;
      continue;
    }
    const std::string_view b(buf_);
    if (start > emitted_) {
      if (Status s = sink_.write(b.substr(emitted_, start - emitted_)); !s) return s;
    }
    if (Status s = sink_.write(b.substr(open_end, close_begin - open_end)); !s) return s;
    if (record_ != nullptr) record_->push_back(Span{consumed_ + start, consumed_ + close_end});
    emitted_ = close_end;
    scan_ = close_end;
    ++removed_;
  }
  if (emitted_ > 0) {
    buf_.erase(0, emitted_);
    consumed_ += emitted_;
    scan_ -= std::min(scan_, emitted_);
    emitted_ = 0;
  }
  return Status::Ok();
}

Status Unmarker::feed(std::string_view bytes) {
  buf_.append(bytes);
  return process(false);
}

Status Unmarker::finish() {
  if (Status s = process(true); !s) return s;
  return sink_.flush();
}

std::string unmark(std::string_view document, std::uint64_t* removed) {
  std::string out;
  out.reserve(document.size());
  io::StringSink sink(out);
  Unmarker u(sink);
  (void)u.feed(document);
  (void)u.finish();
  if (removed != nullptr) *removed = u.removed();
  return out;
}

}  // namespace lexlink::rewrite

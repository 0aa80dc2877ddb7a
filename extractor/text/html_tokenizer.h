// text/html_tokenizer: a tolerant, streaming HTML tokenizer that reports text, references,
// breaks, tags and link zones to a ChunkEmitter (internal to lexlink_text). It is not an XML
// parser and never fails: every byte is text or markup, as the HTML Living Standard's tokenizer
// would see it (the cases a browser treats as text stay text; where it sees markup, so do we).
//
// - Tags: names are lower-cased; attributes quoted ('"' or '\''), unquoted or bare; '>' inside a
//   quoted value does not end the tag. A tag that does not end before the input does is markup
//   to the end (the standard drops it). A tag longer than kMaxWaitBytes is read in pieces.
// - Comments (`<!-- -->`, `--!>`, the abrupt `<!-->`), bogus comments (`<!x>`, `<?x>`, `</1>`),
//   `<![CDATA[...>` (a bogus comment outside foreign content), doctype: markup up to their end,
//   or to the end of the input when unclosed; read in pieces, so a 10 MB comment costs nothing.
// - Skipped elements (content is not text, read until the matching close tag, case-insensitive):
//   script, style, textarea, title, xmp, iframe, noembed, noframes; plaintext to the end. Their
//   whole extent is one kOther tag. `<title>` is skipped: a link inserted into it would show as
//   literal text in the window title (RCDATA), and head metadata holds no citations to link.
// - Block elements (p div li td th tr br h1..h6 table ul ol dl dt dd section article header
//   footer nav blockquote pre hr address figure figcaption main aside form fieldset legend option
//   title ...) produce a synthetic break at their start and end tags; everything else (the
//   inline elements and unknown ones, as browsers render them) is transparent.
// - Character references in text: the full HTML5 named table and numeric references, each a
//   kDecoded piece.
// - Link zones: the content of `<a href>` (until `</a>` or the next `<a>`, as browsers close
//   them), of any element carrying `data-lexlink`, of an element right after `<?lexlink?>`, and
//   of the extra link elements a fallback XML profile names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/chunk_emitter.h"

namespace lexlink::text {

// What an XML profile adds when malformed XML is read as HTML (lower-case names).
struct HtmlExtraNames {
  std::vector<std::string> link_elements;
  std::vector<std::string> link_attributes;
};

class HtmlTokenizer {
 public:
  static constexpr std::size_t kMaxWaitBytes = 64 * 1024;

  explicit HtmlTokenizer(HtmlExtraNames extra = {});

  // Tokenizes s[pos, size): s[0] is at mid offset `base`. Returns where it stopped: the end of
  // `s`, the start of a token that needs more input (only when !eof), or a cut the emitter
  // accepted. With eof, everything is consumed.
  std::size_t run(std::string_view s, std::size_t pos, std::uint64_t base, bool eof,
                  ChunkEmitter& e);
  // Mid bytes before mid offset `mid` are known to be valid UTF-8 (checked during detection):
  // their text is not validated again.
  void set_valid_until(std::uint64_t mid) { valid_until_ = mid; }

 private:
  enum class Mode : std::uint8_t { kData, kComment, kBogus, kRawText, kEndless, kLongTag };
  enum class TagState : std::uint8_t { kBetween, kAfterEquals, kQuoted, kUnquoted };

  struct StartTag {
    std::uint64_t begin = 0;  // mid offsets
    std::uint64_t end = 0;
    bool self_closing = false;
    bool has_href = false;
    bool marked = false;  // data-lexlink, or right after <?lexlink?>
    bool extra_link_attribute = false;
  };

  // A start or end tag without attributes whose name is letters and digits (<p>, </b>, <h1>),
  // at s[pos] == '<': handled as tag() would, returning where it ends; 0 for anything else.
  std::size_t simple_tag(std::string_view s, std::size_t pos, std::uint64_t base, ChunkEmitter& e);
  std::size_t markup(std::string_view s, std::size_t pos, std::uint64_t base, bool eof,
                     ChunkEmitter& e);
  std::size_t tag(std::string_view s, std::size_t pos, std::uint64_t base, bool eof,
                  ChunkEmitter& e);
  std::size_t continue_markup(std::string_view s, std::size_t pos, std::uint64_t base, bool eof,
                              ChunkEmitter& e);
  // Starts a construct read in pieces at mid offset `begin`; continues at s[from].
  std::size_t enter(Mode mode, std::uint64_t begin, std::string_view s, std::size_t from,
                    std::uint64_t base, bool eof, ChunkEmitter& e);
  void finish_markup(std::uint64_t end, ChunkEmitter& e);
  void start_element(const StartTag& t, ChunkEmitter& e);
  void end_element(std::uint64_t begin, std::uint64_t end, ChunkEmitter& e);
  bool is_extra_link(std::string_view name) const;
  // The chunk's index of name_ (element: its index in the known elements, or -1).
  std::uint32_t name_index(int element, ChunkEmitter& e);

  HtmlExtraNames extra_;
  std::uint64_t valid_until_ = 0;
  Mode mode_ = Mode::kData;
  std::uint64_t markup_begin_ = 0;  // the construct read in pieces (its part in this chunk)
  bool markup_inline_ = true;
  bool markup_block_end_ = false;  // a skipped block element: break after it
  std::string raw_name_;           // the element a raw text run ends with
  TagState tag_state_ = TagState::kBetween;
  char tag_quote_ = 0;
  StartTag long_tag_;  // the start tag read in pieces
  bool long_tag_is_end_ = false;
  std::string_view name_;  // the current tag name, lower-cased (in name_buf_ or name_big_)
  int element_ = -1;       // its index in the known elements, or -1
  char name_buf_[64] = {};
  std::string name_big_;
  std::string long_name_;
  std::string zone_name_;  // the element whose close tag ends the open link zone
  std::uint64_t lexlink_pi_end_ = UINT64_MAX;  // mid offset right after a <?lexlink?>
  struct CachedName {
    std::uint32_t epoch = 0;  // ChunkEmitter::chunk_epoch() when `index` was taken
    std::uint32_t index = 0;
  };
  std::vector<CachedName> name_cache_;  // per known element
};

// The charset a `<meta charset>` or `<meta http-equiv=content-type content="...charset=...">`
// in `head` declares (searched until <body>, outside comments), as a label.
std::optional<std::string> html_meta_charset(std::string_view head);

}  // namespace lexlink::text

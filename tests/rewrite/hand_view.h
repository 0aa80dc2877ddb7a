// tests/rewrite/hand_view: TextViews made by hand for the rewriter's own tests, independent of
// the real view builders (text/), with exact control over piece kinds.
//
// hand_view() reads a small HTML-like language: `<x>`/`</x>`/`<x/>` tags (inline when x is one
// of b i em strong span sup sub font u small a ref rif Remissao, else a block that adds a
// synthetic "\n"), comments/PIs/declarations (kOther), `<![CDATA[...]]>` (delimiters kOther,
// content text), script/style elements (one kOther), entities `&#N;` `&#xH;` `&amp;` `&lt;`
// `&gt;` `&quot;` `&apos;` `&nbsp;` `&shy;` (kDecoded), invalid UTF-8 bytes (kDecoded U+FFFD),
// everything else kCopy. The content of `a ref rif Remissao` elements is a kExistingLink zone,
// CDATA content a kCdata zone. to_utf16le() re-encodes a view's document as UTF-16LE with a BOM
// (kTranscoded runs), keeping its structure.
#pragma once

#include <string>
#include <string_view>

#include "text/text_view.h"

namespace lexlink::test {

text::TextView hand_view(std::string_view document, text::Format format = text::Format::kHtml);

text::TextView to_utf16le(const text::TextView& utf8_view);

}  // namespace lexlink::test

// document/stream_request: one record of `lexlink stream` (a line of JSON Lines), read into what
// the document pipeline needs: {"id": any JSON, "content": "the document", "format":
// "auto|text|html|xml", "jurisdiction": "it", "self": "URN"}; only "content" is required, and
// a null field is an absent one. Guarantees: read_stream_request never throws and accepts any
// bytes; a record it cannot read gets an error (a sentence, without the line number, which the
// caller knows) and keeps its id when the line was a JSON object, so that its answer can say
// which record failed. The first error found wins, in this order: not JSON, not an object, an
// unknown key, no content, a field of the wrong type, over the size limit, an unknown format, a
// bad self name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "text/view_builder.h"

namespace lexlink::document {

struct StreamRequest {
  std::string id_json = "null";  // the record's "id" as compact JSON, echoed in its answer
  std::string content;           // the document (UTF-8: JSON strings are)
  std::optional<text::ViewOptions::FormatChoice> format;  // none: the caller's default
  std::string jurisdiction;                               // empty: the caller's default
  std::string self;   // the document's own name (validated, unnumbered names allowed); or empty
  std::string error;  // why the record cannot be answered; empty when it can
};

// Reads one line (without its line end). Content longer than `max_content_bytes` is an error
// (0: no limit) and is not kept: "too large: N bytes, over LIMIT_NAME M", the limit named as
// document::ReadOptions::limit_name names it (a command names its option).
StreamRequest read_stream_request(std::string_view line, std::uint64_t max_content_bytes = 0,
                                  std::string_view limit_name = "the limit of");

}  // namespace lexlink::document

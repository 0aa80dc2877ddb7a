// service/document_request: the document and options of a POST /v1/extract or /v1/markup,
// read from a JSON body or from a raw body and its query. Guarantees: read_document_request
// never throws (but bad_alloc) and accepts any bytes; what it cannot read becomes a
// RequestError with the status and code the answer carries and a sentence naming the field.
// Every option is checked here, once, whatever the way it came: an unknown key or query
// parameter is an error, not a default silently taken.
//
//   JSON (Content-Type application/json): {"text" | "content": "...", "format":
//   "auto|text|html|xml", "jurisdiction": "it", "self": "URN", "offsets":
//   "utf8,codepoint,utf16" | [...], "href": "resolver|urn", "partition_sep": "#|~", "profile":
//   "auto|html|akn|nir|lexml|lexml-span" (markup)}; "text" is plain text (format text unless
//   given), "content" a document (format auto); exactly one of them.
//   Raw (text/plain, text/html, application/xhtml+xml, text/xml, application/xml,
//   application/octet-stream): the body is the document, in its own encoding (the Content-Type's
//   charset, else told from the document); the same options in the query, and "encoding".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "document/citation_json.h"
#include "rewrite/link_markup.h"
#include "text/view_builder.h"

namespace lexlink::service {

enum class DocumentEndpoint : std::uint8_t { kExtract, kMarkup };

struct RequestError {
  int status = 400;
  std::string code = "bad_request";
  std::string message;
};

struct DocumentRequest {
  std::string json_content;      // the document when it came in JSON (else empty)
  bool raw = false;              // the document is the request's body (content() says)
  std::string raw_content_type;  // the body's Content-Type as sent (raw only)
  text::ViewOptions view;
  std::string jurisdiction;  // empty: the service's default
  std::string self;          // the document's own name (validated), or empty
  document::OffsetFields offsets{true, true, true};
  rewrite::HrefMode href = rewrite::HrefMode::kResolver;
  char partition_sep = 0;                   // 0: '#' with resolver hrefs, '~' with URNs
  std::optional<rewrite::Profile> profile;  // markup; none: from the document
};

struct ReadRequest {
  DocumentRequest request;
  std::optional<RequestError> error;
};

// `query`: the target's part after '?', percent-encoded; `body`: the request's body (a raw
// document is left there, not copied: the caller reads it from the body).
ReadRequest read_document_request(DocumentEndpoint endpoint, std::string_view content_type,
                                  std::string_view query, std::string_view body);

// The query's parameters decoded (application/x-www-form-urlencoded: '+' is a space); an error
// for a malformed escape.
struct QueryParam {
  std::string name, value;
};
bool parse_query(std::string_view query, std::vector<QueryParam>& out, std::string& error);

// %XX escapes decoded into `to` (and '+' as a space when `plus_is_space`); false for a '%' not
// followed by two hex digits.
bool percent_decode(std::string_view s, bool plus_is_space, std::string& to);

// The media type of a Content-Type, lower case, without parameters; and its charset, if any.
std::string media_type(std::string_view content_type);
std::string charset_of(std::string_view content_type);

}  // namespace lexlink::service

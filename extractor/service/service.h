// service/service: the JSON service of `lexlink serve`, without its transport. An HTTP request
// (already read off the wire by service/http_server, or made by a test or a fuzz target) goes
// in, the answer comes out. The endpoints (docs/service.md, docs/openapi.yaml):
//   POST /v1/extract    a document's citations, with href, complete and rule
//   POST /v1/markup     the document with its links (byte-exact elsewhere) and what became of
//                       each citation
//   GET  /v1/urn/NAME   a name parsed, validated, normalised and resolved
//   GET  /healthz       {"status": "ok", ...}
//   GET  /metrics       Prometheus text (service/metrics.h)
// A document comes as JSON ({"text" | "content", "format", "jurisdiction", "self", ...}) or as
// the body itself (Content-Type text/plain, text/html, application/xhtml+xml, text/xml,
// application/xml or application/octet-stream; the options in the query).
//
// Guarantees:
// - handle() never throws (but std::bad_alloc) and answers every request: an error is JSON,
//   {"error": {"code", "message"}}, with its status (400 malformed, 401 no or wrong token, 403
//   origin not allowed, 404, 405 with Allow, 413 over the body limit, 415 a body type not read);
//   a 500 is a bug, counted as "internal".
// - No request names a file or a data folder: documents come in the body, the grammars are those
//   loaded at start.
// - A Service is immutable after create() but for its counters: any number of threads may call
//   handle() at once, with no lock shared between requests.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "scan/trigger_scanner.h"
#include "service/metrics.h"

namespace lexlink::service {

struct ServiceOptions {
  std::string data_folder;  // holds grammars/ and lexicons/
  // The grammars loaded at start, each answering requests that name it; "auto" (every grammar,
  // the one a document's words choose) is always loaded too.
  std::vector<std::string> jurisdictions;
  std::string default_jurisdiction = "auto";  // for requests that name none
  scan::Engine engine = scan::Engine::kHyperscan;
  std::string cache_folder;                 // of compiled trigger databases (extractor.h)
  std::uint64_t max_body_bytes = 8u << 20;  // larger bodies get 413
  std::string token;                        // non-empty: "Authorization: Bearer TOKEN" required
  std::vector<std::string> allow_origins;   // CORS: origins answered ("*": any); none: closed
};

// A request as read off the wire. Header names are lower case.
struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string target;  // as sent: path and query, not percent-decoded ("/v1/urn/urn:lex:it:...")
  std::map<std::string, std::string> headers;
  std::string body;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type
  std::string body;
  std::string error_code;  // an error answer's "code" (counted by /metrics); empty otherwise
};

// An error answer: {"error": {"code": CODE, "message": MESSAGE}} with `status`.
HttpResponse error_response(int status, std::string_view code, std::string_view message);

class Service {
 public:
  // Loads the grammars; kNotFound / kDataError as the extractor's loading says.
  static Result<std::unique_ptr<Service>> create(const ServiceOptions& options);
  ~Service();

  // The answer to `request`. `seconds_reading` is the time it took to read it off the wire
  // (counted into its latency).
  HttpResponse handle(const HttpRequest& request, double seconds_reading = 0) const;

  const ServiceOptions& options() const;
  Metrics& metrics() const;

  struct Impl;

 private:
  explicit Service(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace lexlink::service

#include "service/service.h"

#include <chrono>
#include <exception>
#include <nlohmann/json.hpp>
#include <utility>

#include "common/json_text.h"
#include "document/citation_json.h"
#include "document/extract_document.h"
#include "document/extractor_source.h"
#include "document/markup_job.h"
#include "document/reader.h"
#include "extract/extractor.h"
#include "io/sink.h"
#include "lexlink/lexlink.h"
#include "service/document_request.h"
#include "urn/profiles.h"

namespace lexlink::service {

struct Service::Impl {
  ServiceOptions options;
  std::map<std::string, std::shared_ptr<const extract::Extractor>> extractors;
  std::shared_ptr<const urn::Profiles> resolvers;
  mutable Metrics metrics;
};

namespace {

using json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

HttpResponse json_response(int status, const json& body) {
  HttpResponse r;
  r.status = status;
  r.body = to_json_line(body);
  r.body += '\n';
  return r;
}

// The status of a pipeline error.
HttpResponse pipeline_error(const Error& e) {
  switch (e.code) {
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kDataError: return error_response(400, "bad_request", e.to_string());
    case ErrorCode::kLimitExceeded: return error_response(413, "too_large", e.to_string());
    case ErrorCode::kUnsupported:
      return error_response(415, "unsupported_media_type", e.to_string());
    default: return error_response(500, "internal", e.to_string());
  }
}

// The path and query of a target ("/v1/urn/x?y=1" -> "/v1/urn/x", "y=1").
std::pair<std::string_view, std::string_view> split_target(std::string_view target) {
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return {target, {}};
  return {target.substr(0, q), target.substr(q + 1)};
}

std::string header(const HttpRequest& r, const std::string& name) {
  const auto it = r.headers.find(name);
  return it == r.headers.end() ? std::string() : it->second;
}

// The link options of a request (the resolvers loaded at start).
rewrite::LinkOptions link_options(const DocumentRequest& r, const urn::Profiles* resolvers) {
  rewrite::LinkOptions link;
  link.href = resolvers != nullptr ? r.href : rewrite::HrefMode::kUrn;
  const bool resolver = link.href == rewrite::HrefMode::kResolver;
  link.partition_sep = r.partition_sep != 0 ? r.partition_sep : resolver ? '#' : '~';
  link.resolvers = resolvers;
  return link;
}

}  // namespace

HttpResponse error_response(int status, std::string_view code, std::string_view message) {
  std::string body = "{\"error\":{\"code\":";
  append_json_string(body, code);
  body += ",\"message\":";
  append_json_string(body, message);
  body += "}}\n";
  HttpResponse r;
  r.status = status;
  r.body = std::move(body);
  r.error_code = std::string(code);
  return r;
}

Service::Service(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Service::~Service() = default;

const ServiceOptions& Service::options() const {
  return impl_->options;
}

Metrics& Service::metrics() const {
  return impl_->metrics;
}

Result<std::unique_ptr<Service>> Service::create(const ServiceOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  std::vector<std::string> names = options.jurisdictions;
  names.emplace_back("auto");
  for (const std::string& name : names) {
    if (impl->extractors.count(name) != 0) continue;
    extract::ExtractorOptions eo;
    eo.data_dir = options.data_folder;
    eo.grammars = {name};
    eo.engine = options.engine;
    eo.cache_dir = options.cache_folder;
    auto x = extract::Extractor::load(eo);
    if (!x) return x.error();
    impl->extractors.emplace(name, std::move(*x));
  }
  if (impl->extractors.count(options.default_jurisdiction) == 0) {
    return make_error(ErrorCode::kInvalidArgument, "the default jurisdiction '" +
                                                       options.default_jurisdiction +
                                                       "' is not one of those loaded");
  }
  if (auto resolvers = urn::Profiles::load(options.data_folder)) {
    impl->resolvers = std::make_shared<const urn::Profiles>(std::move(*resolvers));
  }
  return std::unique_ptr<Service>(new Service(std::move(impl)));
}

namespace {

// The endpoints, each answering a request whose method and path were checked.
class Endpoints {
 public:
  explicit Endpoints(const Service::Impl& s) : s_(s) {}

  HttpResponse healthz() const {
    json j;
    j["status"] = "ok";
    j["version"] = lexlink::version();
    json names = json::array();
    for (const auto& [name, x] : s_.extractors) names.push_back(name);
    j["jurisdictions"] = std::move(names);
    j["default_jurisdiction"] = s_.options.default_jurisdiction;
    return json_response(200, j);
  }

  HttpResponse metrics() const {
    HttpResponse r;
    r.content_type = "text/plain; version=0.0.4";
    r.body = s_.metrics.prometheus();
    return r;
  }

  // `segment`: the path after /v1/urn/, the name as written (its ':' ';' '~' '@' are legal in
  // a path); a segment percent-encoded whole ("urn%3Alex%3A...", what a client's path quoting
  // makes) is decoded once: a name as written starts with "urn:", never with "urn%3A".
  HttpResponse urn(std::string_view segment) const {
    std::string decoded;
    std::string_view name = segment;
    if (segment.size() >= 6 &&
        (segment.substr(0, 6) == "urn%3A" || segment.substr(0, 6) == "urn%3a" ||
         segment.substr(0, 6) == "URN%3A")) {
      if (!percent_decode(segment, false, decoded)) {
        return error_response(400, "bad_request", "a malformed percent-escape in the name");
      }
      name = decoded;
    }
    UrnOptions o;
    o.allow_unnumbered = true;
    json j;
    j["name"] = std::string(name);
    auto parts = urn_parse(name, o);
    j["valid"] = static_cast<bool>(parts);
    if (!parts) {
      j["error"] = {{"message", parts.error().message}, {"col", parts.error().col}};
      return json_response(200, j);
    }
    j["canonical"] = parts->canonical;
    j["jurisdiction"] = parts->jurisdiction;
    j["work"] = parts->work;
    j["partition"] = parts->partition;
    j["complete"] = !parts->year_only;
    j["structure"] = json::parse(parts->json);
    j["resolver"] = nullptr;
    if (s_.resolvers) {
      urn::ParseOptions po;
      po.allow_unnumbered = true;
      if (auto u = urn::parse(parts->canonical, po)) {
        if (auto url = s_.resolvers->resolve(*u, urn::ResolveOptions{'#'})) j["resolver"] = *url;
      }
    }
    return json_response(200, j);
  }

  HttpResponse document(DocumentEndpoint endpoint, const HttpRequest& request,
                        std::string_view query) const {
    ReadRequest read =
        read_document_request(endpoint, header(request, "content-type"), query, request.body);
    if (read.error)
      return error_response(read.error->status, read.error->code, read.error->message);
    DocumentRequest& r = read.request;
    const std::string& jurisdiction =
        r.jurisdiction.empty() ? s_.options.default_jurisdiction : r.jurisdiction;
    const auto x = s_.extractors.find(jurisdiction);
    if (x == s_.extractors.end()) {
      std::string loaded;
      for (const auto& [name, e] : s_.extractors) loaded += (loaded.empty() ? "" : ", ") + name;
      return error_response(400, "bad_request",
                            "jurisdiction '" + jurisdiction + "' is not served (" + loaded + ")");
    }
    const std::string_view content = r.raw ? std::string_view(request.body) : r.json_content;
    if (content.empty()) return error_response(400, "bad_request", "an empty document");
    document::ReadOptions ro;
    ro.refuse_binary = r.raw;
    document::DocumentReader in(ro);
    in.open_buffer(content);
    const rewrite::LinkOptions link = link_options(r, s_.resolvers.get());
    return endpoint == DocumentEndpoint::kExtract ? extract(x->second, r, link, in)
                                                  : markup(x->second, r, link, in);
  }

 private:
  HttpResponse extract(const std::shared_ptr<const extract::Extractor>& x, const DocumentRequest& r,
                       const rewrite::LinkOptions& link, document::DocumentReader& in) const {
    std::string body = "{\"citations\":[";
    bool first = true;
    std::string href, note;
    document::DocumentExtractor reading(x, r.view);
    Status s = reading.run(in, r.self, [&](std::vector<extract::Citation>& chunk) {
      for (const extract::Citation& c : chunk) {
        if (!first) body += ',';
        first = false;
        href.clear();
        if (!rewrite::href_of(link, c.urn, href, note)) href = c.urn;
        document::append_citation_json(body, c, r.offsets, href, true);
      }
      return Status::Ok();
    });
    if (!s) return pipeline_error(s.error());
    body += "]}\n";
    HttpResponse out;
    out.body = std::move(body);
    return out;
  }

  HttpResponse markup(const std::shared_ptr<const extract::Extractor>& x, const DocumentRequest& r,
                      const rewrite::LinkOptions& link, document::DocumentReader& in) const {
    rewrite::RewriteOptions options;
    options.link = link;
    options.profile = r.profile;
    std::string marked;
    io::StringSink sink(marked);
    document::ExtractorSource source(x, r.self);
    json outcomes = json::array();
    std::uint64_t linked = 0;
    const document::MarkupJob job(r.view, options, x.get());
    Status s = job.run(in, source, sink,
                       [&](std::vector<rewrite::Outcome>& got, std::vector<std::string>& warnings) {
                         for (const rewrite::Outcome& o : got) {
                           linked += o.linked ? 1 : 0;
                           outcomes.push_back(document::outcome_json(o));
                         }
                         got.clear();
                         warnings.clear();
                         return Status::Ok();
                       });
    if (!s) return pipeline_error(s.error());
    HttpResponse out;
    if (r.raw) {
      out.content_type = r.raw_content_type;
      out.headers.emplace_back("Lexlink-Citations", std::to_string(outcomes.size()));
      out.headers.emplace_back("Lexlink-Linked", std::to_string(linked));
      out.body = std::move(marked);
      return out;
    }
    json j;
    j["content"] = std::move(marked);
    j["citations"] = outcomes.size();
    j["linked"] = linked;
    j["outcomes"] = std::move(outcomes);
    return json_response(200, j);
  }

  const Service::Impl& s_;
};

// Which endpoint a path is, and the methods it takes.
struct Route {
  Endpoint endpoint = Endpoint::kOther;
  const char* methods = nullptr;  // the Allow header; nullptr: no such path
};

Route route_of(std::string_view path) {
  if (path == "/v1/extract") return {Endpoint::kExtract, "POST, OPTIONS"};
  if (path == "/v1/markup") return {Endpoint::kMarkup, "POST, OPTIONS"};
  if (path.rfind("/v1/urn/", 0) == 0 && path.size() > 8) return {Endpoint::kUrn, "GET, OPTIONS"};
  if (path == "/healthz") return {Endpoint::kHealthz, "GET"};
  if (path == "/metrics") return {Endpoint::kMetrics, "GET"};
  return {};
}

bool method_allowed(const Route& route, const std::string& method) {
  const std::string_view allow = route.methods;
  return method != "OPTIONS" && allow.find(method) != std::string_view::npos;
}

// The CORS headers for `origin` (none when it is not allowed).
bool origin_allowed(const ServiceOptions& o, const std::string& origin) {
  for (const std::string& allowed : o.allow_origins) {
    if (allowed == "*" || allowed == origin) return true;
  }
  return false;
}

void add_cors(const ServiceOptions& o, const std::string& origin, HttpResponse& r) {
  if (origin.empty() || !origin_allowed(o, origin)) return;
  r.headers.emplace_back("Access-Control-Allow-Origin", origin);
  r.headers.emplace_back("Vary", "Origin");
  r.headers.emplace_back("Access-Control-Expose-Headers", "Lexlink-Citations, Lexlink-Linked");
}

// The answer, before metrics and CORS headers.
HttpResponse answer(const Service::Impl& s, const HttpRequest& request, Route& route) {
  const auto [path, query] = split_target(request.target);
  route = route_of(path);
  const std::string origin = header(request, "origin");
  if (request.method == "OPTIONS" && route.methods != nullptr && !origin.empty()) {
    // A CORS preflight (no token: browsers send none with it).
    if (!origin_allowed(s.options, origin)) {
      return error_response(403, "forbidden", "origin " + origin + " is not allowed");
    }
    HttpResponse r;
    r.status = 204;
    r.content_type.clear();
    r.headers.emplace_back("Access-Control-Allow-Methods", route.methods);
    r.headers.emplace_back("Access-Control-Allow-Headers", "Authorization, Content-Type");
    r.headers.emplace_back("Access-Control-Max-Age", "600");
    return r;
  }
  if (!s.options.token.empty() && header(request, "authorization") != "Bearer " + s.options.token) {
    HttpResponse r = error_response(401, "unauthorized", "a valid bearer token is required");
    r.headers.emplace_back("WWW-Authenticate", "Bearer");
    return r;
  }
  if (route.methods == nullptr) {
    return error_response(404, "not_found", "no such endpoint: " + std::string(path));
  }
  if (!method_allowed(route, request.method)) {
    HttpResponse r = error_response(
        405, "method_not_allowed", request.method + " is not allowed here (" + route.methods + ")");
    r.headers.emplace_back("Allow", route.methods);
    return r;
  }
  const Endpoints endpoints(s);
  switch (route.endpoint) {
    case Endpoint::kExtract: return endpoints.document(DocumentEndpoint::kExtract, request, query);
    case Endpoint::kMarkup: return endpoints.document(DocumentEndpoint::kMarkup, request, query);
    case Endpoint::kUrn: return endpoints.urn(path.substr(8));
    case Endpoint::kHealthz: return endpoints.healthz();
    case Endpoint::kMetrics: return endpoints.metrics();
    default: return error_response(404, "not_found", "no such endpoint");
  }
}

}  // namespace

HttpResponse Service::handle(const HttpRequest& request, double seconds_reading) const {
  const Clock::time_point start = Clock::now();
  Route route;
  HttpResponse r;
  try {
    r = answer(*impl_, request, route);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    r = error_response(500, "internal", std::string("internal error: ") + e.what());
  }
  add_cors(impl_->options, header(request, "origin"), r);
  if (!r.error_code.empty()) impl_->metrics.error(r.error_code);
  const double seconds =
      seconds_reading + std::chrono::duration<double>(Clock::now() - start).count();
  impl_->metrics.observe(route.endpoint, r.status, seconds, request.body.size());
  return r;
}

}  // namespace lexlink::service

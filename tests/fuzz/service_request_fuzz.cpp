// libFuzzer target: the service's requests (service/service.h) on arbitrary bytes. The input is
// a request: its first byte picks the method and the Content-Type, then the target up to the
// first '\n', then the body. Checks: no crash, leak or hang; never a 500 (an error of the
// caller's is a 4xx); every answer the service makes as JSON parses, and an error answer has a
// code and a message; a raw markup answer without links removed is the body sent
// (unmark(markup(x)) == x, through the whole request path).
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "fuzz/fuzz_data.h"
#include "lexlink/lexlink.h"
#include "service/service.h"

namespace {

using namespace lexlink;
using test::die;

constexpr const char* kTarget = "service_request_fuzz";
constexpr const char* kMethods[] = {"GET", "POST",    "POST",   "POST",
                                    "PUT", "OPTIONS", "DELETE", "PATCH"};
constexpr const char* kTypes[] = {"application/json",
                                  "text/plain",
                                  "text/html",
                                  "application/xml",
                                  "application/octet-stream",
                                  "text/plain; charset=latin1",
                                  "",
                                  "image/png"};

const service::Service& the_service() {
  static const std::unique_ptr<service::Service> s = [] {
    service::ServiceOptions o;
    o.data_folder = test::source_dir();
    o.jurisdictions = {"it", "uk"};
    o.cache_folder = LEXLINK_FUZZ_CACHE_DIR;
    o.max_body_bytes = 1 << 16;
    o.allow_origins = {"https://editor.example"};
    auto made = service::Service::create(o);
    if (!made) die(kTarget, "cannot load the service: " + made.error().to_string());
    return std::move(*made);
  }();
  return *s;
}

void check(const service::HttpRequest& request, const service::HttpResponse& r) {
  if (r.status >= 500) die(kTarget, "a 5xx answer: " + r.body);
  if (r.content_type == "application/json") {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(r.body);
    } catch (const std::exception& e) {
      die(kTarget, std::string("an answer that is not JSON: ") + e.what());
    }
    if (r.status >= 400 && !(j["error"]["code"].is_string() && j["error"]["message"].is_string())) {
      die(kTarget, "an error without code and message: " + r.body);
    }
  }
  const bool raw_markup = request.method == "POST" && r.status == 200 &&
                          request.target.rfind("/v1/markup", 0) == 0 &&
                          r.content_type != "application/json";
  if (raw_markup) {
    auto back = unmark(r.body);
    if (!back || *back != request.body) die(kTarget, "unmark(markup(x)) != x over the service");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view in(reinterpret_cast<const char*>(data + 1), size - 1);
  service::HttpRequest request;
  request.method = kMethods[data[0] & 7];
  const std::size_t nl = in.find('\n');
  request.target = std::string(in.substr(0, nl));
  if (request.target.empty() || request.target[0] != '/') request.target.insert(0, "/");
  if (const char* type = kTypes[(data[0] >> 3) & 7]; *type != '\0') {
    request.headers["content-type"] = type;
  }
  if (data[0] & 0x40) request.headers["origin"] = "https://editor.example";
  if (nl != std::string_view::npos) request.body = std::string(in.substr(nl + 1));
  check(request, the_service().handle(request));
  return 0;
}

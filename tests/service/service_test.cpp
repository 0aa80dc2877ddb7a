// The service without its transport (service/service.h): every request of
// tests/data/service/requests.tsv gets the status and the body it says; every error is JSON with
// a code and a message; the counters of /metrics count what was answered; threads share one
// Service.
#include <atomic>
#include <catch2/catch.hpp>
#include <cctype>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "service/service.h"
#include "support/test_support.h"

namespace lexlink {
namespace {

using service::HttpRequest;
using service::Service;
using service::ServiceOptions;

std::unique_ptr<Service> make_service(const std::string& setup) {
  ServiceOptions o;
  o.data_folder = test::data_path("");
  o.jurisdictions = {"br", "eu", "fr", "it", "uk", "us", "za"};
  o.cache_folder = "-";
  if (setup == "token") o.token = "s3cret";
  if (setup == "cors") o.allow_origins = {"https://editor.example"};
  auto s = Service::create(o);
  REQUIRE(s);
  return std::move(*s);
}

HttpRequest request_of(const std::vector<std::string_view>& f) {
  HttpRequest r;
  r.method = std::string(f[1]);
  r.target = test::unescape(f[2]);
  for (const std::string& h : test::split(f[3], " | ")) {
    if (h.empty()) continue;
    const std::size_t colon = h.find(": ");
    std::string name = h.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.headers.emplace(name, h.substr(colon + 2));
  }
  r.body = test::unescape(f[4]);
  return r;
}

TEST_CASE("service: each request of the table gets its status and body", "[service]") {
  const auto table =
      test::load_table("tests/data/service/requests.tsv",
                       {"setup", "method", "target", "headers", "body", "status", "expect"});
  REQUIRE(table.rows().size() >= 60);
  std::map<std::string, std::unique_ptr<Service>> services;
  for (const auto& row : table.rows()) {
    const auto& f = row.fields;
    INFO(table.path() << ":" << row.line << " " << f[1] << " " << f[2]);
    auto& s = services[std::string(f[0])];
    if (!s) s = make_service(std::string(f[0]));
    const service::HttpResponse r = s->handle(request_of(f));
    INFO(r.body);
    CHECK(r.status == std::stoi(std::string(f[5])));
    CHECK(r.body.find(test::unescape(f[6])) != std::string::npos);
    if (r.status >= 400) {
      const auto j = nlohmann::json::parse(r.body);
      CHECK(j["error"]["code"].is_string());
      CHECK(j["error"]["message"].is_string());
      CHECK(r.content_type == "application/json");
    }
    if (r.status == 405) {
      bool allow = false;
      for (const auto& [name, value] : r.headers) allow = allow || name == "Allow";
      CHECK(allow);
    }
  }
}

TEST_CASE("service: an allowed origin gets CORS headers, another none", "[service]") {
  auto s = make_service("cors");
  HttpRequest r;
  r.method = "GET";
  r.target = "/healthz";
  auto header = [](const service::HttpResponse& a, const std::string& name) {
    for (const auto& [n, v] : a.headers) {
      if (n == name) return v;
    }
    return std::string();
  };
  r.headers["origin"] = "https://editor.example";
  CHECK(header(s->handle(r), "Access-Control-Allow-Origin") == "https://editor.example");
  r.headers["origin"] = "https://evil.example";
  CHECK(header(s->handle(r), "Access-Control-Allow-Origin").empty());
  r.method = "OPTIONS";
  r.target = "/v1/markup";
  r.headers["origin"] = "https://editor.example";
  const auto pre = s->handle(r);
  CHECK(pre.status == 204);
  CHECK(header(pre, "Access-Control-Allow-Methods") == "POST, OPTIONS");
  CHECK(header(pre, "Access-Control-Allow-Headers").find("Authorization") != std::string::npos);
}

TEST_CASE("service: /metrics counts requests by endpoint and status, errors by code", "[service]") {
  auto s = make_service("open");
  HttpRequest ok;
  ok.method = "POST";
  ok.target = "/v1/extract";
  ok.headers["content-type"] = "application/json";
  ok.body = R"({"text":"legge 3 aprile 2000, n. 56","jurisdiction":"it"})";
  for (int i = 0; i < 3; ++i) REQUIRE(s->handle(ok).status == 200);
  HttpRequest bad = ok;
  bad.body = "{";
  REQUIRE(s->handle(bad).status == 400);
  HttpRequest metrics;
  metrics.method = "GET";
  metrics.target = "/metrics";
  const std::string text = s->handle(metrics).body;
  INFO(text);
  CHECK(text.find("lexlink_requests_total{endpoint=\"extract\",status=\"200\"} 3\n") !=
        std::string::npos);
  CHECK(text.find("lexlink_requests_total{endpoint=\"extract\",status=\"400\"} 1\n") !=
        std::string::npos);
  CHECK(text.find("lexlink_errors_total{code=\"bad_request\"} 1\n") != std::string::npos);
  CHECK(text.find("lexlink_request_seconds_count{endpoint=\"extract\"} 4\n") != std::string::npos);
  CHECK(text.find("lexlink_request_seconds_bucket{endpoint=\"extract\",le=\"+Inf\"} 4\n") !=
        std::string::npos);
}

TEST_CASE("service: threads share one Service and get the answers one thread gets", "[service]") {
  auto s = make_service("open");
  HttpRequest r;
  r.method = "POST";
  r.target = "/v1/markup";
  r.headers["content-type"] = "application/json";
  r.body = R"({"content":"<p>art. 3 della legge 3 aprile 2000, n. 56 e d.lgs. 165/2001</p>"})";
  const std::string expected = s->handle(r).body;
  REQUIRE(expected.find("\"linked\":2") != std::string::npos);
  std::vector<std::thread> threads;
  std::atomic<int> same{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) same += s->handle(r).body == expected ? 1 : 0;
    });
  }
  for (auto& t : threads) t.join();
  CHECK(same == 200);
}

}  // namespace
}  // namespace lexlink

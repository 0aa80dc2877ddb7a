// `lexlink serve`: the JSON service (extractor/service/) on HTTP/1.1. This file reads the
// options and runs the server until SIGINT or SIGTERM; the endpoints and the limits are the
// service's (docs/service.md).
#include <pthread.h>
#include <signal.h>

#if defined(LEXLINK_WITH_MIMALLOC)
#include <mimalloc.h>
#else
#include <malloc.h>
#endif

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/extractor_setup.h"
#include "service/http_server.h"
#include "service/service.h"

namespace lexlink::cli {
namespace {

constexpr const char* kServeUsage =
    "usage: lexlink serve [OPTIONS]\n"
    "An HTTP/1.1 JSON service: POST /v1/extract, POST /v1/markup, GET /v1/urn/NAME,\n"
    "GET /healthz, GET /metrics (docs/service.md). Runs until SIGINT or SIGTERM.\n"
    "\n"
    "  --listen HOST:PORT      the address (default 127.0.0.1:8750; port 0: any free port,\n"
    "                          the one taken is printed); an address other than loopback\n"
    "                          needs --token\n"
    "  --token TOKEN           every request must carry 'Authorization: Bearer TOKEN' (default:\n"
    "                          $LEXLINK_SERVE_TOKEN, else none)\n"
    "  --allow-origin ORIGIN   CORS: answer browsers from ORIGIN ('*': any); repeatable;\n"
    "                          default: none (closed)\n"
    "  --jurisdiction J|auto   for requests that name none (default auto); every grammar of\n"
    "                          the data folder is served: {jurisdictions}\n"
    "  --engine, --cache       as extract\n"
    "  --max-body BYTES        larger request bodies get 413 (default 8388608: 8 MB)\n"
    "  --request-timeout SEC   to read a request's body, and to wait for a worker; then 408 or\n"
    "                          503 (default 10)\n"
    "  --jobs N                requests answered at once (default: the cores)\n"
    "  --connections N         connections served at once, each on its thread (default 64)\n"
    "  --keep-alive SEC        an idle connection is closed after SEC seconds (default 5)\n"
    "  --max-inflight BYTES    request bodies held at once, over all connections; a body\n"
    "                          that would pass it gets 503 (default 134217728: 128 MB)\n";

// The words of a space-separated list.
std::vector<std::string> split_jurisdictions(const std::string& list) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < list.size()) {
    std::size_t space = list.find(' ', at);
    if (space == std::string::npos) space = list.size();
    if (space > at) out.push_back(list.substr(at, space - at));
    at = space + 1;
  }
  return out;
}

bool read_number(const Args& args, const char* name, double min, double max, double& out) {
  const std::string& s = args.get(name);
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !(out >= min && out <= max)) {
    std::fprintf(stderr, "lexlink serve: --%s is a number from %g to %g (got '%s')\n", name, min,
                 max, s.c_str());
    return false;
  }
  return true;
}

bool read_listen(const std::string& value, service::ServerOptions& out) {
  const std::size_t colon = value.rfind(':');
  char* end = nullptr;
  const long port =
      colon == std::string::npos ? -1 : std::strtol(value.c_str() + colon + 1, &end, 10);
  if (colon == std::string::npos || colon == 0 || *end != '\0' || port < 0 || port > 65535) {
    std::fprintf(stderr, "lexlink serve: --listen is HOST:PORT (got '%s')\n", value.c_str());
    return false;
  }
  out.host = value.substr(0, colon);
  out.port = static_cast<int>(port);
  return true;
}

// The options into the service's and the server's; 0 to go on, else the exit status.
int read_setup(const Context& context, const std::vector<std::string>& argv,
               service::ServiceOptions& so, service::ServerOptions& server) {
  Args args;
  args.flag("help").option("listen", "127.0.0.1:8750").option("token", "").multi("allow-origin");
  args.option("jurisdiction", "auto").option("engine", "hyperscan").option("cache", "");
  args.option("max-body", "8388608").option("request-timeout", "10").option("jobs", "0");
  args.option("connections", "64").option("keep-alive", "5").option("max-inflight", "134217728");
  if (!args.parse(argv) || !args.positional().empty()) {
    std::fprintf(stderr, "lexlink serve: %s\n\n%s",
                 args.error().empty() ? "no arguments" : args.error().c_str(),
                 usage_text(context, kServeUsage).c_str());
    return 2;
  }
  if (args.has("help")) {
    std::fputs(usage_text(context, kServeUsage).c_str(), stdout);
    return -1;
  }
  double max_body = 0, timeout = 0, jobs = 0, connections = 0, keep_alive = 0, inflight = 0;
  if (!read_listen(args.get("listen"), server) ||
      !read_number(args, "max-body", 1, 1 << 30, max_body) ||
      !read_number(args, "request-timeout", 0.1, 3600, timeout) ||
      !read_number(args, "jobs", 0, 1024, jobs) ||
      !read_number(args, "connections", 2, 4096, connections) ||
      !read_number(args, "keep-alive", 1, 3600, keep_alive) ||
      !read_number(args, "max-inflight", 1, 1e12, inflight)) {
    return 2;
  }
  const auto engine = parse_engine(args.get("engine"));
  if (!engine) {
    std::fprintf(stderr, "lexlink serve: --engine is hyperscan or re2\n");
    return 2;
  }
  so.data_folder = context.data_dir;
  so.jurisdictions = split_jurisdictions(jurisdiction_list(context));
  so.default_jurisdiction = args.get("jurisdiction");
  so.engine = *engine;
  so.cache_folder = args.get("cache");
  so.max_body_bytes = static_cast<std::uint64_t>(max_body);
  so.token = args.get("token");
  if (so.token.empty() && std::getenv("LEXLINK_SERVE_TOKEN") != nullptr) {
    so.token = std::getenv("LEXLINK_SERVE_TOKEN");
  }
  so.allow_origins = args.all("allow-origin");
  server.request_seconds = timeout;
  server.jobs = static_cast<std::size_t>(jobs);
  server.connections = static_cast<std::size_t>(connections);
  server.keep_alive_seconds = static_cast<int>(keep_alive);
  server.max_inflight_bytes = static_cast<std::uint64_t>(inflight);
  if (server.max_inflight_bytes < so.max_body_bytes) {
    std::fprintf(stderr, "lexlink serve: --max-inflight is at least --max-body\n");
    return 2;
  }
  // The memory of a large request goes back to the system once it is answered: the
  // allocators keep a thread's free pages, and a connection thread may then idle for long.
#if defined(LEXLINK_WITH_MIMALLOC)
  // mimalloc keeps a thread's freed pages committed for decommit_delay (25 ms) and purges them
  // only when that thread allocates again, so a connection thread idling after a large request
  // keeps them: 16 markups of 8 MB at once left 416 MB resident. A delay of 1 ms leaves 126 MB
  // at the same throughput of small requests; 0 leaves 36 MB but cost 25-40% of the requests
  // per second (alternating runs, bench/results/2026-12-03-vm-serve-memory.txt).
  if (std::getenv("MIMALLOC_DECOMMIT_DELAY") == nullptr) mi_option_set(mi_option_decommit_delay, 1);
  server.release_memory = [] { mi_collect(true); };
#else
  server.release_memory = [] { malloc_trim(0); };
#endif
  return 0;
}

}  // namespace

int serve_command(const Context& context, const std::vector<std::string>& argv) {
  service::ServiceOptions so;
  service::ServerOptions server_options;
  if (const int rc = read_setup(context, argv, so, server_options); rc != 0) return rc < 0 ? 0 : rc;
  auto service = service::Service::create(so);
  if (!service) {
    std::fprintf(stderr, "lexlink serve: %s\n", service.error().to_string().c_str());
    return 2;
  }
  service::HttpServer server(**service, server_options);
  if (Status b = server.bind(); !b) {
    std::fprintf(stderr, "lexlink serve: %s\n", b.error().to_string().c_str());
    return 2;
  }
  // SIGINT and SIGTERM stop the server, taken by one thread (every thread started after this
  // has them blocked).
  sigset_t stop_set;
  sigemptyset(&stop_set);
  sigaddset(&stop_set, SIGINT);
  sigaddset(&stop_set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_set, nullptr);
  std::thread stopper([&] {
    int sig = 0;
    sigwait(&stop_set, &sig);
    if (sig != 0) server.stop();
  });
  Status s = server.run([&] {
    std::fprintf(stderr, "lexlink serve: listening on http://%s:%d/\n", server_options.host.c_str(),
                 server.port());
    std::fflush(stderr);
  });
  if (!s) pthread_kill(stopper.native_handle(), SIGTERM);  // not stopped by a signal
  stopper.join();
  if (!s) {
    std::fprintf(stderr, "lexlink serve: %s\n", s.error().to_string().c_str());
    return 2;
  }
  std::fprintf(stderr, "lexlink serve: stopped\n");
  return 0;
}

}  // namespace lexlink::cli

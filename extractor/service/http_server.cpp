#include "service/http_server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace lexlink::service {
namespace {

using Clock = std::chrono::steady_clock;

// At most `slots` holders at once; acquire() waits up to a deadline.
class WorkGate {
 public:
  explicit WorkGate(std::size_t slots) : free_(slots) {}

  bool acquire(Clock::time_point deadline) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!freed_.wait_until(lock, deadline, [&] { return free_ > 0; })) return false;
    --free_;
    return true;
  }
  void release() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++free_;
    }
    freed_.notify_one();
  }

 private:
  std::mutex mutex_;
  std::condition_variable freed_;
  std::size_t free_;
};

HttpRequest to_request(const httplib::Request& req) {
  HttpRequest r;
  r.method = req.method;
  r.target = req.target;
  for (const auto& [name, value] : req.headers) {
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    r.headers.emplace(std::move(lower), value);
  }
  return r;
}

void write_response(const HttpResponse& from, httplib::Response& res) {
  res.status = from.status;
  for (const auto& [name, value] : from.headers) res.set_header(name, value);
  if (!from.content_type.empty() || !from.body.empty()) {
    res.set_content(from.body, from.content_type.empty() ? "application/octet-stream"
                                                         : from.content_type.c_str());
  }
}

// The code of a status the HTTP layer answers with on its own.
const char* code_of(int status) {
  switch (status) {
    case 404: return "not_found";
    case 405: return "method_not_allowed";
    case 408: return "timeout";
    case 411: return "length_required";
    case 413: return "too_large";
    case 414: return "bad_request";
    case 415: return "unsupported_media_type";
    case 503: return "busy";
    default: return status >= 500 ? "internal" : "bad_request";
  }
}

// The sentence of an error the HTTP layer answers with on its own.
std::string message_of(int status) {
  switch (status) {
    case 404: return "no such endpoint";
    case 413: return "the request is over the size limit";
    case 414: return "the request target is too long";
    default: return "a malformed HTTP request (status " + std::to_string(status) + ")";
  }
}

}  // namespace

bool is_loopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host == "[::1]" || host.rfind("127.", 0) == 0;
}

struct HttpServer::Impl {
  const Service& service;
  ServerOptions options;
  httplib::Server server;
  WorkGate gate;
  int port = -1;
  int listening = -1;                      // the listening socket, once bound
  std::atomic<std::uint64_t> inflight{0};  // body bytes held (ServerOptions::max_inflight_bytes)

  // Takes `n` bytes of the in-flight budget; false (nothing taken) when they do not fit.
  bool reserve(std::uint64_t n) {
    std::uint64_t held = inflight.load();
    do {
      if (held + n > options.max_inflight_bytes) return false;
    } while (!inflight.compare_exchange_weak(held, held + n));
    return true;
  }

  Impl(const Service& s, ServerOptions o)
      : service(s),
        options(o),
        gate(o.jobs != 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency())) {}

  // When a request read from `start` must have its body and a work slot.
  Clock::time_point deadline_of(Clock::time_point start) const {
    return start + std::chrono::duration_cast<Clock::duration>(
                       std::chrono::duration<double>(options.request_seconds));
  }

  // The Service's answer, once a work slot is free.
  void answer(HttpRequest request, Clock::time_point start, httplib::Response& res) {
    if (!gate.acquire(deadline_of(start))) return busy(res, "every worker is busy: try again");
    const double reading = std::chrono::duration<double>(Clock::now() - start).count();
    HttpResponse r = service.handle(request, reading);
    gate.release();
    write_response(r, res);
  }

  // A request with a body: read through the content reader, within the size, time and
  // in-flight limits.
  void with_body(const httplib::Request& req, httplib::Response& res,
                 const httplib::ContentReader& reader) {
    const Clock::time_point start = Clock::now();
    const std::uint64_t max = service.options().max_body_bytes;
    // A body announced over the limit is refused before a byte of it is read; so is one the
    // in-flight budget has no room for.
    const std::string length = req.get_header_value("Content-Length");
    const std::uint64_t announced = length.empty() ? 0 : std::strtoull(length.c_str(), nullptr, 10);
    if (announced > max) return refuse(res, 413, "too_large", over_limit(max));
    if (!reserve(announced)) return busy(res, kNoRoom);
    std::uint64_t held = announced;
    HttpRequest request = to_request(req);
    const Clock::time_point deadline = deadline_of(start);
    bool too_large = false, late = false, no_room = false;
    const bool whole = reader([&](const char* data, std::size_t n) {
      if (request.body.size() + n > max) return !(too_large = true);
      if (request.body.size() + n > held) {  // chunked: counted as it comes
        if (!reserve(request.body.size() + n - held)) return !(no_room = true);
        held = request.body.size() + n;
      }
      request.body.append(data, n);
      late = Clock::now() > deadline;
      return !late;
    });
    if (too_large || no_room || !whole) {
      inflight -= held;
      if (too_large) return refuse(res, 413, "too_large", over_limit(max));
      if (no_room) return busy(res, kNoRoom);
      return refuse(res, 408, "timeout",
                    "the body did not arrive whole in time (" +
                        std::to_string(request.body.size()) + " bytes read)");
    }
    const bool large = request.body.size() >= (1u << 20);
    answer(std::move(request), start, res);
    inflight -= held;
    if (large && options.release_memory) options.release_memory();
  }

  static std::string over_limit(std::uint64_t max) {
    return "the body is over the limit of " + std::to_string(max) + " bytes";
  }

  // An error answer of the HTTP layer, closing the connection (its body may be unread).
  void refuse(httplib::Response& res, int status, const char* code, const std::string& message) {
    HttpResponse e = error_response(status, code, message);
    service.metrics().error(code);
    e.headers.emplace_back("Connection", "close");
    write_response(e, res);
  }

  static constexpr const char* kNoRoom = "too many request bodies at once: try again";

  // 503, to be tried again in a second.
  void busy(httplib::Response& res, const char* message) {
    HttpResponse e = error_response(503, "busy", message);
    e.headers.emplace_back("Retry-After", "1");
    service.metrics().error("busy");
    write_response(e, res);
  }

  void routes() {
    auto plain = [this](const httplib::Request& req, httplib::Response& res) {
      answer(to_request(req), Clock::now(), res);
    };
    auto body = [this](const httplib::Request& req, httplib::Response& res,
                       const httplib::ContentReader& reader) { with_body(req, res, reader); };
    server.Get(".*", plain);
    server.Options(".*", plain);
    server.Post(".*", body);
    server.Put(".*", body);
    server.Patch(".*", body);
    server.Delete(".*", body);
    server.set_error_handler(httplib::Server::HandlerWithResponse(
        [this](const httplib::Request&, httplib::Response& res) {
          if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
          const int status = res.status;
          service.metrics().error(code_of(status));
          write_response(error_response(status, code_of(status), message_of(status)), res);
          return httplib::Server::HandlerResponse::Handled;
        }));
    server.set_exception_handler(
        [this](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
          service.metrics().error("internal");
          write_response(error_response(500, "internal", "internal error"), res);
        });
  }
};

HttpServer::HttpServer(const Service& service, ServerOptions options)
    : impl_(std::make_unique<Impl>(service, options)) {
  Impl& s = *impl_;
  const std::size_t threads = std::max<std::size_t>(2, options.connections);
  s.server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  s.server.set_payload_max_length(service.options().max_body_bytes);
  const auto seconds = static_cast<time_t>(std::max(1.0, options.request_seconds));
  s.server.set_read_timeout(seconds, 0);
  s.server.set_write_timeout(seconds, 0);
  s.server.set_keep_alive_timeout(options.keep_alive_seconds);
  s.server.set_keep_alive_max_count(100000);
  s.server.set_tcp_nodelay(true);
  // httplib listens with a backlog of 5: 32 clients connecting at once lose SYNs and wait a
  // second for the retransmission. The listening socket is kept to listen again with a longer
  // backlog once bound (Linux updates the backlog of a listening socket).
  s.server.set_socket_options([&s](int sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    s.listening = sock;
  });
  s.routes();
}

HttpServer::~HttpServer() = default;

Status HttpServer::bind() {
  Impl& s = *impl_;
  if (!is_loopback(s.options.host) && s.service.options().token.empty()) {
    return make_error(ErrorCode::kInvalidArgument,
                      "listening on " + s.options.host +
                          " (not loopback) needs --token: every request must then carry it");
  }
  std::string host = s.options.host;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  if (s.options.port == 0) {
    s.port = s.server.bind_to_any_port(host);
  } else if (s.server.bind_to_port(host, s.options.port)) {
    s.port = s.options.port;
  }
  if (s.port > 0 && s.listening >= 0) ::listen(s.listening, SOMAXCONN);
  if (s.port <= 0) {
    return make_error(ErrorCode::kIoError,
                      "cannot listen on " + s.options.host + ":" + std::to_string(s.options.port));
  }
  return Status::Ok();
}

int HttpServer::port() const {
  return impl_->port;
}

Status HttpServer::run(const std::function<void()>& ready) {
  Impl& s = *impl_;
  if (s.port <= 0) {
    if (Status b = bind(); !b) return b;
  }
  std::atomic<bool> finished{false};
  std::thread announce([&] {
    while (!s.server.is_running() && !finished) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (ready && !finished) ready();
  });
  const bool ok = s.server.listen_after_bind();
  finished = true;
  announce.join();
  if (!ok) return make_error(ErrorCode::kIoError, "the server stopped on an error");
  return Status::Ok();
}

void HttpServer::stop() {
  impl_->server.stop();
}

}  // namespace lexlink::service

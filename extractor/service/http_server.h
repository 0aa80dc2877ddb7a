// service/http_server: the Service (service.h) on HTTP/1.1, with cpp-httplib (Debian's
// libcpp-httplib-dev). What is the wire's, and only that, is here: the listening socket, the
// connection threads, the limits on reading a request, and the work gate.
//
// Guarantees:
// - An address other than loopback is refused unless a token is set (ServiceOptions::token):
//   a service reachable from the network without one would link anyone's documents.
// - Connections are served by `connections` threads (keep-alive: a connection holds its
//   thread while it lasts, up to an idle `keep_alive_seconds`); at most `jobs` requests are
//   answered at once (the work gate: one per core), the others wait for a slot up to
//   `request_seconds`, then get 503.
// - A body over max_body_bytes gets 413 before it is read; a body that does not arrive whole
//   within `request_seconds` (a slow or truncated client) gets 408 and the connection is closed;
//   every error the HTTP layer itself makes (malformed request line, header too long) is JSON
//   as the Service's are. Bodies held at once are bounded by max_inflight_bytes (503 beyond).
// - run() returns when stop() is called (from any thread; `lexlink serve` calls it on SIGINT
//   and SIGTERM).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "common/status.h"
#include "service/service.h"

namespace lexlink::service {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8750;               // 0: any free port (port() says which)
  std::size_t jobs = 0;          // requests answered at once; 0: the cores
  std::size_t connections = 64;  // connection threads
  double request_seconds = 10;   // to read a request's body, and to wait for a work slot
  int keep_alive_seconds = 5;    // an idle keep-alive connection is closed after this
  // The bytes of request bodies held at once, over all connections (each counted from its
  // Content-Length, or as it arrives when chunked); a body that would pass it gets 503 before
  // it is read. Bounds the memory of many large requests at once.
  std::uint64_t max_inflight_bytes = std::uint64_t{128} << 20;
  // Called on the connection's thread after a request whose body was 1 MB or more was
  // answered: gives the allocator's free memory back to the system (the CLI passes mimalloc's
  // mi_collect, or glibc's malloc_trim), so memory returns to its idle level. May be empty.
  std::function<void()> release_memory;
};

// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost).
bool is_loopback(const std::string& host);

class HttpServer {
 public:
  HttpServer(const Service& service, ServerOptions options);
  ~HttpServer();

  // Binds the address; kInvalidArgument for a non-loopback address without a token, kIoError
  // when the address cannot be bound.
  Status bind();
  int port() const;  // after bind()
  // Serves until stop(); `ready` is called once the server accepts connections.
  Status run(const std::function<void()>& ready = {});
  void stop();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace lexlink::service

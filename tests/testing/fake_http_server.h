// Test helper: a tiny HTTP/1.1 server (one request per connection, `Connection: close`) on an IPv4
// address chosen by the test, answering through a handler function. It stands in for the EC2
// instance metadata service (IMDS) in unit tests (on loopback) and in network-namespace tests (on
// an address only the namespace that should see it can reach). Stopped and joined on destruction.
//
//   FakeHttpServer server("127.0.0.1", [](const HttpRequest& r) { return HttpResponse{200, "ok"};
//   }); ASSERT_TRUE(server.ok()) << server.error(); std::string url = server.url();  //
//   "http://127.0.0.1:41234"
#ifndef AZBENCH_TESTS_TESTING_FAKE_HTTP_SERVER_H_
#define AZBENCH_TESTS_TESTING_FAKE_HTTP_SERVER_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace azbench::testing {

struct HttpRequest {
  std::string method;
  std::string path;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
};

struct HttpResponse {
  HttpResponse(int status_code = 200, std::string response_body = "")
      : status(status_code), body(std::move(response_body)) {}
  int status = 200;
  std::string body;
  std::map<std::string, std::string> headers;
  // Sleep this long before answering (to test client timeouts).
  std::chrono::milliseconds delay{0};
};

class FakeHttpServer {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest&)>;

  // Listens on `address`:`port` (0 = a free port chosen by the kernel).
  FakeHttpServer(const std::string& address, Handler handler, int port = 0)
      : handler_(std::move(handler)), address_(address) {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) {
      error_ = std::strerror(errno);
      return;
    }
    const int one = 1;
    setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    if (inet_pton(AF_INET, address.c_str(), &addr.sin_addr) != 1) {
      error_ = "bad IPv4 address '" + address + "'";
      return;
    }
    if (bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || listen(fd_, 64) != 0) {
      error_ = "cannot listen on " + address + ": " + std::strerror(errno);
      return;
    }
    socklen_t len = sizeof(addr);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { Serve(); });
  }

  ~FakeHttpServer() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) close(fd_);
  }
  FakeHttpServer(const FakeHttpServer&) = delete;
  FakeHttpServer& operator=(const FakeHttpServer&) = delete;

  bool ok() const { return port_ != 0; }
  const std::string& error() const { return error_; }
  int port() const { return port_; }
  std::string url() const { return "http://" + address_ + ":" + std::to_string(port_); }

  // Every request served so far, in order.
  std::vector<HttpRequest> requests() const {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }

 private:
  void Serve() {
    while (!stop_.load()) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      const int conn = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (conn < 0) continue;
      HandleConnection(conn);
      close(conn);
    }
  }

  // Reads until the headers and Content-Length bytes of body are in, or 2 s pass.
  void HandleConnection(int conn) {
    std::string data;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    size_t header_end = std::string::npos;
    size_t content_length = 0;
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd p{conn, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      char buf[4096];
      const ssize_t n = read(conn, buf, sizeof(buf));
      if (n <= 0) break;
      data.append(buf, static_cast<size_t>(n));
      if (header_end == std::string::npos) {
        header_end = data.find("\r\n\r\n");
        if (header_end != std::string::npos) {
          const std::string lower = Lower(data.substr(0, header_end));
          const size_t cl = lower.find("content-length:");
          if (cl != std::string::npos) content_length = std::stoul(lower.substr(cl + 15));
        }
      }
      if (header_end != std::string::npos && data.size() >= header_end + 4 + content_length) break;
    }
    if (header_end == std::string::npos) return;
    HttpRequest request;
    const size_t line_end = data.find("\r\n");
    const std::string line = data.substr(0, line_end);
    const size_t sp1 = line.find(' ');
    const size_t sp2 = line.find(' ', sp1 + 1);
    request.method = line.substr(0, sp1);
    request.path = line.substr(sp1 + 1, sp2 - sp1 - 1);
    size_t pos = line_end + 2;
    while (pos < header_end) {
      size_t end = data.find("\r\n", pos);
      if (end == std::string::npos || end > header_end) end = header_end;
      const std::string header = data.substr(pos, end - pos);
      const size_t colon = header.find(':');
      if (colon != std::string::npos) {
        std::string value = header.substr(colon + 1);
        while (!value.empty() && value.front() == ' ') value.erase(0, 1);
        request.headers[Lower(header.substr(0, colon))] = value;
      }
      pos = end + 2;
    }
    request.body = data.substr(header_end + 4);
    {
      std::lock_guard<std::mutex> lock(mu_);
      requests_.push_back(request);
    }
    const HttpResponse response = handler_(request);
    if (response.delay.count() > 0) std::this_thread::sleep_for(response.delay);
    std::string out = "HTTP/1.1 " + std::to_string(response.status) + " X\r\n";
    for (const auto& [k, v] : response.headers) out += k + ": " + v + "\r\n";
    out += "Content-Length: " + std::to_string(response.body.size()) +
           "\r\nConnection: close\r\n\r\n" + response.body;
    size_t written = 0;
    while (written < out.size()) {
      const ssize_t n = send(conn, out.data() + written, out.size() - written, MSG_NOSIGNAL);
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
  }

  static std::string Lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  Handler handler_;
  std::string address_;
  int fd_ = -1;
  int port_ = 0;
  std::string error_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  mutable std::mutex mu_;
  std::vector<HttpRequest> requests_;
};

// A fake IMDSv2: PUT /latest/api/token (requires the TTL header) hands out a token; GETs need it
// (401 otherwise) and answer from `values` (path under /latest/meta-data/ -> body; 404 otherwise).
// Directory listings (path ending '/') are generated from the keys.
inline FakeHttpServer::Handler FakeImdsHandler(std::map<std::string, std::string> values,
                                               std::string token = "fake-imds-token") {
  return [values = std::move(values), token = std::move(token)](const HttpRequest& r) {
    if (r.method == "PUT" && r.path == "/latest/api/token") {
      if (r.headers.count("x-aws-ec2-metadata-token-ttl-seconds") == 0) return HttpResponse{400};
      return HttpResponse{200, token};
    }
    auto it = r.headers.find("x-aws-ec2-metadata-token");
    if (it == r.headers.end() || it->second != token) return HttpResponse{401};
    const std::string prefix = "/latest/meta-data/";
    if (r.method != "GET" || r.path.rfind(prefix, 0) != 0) return HttpResponse{404};
    const std::string key = r.path.substr(prefix.size());
    if (auto v = values.find(key); v != values.end()) return HttpResponse{200, v->second};
    if (!key.empty() && key.back() == '/') {
      std::string listing;
      std::string last;
      for (const auto& [k, unused] : values) {
        if (k.rfind(key, 0) != 0) continue;
        const std::string rest = k.substr(key.size());
        const size_t slash = rest.find('/');
        const std::string entry = slash == std::string::npos ? rest : rest.substr(0, slash + 1);
        if (entry == last) continue;
        listing += (listing.empty() ? "" : "\n") + entry;
        last = entry;
      }
      if (!listing.empty()) return HttpResponse{200, listing};
    }
    return HttpResponse{404};
  };
}

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_FAKE_HTTP_SERVER_H_

// A loopback TCP proxy for tests that break connections on purpose: it forwards every connection
// made to it to a target port, and the test can reset all current connections (an RST to both
// sides, as after a network blip) while new ones are still accepted, hold the target's replies
// (not read from the target until the next reset: what was sent is "on the wire"), answer each new
// connection only some time after it was accepted (a server starved on a loaded machine), refuse
// new connections altogether (a host gone), or go silent (a network partition that drops packets:
// new connections get no answer at all, not even a refusal, until it heals).
//
//   testing::TcpProxy proxy(agent_port);
//   ASSERT_TRUE(proxy.ok());
//   ConnectFleet({proxy.address()}, ...);
//   proxy.ResetAll();
#ifndef AZBENCH_TESTS_TESTING_TCP_PROXY_H_
#define AZBENCH_TESTS_TESTING_TCP_PROXY_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"

namespace azbench::testing {

class TcpProxy {
 public:
  // Listens on `listen_port`, or on a port the kernel chooses (0).
  explicit TcpProxy(int target_port, int listen_port = 0) : target_port_(target_port) {
    listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
    if (listen_fd_ < 0) return;
    sockaddr_in addr = Loopback(listen_port);
    socklen_t len = sizeof(addr);
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
        listen(listen_fd_, 64) != 0 ||
        getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      close(listen_fd_);
      listen_fd_ = -1;
      return;
    }
    port_ = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] { AcceptLoop(); });
  }
  ~TcpProxy() {
    stopping_.store(true);
    Refuse();
    if (acceptor_.joinable()) acceptor_.join();
    ResetAll();
    for (auto& c : connections_) {
      if (c->thread.joinable()) c->thread.join();
    }
  }
  TcpProxy(const TcpProxy&) = delete;
  TcpProxy& operator=(const TcpProxy&) = delete;

  bool ok() const { return port_ != 0; }
  int port() const { return port_; }
  std::string address() const { return absl::StrCat("127.0.0.1:", port_); }
  // Connections accepted so far.
  int accepted() const { return accepted_.load(); }

  // Resets every current connection (RST both ways) and returns once they are all closed. New
  // connections are accepted as before; replies flow again (the hold ends).
  void ResetAll() {
    std::unique_lock<std::mutex> lock(mu_);
    std::vector<Connection*> flagged;
    for (auto& c : connections_) {
      if (c->done) continue;
      c->reset.store(true);
      flagged.push_back(c.get());
    }
    cv_.wait(lock, [&] {
      for (Connection* c : flagged) {
        if (!c->done) return false;
      }
      return true;
    });
    hold_replies_.store(false);
  }
  // Stops reading from the target: its replies stay unread (in its socket buffers) until ResetAll.
  void HoldReplies() { hold_replies_.store(true); }
  // Each connection accepted from now on gets the target's replies only `delay` after it was
  // accepted (what the client sends goes through at once): a server that is slow to answer every
  // new connection, as one starved of CPU is.
  void AnswerNewConnectionsAfter(std::chrono::milliseconds delay) { answer_delay_.store(delay); }
  // A silent partition until Heal: the kernel drops every new connection's SYN (the proxy stops
  // accepting and its accept queue is kept full), so a client's connect() sees no answer and
  // retries on its own schedule (1, 3, 7, 15 s ...); current connections forward nothing either
  // way. Returns false if the partition could not be set up.
  bool BlackHole() {
    std::unique_lock<std::mutex> lock(mu_);
    if (listen_fd_ < 0 || filler_fd_ >= 0) return false;
    blackholed_.store(true);
    // The acceptor must not take the filler below off the queue: wait until it has seen the flag.
    cv_.wait(lock, [&] { return acceptor_paused_ || listen_fd_ < 0; });
    if (listen_fd_ < 0) return false;
    // A backlog of 0 lets one connection wait in the accept queue; the filler takes that place, so
    // every SYN after it is dropped (tcp_abort_on_overflow is 0 by default: no reset is sent).
    if (listen(listen_fd_, 0) != 0) return false;
    filler_fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr = Loopback(port_);
    return filler_fd_ >= 0 &&
           connect(filler_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  }
  // Ends the partition: the queue is drained and accepting resumes, so the next SYN a client
  // retransmits is answered; current connections forward again.
  void Heal() {
    std::lock_guard<std::mutex> lock(mu_);
    if (!blackholed_.load()) return;
    if (listen_fd_ >= 0) {
      listen(listen_fd_, 64);
      if (filler_fd_ >= 0) {
        const int queued = accept(listen_fd_, nullptr, nullptr);  // the filler's server side
        if (queued >= 0) close(queued);
      }
    }
    if (filler_fd_ >= 0) close(filler_fd_);
    filler_fd_ = -1;
    blackholed_.store(false);
  }
  // Stops accepting: new connections are refused. Current ones are reset.
  void Refuse() {
    if (refusing_.exchange(true)) return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      // The acceptor polls with a timeout and sees the flag; closing here makes connect() fail at
      // once.
      if (listen_fd_ >= 0) shutdown(listen_fd_, SHUT_RDWR);
    }
    ResetAll();
  }

 private:
  struct Connection {
    int client_fd = -1;
    int target_fd = -1;
    std::atomic<bool> reset{false};
    std::chrono::steady_clock::time_point answer_from;  // the target's replies held until then
    bool done = false;                                  // guarded by mu_
    std::thread thread;
  };

  static sockaddr_in Loopback(int port) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    return addr;
  }

  void AcceptLoop() {
    while (!stopping_.load() && !refusing_.load()) {
      {
        // Checked and acknowledged under the lock BlackHole sets the flag under, so the acceptor
        // never accepts once BlackHole went on to fill the queue.
        std::unique_lock<std::mutex> lock(mu_);
        acceptor_paused_ = blackholed_.load();
        if (acceptor_paused_) {
          lock.unlock();
          cv_.notify_all();
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          continue;
        }
      }
      pollfd p{listen_fd_, POLLIN, 0};
      if (poll(&p, 1, 20) <= 0) continue;
      const int client = accept(listen_fd_, nullptr, nullptr);
      if (client < 0) continue;
      const int target = socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in addr = Loopback(target_port_);
      if (target < 0 || connect(target, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
        Abort(client);
        if (target >= 0) close(target);
        continue;
      }
      ++accepted_;
      std::lock_guard<std::mutex> lock(mu_);
      if (refusing_.load()) {
        Abort(client);
        Abort(target);
        continue;
      }
      auto c = std::make_unique<Connection>();
      c->client_fd = client;
      c->target_fd = target;
      c->answer_from = std::chrono::steady_clock::now() + answer_delay_.load();
      Connection* raw = c.get();
      c->thread = std::thread([this, raw] { Pump(*raw); });
      connections_.push_back(std::move(c));
    }
    std::lock_guard<std::mutex> lock(mu_);
    close(listen_fd_);
    listen_fd_ = -1;
    if (filler_fd_ >= 0) close(filler_fd_);
    filler_fd_ = -1;
    cv_.notify_all();
  }

  // Closes with an RST (SO_LINGER 0).
  static void Abort(int fd) {
    linger l{1, 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
    close(fd);
  }

  static bool Forward(int from, int to) {
    char buf[65536];
    const ssize_t n = read(from, buf, sizeof(buf));
    if (n <= 0) return false;
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = write(to, buf + done, static_cast<size_t>(n - done));
      if (w <= 0) return false;
      done += w;
    }
    return true;
  }

  void Pump(Connection& c) {
    bool open = true;
    while (open && !c.reset.load()) {
      pollfd p[2] = {{c.client_fd, POLLIN, 0}, {c.target_fd, POLLIN, 0}};
      if (blackholed_.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        continue;
      }
      const bool hold = hold_replies_.load() || std::chrono::steady_clock::now() < c.answer_from;
      if (poll(p, hold ? 1 : 2, 20) <= 0) continue;
      if (p[0].revents != 0) open = Forward(c.client_fd, c.target_fd);
      if (open && !hold && p[1].revents != 0) open = Forward(c.target_fd, c.client_fd);
    }
    if (c.reset.load()) {
      Abort(c.client_fd);
      Abort(c.target_fd);
    } else {
      close(c.client_fd);
      close(c.target_fd);
    }
    std::lock_guard<std::mutex> lock(mu_);
    c.done = true;
    cv_.notify_all();
  }

  const int target_port_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> refusing_{false};
  std::atomic<bool> hold_replies_{false};
  std::atomic<bool> blackholed_{false};
  bool acceptor_paused_ = false;  // guarded by mu_: the acceptor saw blackholed_ and stopped
  int filler_fd_ = -1;            // guarded by mu_: the connection that keeps the queue full
  std::atomic<std::chrono::milliseconds> answer_delay_{std::chrono::milliseconds(0)};
  std::atomic<int> accepted_{0};
  std::thread acceptor_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::list<std::unique_ptr<Connection>> connections_;
};

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_TCP_PROXY_H_

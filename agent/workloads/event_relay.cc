#include "agent/workloads/event_relay.h"

#include <utility>

namespace azbench {

EventRelay::EventRelay() : thread_([this] { Loop(); }) {}

EventRelay::~EventRelay() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  posted_.notify_one();
  thread_.join();
}

void EventRelay::Post(std::function<void()> deliver) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(deliver));
    ++posted_count_;
  }
  posted_.notify_one();
}

void EventRelay::Drain() {
  std::unique_lock<std::mutex> lock(mu_);
  const uint64_t target = posted_count_;
  delivered_.wait(lock, [&] { return delivered_count_ >= target; });
}

void EventRelay::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    posted_.wait(lock, [&] { return !queue_.empty() || stopping_; });
    if (queue_.empty()) return;  // stopping, and everything delivered
    std::function<void()> deliver = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    deliver();
    lock.lock();
    ++delivered_count_;
    delivered_.notify_all();
  }
}

}  // namespace azbench

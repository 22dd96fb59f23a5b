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

RunControl RelayedControl(const RunControl& control, EventRelay& relay) {
  RunControl relayed = control;
  if (control.on_interval) {
    relayed.on_interval = [&relay, &control](const IntervalOrigin& origin,
                                             const IntervalStats& interval) {
      // IntervalOrigin refers to the caller's result name: the relay keeps its own copy.
      relay.Post([&control, name = origin.result_name, clone = origin.clone,
                  series_start_ns = origin.series_start_realtime_ns, interval] {
        control.on_interval(IntervalOrigin{name, clone, series_start_ns}, interval);
      });
    };
  }
  if (control.on_op_log) {
    relayed.on_op_log = [&relay, &control](int clone, std::vector<OpRecord>&& records) {
      relay.Post([&control, clone, records = std::move(records)]() mutable {
        control.on_op_log(clone, std::move(records));
      });
    };
  }
  return relayed;
}

}  // namespace azbench

#include "agent/workloads/event_relay.h"

#include <utility>

namespace azbench {

EventRelay::EventRelay(uint64_t max_queued_bytes)
    : max_queued_bytes_(max_queued_bytes), thread_([this] { Loop(); }) {}

EventRelay::~EventRelay() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  posted_.notify_one();
  thread_.join();
}

void EventRelay::Post(std::function<void()> deliver, uint64_t bytes) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    delivered_.wait(lock,
                    [&] { return queue_.empty() || queued_bytes_ + bytes <= max_queued_bytes_; });
    queue_.emplace_back(std::move(deliver), bytes);
    queued_bytes_ += bytes;
    ++posted_count_;
  }
  posted_.notify_one();
}

uint64_t EventRelay::queued_bytes() {
  std::lock_guard<std::mutex> lock(mu_);
  return queued_bytes_;
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
    auto [deliver, bytes] = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    deliver();
    lock.lock();
    queued_bytes_ -= bytes;
    ++delivered_count_;
    delivered_.notify_all();
  }
}

namespace {
// An interval's size in the queue: its histograms, counted as dense (58 KiB each, the most).
constexpr uint64_t kIntervalBytes = uint64_t{kOpKindCount} * 60 * 1024;
}  // namespace

RunControl RelayedControl(const RunControl& control, EventRelay& relay) {
  RunControl relayed = control;
  if (control.on_interval) {
    relayed.on_interval = [&relay, &control](const IntervalOrigin& origin,
                                             const IntervalStats& interval) {
      // IntervalOrigin refers to the caller's result name: the relay keeps its own copy.
      relay.Post(
          [&control, name = origin.result_name, clone = origin.clone,
           series_start_ns = origin.series_start_realtime_ns, interval] {
            control.on_interval(IntervalOrigin{name, clone, series_start_ns}, interval);
          },
          kIntervalBytes);
    };
  }
  if (control.on_op_log) {
    relayed.on_op_log = [&relay, &control](int clone, std::vector<OpRecord>&& records) {
      const uint64_t bytes = records.size() * sizeof(OpRecord);
      relay.Post(
          [&control, clone, records = std::move(records)]() mutable {
            control.on_op_log(clone, std::move(records));
          },
          bytes);
    };
  }
  return relayed;
}

}  // namespace azbench

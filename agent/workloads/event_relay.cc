#include "agent/workloads/event_relay.h"

#include <utility>

namespace azbench {

EventRelay::EventRelay(uint64_t max_queued_bytes)
    : max_queued_bytes_(max_queued_bytes), thread_([this] { Loop(); }) {}

EventRelay::~EventRelay() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  thread_.join();
}

void EventRelay::Post(std::function<void()> deliver, uint64_t bytes) {
  absl::MutexLock lock(&mu_);
  auto room = [this, bytes]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return queue_.empty() || queued_bytes_ + bytes <= max_queued_bytes_;
  };
  mu_.Await(absl::Condition(&room));
  queue_.emplace_back(std::move(deliver), bytes);
  queued_bytes_ += bytes;
  ++posted_count_;
}

uint64_t EventRelay::queued_bytes() {
  absl::MutexLock lock(&mu_);
  return queued_bytes_;
}

void EventRelay::Drain() {
  absl::MutexLock lock(&mu_);
  const uint64_t target = posted_count_;
  auto delivered = [this, target]()
                       ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return delivered_count_ >= target; };
  mu_.Await(absl::Condition(&delivered));
}

void EventRelay::Loop() {
  absl::MutexLock lock(&mu_);
  auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return !queue_.empty() || stopping_; };
  for (;;) {
    mu_.Await(absl::Condition(&ready));
    if (queue_.empty()) return;  // stopping, and everything delivered
    auto [deliver, bytes] = std::move(queue_.front());
    queue_.pop_front();
    // Delivery may block (a gRPC write): Post and Drain go on meanwhile.
    mu_.Unlock();
    deliver();
    mu_.Lock();
    queued_bytes_ -= bytes;
    ++delivered_count_;
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

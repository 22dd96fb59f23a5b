// EventRelay: hands a job's events (closed intervals, op-log batches) from the threads that time
// I/O to one thread of its own, which delivers them in the order they were posted.
//
// The events go to the coordinator's stream (a gRPC write that blocks while the connection is
// slow or congested) or to op-log files. Delivered on a job thread, that wait would stop its I/O:
// requests completing meanwhile are reaped, and stamped, only when the write returns, so their
// latency would include it. With the relay a job thread only moves the event into a queue.
//
// Example (a job's Run):
//   EventRelay relay;
//   const RunControl job_control = RelayedControl(control, relay);  // for the job's threads
//   ... run the threads with job_control, join them ...
//   relay.Drain();  // every posted event delivered; more may be posted afterwards
#ifndef AZBENCH_AGENT_WORKLOADS_EVENT_RELAY_H_
#define AZBENCH_AGENT_WORKLOADS_EVENT_RELAY_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "agent/workloads/run_control.h"

namespace azbench {

class EventRelay {
 public:
  // What the queue may hold before Post waits for deliveries: a stream stalled for good must not
  // grow the agent's memory without bound (op-log batches reach hundreds of KiB each).
  static constexpr uint64_t kDefaultMaxQueuedBytes = uint64_t{256} << 20;

  explicit EventRelay(uint64_t max_queued_bytes = kDefaultMaxQueuedBytes);
  // Delivers what is still queued, then stops the thread.
  ~EventRelay();
  EventRelay(const EventRelay&) = delete;
  EventRelay& operator=(const EventRelay&) = delete;

  // Queues `deliver`, whose event holds about `bytes`, to run on the relay's thread after
  // everything posted before it. Returns at once, unless the queue already holds
  // max_queued_bytes: then it waits until deliveries make room (an event is always taken into an
  // empty queue).
  void Post(std::function<void()> deliver, uint64_t bytes = 0);
  // Returns once every event posted before the call has been delivered.
  void Drain();
  // What the queue holds now (tests).
  uint64_t queued_bytes();

 private:
  void Loop();

  absl::Mutex mu_;
  // (delivery, bytes)
  std::deque<std::pair<std::function<void()>, uint64_t>> queue_ ABSL_GUARDED_BY(mu_);
  const uint64_t max_queued_bytes_;
  uint64_t queued_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t posted_count_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t delivered_count_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;  // last: starts once the members above exist
};

// `control` with its on_interval and on_op_log posted to `relay` instead of called: the job's
// threads hand their events over and go on. `control` and `relay` must outlive the returned
// control's use; the job drains the relay before it returns the results (RunControl's contract:
// every interval a result holds was delivered first).
RunControl RelayedControl(const RunControl& control, EventRelay& relay);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_EVENT_RELAY_H_

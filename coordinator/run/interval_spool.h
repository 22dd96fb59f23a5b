// Writes streamed intervals into the results database while a scenario runs, so the coordinator's
// memory is bounded by histogram buckets and this queue, not by run length x agents.
//
// Every agent's stream thread calls Add (an IntervalSink): the interval is appended to an
// in-memory queue under a mutex and the thread returns to its stream; one writer thread, with its
// own SQLite connection (Store), commits the queue in one transaction whenever it holds
// `batch_intervals` intervals or `flush_every` has passed (staged_interval, store.h). No stream
// thread waits for the disk, and one slow agent holds no other, unless the disk falls so far
// behind that the queue reaches `max_queued_intervals`: then Add waits until the writer took the
// queue (every agent equally; memory stays bounded).
//
// A write error is kept (Finish returns it) and later intervals are dropped rather than queued,
// so a full disk cannot grow memory either. What was committed before a crash stays in
// staged_interval; Store::SaveScenario of the same key removes it (store.h).
//
// Example (coordinator/run/run.cc):
//   ASSIGN_OR_RETURN(std::unique_ptr<IntervalSpool> spool,
//                    IntervalSpool::Open(db_path, scenario.key));
//   AgentStream stream(offset_ns, interval_ns, /*fold_latency=*/true, spool.get(), agent_id);
//   ...  // stream threads feed their AgentStream
//   RETURN_IF_ERROR(spool->Finish());
//   result.staged_stream_id = spool->stream_id();
#ifndef AZBENCH_COORDINATOR_RUN_INTERVAL_SPOOL_H_
#define AZBENCH_COORDINATOR_RUN_INTERVAL_SPOOL_H_

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "coordinator/staged_interval.h"
#include "coordinator/store/store.h"

namespace azbench {

struct SpoolOptions {
  size_t batch_intervals = 4096;
  absl::Duration flush_every = absl::Seconds(1);
  size_t max_queued_intervals = 16384;
};

class IntervalSpool : public IntervalSink {
 public:
  // Opens `db_path` (which must hold a campaign: Store::BeginCampaign) on its own connection and
  // begins staging an attempt of `scenario_key`.
  static absl::StatusOr<std::unique_ptr<IntervalSpool>> Open(const std::string& db_path,
                                                             const std::string& scenario_key,
                                                             SpoolOptions options = {});
  ~IntervalSpool() override;  // Finish, ignoring its status
  IntervalSpool(const IntervalSpool&) = delete;
  IntervalSpool& operator=(const IntervalSpool&) = delete;

  void Add(StagedInterval interval) override;

  // Commits what is queued, stops the writer and returns the first write error. Add must not be
  // called afterwards. Idempotent.
  absl::Status Finish();

  int64_t stream_id() const { return stream_id_; }
  // For tests: intervals queued now and at most so far, and intervals committed.
  size_t queued() const;
  size_t max_queued() const;
  uint64_t committed() const;

 private:
  IntervalSpool(std::unique_ptr<Store> store, int64_t stream_id, SpoolOptions options);
  void WriterLoop();

  std::unique_ptr<Store> store_;  // the writer thread's only (then Finish's)
  const int64_t stream_id_;
  const SpoolOptions options_;
  mutable std::mutex mu_;
  std::condition_variable wake_writer_;  // a batch is full, or stop
  std::condition_variable room_;         // the writer took the queue
  std::vector<StagedInterval> queue_;
  size_t max_queued_ = 0;
  uint64_t committed_ = 0;
  bool stop_ = false;
  bool finished_ = false;
  absl::Status error_;
  std::thread writer_;
};

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_RUN_INTERVAL_SPOOL_H_

// Writes streamed intervals into their final interval rows while a scenario runs, so the
// coordinator's memory is bounded by histogram buckets and this queue, not by run length x agents,
// and storing the scenario at the end copies nothing.
//
// Every agent's stream thread calls Add (an IntervalSink): the interval is appended to an
// in-memory queue under a mutex and the thread returns to its stream; one writer thread, with its
// own SQLite connection (Store), commits the queue in one transaction whenever it holds
// `batch_intervals` intervals or `flush_every` has passed (Store::StageIntervals: clones of one
// job are summed into one row there). No stream thread waits for the disk, and one slow agent
// holds no other, unless the disk falls so far behind that the queue reaches
// `max_queued_intervals`: then Add waits until the writer took the queue (every agent equally;
// memory stays bounded).
//
// The rows belong to an attempt of the scenario (Store::BeginStaging) that no reader sees until
// Store::SaveScenario makes it the stored scenario. A write error is kept (Finish returns it) and
// later intervals are dropped rather than queued, so a full disk cannot grow memory either. What
// was committed before a crash stays in the file as that attempt; saving the same key deletes it
// (store.h).
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

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
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
  // begins an attempt of `scenario_key`.
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
  mutable absl::Mutex mu_;
  // Add waits on HasRoom, the writer on BatchReadyOrStop (Mutex::Await: no condition variables).
  bool HasRoom() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return queue_.size() < options_.max_queued_intervals || stop_;
  }
  bool BatchReadyOrStop() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return stop_ || queue_.size() >= options_.batch_intervals;
  }
  std::vector<StagedInterval> queue_ ABSL_GUARDED_BY(mu_);
  size_t max_queued_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t committed_ ABSL_GUARDED_BY(mu_) = 0;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  absl::Status error_ ABSL_GUARDED_BY(mu_);
  std::thread writer_;
};

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_RUN_INTERVAL_SPOOL_H_

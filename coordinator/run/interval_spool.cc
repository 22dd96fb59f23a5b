#include "coordinator/run/interval_spool.h"

#include <algorithm>
#include <utility>

#include "common/status_macros.h"

namespace azbench {

absl::StatusOr<std::unique_ptr<IntervalSpool>> IntervalSpool::Open(const std::string& db_path,
                                                                   const std::string& scenario_key,
                                                                   SpoolOptions options) {
  ASSIGN_OR_RETURN(std::unique_ptr<Store> store, Store::Open(db_path));
  ASSIGN_OR_RETURN(int64_t stream_id, store->BeginStaging(scenario_key));
  options.batch_intervals = std::max<size_t>(1, options.batch_intervals);
  options.max_queued_intervals = std::max(options.max_queued_intervals, options.batch_intervals);
  return std::unique_ptr<IntervalSpool>(new IntervalSpool(std::move(store), stream_id, options));
}

IntervalSpool::IntervalSpool(std::unique_ptr<Store> store, int64_t stream_id, SpoolOptions options)
    : store_(std::move(store)), stream_id_(stream_id), options_(options) {
  queue_.reserve(options_.batch_intervals);
  writer_ = std::thread([this] { WriterLoop(); });
}

IntervalSpool::~IntervalSpool() { Finish().IgnoreError(); }

void IntervalSpool::Add(StagedInterval interval) {
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(this, &IntervalSpool::HasRoom));
  if (!error_.ok() || stop_) return;  // dropped: the error is reported by Finish
  queue_.push_back(std::move(interval));
  max_queued_ = std::max(max_queued_, queue_.size());
}

void IntervalSpool::WriterLoop() {
  std::vector<StagedInterval> batch;
  while (true) {
    bool stopping;
    {
      absl::MutexLock lock(&mu_);
      mu_.AwaitWithTimeout(absl::Condition(this, &IntervalSpool::BatchReadyOrStop),
                           options_.flush_every);
      stopping = stop_;
      batch.swap(queue_);
      queue_.reserve(options_.batch_intervals);
    }  // unlocking wakes the Adds waiting for room
    if (!batch.empty()) {
      absl::Status status = store_->StageIntervals(stream_id_, batch);
      absl::MutexLock lock(&mu_);
      if (status.ok()) {
        committed_ += batch.size();
      } else if (error_.ok()) {
        error_ = status;
      }
    }
    batch.clear();
    batch.shrink_to_fit();  // an idle spool holds nothing
    if (stopping) {
      absl::MutexLock lock(&mu_);
      if (queue_.empty()) return;
    }
  }
}

absl::Status IntervalSpool::Finish() {
  {
    absl::MutexLock lock(&mu_);
    if (finished_) return error_;
    finished_ = true;
    stop_ = true;
  }
  writer_.join();
  absl::MutexLock lock(&mu_);
  return error_;
}

size_t IntervalSpool::queued() const {
  absl::MutexLock lock(&mu_);
  return queue_.size();
}

size_t IntervalSpool::max_queued() const {
  absl::MutexLock lock(&mu_);
  return max_queued_;
}

uint64_t IntervalSpool::committed() const {
  absl::MutexLock lock(&mu_);
  return committed_;
}

}  // namespace azbench

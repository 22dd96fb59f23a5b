#include "coordinator/run/interval_spool.h"

#include <algorithm>
#include <chrono>
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
  std::unique_lock<std::mutex> lock(mu_);
  room_.wait(lock, [&] { return queue_.size() < options_.max_queued_intervals || stop_; });
  if (!error_.ok() || stop_) return;  // dropped: the error is reported by Finish
  queue_.push_back(std::move(interval));
  max_queued_ = std::max(max_queued_, queue_.size());
  if (queue_.size() >= options_.batch_intervals) wake_writer_.notify_one();
}

void IntervalSpool::WriterLoop() {
  std::vector<StagedInterval> batch;
  while (true) {
    bool stopping;
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_writer_.wait_for(lock, absl::ToChronoMilliseconds(options_.flush_every),
                            [&] { return stop_ || queue_.size() >= options_.batch_intervals; });
      stopping = stop_;
      batch.swap(queue_);
      queue_.reserve(options_.batch_intervals);
    }
    room_.notify_all();
    if (!batch.empty()) {
      absl::Status status = store_->StageIntervals(stream_id_, batch);
      std::lock_guard<std::mutex> lock(mu_);
      if (status.ok()) {
        committed_ += batch.size();
      } else if (error_.ok()) {
        error_ = status;
      }
    }
    batch.clear();
    batch.shrink_to_fit();  // an idle spool holds nothing
    if (stopping) {
      std::lock_guard<std::mutex> lock(mu_);
      if (queue_.empty()) return;
    }
  }
}

absl::Status IntervalSpool::Finish() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (finished_) return error_;
    finished_ = true;
    stop_ = true;
  }
  wake_writer_.notify_one();
  room_.notify_all();
  writer_.join();
  std::lock_guard<std::mutex> lock(mu_);
  return error_;
}

size_t IntervalSpool::queued() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size();
}

size_t IntervalSpool::max_queued() const {
  std::lock_guard<std::mutex> lock(mu_);
  return max_queued_;
}

uint64_t IntervalSpool::committed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return committed_;
}

}  // namespace azbench

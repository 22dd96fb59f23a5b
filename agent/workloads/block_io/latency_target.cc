#include "agent/workloads/block_io/latency_target.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"

namespace azbench {

LatencyTargetOptions LatencyTargetOptionsOf(const JobSpec& spec) {
  LatencyTargetOptions options;
  options.target_ns = static_cast<uint64_t>(absl::ToInt64Nanoseconds(spec.latency_target));
  options.window_ns = static_cast<uint64_t>(absl::ToInt64Nanoseconds(spec.latency_window));
  options.percentile = spec.latency_percentile;
  options.run = spec.latency_run;
  options.iodepth = spec.iodepth;
  return options;
}

LatencyTargetSearch::LatencyTargetSearch(const LatencyTargetOptions& options, uint64_t now_ns)
    : options_(options) {
  options_.iodepth = std::max(1, options_.iodepth);
  Restart(now_ns);
}

void LatencyTargetSearch::Restart(uint64_t now_ns) {
  if (final_run_) return;
  depth_ = 1;
  low_ = 1;
  high_ = options_.iodepth;
  NewCycle(now_ns);
}

void LatencyTargetSearch::NewCycle(uint64_t now_ns) {
  window_start_ns_ = now_ns;
  ios_ = 0;
  failed_ = 0;
}

void LatencyTargetSearch::Turn(uint64_t now_ns, bool idle, bool windows) {
  if (!draining_ && windows) (void)Check(now_ns);
  if (draining_ && idle) {
    draining_ = false;
    NewCycle(now_ns);
  }
}

LatencyTargetSearch::Action LatencyTargetSearch::OnCompletion(uint64_t latency_ns) {
  ++ios_;
  if (latency_ns <= options_.target_ns) return Action::kNone;
  // Percentile 100 tolerates no completion over the target: the depth drops at once.
  if (options_.percentile == 100.0) return Failed();
  ++failed_;
  return Action::kNone;
}

std::string LatencyTargetSearch::FatalMessage(std::string_view op, uint64_t latency_ns) const {
  return absl::StrCat("latency_target: a ", std::string(op), " took ", latency_ns,
                      " ns at queue depth 1, over the target of ", options_.target_ns, " ns");
}

LatencyTargetSearch::Action LatencyTargetSearch::Check(uint64_t now_ns) {
  // fio measures the window in whole microseconds.
  const uint64_t elapsed_us = now_ns > window_start_ns_ ? (now_ns - window_start_ns_) / 1000 : 0;
  if (elapsed_us < options_.window_ns / 1000) return Action::kNone;
  // With no completion fio's share is 0/0, which no percentile is below: the window fails.
  const double within_percent =
      ios_ == 0 ? -1.0 : static_cast<double>(ios_ - failed_) / static_cast<double>(ios_) * 100.0;
  if (within_percent >= options_.percentile) return Passed(now_ns);
  const Action action = Failed();
  if (action == Action::kFatal) return Action::kNone;  // a window at depth 1 fails nothing
  NewCycle(now_ns);
  return action;
}

LatencyTargetSearch::Action LatencyTargetSearch::Failed() {
  if (depth_ == 1) return Action::kFatal;
  high_ = depth_;
  if (depth_ == low_) --low_;
  depth_ = (depth_ + low_) / 2;
  stable_count_ = 0;
  draining_ = true;  // the deeper queue's ops still out would fail the next window too
  ios_ = 0;
  failed_ = 0;
  return Action::kRampedDown;
}

LatencyTargetSearch::Action LatencyTargetSearch::Passed(uint64_t now_ns) {
  const int was = depth_;
  low_ = depth_;
  // A depth just below the high bound cannot rise by bisection: three passes in a row there
  // raise the bound by one, so a bound set by one bad window does not hold for ever.
  if (depth_ + 1 == high_ && ++stable_count_ >= 3) {
    ++high_;
    stable_count_ = 0;
  }
  // While the high bound is iodepth (no failure below it) the depth doubles; else it bisects.
  depth_ = high_ != options_.iodepth ? (depth_ + high_) / 2 : depth_ * 2;
  depth_ = std::min(depth_, options_.iodepth);
  Action action = Action::kRampedUp;
  if (!options_.run && depth_ == was) {
    if (final_run_) {
      done_ = true;
      return Action::kDone;
    }
    final_run_ = true;
    draining_ = true;  // the last window counts only ops issued at the depth found
    action = Action::kFinalRun;
  }
  NewCycle(now_ns);
  return action;
}

}  // namespace azbench

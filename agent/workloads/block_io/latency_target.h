// fio's latency_target search (latency_target, latency_window, latency_percentile, latency_run):
// the highest queue depth at which latency_percentile percent of a window's reads and writes take
// at most latency_target (total latency, from the op's start to its completion), found as fio
// 3.33 finds it. The clone's job loop feeds it completions and asks it at every turn; it says the
// depth the loop may keep in flight and when the loop must drain its queue first.
//
//   LatencyTargetSearch search(LatencyTargetOptionsOf(spec), now_ns);
//   search.OnCompletion(latency_ns);  // each read or write
//   search.Turn(now_ns, idle, windows);  // each turn; issue while search.MayIssue(in_flight)
//
// The search starts at depth 1 with the bounds [1, iodepth]. At the end of each window (the first
// check latency_window or more after the window began) the window passes when the share of its
// completions within the target is at least latency_percentile. A pass makes the depth the low
// bound and doubles it while the high bound is iodepth (as before any failure), else bisects
// towards the high bound; a depth just below the high bound that passes three windows running
// raises that bound by one. A failure makes the depth the high bound and bisects towards the low
// bound (lowering the low bound first when they meet), then drains the queue. With percentile
// 100 a failure needs no window: one completion over the target is one, at once. Without
// latency_run, a pass that leaves the depth where it was starts one last window at that depth
// (after a drain), and the pass after it ends the job. At depth 1 a failed window changes
// nothing, but with percentile 100 a completion over the target is the job's error (kFatal).
// A window without completions fails, as fio's share of zero completions is not a number.
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_LATENCY_TARGET_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_LATENCY_TARGET_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/job_spec.h"

namespace azbench {

struct LatencyTargetOptions {
  uint64_t target_ns = 0;  // > 0
  uint64_t window_ns = 0;  // 0: every check ends a window
  double percentile = 100.0;
  bool run = false;  // latency_run: keep searching for the whole run
  int iodepth = 1;
};

// The job's options (spec.latency_target > 0).
LatencyTargetOptions LatencyTargetOptionsOf(const JobSpec& spec);

class LatencyTargetSearch {
 public:
  enum class Action {
    kNone,        // nothing changed (the window goes on)
    kRampedUp,    // a new window began at this depth or deeper; no drain
    kRampedDown,  // a shallower depth: drain the queue, then NewCycle
    kFinalRun,    // the last window at the depth found: drain, then NewCycle
    kDone,        // the depth is found: the job ends
    kFatal,       // percentile 100 at depth 1: a completion over the target fails the job
  };

  LatencyTargetSearch(const LatencyTargetOptions& options, uint64_t now_ns);

  // fio restarts the search when it resets its statistics at the end of ramp_time, unless the
  // last window already runs.
  void Restart(uint64_t now_ns);

  // One completed read or write (not an fsync, not a failed op) and its total latency.
  Action OnCompletion(uint64_t latency_ns);

  // At a turn of the job loop (not while it drains): ends the window when it is due.
  Action Check(uint64_t now_ns);

  // Begins a window: after the drain that kRampedDown and kFinalRun ask for.
  void NewCycle(uint64_t now_ns);

  // The job loop's side. At each turn of the loop: ends a window when due (`windows` false during
  // ramp_time, where fio checks none) and, once nothing is in flight, ends a drain that
  // OnCompletion or a window asked for with a new window.
  void Turn(uint64_t now_ns, bool idle, bool windows);
  // Whether the loop may issue one more op with `in_flight` ops out.
  bool MayIssue(int in_flight) const { return !draining_ && !done_ && in_flight < depth_; }
  bool done() const { return done_; }
  // The job's error after kFatal: which op took how long.
  std::string FatalMessage(std::string_view op, uint64_t latency_ns) const;

  // The depth the job may keep in flight, 1..iodepth: fio's latency_depth in the results.
  int depth() const { return depth_; }
  int low() const { return low_; }
  int high() const { return high_; }
  bool final_run() const { return final_run_; }

 private:
  Action Failed();
  Action Passed(uint64_t now_ns);

  LatencyTargetOptions options_;
  int depth_ = 1;
  int low_ = 1;
  int high_ = 1;
  int stable_count_ = 0;  // passes in a row at high_ - 1
  bool final_run_ = false;
  bool draining_ = false;
  bool done_ = false;
  uint64_t window_start_ns_ = 0;
  uint64_t ios_ = 0;     // completions in the window
  uint64_t failed_ = 0;  // of which over the target (percentile below 100 only)
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_LATENCY_TARGET_H_

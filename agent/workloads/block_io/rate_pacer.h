// When a rated clone may issue its next op: fio's rate, rate_iops and rate_process, per direction.
//
// Each rated direction keeps its own schedule from the clone's first op. Linear: the op after n
// bytes may start n / rate seconds in, so a late op is caught up on, never skipped. Poisson: the
// gaps are exponential with mean (smallest bs) / rate, drawn from the clone's seed. A mixed job
// issues the direction the mix chose if its time has come, else the other one if that one's has (an
// unrated direction's always has), else waits for the earlier of the two, as fio's rate_ddir does.
//
//   RatePacer pacer(spec, seed);
//   RatePacer::Turn turn = pacer.Next(/*dir=*/0, now_ns);  // sleep until turn.start_ns
//   pacer.Issued(turn.dir, length_bytes);
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_RATE_PACER_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_RATE_PACER_H_

#include <array>
#include <cstdint>

#include "agent/workloads/offset_generator.h"
#include "common/job_spec.h"

namespace azbench {

class RatePacer {
 public:
  RatePacer(const JobSpec& spec, uint64_t seed);

  // Whether any direction is rated; an unrated clone need not ask.
  bool active() const { return active_; }

  struct Turn {
    int dir;            // 0 read, 1 write
    uint64_t start_ns;  // not before this instant (op clock); <= now: at once
  };
  // The direction to issue next, given the one the mix chose (`wanted`), at `now_ns`.
  Turn Next(int wanted, uint64_t now_ns);
  // An op of direction `dir` and `bytes` was issued: its schedule moves on by that op.
  void Issued(int dir, uint64_t bytes);
  // fio's rate_ignore_thinktime: the clone thought for `think_ns` after an op of `dir`. That
  // direction's schedule moves on by it, less one op's gap so that the next op goes at once,
  // instead of catching up on the time after it.
  void SkipThinkTime(int dir, uint64_t think_ns);

 private:
  bool active_ = false;
  bool mixed_ = false;
  bool poisson_ = false;
  std::array<uint64_t, 2> bytes_per_s_ = {0, 0};  // 0: the direction is not rated
  std::array<double, 2> mean_gap_ns_ = {0, 0};    // poisson
  std::array<uint64_t, 2> issued_bytes_ = {0, 0};
  std::array<uint64_t, 2> next_ns_ = {0, 0};     // from epoch_ns_
  std::array<uint64_t, 2> skipped_ns_ = {0, 0};  // linear: think time the schedule moved on by
  uint64_t epoch_ns_ = 0;                        // the first op's instant; 0 before it
  Rng rng_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_RATE_PACER_H_

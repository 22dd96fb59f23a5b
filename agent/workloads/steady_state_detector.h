// fio 3.33's steady-state test over a rolling window of one-second samples, with fio's arithmetic
// (integer sums, the slope's equally spaced x = 0 .. n-1, a percentage of the integer mean).
//
// Each Add() stores a sample. Once the window holds ss_dur samples, every Add judges the window:
//   iops / bw:              the largest |sample - mean|, with "%": 100 x that / mean
//   iops_slope / bw_slope:  the least-squares slope per second, with "%": 100 x slope / mean
// and answers true (attained) when that criterion (its absolute value, for a slope) is below the
// limit. After attainment the detector takes no more samples.
//
//   SteadyStateDetector detector(spec);           // spec.enabled()
//   if (detector.Add(iops, bw_bytes_per_s)) EndTheJob();
//   SteadyStateResult result = detector.Result();
#ifndef AZBENCH_AGENT_WORKLOADS_STEADY_STATE_DETECTOR_H_
#define AZBENCH_AGENT_WORKLOADS_STEADY_STATE_DETECTOR_H_

#include <cstdint>
#include <vector>

#include "common/steady_state.h"

namespace azbench {

class SteadyStateDetector {
 public:
  explicit SteadyStateDetector(const SteadyStateSpec& spec);

  // One second's IOPS and bandwidth (bytes/s). True when the window is steady; further samples
  // are then ignored.
  bool Add(uint64_t iops, uint64_t bw_bytes_per_s);
  bool attained() const { return attained_; }
  // The window in fio's JSON order and the last criterion.
  SteadyStateResult Result() const;

 private:
  bool Judge(uint64_t new_value);
  void Advance();
  const std::vector<uint64_t>& judged() const { return spec_.iops ? iops_ : bw_; }

  const SteadyStateSpec spec_;
  const uint64_t n_;  // window length in samples (seconds)
  // fio's ring: head is the oldest sample, tail where the next one goes.
  uint64_t head_ = 0;
  uint64_t tail_ = 0;
  std::vector<uint64_t> iops_;
  std::vector<uint64_t> bw_;
  bool full_ = false;
  bool attained_ = false;
  // Running sums over the judged samples; x runs 0 .. n-1 from the oldest.
  uint64_t sum_y_ = 0;
  uint64_t sum_xy_ = 0;
  uint64_t oldest_y_ = 0;
  const uint64_t sum_x_;
  const uint64_t sum_x_sq_;
  double criterion_ = 0;
  double deviation_ = 0;
  double slope_ = 0;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_STEADY_STATE_DETECTOR_H_

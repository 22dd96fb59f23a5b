// fio's steady-state detection, the part both sides share: the criterion a job asks for (ss,
// ss_dur, ss_ramp) and what the detector found, which the results carry.
//
// fio samples the IOPS and bandwidth of a job (or, with group_reporting, of its reporting group)
// once per second into a window of ss_dur seconds and ends the job as soon as the criterion over
// the full window falls below the limit: for iops / bw the largest distance of a sample from the
// window's mean, for iops_slope / bw_slope the least-squares slope of the samples. A limit with
// "%" is a share of the window's mean. The detector is agent/workloads/steady_state_detector.h.
//
//   SteadyStateSpec ss;
//   RETURN_IF_ERROR(ParseSteadyStateCriterion("iops:10%", /*kb_base=*/1024, ss));
#ifndef AZBENCH_COMMON_STEADY_STATE_H_
#define AZBENCH_COMMON_STEADY_STATE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"

namespace azbench {

struct SteadyStateSpec {
  bool iops = true;     // the samples judged: IOPS, else bandwidth (bytes/s)
  bool slope = true;    // the criterion: least-squares slope, else largest deviation from the mean
  bool percent = true;  // the limit is a percentage of the window's mean
  double limit = 0.01;  // fio's default, iops_slope:0.01%
  // ss_dur: the window; fio counts it in whole seconds (ss_dur=1500ms is a window of 1). Below 1 s
  // there is no steady-state detection.
  absl::Duration duration = absl::ZeroDuration();
  // ss_ramp: sampling starts one second after this much of the job's measured phase.
  absl::Duration ramp = absl::ZeroDuration();

  int64_t window_seconds() const { return absl::ToInt64Seconds(duration); }
  bool enabled() const { return window_seconds() > 0; }
  bool operator==(const SteadyStateSpec&) const = default;
};

// fio's `ss` value: iops, iops_slope, bw or bw_slope, a colon, and the limit: a number, or a
// number with "%". A bandwidth limit without "%" is in bytes/s and takes size suffixes (with
// `kb_base`), an IOPS limit is a plain number. InvalidArgument saying what is allowed.
absl::Status ParseSteadyStateCriterion(std::string_view value, int kb_base, SteadyStateSpec& spec);

// fio's test that two jobs of a reporting group judge steady state alike: both off, or the same
// criterion, limit, window (whole seconds) and ss_ramp.
bool SameSteadyState(const SteadyStateSpec& a, const SteadyStateSpec& b);

// "iops", "iops_slope", "bw" or "bw_slope".
std::string_view SteadyStateCriterionName(const SteadyStateSpec& spec);

// What the detector found when the job ended.
struct SteadyStateResult {
  SteadyStateSpec spec;
  bool attained = false;
  // The criterion's value at the last check (a percentage of the mean when spec.percent), the
  // largest deviation and the slope behind it; 0 until the window first filled.
  double criterion = 0;
  double max_deviation = 0;
  double slope = 0;
  // The window's samples, in fio's JSON order (oldest first once it filled); window_seconds() of
  // each, 0 where no sample was taken. IOPS, and bandwidth in bytes/s.
  std::vector<uint64_t> iops;
  std::vector<uint64_t> bw;

  // fio's means of the window (integer division, as fio's).
  uint64_t IopsMean() const;
  uint64_t BwMean() const;
  bool operator==(const SteadyStateResult&) const = default;
};

}  // namespace azbench

#endif  // AZBENCH_COMMON_STEADY_STATE_H_

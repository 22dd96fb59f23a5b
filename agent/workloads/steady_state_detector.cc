#include "agent/workloads/steady_state_detector.h"

#include <algorithm>
#include <cmath>

namespace azbench {

SteadyStateDetector::SteadyStateDetector(const SteadyStateSpec& spec)
    : spec_(spec),
      n_(static_cast<uint64_t>(std::max<int64_t>(spec.window_seconds(), 1))),
      iops_(n_, 0),
      bw_(n_, 0),
      sum_x_(n_ * (n_ - 1) / 2),
      sum_x_sq_((n_ - 1) * n_ * (2 * n_ - 1) / 6) {}

bool SteadyStateDetector::Add(uint64_t iops, uint64_t bw_bytes_per_s) {
  if (attained_) return true;
  iops_[tail_] = iops;
  bw_[tail_] = bw_bytes_per_s;
  const uint64_t new_value = spec_.iops ? iops : bw_bytes_per_s;
  if (full_ || tail_ - head_ == n_ - 1) {
    if (Judge(new_value)) {
      // As fio: the ring stays where it is, head on the oldest sample of the steady window.
      attained_ = true;
      return true;
    }
  }
  Advance();
  return false;
}

bool SteadyStateDetector::Judge(uint64_t new_value) {
  const std::vector<uint64_t>& y = judged();
  if (!full_) {
    // The first full window: head is 0, so slot i holds x = i.
    sum_y_ = 0;
    sum_xy_ = 0;
    for (uint64_t i = 0; i < n_; ++i) {
      sum_y_ += y[i];
      sum_xy_ += i * y[(head_ + i) % n_];
    }
    full_ = true;
  } else {
    // The window slid by one: every x drops by one and the new sample enters at x = n-1. The
    // unsigned wrap of the intermediate difference cancels out.
    sum_y_ = sum_y_ - oldest_y_ + new_value;
    sum_xy_ = sum_xy_ - sum_y_ + n_ * new_value;
  }
  oldest_y_ = y[head_];

  const double n = static_cast<double>(n_);
  if (spec_.slope) {
    // All x equally spaced one second apart, as fio assumes.
    slope_ = (static_cast<double>(sum_xy_) - static_cast<double>(sum_x_) * sum_y_ / n) /
             (static_cast<double>(sum_x_sq_) - static_cast<double>(sum_x_) * sum_x_ / n);
    // fio divides by the integer mean of the window.
    criterion_ = spec_.percent ? 100.0 * slope_ / static_cast<double>(sum_y_ / n_) : slope_;
    return std::fabs(criterion_) < spec_.limit;
  }
  const double mean = static_cast<double>(sum_y_) / n;
  deviation_ = 0;
  for (uint64_t v : y) deviation_ = std::max(deviation_, std::fabs(static_cast<double>(v) - mean));
  criterion_ = spec_.percent ? 100.0 * deviation_ / mean : deviation_;
  return criterion_ < spec_.limit;
}

void SteadyStateDetector::Advance() {
  tail_ = (tail_ + 1) % n_;
  if (tail_ <= head_) head_ = (head_ + 1) % n_;
}

SteadyStateResult SteadyStateDetector::Result() const {
  SteadyStateResult result;
  result.spec = spec_;
  result.attained = attained_;
  result.criterion = criterion_;
  result.max_deviation = deviation_;
  result.slope = slope_;
  // fio's JSON starts at head when the job attained steady state or the window never filled; a
  // full window that never was steady has advanced once more, so it starts one slot earlier.
  const uint64_t first = attained_ || !full_ ? head_ : (head_ + n_ - 1) % n_;
  for (uint64_t k = 0; k < n_; ++k) {
    result.iops.push_back(iops_[(first + k) % n_]);
    result.bw.push_back(bw_[(first + k) % n_]);
  }
  return result;
}

}  // namespace azbench

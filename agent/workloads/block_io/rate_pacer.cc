#include "agent/workloads/block_io/rate_pacer.h"

#include <cmath>

namespace azbench {

RatePacer::RatePacer(const JobSpec& spec, uint64_t seed) : rng_(seed ^ 0x9FB21C651E98DF25ULL) {
  mixed_ = DoesRead(spec.rw) && DoesWrite(spec.rw);
  poisson_ = spec.rate_poisson;
  for (int dir = 0; dir < 2; ++dir) {
    // ValidateJobSpec allows one of rate and rate_iops per direction; rate_iops counts I/Os of
    // the direction's smallest size, as fio's does.
    const uint64_t min_bytes = spec.BlockSizes(/*write=*/dir == 1).min_bytes;
    bytes_per_s_[dir] = spec.rate_bytes_per_s[dir] != 0 ? spec.rate_bytes_per_s[dir]
                                                        : spec.rate_iops[dir] * min_bytes;
    const bool issues = dir == 0 ? DoesRead(spec.rw) : DoesWrite(spec.rw);
    if (!issues) bytes_per_s_[dir] = 0;
    if (bytes_per_s_[dir] != 0) {
      active_ = true;
      mean_gap_ns_[dir] = 1e9 * static_cast<double>(min_bytes) / bytes_per_s_[dir];
    }
  }
}

RatePacer::Turn RatePacer::Next(int wanted, uint64_t now_ns) {
  if (epoch_ns_ == 0) epoch_ns_ = now_ns;
  const uint64_t now = now_ns - epoch_ns_;
  const int other = wanted ^ 1;
  if (next_ns_[wanted] <= now) return {wanted, now_ns};
  if (mixed_) {
    if (next_ns_[other] <= now) return {other, now_ns};
    const int first = next_ns_[wanted] <= next_ns_[other] ? wanted : other;
    return {first, epoch_ns_ + next_ns_[first]};
  }
  return {wanted, epoch_ns_ + next_ns_[wanted]};
}

void RatePacer::Issued(int dir, uint64_t bytes) {
  if (bytes_per_s_[dir] == 0) return;
  if (poisson_) {
    // 1 - U is in (0, 1]: its log is finite.
    const double u = 1.0 - static_cast<double>(rng_.Next() >> 11) * 0x1.0p-53;
    next_ns_[dir] += static_cast<uint64_t>(mean_gap_ns_[dir] * -std::log(u));
    return;
  }
  issued_bytes_[dir] += bytes;
  const unsigned __int128 ns = static_cast<unsigned __int128>(issued_bytes_[dir]) * 1'000'000'000;
  next_ns_[dir] = static_cast<uint64_t>(ns / bytes_per_s_[dir]) + skipped_ns_[dir];
}

void RatePacer::SkipThinkTime(int dir, uint64_t think_ns) {
  if (bytes_per_s_[dir] == 0) return;
  // fio adds the bytes the think time would have carried, less one block of the direction's
  // smallest size when the think time is at least that block's time.
  const auto gap_ns = static_cast<uint64_t>(mean_gap_ns_[dir]);
  const uint64_t skip_ns = think_ns >= gap_ns ? think_ns - gap_ns : think_ns;
  skipped_ns_[dir] += skip_ns;
  next_ns_[dir] += skip_ns;
}

}  // namespace azbench

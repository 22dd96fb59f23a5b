// Which block a random I/O goes to when the job's random_distribution is not uniform: fio's zipf,
// pareto, normal, zoned and zoned_abs, with fio's definitions.
//
// zipf:theta and pareto:h draw a rank (rank 0 the hottest) as fio's lib/zipf does; normal:dev
// averages 12 uniform draws and adds a deviation of dev% of the blocks, as fio's lib/gauss. As in
// fio, the rank then goes through a multiplicative hash (x * 0x61C8864680B583EB) so that the hot
// blocks are spread over the region instead of packed at its start, and is shifted by an offset:
// `center` (0..1) of the region when given, else a random one. normal is not hashed, so that its
// bell stays around `center` (default: the middle of the region).
// zoned picks a zone by its share of accesses, then a block uniformly inside it. Draws are with
// replacement (no random map), as in fio. sequence (fio after 3.33) is no draw: the n-th I/O goes
// to the list's (n mod length)-th block, plus length x (n / length) with sequence_stride; the
// job checks before it runs that no block it would reach lies beyond the region
// (SequenceReachesBlock).
//
// Example:
//   RandomDistribution dist(job.random_distribution, /*write=*/false, /*blocks=*/262144,
//                           /*block_bytes=*/4096, seed);
//   uint64_t block = dist.Next();
#ifndef AZBENCH_AGENT_WORKLOADS_RANDOM_DISTRIBUTION_H_
#define AZBENCH_AGENT_WORKLOADS_RANDOM_DISTRIBUTION_H_

#include <cstdint>
#include <vector>

#include "agent/workloads/offset_generator.h"
#include "common/job_spec.h"

namespace azbench {

class RandomDistribution {
 public:
  // `blocks` >= 1; `block_bytes` converts zoned_abs's zone sizes to blocks; `write` picks the
  // direction's zones.
  RandomDistribution(const RandomDistributionSpec& spec, bool write, uint64_t blocks,
                     uint64_t block_bytes, uint64_t seed);

  // The next block, in [0, blocks).
  uint64_t Next();

  // sequence: the highest block `ios` I/Os of `spec` reach (its largest element without stride).
  static uint64_t SequenceReachesBlock(const RandomDistributionSpec& spec, uint64_t ios);

 private:
  // A 32-bit draw, as fio's generators give, and its share of the range [0, 1].
  uint64_t Draw32() { return rng_.Next() >> 32; }
  double Unit() { return static_cast<double>(Draw32()) / 4294967295.0; }

  struct Zone {
    uint64_t cumulative_access_percent;  // the running total up to and including this zone
    uint64_t first_block;
    uint64_t blocks;
  };

  RandomDistributionKind kind_;
  uint64_t blocks_;
  Rng rng_;
  uint64_t offset_ = 0;  // added to the hashed rank (fio's rand_off)
  // zipf
  double theta_ = 0, zeta2_ = 0, zetan_ = 0, alpha_ = 0, eta_ = 0;
  // pareto
  double pareto_power_ = 0;
  // normal
  uint64_t stddev_blocks_ = 0;
  std::vector<Zone> zones_;
  // sequence
  std::vector<uint64_t> sequence_;
  bool sequence_stride_ = false;
  uint64_t issued_ = 0;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_RANDOM_DISTRIBUTION_H_

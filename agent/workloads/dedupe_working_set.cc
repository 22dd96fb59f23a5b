#include "agent/workloads/dedupe_working_set.h"

#include <algorithm>
#include <iterator>

namespace azbench {

void DedupeThreads::Add(Key key, Rng stream) {
  absl::MutexLock lock(&mu_);
  streams_.insert_or_assign(key, stream);
}

std::vector<uint64_t> DedupeThreads::GlobalWorkingSet(Key key, uint64_t blocks) const {
  absl::MutexLock lock(&mu_);
  std::vector<uint64_t> seeds;
  const auto own = streams_.find(key);
  if (own == streams_.end() || blocks == 0) return seeds;
  std::vector<Rng> order;  // fio's thread order
  for (const auto& [k, stream] : streams_) order.push_back(stream);
  const uint64_t threads = order.size();
  const uint64_t per_thread = std::max<uint64_t>(blocks / threads, 1);
  const uint64_t first = static_cast<uint64_t>(std::distance(streams_.begin(), own));
  seeds.reserve(blocks);
  Rng stream = order[first];
  for (uint64_t i = 0; i < blocks; ++i) {
    if (i % per_thread == 0) stream = order[(first + i / per_thread) % threads];
    seeds.push_back(stream.Next());
  }
  return seeds;
}

}  // namespace azbench

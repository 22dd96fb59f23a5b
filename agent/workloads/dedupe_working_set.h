// fio's dedupe_global (dedupe.c): the working set of a clone's dedupe_mode=working_set is spread
// evenly over every clone of the run, so that jobs writing different files repeat each other's
// blocks. Each clone registers the seed stream of its unique buffers (BufferPool::SeedStream) in
// the run's order; once all are registered, a clone's set of N seeds takes, for clone k of T,
// N/T (at least 1) seeds from the start of each clone's stream in turn, from k's own onwards:
// seed i is seed i mod (N/T) of clone (k + i / (N/T)) mod T.
//
//   DedupeThreads threads;  // one per run, filled at Prepare
//   threads.Add({job_index, clone_index}, pool.SeedStream());
//   pool.SetDedupeWorkingSet(threads.GlobalWorkingSet({job_index, clone_index}, n));  // at Run
#ifndef AZBENCH_AGENT_WORKLOADS_DEDUPE_WORKING_SET_H_
#define AZBENCH_AGENT_WORKLOADS_DEDUPE_WORKING_SET_H_

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "agent/workloads/offset_generator.h"

namespace azbench {

class DedupeThreads {
 public:
  // A clone's place in the run: its job's index, then its own (fio's thread order).
  using Key = std::pair<int, int>;

  // Registers the seed stream of the clone at `key` (thread-safe; jobs may lay out at once).
  void Add(Key key, Rng stream);
  // The `blocks` seeds of the registered clone at `key`'s global working set (file comment).
  std::vector<uint64_t> GlobalWorkingSet(Key key, uint64_t blocks) const;

 private:
  mutable absl::Mutex mu_;
  std::map<Key, Rng> streams_ ABSL_GUARDED_BY(mu_);
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_DEDUPE_WORKING_SET_H_

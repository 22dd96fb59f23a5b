// fio's flow control (flow, flow_id, flow_sleep): the clones of one run that share a flow_id keep
// the I/Os they issue in proportion to their weights, as fio's flow.c.
//
// Each flow counts tokens: one per data I/O a member issues, starting from 1. A member whose share
// of the flow's tokens exceeds its share of the flow's weight is ahead and holds back; the others
// go on. A member that leaves takes its tokens and weight out, so the rest keep their ratio.
//
//   FlowRegistry flows;  // one per run (RunControl::flows)
//   std::unique_ptr<FlowMember> member = flows.Join(/*id=*/1, /*weight=*/8);
//   if (!member->TakeToken()) { /* ahead: wait (flow_sleep) and ask again */ }
#ifndef AZBENCH_AGENT_WORKLOADS_FLOW_REGISTRY_H_
#define AZBENCH_AGENT_WORKLOADS_FLOW_REGISTRY_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace azbench {

class FlowRegistry;

// One clone's place in a flow. TakeToken is called from the clone's thread only; the flow's
// counters are shared (relaxed atomics, as fio's). Leaves the flow when destroyed.
class FlowMember {
 public:
  ~FlowMember();
  FlowMember(const FlowMember&) = delete;
  FlowMember& operator=(const FlowMember&) = delete;

  // fio's flow_threshold_exceeded, inverted: false when this member is ahead of its share (it
  // must not issue now); else counts one token to it and returns true.
  bool TakeToken();
  uint64_t tokens() const { return tokens_; }

 private:
  friend class FlowRegistry;
  struct Flow {
    std::atomic<uint64_t> tokens{1};  // fio starts each flow's counter at 1
    std::atomic<uint64_t> total_weight{0};
    int members = 0;  // guarded by FlowRegistry::mu_
  };
  FlowMember(FlowRegistry& registry, uint32_t id, Flow& flow, uint32_t weight)
      : registry_(registry), id_(id), flow_(flow), weight_(weight) {}

  FlowRegistry& registry_;
  const uint32_t id_;
  Flow& flow_;
  const uint32_t weight_;
  uint64_t tokens_ = 0;
};

class FlowRegistry {
 public:
  // Joins flow `id` (made on first use) with `weight` (fio's flow, > 0). The registry must outlive
  // the member.
  std::unique_ptr<FlowMember> Join(uint32_t id, uint32_t weight);

 private:
  friend class FlowMember;
  void Leave(const FlowMember& member);

  absl::Mutex mu_;
  std::map<uint32_t, std::unique_ptr<FlowMember::Flow>> flows_ ABSL_GUARDED_BY(mu_);
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_FLOW_REGISTRY_H_

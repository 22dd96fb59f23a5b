#include "agent/workloads/flow_registry.h"

#include <memory>

namespace azbench {

FlowMember::~FlowMember() { registry_.Leave(*this); }

bool FlowMember::TakeToken() {
  const double token_share = static_cast<double>(tokens_) /
                             static_cast<double>(flow_.tokens.load(std::memory_order_relaxed));
  const double weight_share =
      static_cast<double>(weight_) /
      static_cast<double>(flow_.total_weight.load(std::memory_order_relaxed));
  if (token_share > weight_share) return false;
  flow_.tokens.fetch_add(1, std::memory_order_relaxed);
  ++tokens_;
  return true;
}

std::unique_ptr<FlowMember> FlowRegistry::Join(uint32_t id, uint32_t weight) {
  absl::MutexLock lock(&mu_);
  std::unique_ptr<FlowMember::Flow>& flow = flows_[id];
  if (flow == nullptr) flow = std::make_unique<FlowMember::Flow>();
  ++flow->members;
  flow->total_weight.fetch_add(weight, std::memory_order_relaxed);
  return std::unique_ptr<FlowMember>(new FlowMember(*this, id, *flow, weight));
}

void FlowRegistry::Leave(const FlowMember& member) {
  absl::MutexLock lock(&mu_);
  FlowMember::Flow& flow = member.flow_;
  flow.tokens.fetch_sub(member.tokens_, std::memory_order_relaxed);
  flow.total_weight.fetch_sub(member.weight_, std::memory_order_relaxed);
  if (--flow.members == 0) flows_.erase(member.id_);
}

}  // namespace azbench

// fio's flow control tokens (agent/workloads/flow_registry.h).
#include "agent/workloads/flow_registry.h"

#include <memory>

#include "gtest/gtest.h"

namespace azbench {
namespace {

TEST(FlowRegistryTest, ALoneMemberIsNeverHeldBack) {
  FlowRegistry flows;
  std::unique_ptr<FlowMember> only = flows.Join(1, 3);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(only->TakeToken()) << i;
  EXPECT_EQ(only->tokens(), 1000u);
}

TEST(FlowRegistryTest, MembersAskingInTurnGetTokensInProportionToTheirWeights) {
  FlowRegistry flows;
  std::unique_ptr<FlowMember> slow = flows.Join(1, 1);
  std::unique_ptr<FlowMember> fast = flows.Join(1, 8);
  for (int i = 0; i < 9000; ++i) {
    (void)slow->TakeToken();
    (void)fast->TakeToken();
  }
  EXPECT_NEAR(static_cast<double>(fast->tokens()) / slow->tokens(), 8.0, 0.05);
}

TEST(FlowRegistryTest, FlowsWithOtherIdsDoNotHoldEachOtherBack) {
  FlowRegistry flows;
  std::unique_ptr<FlowMember> a = flows.Join(1, 1);
  std::unique_ptr<FlowMember> b = flows.Join(2, 1);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(a->TakeToken()) << i;
  EXPECT_TRUE(b->TakeToken());
}

TEST(FlowRegistryTest, AMemberThatLeavesTakesItsTokensAndWeightWithIt) {
  FlowRegistry flows;
  std::unique_ptr<FlowMember> stays = flows.Join(7, 1);
  {
    std::unique_ptr<FlowMember> leaves = flows.Join(7, 1);
    for (int i = 0; i < 100; ++i) {
      (void)leaves->TakeToken();
      (void)stays->TakeToken();
    }
    EXPECT_GT(leaves->tokens(), 90u);
  }
  // Alone again: never held back, however far ahead of its old share.
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(stays->TakeToken()) << i;
}

}  // namespace
}  // namespace azbench

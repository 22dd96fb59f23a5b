#include "agent/workloads/block_io/rate_pacer.h"

#include "common/job_spec.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

// 1000 reads/s of 4 KiB: one op per ms.
JobSpec RatedRead() {
  JobSpec spec;
  spec.rw = RwPattern::kRead;
  spec.block_size_bytes = 4096;
  spec.size_bytes = 1 << 20;
  spec.rate_iops = {1000, 0};
  return spec;
}

constexpr uint64_t kMs = 1'000'000;
constexpr uint64_t kStart = 1'000 * kMs;

TEST(RatePacerTest, AfterAThinkTimeTheScheduleCatchesUpByDefault) {
  RatePacer pacer(RatedRead(), 1);
  for (int i = 0; i < 10; ++i) {
    const RatePacer::Turn turn = pacer.Next(0, kStart + i * kMs);
    EXPECT_EQ(turn.start_ns, kStart + i * kMs);
    pacer.Issued(0, 4096);
  }
  // 100 ms of think time later, the ops missed are due at once.
  EXPECT_LE(pacer.Next(0, kStart + 110 * kMs).start_ns, kStart + 110 * kMs);
}

TEST(RatePacerTest, SkippedThinkTimeMovesTheScheduleOnLessOneOp) {
  RatePacer pacer(RatedRead(), 1);
  for (int i = 0; i < 10; ++i) {
    (void)pacer.Next(0, kStart + i * kMs);
    pacer.Issued(0, 4096);
  }
  pacer.SkipThinkTime(0, 100 * kMs);
  // The 11th op was due at 10 ms; the schedule moved on by 99 ms: due at 109 ms, then every ms.
  EXPECT_EQ(pacer.Next(0, kStart + 100 * kMs).start_ns, kStart + 109 * kMs);
  pacer.Issued(0, 4096);
  EXPECT_EQ(pacer.Next(0, kStart + 109 * kMs).start_ns, kStart + 110 * kMs);
}

TEST(RatePacerTest, AnUnratedDirectionIgnoresSkippedThinkTime) {
  RatePacer pacer(RatedRead(), 1);
  (void)pacer.Next(0, kStart);
  pacer.Issued(0, 4096);
  pacer.SkipThinkTime(1, 100 * kMs);
  EXPECT_EQ(pacer.Next(0, kStart).start_ns, kStart + kMs);
}

}  // namespace
}  // namespace azbench

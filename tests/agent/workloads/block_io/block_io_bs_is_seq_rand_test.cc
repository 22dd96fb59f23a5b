// fio's bs_is_seq_rand: bs=4k,16k sizes sequential I/Os 4k and random ones 16k, whichever their
// direction. fio 3.33 with ioengine=null, size=1m, norandommap: rw=write and rw=read do 256 I/Os
// of 4k, rw=randwrite 64 of 16k. (Its rw=randread stops after 29 I/Os of 16k, counting the size
// in the reads' bs; azbench does the whole size, 64.)
#include <memory>
#include <string>

#include "agent/workloads/block_io/block_io.h"
#include "common/job_spec.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

struct Case {
  const char* rw;
  OpKind kind;
  uint64_t fio_total_ios;
};

class BlockIoBsIsSeqRandTest : public ::testing::TestWithParam<Case> {};

TEST_P(BlockIoBsIsSeqRandTest, SequentialIosTakeTheFirstSizeAndRandomOnesTheSecond) {
  JobSpec spec;
  spec.name = "b";
  spec.filename = "/nonexistent/b";  // the null engine opens nothing
  spec.ioengine = "null";
  spec.size_bytes = 1 << 20;
  spec.norandommap = true;
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"rw", GetParam().rw}, {"bs", "4k,16k"}, {"bs_is_seq_rand", "1"}}) {
    ASSERT_TRUE(ApplyJobOption(spec, key, value).ok()) << key;
  }
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  const OpStats* stats = result->Find(GetParam().kind);
  ASSERT_NE(stats, nullptr);
  EXPECT_EQ(stats->ops, GetParam().fio_total_ios);
  EXPECT_EQ(stats->bytes, uint64_t{1} << 20);
}

INSTANTIATE_TEST_SUITE_P(Fio333, BlockIoBsIsSeqRandTest,
                         ::testing::Values(Case{"write", OpKind::kWrite, 256},
                                           Case{"read", OpKind::kRead, 256},
                                           Case{"randwrite", OpKind::kWrite, 64},
                                           Case{"randread", OpKind::kRead, 64}));

TEST(BlockIoBsIsSeqRandValidationTest, ARandomJobWithSequentialIosIsRefused) {
  JobSpec spec;
  spec.size_bytes = 1 << 20;
  ASSERT_TRUE(ApplyJobOption(spec, "rw", "randread:4").ok());
  ASSERT_TRUE(ApplyJobOption(spec, "bs_is_seq_rand", "1").ok());
  EXPECT_THAT(ValidateJobSpec(spec), testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                                       ::testing::HasSubstr("bs_is_seq_rand")));
}

}  // namespace
}  // namespace azbench

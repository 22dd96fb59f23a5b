// fio's continue_on_error and ignore_error in the block-I/O job loop: an error they let pass is
// counted (total_err, first_error) and the clone goes on; any other ends it, as fio's default.
// A fake sync engine (no I/O) fails the ops at or past a chosen offset with a chosen errno, as a
// file system that runs out of space half way through a file.
#include <cerrno>
#include <memory>
#include <string>

#include "agent/engines/io_engine.h"
#include "agent/engines/op_clock.h"
#include "agent/workloads/block_io/block_io.h"
#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

constexpr uint64_t kBlockBytes = 4096;
constexpr uint64_t kSizeBytes = 64 * kBlockBytes;
constexpr uint64_t kFailFromBytes = 16 * kBlockBytes;  // the first 16 blocks succeed

class FailingFromOffsetEngine final : public IoEngine {
 public:
  explicit FailingFromOffsetEngine(int error) : error_(error) {}
  std::string_view name() const override { return "failing"; }
  EngineCapabilities capabilities() const override {
    return EngineCapabilities{.is_async = false,
                              .does_io = false,
                              .supports_direct = true,
                              .needs_aligned_buffers = false,
                              .max_iodepth = 1};
  }
  absl::Status Init(const EngineOptions&) override { return absl::OkStatus(); }
  QueueResult Queue(IoRequest* request) override {
    request->issue_ns = OpClockNanos();
    request->complete_ns = request->issue_ns;
    request->result = request->offset_bytes >= kFailFromBytes
                          ? -error_
                          : static_cast<int64_t>(request->length_bytes);
    return QueueResult::kCompleted;
  }
  absl::StatusOr<int> Commit() override { return 0; }
  absl::StatusOr<int> GetEvents(int, std::span<IoRequest*>) override { return 0; }
  int inflight() const override { return 0; }

 private:
  int error_;
};

JobSpec SequentialWrite(const std::vector<std::pair<std::string, std::string>>& options) {
  JobSpec spec;
  spec.name = "failing";
  spec.ioengine = "failing";
  spec.filename = "/nonexistent/failing";  // never opened: the engine does no I/O
  spec.rw = RwPattern::kWrite;
  spec.size_bytes = kSizeBytes;
  spec.block_size_bytes = kBlockBytes;
  for (const auto& [key, value] : options) {
    EXPECT_TRUE(ApplyJobOption(spec, key, value).ok()) << key << "=" << value;
  }
  return spec;
}

JobResult RunWith(const JobSpec& spec, int error) {
  auto factory = [error](std::string_view) -> absl::StatusOr<std::unique_ptr<IoEngine>> {
    return std::make_unique<FailingFromOffsetEngine>(error);
  };
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec, 0, factory);
  EXPECT_TRUE(job.ok()) << job.status();
  if (!job.ok()) return JobResult{};
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? std::move(*result) : JobResult{};
}

uint64_t WriteErrors(const JobResult& r) {
  const OpStats* writes = r.Find(OpKind::kWrite);
  return writes == nullptr ? 0 : writes->errors;
}

uint64_t WriteOps(const JobResult& r) {
  const OpStats* writes = r.Find(OpKind::kWrite);
  return writes == nullptr ? 0 : writes->ops;
}

TEST(BlockIoContinueOnErrorTest, WithoutContinueOnErrorTheFirstErrorEndsTheJob) {
  const JobResult r = RunWith(SequentialWrite({}), ENOSPC);
  EXPECT_EQ(r.error_errno, ENOSPC);
  EXPECT_EQ(WriteOps(r), 16u);
  EXPECT_EQ(WriteErrors(r), 1u);
  EXPECT_FALSE(r.continue_on_error);
  EXPECT_EQ(r.total_err_count, 0u);
}

TEST(BlockIoContinueOnErrorTest, AnIgnoredWriteErrorIsCountedAndTheJobDoesAllItsWrites) {
  const JobResult r = RunWith(SequentialWrite({{"ignore_error", ",ENOSPC"}}), ENOSPC);
  EXPECT_EQ(r.error_errno, 0) << r.error_message;
  EXPECT_EQ(WriteOps(r), 16u);
  EXPECT_EQ(WriteErrors(r), 48u);
  EXPECT_TRUE(r.continue_on_error);
  EXPECT_EQ(r.total_err_count, 48u);
  EXPECT_EQ(r.first_error, ENOSPC);
}

TEST(BlockIoContinueOnErrorTest, ContinueOnErrorAllLetsOnlyEioAndEilseqPassByDefault) {
  const JobResult enospc = RunWith(SequentialWrite({{"continue_on_error", "all"}}), ENOSPC);
  EXPECT_EQ(enospc.error_errno, ENOSPC);
  EXPECT_EQ(WriteErrors(enospc), 1u);
  EXPECT_EQ(enospc.total_err_count, 1u) << "fio counts the error that ended the job too";
  EXPECT_EQ(enospc.first_error, ENOSPC);

  const JobResult eio = RunWith(SequentialWrite({{"continue_on_error", "all"}}), EIO);
  EXPECT_EQ(eio.error_errno, 0);
  EXPECT_EQ(WriteErrors(eio), 48u);
  EXPECT_EQ(eio.total_err_count, 48u);
  EXPECT_EQ(eio.first_error, EIO);
}

TEST(BlockIoContinueOnErrorTest, ContinueOnReadErrorsDoesNotCoverWrites) {
  const JobResult r = RunWith(SequentialWrite({{"continue_on_error", "read"}}), EIO);
  EXPECT_EQ(r.error_errno, EIO);
  EXPECT_EQ(WriteErrors(r), 1u);
  EXPECT_EQ(r.total_err_count, 0u) << "an error of a type not covered is not counted, as fio";
}

TEST(BlockIoContinueOnErrorTest, AnIgnoredReadErrorLetsARandomReadJobGoOn) {
  JobSpec spec = SequentialWrite({{"rw", "randread"}, {"ignore_error", "EIO"}});
  const JobResult r = RunWith(spec, EIO);
  EXPECT_EQ(r.error_errno, 0) << r.error_message;
  const OpStats* reads = r.Find(OpKind::kRead);
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->ops, 16u);
  EXPECT_EQ(reads->errors, 48u);
  EXPECT_EQ(r.total_err_count, 48u);
}

TEST(BlockIoContinueOnErrorTest, ContinueOnErrorNoneAfterIgnoreErrorEndsTheJobAgain) {
  const JobResult r = RunWith(
      SequentialWrite({{"ignore_error", ",ENOSPC"}, {"continue_on_error", "none"}}), ENOSPC);
  EXPECT_EQ(r.error_errno, ENOSPC);
  EXPECT_EQ(WriteErrors(r), 1u);
}

}  // namespace
}  // namespace azbench

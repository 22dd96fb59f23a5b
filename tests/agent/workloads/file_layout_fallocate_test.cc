// fio's fallocate modes at layout: what each leaves of a file a write-only (or trim) job lays out
// (its size and allocated blocks), and that a job that reads gets its data whatever the mode.
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "agent/workloads/buffer_pool.h"
#include "agent/workloads/file_layout.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

constexpr uint64_t kFileBytes = 1 << 20;
constexpr int64_t kFileBlocks = kFileBytes / 512;  // st_blocks counts 512-byte units

struct Laid {
  int64_t size_bytes = -1;
  int64_t blocks = -1;
};

class FallocateLayoutTest : public ::testing::Test {
 protected:
  absl::StatusOr<Laid> LayOut(FallocateMode mode, bool needs_data) {
    const std::string path = dir_.File("f");
    absl::StatusOr<BufferPool> filler = BufferPool::Create({.count = 1, .size_bytes = 4096});
    if (!filler.ok()) return filler.status();
    absl::StatusOr<std::vector<LaidOutFile>> files =
        LayOutFiles({{path, kFileBytes, needs_data, mode}}, *filler);
    if (!files.ok()) return files.status();
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return absl::NotFoundError(path);
    return Laid{st.st_size, st.st_blocks};
  }
  testing::TempDir dir_;
};

TEST_F(FallocateLayoutTest, NativeAndPosixAllocateTheWholeFileAtItsSize) {
  for (FallocateMode mode : {FallocateMode::kNative, FallocateMode::kPosix}) {
    SCOPED_TRACE(FallocateModeName(mode));
    absl::StatusOr<Laid> laid = LayOut(mode, /*needs_data=*/false);
    ASSERT_TRUE(laid.ok()) << laid.status();
    EXPECT_EQ(laid->size_bytes, static_cast<int64_t>(kFileBytes));
    EXPECT_GE(laid->blocks, kFileBlocks);
    ASSERT_EQ(unlink(dir_.File("f").c_str()), 0);
  }
}

TEST_F(FallocateLayoutTest, KeepAllocatesTheBlocksAndLeavesTheSizeAtZero) {
  absl::StatusOr<Laid> laid = LayOut(FallocateMode::kKeep, /*needs_data=*/false);
  ASSERT_TRUE(laid.ok()) << laid.status();
  EXPECT_EQ(laid->size_bytes, 0);
  EXPECT_GE(laid->blocks, kFileBlocks);
}

TEST_F(FallocateLayoutTest, TruncateMakesASparseFileOfTheSize) {
  absl::StatusOr<Laid> laid = LayOut(FallocateMode::kTruncate, /*needs_data=*/false);
  ASSERT_TRUE(laid.ok()) << laid.status();
  EXPECT_EQ(laid->size_bytes, static_cast<int64_t>(kFileBytes));
  EXPECT_EQ(laid->blocks, 0);
}

TEST_F(FallocateLayoutTest, NoneLeavesAWriteOnlyJobsFileEmptyToGrowAsItIsWritten) {
  absl::StatusOr<Laid> laid = LayOut(FallocateMode::kNone, /*needs_data=*/false);
  ASSERT_TRUE(laid.ok()) << laid.status();
  EXPECT_EQ(laid->size_bytes, 0);
  EXPECT_EQ(laid->blocks, 0);
}

TEST_F(FallocateLayoutTest, AJobThatReadsGetsItsDataWhateverTheMode) {
  for (FallocateMode mode : {FallocateMode::kNone, FallocateMode::kNative, FallocateMode::kKeep,
                             FallocateMode::kTruncate}) {
    SCOPED_TRACE(FallocateModeName(mode));
    absl::StatusOr<Laid> laid = LayOut(mode, /*needs_data=*/true);
    ASSERT_TRUE(laid.ok()) << laid.status();
    EXPECT_EQ(laid->size_bytes, static_cast<int64_t>(kFileBytes));
    EXPECT_GE(laid->blocks, kFileBlocks);
    ASSERT_EQ(unlink(dir_.File("f").c_str()), 0);
  }
}

TEST_F(FallocateLayoutTest, AFileThatIsLargeEnoughIsLeftAsItIs) {
  ASSERT_TRUE(LayOut(FallocateMode::kTruncate, false).ok());
  absl::StatusOr<Laid> laid = LayOut(FallocateMode::kNative, false);
  ASSERT_TRUE(laid.ok()) << laid.status();
  EXPECT_EQ(laid->blocks, 0) << "an existing file of the size is reused, not preallocated";
}

}  // namespace
}  // namespace azbench

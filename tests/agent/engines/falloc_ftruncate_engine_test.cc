// falloc and ftruncate, fio's engines that stand in for data transfer: what each op does to the
// file and what it reports (its whole length, as fio counts it).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>

#include "agent/engines/io_engine.h"
#include "gtest/gtest.h"
#include "tests/agent/engines/engine_test_util.h"

namespace azbench {
namespace {

using engine_test::TempDir;

class StandInEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>(engine_test::kLocalDiskBase);
    ASSERT_FALSE(dir_->path().empty());
    fd_ = open((dir_->path() + "/f").c_str(), O_RDWR | O_CREAT, 0600);
    ASSERT_GE(fd_, 0);
  }
  void TearDown() override {
    if (fd_ >= 0) close(fd_);
    dir_.reset();
  }
  IoRequest Do(const std::string& engine_name, OpKind op, uint64_t offset, uint32_t length) {
    absl::StatusOr<std::unique_ptr<IoEngine>> engine = CreateEngine(engine_name);
    EXPECT_TRUE(engine.ok());
    EXPECT_TRUE((*engine)->Init(EngineOptions{}).ok());
    IoRequest r;
    r.op = op;
    r.fd = fd_;
    r.offset_bytes = offset;
    r.length_bytes = length;
    EXPECT_EQ((*engine)->Queue(&r), QueueResult::kCompleted);
    return r;
  }
  off_t Size() {
    struct stat st;
    EXPECT_EQ(fstat(fd_, &st), 0);
    return st.st_size;
  }
  std::unique_ptr<TempDir> dir_;
  int fd_ = -1;
};

TEST_F(StandInEngineTest, FallocWriteExtendsReadKeepsTheSizeAndBothCountTheirLength) {
  IoRequest r = Do("falloc", OpKind::kWrite, 8192, 4096);
  if (r.result == -EOPNOTSUPP) GTEST_SKIP() << "the file system has no fallocate";
  EXPECT_EQ(r.result, 4096);
  EXPECT_EQ(Size(), 12288);
  EXPECT_EQ(Do("falloc", OpKind::kRead, 65536, 4096).result, 4096);
  EXPECT_EQ(Size(), 12288) << "a read is fallocate(FALLOC_FL_KEEP_SIZE)";
  EXPECT_EQ(Do("falloc", OpKind::kTrim, 8192, 4096).result, 4096);
  EXPECT_EQ(Size(), 12288) << "a trim punches a hole and keeps the size";
  EXPECT_EQ(Do("falloc", OpKind::kFsync, 0, 0).result, 0);
}

TEST_F(StandInEngineTest, FtruncateWriteSetsTheSizeToItsOffsetAndRefusesReads) {
  EXPECT_EQ(Do("ftruncate", OpKind::kWrite, 40960, 4096).result, 4096);
  EXPECT_EQ(Size(), 40960);
  EXPECT_EQ(Do("ftruncate", OpKind::kWrite, 4096, 4096).result, 4096);
  EXPECT_EQ(Size(), 4096);
  EXPECT_EQ(Do("ftruncate", OpKind::kRead, 0, 4096).result, -EINVAL);
  EXPECT_EQ(Do("ftruncate", OpKind::kFsync, 0, 0).result, 0);
}

}  // namespace
}  // namespace azbench

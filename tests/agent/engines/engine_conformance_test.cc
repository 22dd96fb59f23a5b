// Every real engine (psync, vsync, pvsync, pvsync2, posixaio, mmap, libaio, io_uring) against the
// IoEngine contract, on tmpfs and on the local disk (ext4 under /var/tmp), buffered and O_DIRECT:
// data written at many offsets reads back byte for byte (through the engine and independently), op
// and byte counts are exact, fsync/fdatasync complete with 0, a bad fd completes with -EBADF, a
// short read reports the bytes done.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "agent/engines/io_engine.h"
#include "gtest/gtest.h"
#include "tests/agent/engines/engine_test_util.h"

namespace azbench {
namespace {

using engine_test::AlignedBuffers;
using engine_test::CountCompleted;
using engine_test::FillPattern;
using engine_test::FirstPatternMismatch;
using engine_test::IoCounts;
using engine_test::RunToCompletion;
using engine_test::TempDir;

struct Case {
  std::string engine;
  std::string base;  // directory the temporary files go under
  bool direct = false;
  int iodepth = 1;
  int batch_submit = 0;
};

// gtest prints the parameter in test names and failures; without this it dumps raw bytes.
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.engine << " on " << c.base << (c.direct ? " O_DIRECT" : " buffered") << " iodepth "
      << c.iodepth << " batch_submit " << c.batch_submit;
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  std::string name = c.engine;
  name += c.base == engine_test::kTmpfsBase ? "_Tmpfs" : "_LocalDisk";
  name += c.direct ? "_Direct" : "_Buffered";
  name += "_Qd" + std::to_string(c.iodepth);
  if (c.batch_submit > 0) name += "_Batch" + std::to_string(c.batch_submit);
  return name;
}

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (const std::string base : {engine_test::kTmpfsBase, engine_test::kLocalDiskBase}) {
    for (bool direct : {false, true}) {
      cases.push_back({"psync", base, direct, 1, 0});
      cases.push_back({"libaio", base, direct, 16, 0});
      cases.push_back({"io_uring", base, direct, 16, 0});
      cases.push_back({"vsync", base, direct, 1, 0});
      cases.push_back({"pvsync", base, direct, 1, 0});
      cases.push_back({"pvsync2", base, direct, 1, 0});
      cases.push_back({"posixaio", base, direct, 16, 0});
      // mmap refuses O_DIRECT (mmap_engine.h).
      if (!direct) cases.push_back({"mmap", base, direct, 1, 0});
    }
  }
  cases.push_back({"libaio", engine_test::kLocalDiskBase, true, 16, 4});
  cases.push_back({"io_uring", engine_test::kLocalDiskBase, true, 16, 4});
  cases.push_back({"io_uring", engine_test::kLocalDiskBase, false, 1, 0});
  return cases;
}

IoRequest MakeRequest(OpKind op, int fd, void* buffer, uint32_t length_bytes, uint64_t offset_bytes,
                      int buffer_index) {
  IoRequest r;
  r.op = op;
  r.fd = fd;
  r.buffer = buffer;
  r.length_bytes = length_bytes;
  r.offset_bytes = offset_bytes;
  r.buffer_index = buffer_index;
  return r;
}

class EngineConformanceTest : public ::testing::TestWithParam<Case> {
 protected:
  static constexpr int kBlocks = 64;
  static constexpr uint32_t kBlockBytes = 4096;

  void SetUp() override {
    const Case& c = GetParam();
    dir_ = std::make_unique<TempDir>(c.base);
    ASSERT_FALSE(dir_->path().empty()) << "mkdtemp under " << c.base << ": " << strerror(errno);
    path_ = dir_->path() + "/data";
    fd_ = open(path_.c_str(), O_RDWR | O_CREAT | (c.direct ? O_DIRECT : 0), 0600);
    if (fd_ < 0 && c.direct && errno == EINVAL) {
      // Older kernels' tmpfs refuses O_DIRECT at open(); the engine is not involved.
      GTEST_SKIP() << c.base << " refuses O_DIRECT (open: EINVAL)";
    }
    ASSERT_GE(fd_, 0) << "open " << path_ << ": " << strerror(errno);
    buffers_ = std::make_unique<AlignedBuffers>(kBlocks, kBlockBytes);
    ASSERT_TRUE(buffers_->ok());
    absl::StatusOr<std::unique_ptr<IoEngine>> engine = CreateEngine(c.engine);
    ASSERT_TRUE(engine.ok()) << engine.status();
    engine_ = std::move(*engine);
    EngineOptions options;
    options.iodepth = c.iodepth;
    options.batch_submit = c.batch_submit;
    options.buffers = buffers_->iovecs();
    options.fds = {fd_};
    const absl::Status init = engine_->Init(options);
    ASSERT_TRUE(init.ok()) << init;
  }

  void TearDown() override {
    engine_.reset();  // first: it may hold registered files and buffers
    if (fd_ >= 0) close(fd_);
    buffers_.reset();
    dir_.reset();  // removes the files
  }

  bool is_async() const { return engine_->capabilities().is_async; }

  // Writes the pattern for [0, bytes) with plain pwrite through a buffered fd, bypassing the
  // engine.
  void WritePatternDirectly(uint64_t bytes) {
    const int fd = open(path_.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0) << strerror(errno);
    std::vector<uint8_t> data(bytes);
    FillPattern(data.data(), 0, bytes);
    ASSERT_EQ(pwrite(fd, data.data(), bytes, 0), static_cast<ssize_t>(bytes));
    ASSERT_EQ(fsync(fd), 0);
    close(fd);
  }

  void ExpectTimestampsOrdered(const IoRequest& r) {
    EXPECT_LE(r.start_ns, r.issue_ns);
    EXPECT_LE(r.issue_ns, r.complete_ns);
    if (!is_async()) {
      EXPECT_EQ(r.issue_ns, r.start_ns) << "a sync engine has no submission latency";
    }
  }

  // Writes records of `record_bytes` at offsets first_offset + k * stride for k in a shuffled
  // order, one buffer each, then reads them back in another order and compares byte for byte.
  void RoundTrip(uint32_t record_bytes, uint64_t first_offset, uint64_t stride) {
    std::vector<int> order(kBlocks);
    std::iota(order.begin(), order.end(), 0);
    std::mt19937 rng(42);
    std::shuffle(order.begin(), order.end(), rng);

    std::vector<IoRequest> writes;
    for (int i = 0; i < kBlocks; ++i) {
      const uint64_t offset = first_offset + static_cast<uint64_t>(order[i]) * stride;
      FillPattern(buffers_->at(i), offset, record_bytes);
      writes.push_back(MakeRequest(OpKind::kWrite, fd_, buffers_->at(i), record_bytes, offset, i));
    }
    absl::StatusOr<std::vector<IoRequest*>> written = RunToCompletion(*engine_, writes);
    ASSERT_TRUE(written.ok()) << written.status();
    ASSERT_EQ(written->size(), static_cast<size_t>(kBlocks));
    for (const IoRequest& r : writes) {
      EXPECT_EQ(r.result, record_bytes) << "write at " << r.offset_bytes;
      ExpectTimestampsOrdered(r);
    }
    const IoCounts wc = CountCompleted(*written);
    EXPECT_EQ(wc.writes, kBlocks);
    EXPECT_EQ(wc.write_bytes, static_cast<uint64_t>(kBlocks) * record_bytes);
    EXPECT_EQ(wc.reads, 0);
    EXPECT_EQ(wc.errors, 0);
    EXPECT_EQ(engine_->inflight(), 0);

    // Independently of the engine: the file holds the pattern at every record.
    const int check_fd = open(path_.c_str(), O_RDONLY);
    ASSERT_GE(check_fd, 0);
    std::vector<uint8_t> check(record_bytes);
    for (int k = 0; k < kBlocks; ++k) {
      const uint64_t offset = first_offset + static_cast<uint64_t>(k) * stride;
      ASSERT_EQ(pread(check_fd, check.data(), record_bytes, offset), record_bytes);
      EXPECT_EQ(FirstPatternMismatch(check.data(), offset, record_bytes), -1) << "at " << offset;
    }
    close(check_fd);

    std::shuffle(order.begin(), order.end(), rng);
    std::vector<IoRequest> reads;
    for (int i = 0; i < kBlocks; ++i) {
      std::memset(buffers_->at(i), 0xEE, kBlockBytes);
      const uint64_t offset = first_offset + static_cast<uint64_t>(order[i]) * stride;
      reads.push_back(MakeRequest(OpKind::kRead, fd_, buffers_->at(i), record_bytes, offset, i));
    }
    absl::StatusOr<std::vector<IoRequest*>> read = RunToCompletion(*engine_, reads);
    ASSERT_TRUE(read.ok()) << read.status();
    ASSERT_EQ(read->size(), static_cast<size_t>(kBlocks));
    for (int i = 0; i < kBlocks; ++i) {
      const IoRequest& r = reads[i];
      EXPECT_EQ(r.result, record_bytes) << "read at " << r.offset_bytes;
      EXPECT_EQ(FirstPatternMismatch(buffers_->at(i), r.offset_bytes, record_bytes), -1)
          << "read at " << r.offset_bytes;
      ExpectTimestampsOrdered(r);
    }
    const IoCounts rc = CountCompleted(*read);
    EXPECT_EQ(rc.reads, kBlocks);
    EXPECT_EQ(rc.read_bytes, static_cast<uint64_t>(kBlocks) * record_bytes);
    EXPECT_EQ(rc.writes, 0);
    EXPECT_EQ(rc.errors, 0);
    EXPECT_EQ(engine_->inflight(), 0);
  }

  std::unique_ptr<TempDir> dir_;
  std::string path_;
  int fd_ = -1;
  std::unique_ptr<AlignedBuffers> buffers_;
  std::unique_ptr<IoEngine> engine_;
};

TEST_P(EngineConformanceTest, BlocksWrittenAtShuffledOffsetsReadBackByteForByte) {
  RoundTrip(kBlockBytes, 0, kBlockBytes);
  struct stat st;
  ASSERT_EQ(fstat(fd_, &st), 0);
  EXPECT_EQ(st.st_size, static_cast<off_t>(kBlocks) * kBlockBytes);
}

TEST_P(EngineConformanceTest, SparseBlocksWithHolesReadBackByteForByte) {
  RoundTrip(kBlockBytes, 3 * kBlockBytes, 5 * kBlockBytes);
}

TEST_P(EngineConformanceTest, UnalignedRecordsReadBackByteForByte) {
  if (GetParam().direct) GTEST_SKIP() << "O_DIRECT needs aligned offsets and lengths";
  RoundTrip(1000, 7, 1000);
}

TEST_P(EngineConformanceTest, FsyncAndFdatasyncCompleteWithResultZero) {
  std::vector<IoRequest> requests;
  for (int i = 0; i < 8; ++i) {
    FillPattern(buffers_->at(i), i * kBlockBytes, kBlockBytes);
    requests.push_back(
        MakeRequest(OpKind::kWrite, fd_, buffers_->at(i), kBlockBytes, i * kBlockBytes, i));
  }
  requests.push_back(MakeRequest(OpKind::kFsync, fd_, nullptr, 0, 0, -1));
  for (int i = 8; i < 12; ++i) {
    FillPattern(buffers_->at(i), i * kBlockBytes, kBlockBytes);
    requests.push_back(
        MakeRequest(OpKind::kWrite, fd_, buffers_->at(i), kBlockBytes, i * kBlockBytes, i));
  }
  IoRequest datasync = MakeRequest(OpKind::kFsync, fd_, nullptr, 0, 0, -1);
  datasync.datasync = true;
  requests.push_back(datasync);

  absl::StatusOr<std::vector<IoRequest*>> done = RunToCompletion(*engine_, requests);
  ASSERT_TRUE(done.ok()) << done.status();
  const IoCounts c = CountCompleted(*done);
  EXPECT_EQ(c.writes, 12);
  EXPECT_EQ(c.write_bytes, 12u * kBlockBytes);
  EXPECT_EQ(c.fsyncs, 2);
  EXPECT_EQ(c.errors, 0);
  for (const IoRequest& r : requests) {
    if (r.op == OpKind::kFsync) {
      EXPECT_EQ(r.result, 0) << (r.datasync ? "fdatasync" : "fsync");
    }
    ExpectTimestampsOrdered(r);
  }
}

TEST_P(EngineConformanceTest, ReadOfABadFdCompletesWithEbadfAndOthersSucceed) {
  ASSERT_NO_FATAL_FAILURE(WritePatternDirectly(4 * kBlockBytes));
  const int closed_fd = open("/dev/null", O_RDONLY);
  ASSERT_GE(closed_fd, 0);
  close(closed_fd);  // nothing else opens files in this test: the number stays free

  std::vector<IoRequest> requests;
  const int fds[] = {fd_, closed_fd, fd_, -1, fd_, fd_};
  for (int i = 0; i < 6; ++i) {
    requests.push_back(
        MakeRequest(OpKind::kRead, fds[i], buffers_->at(i), kBlockBytes, (i % 4) * kBlockBytes, i));
  }
  absl::StatusOr<std::vector<IoRequest*>> done = RunToCompletion(*engine_, requests);
  ASSERT_TRUE(done.ok()) << done.status();
  ASSERT_EQ(done->size(), requests.size());
  for (int i = 0; i < 6; ++i) {
    const IoRequest& r = requests[i];
    if (r.fd == fd_) {
      EXPECT_EQ(r.result, kBlockBytes) << "request " << i;
      EXPECT_EQ(FirstPatternMismatch(buffers_->at(i), r.offset_bytes, kBlockBytes), -1);
    } else {
      EXPECT_EQ(r.result, -EBADF) << "request " << i << " on fd " << r.fd;
    }
    ExpectTimestampsOrdered(r);
  }
  const IoCounts c = CountCompleted(*done);
  EXPECT_EQ(c.reads, 4);
  EXPECT_EQ(c.read_bytes, 4u * kBlockBytes);
  EXPECT_EQ(c.errors, 2);
  EXPECT_EQ(engine_->inflight(), 0);
}

TEST_P(EngineConformanceTest, ShortReadAtEndOfFileReportsTheBytesDone) {
  ASSERT_NO_FATAL_FAILURE(WritePatternDirectly(kBlockBytes + 100));
  std::vector<IoRequest> requests = {
      MakeRequest(OpKind::kRead, fd_, buffers_->at(0), kBlockBytes, kBlockBytes, 0),
      MakeRequest(OpKind::kRead, fd_, buffers_->at(1), kBlockBytes, 2 * kBlockBytes, 1),
  };
  absl::StatusOr<std::vector<IoRequest*>> done = RunToCompletion(*engine_, requests);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_EQ(requests[0].result, 100);
  EXPECT_EQ(FirstPatternMismatch(buffers_->at(0), kBlockBytes, 100), -1);
  EXPECT_EQ(requests[1].result, 0) << "a read wholly past the end transfers nothing";
  const IoCounts c = CountCompleted(*done);
  EXPECT_EQ(c.reads, 2);
  EXPECT_EQ(c.read_bytes, 100u);
}

// A data engine trims with the BLKDISCARD ioctl, as fio 3.33's: a regular file refuses it.
TEST_P(EngineConformanceTest, ATrimOfARegularFileCompletesWithEnotty) {
  std::vector<IoRequest> requests = {
      MakeRequest(OpKind::kTrim, fd_, nullptr, kBlockBytes, 0, -1),
  };
  absl::StatusOr<std::vector<IoRequest*>> done = RunToCompletion(*engine_, requests);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_EQ(requests[0].result, -ENOTTY);
  ExpectTimestampsOrdered(requests[0]);
}

INSTANTIATE_TEST_SUITE_P(AllEnginesAndFileSystems, EngineConformanceTest,
                         ::testing::ValuesIn(AllCases()), CaseName);

}  // namespace
}  // namespace azbench

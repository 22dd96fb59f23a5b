// fio's verify in block-I/O jobs: a write job reads back what it wrote as its reads (the same
// reads fio 3.33 reports), a read job and verify_only check the blocks, and an injected
// corruption is reported with its block's offset and EILSEQ.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/workloads/block_io/block_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/fio_json.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class BlockIoVerifyTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.ok()); }

  JobSpec Job(RwPattern rw, VerifyType type) const {
    JobSpec job;
    job.name = "v";
    job.filename = dir_.File("data");
    job.rw = rw;
    job.size_bytes = 256 << 10;
    job.block_size_bytes = 4096;
    job.verify = type;
    return job;
  }

  static JobResult Run(const JobSpec& spec) {
    absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
    EXPECT_TRUE(job.ok()) << job.status();
    if (!job.ok()) return JobResult();
    absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? std::move(*result) : JobResult();
  }

  static uint64_t Ops(const JobResult& r, OpKind kind) {
    return r.Find(kind) == nullptr ? 0 : r.Find(kind)->ops;
  }
  static uint64_t Bytes(const JobResult& r, OpKind kind) {
    return r.Find(kind) == nullptr ? 0 : r.Find(kind)->bytes;
  }

  void FlipByte(uint64_t offset) const {
    std::fstream f(dir_.File("data"), std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(offset));
    char c = 0;
    f.read(&c, 1);
    c = static_cast<char>(c ^ 0x20);
    f.seekp(static_cast<std::streamoff>(offset));
    f.write(&c, 1);
  }

  testing::TempDir dir_;
};

TEST_F(BlockIoVerifyTest, AWriteJobReadsBackEveryBlockAsItsReads) {
  for (const std::string engine : {"psync", "libaio", "io_uring"}) {
    for (const RwPattern rw : {RwPattern::kWrite, RwPattern::kRandWrite}) {
      JobSpec spec = Job(rw, VerifyType::kCrc32c);
      spec.ioengine = engine;
      spec.iodepth = 8;
      JobResult r = Run(spec);
      EXPECT_EQ(r.error_errno, 0) << engine << ": " << r.error_message;
      EXPECT_EQ(Ops(r, OpKind::kWrite), 64u) << engine;
      EXPECT_EQ(Ops(r, OpKind::kRead), 64u) << engine;
      EXPECT_EQ(Bytes(r, OpKind::kRead), 256u << 10) << engine;
      EXPECT_EQ(r.verify_failures, 0u);
    }
  }
}

// verify_backlog: each block is read back once, after every 16 writes rather than at the end.
TEST_F(BlockIoVerifyTest, VerifyBacklogReadsBackEachBlockOnce) {
  for (const std::string engine : {"psync", "io_uring"}) {
    JobSpec spec = Job(RwPattern::kRandWrite, VerifyType::kSha256);
    spec.ioengine = engine;
    spec.iodepth = 8;
    spec.verify_backlog = 16;
    JobResult r = Run(spec);
    EXPECT_EQ(r.error_errno, 0) << engine << ": " << r.error_message;
    EXPECT_EQ(Ops(r, OpKind::kWrite), 64u) << engine;
    EXPECT_EQ(Ops(r, OpKind::kRead), 64u) << engine;
  }
}

TEST_F(BlockIoVerifyTest, DoVerifyZeroWritesWithoutReadingBack) {
  JobSpec spec = Job(RwPattern::kWrite, VerifyType::kMd5);
  spec.do_verify = false;
  JobResult r = Run(spec);
  EXPECT_EQ(Ops(r, OpKind::kWrite), 64u);
  EXPECT_EQ(Ops(r, OpKind::kRead), 0u);
}

TEST_F(BlockIoVerifyTest, AnInjectedCorruptionIsReportedWithItsBlockAndEilseq) {
  JobSpec write = Job(RwPattern::kWrite, VerifyType::kCrc32c);
  write.do_verify = false;
  ASSERT_EQ(Run(write).error_errno, 0);
  FlipByte(5 * 4096 + 100);

  // verify_only: the job's writes are read back, up to the bad block (the job stops there, as
  // fio's does).
  JobSpec only = write;
  only.verify_only = true;
  JobResult r = Run(only);
  EXPECT_EQ(r.error_errno, EILSEQ);
  EXPECT_EQ(r.verify_failures, 1u);
  EXPECT_THAT(r.verify_failure_offsets, ElementsAre(5u * 4096));
  EXPECT_THAT(r.error_message,
              StartsWith(absl::StrCat("crc32c: verify failed at file ", dir_.File("data"),
                                      " offset 20480, length 4096")));
  EXPECT_EQ(Ops(r, OpKind::kWrite), 0u);
  EXPECT_EQ(Ops(r, OpKind::kRead), 6u);

  // A read job with verify finds the same block.
  JobSpec read = Job(RwPattern::kRead, VerifyType::kCrc32c);
  r = Run(read);
  EXPECT_EQ(r.error_errno, EILSEQ);
  EXPECT_THAT(r.verify_failure_offsets, ElementsAre(5u * 4096));
}

// fio 3.33 on the same files (two bad blocks, a read job with continue_on_error=verify): error 84,
// total_err 2, first_error 84, all 64 reads, exit 0.
TEST_F(BlockIoVerifyTest, ContinueOnErrorVerifyCountsEachBadBlockAndReadsOn) {
  JobSpec write = Job(RwPattern::kWrite, VerifyType::kCrc32c);
  write.do_verify = false;
  ASSERT_EQ(Run(write).error_errno, 0);
  FlipByte(5 * 4096 + 100);
  FlipByte(9 * 4096 + 100);
  JobSpec read = Job(RwPattern::kRead, VerifyType::kCrc32c);
  ASSERT_TRUE(ApplyJobOption(read, "continue_on_error", "verify").ok());
  const JobResult r = Run(read);
  EXPECT_EQ(r.error_errno, 0) << r.error_message;
  EXPECT_EQ(r.verify_failures, 2u);
  EXPECT_THAT(r.verify_failure_offsets, ElementsAre(5u * 4096, 9u * 4096));
  EXPECT_EQ(Ops(r, OpKind::kRead), 64u);
  EXPECT_EQ(r.total_err_count, 2u);
  EXPECT_EQ(r.first_error, EILSEQ);
}

TEST_F(BlockIoVerifyTest, ReadBackChecksTheNumberOfEachWrite) {
  JobSpec write = Job(RwPattern::kWrite, VerifyType::kXxhash);
  write.do_verify = false;
  ASSERT_EQ(Run(write).error_errno, 0);
  // A randwrite job's verify_only expects the seeds and numbers of its own writes: the blocks the
  // sequential job wrote carry others.
  JobSpec other = Job(RwPattern::kRandWrite, VerifyType::kXxhash);
  other.verify_only = true;
  JobResult r = Run(other);
  EXPECT_EQ(r.error_errno, EILSEQ);
  EXPECT_THAT(r.error_message, HasSubstr("verify: bad header"));
}

// The same job in fio 3.33 and azbench: the same reads and writes (io_bytes and total_ios).
TEST_F(BlockIoVerifyTest, ReadsAndWritesAreFios) {
  if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
      !missing.empty()) {
    FAIL() << missing;
  }
  for (const char* rw : {"write", "randwrite"}) {
    const std::string json = dir_.File("fio.json");
    testing::Subprocess fio({testing::kFioBinary, "--name=v", "--filename=" + dir_.File("fio-data"),
                             absl::StrCat("--rw=", rw), "--bs=4k", "--size=256k", "--verify=crc32c",
                             "--verify_state_save=0", "--output-format=json", "--output=" + json},
                            dir_.File("fio-output.txt"));
    ASSERT_EQ(fio.Wait(std::chrono::seconds(60)), 0) << fio.Output();
    const nlohmann::json doc = testing::LoadFioJson(json);
    ASSERT_FALSE(doc.is_discarded());
    const nlohmann::json& job = doc["jobs"][0];
    JobResult r = Run(Job(std::string(rw) == "write" ? RwPattern::kWrite : RwPattern::kRandWrite,
                          VerifyType::kCrc32c));
    EXPECT_EQ(Ops(r, OpKind::kRead), job["read"]["total_ios"].get<uint64_t>()) << rw;
    EXPECT_EQ(Bytes(r, OpKind::kRead), job["read"]["io_bytes"].get<uint64_t>()) << rw;
    EXPECT_EQ(Ops(r, OpKind::kWrite), job["write"]["total_ios"].get<uint64_t>()) << rw;
    EXPECT_EQ(Bytes(r, OpKind::kWrite), job["write"]["io_bytes"].get<uint64_t>()) << rw;
  }
}

// fio 3.33 checks a file azbench wrote: with a read job for every header type, and with
// verify_only for a pattern (whose headers carry seed 0 in both tools).
TEST_F(BlockIoVerifyTest, FioVerifiesWhatAzbenchWrote) {
  if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
      !missing.empty()) {
    FAIL() << missing;
  }
  auto fio = [&](std::vector<std::string> args) {
    std::vector<std::string> argv = {testing::kFioBinary, "--name=v",
                                     "--filename=" + dir_.File("data"), "--bs=4k", "--size=256k",
                                     // no verify state file in the working directory
                                     "--verify_state_save=0"};
    argv.insert(argv.end(), args.begin(), args.end());
    testing::Subprocess p(argv, dir_.File("fio-output.txt"));
    const int code = p.Wait(std::chrono::seconds(60));
    return std::make_pair(code, p.Output());
  };
  JobSpec write = Job(RwPattern::kWrite, VerifyType::kMd5);
  write.do_verify = false;
  ASSERT_EQ(Run(write).error_errno, 0);
  auto [code, out] = fio({"--rw=read", "--verify=md5"});
  EXPECT_EQ(code, 0) << out;

  write.verify.reset();
  write.verify_pattern = "\x12\x34\x56";
  ASSERT_EQ(Run(write).error_errno, 0);
  std::tie(code, out) = fio({"--rw=write", "--verify_pattern=0x123456", "--verify_only=1"});
  EXPECT_EQ(code, 0) << out;
  FlipByte(7 * 4096 + 50);
  std::tie(code, out) = fio({"--rw=write", "--verify_pattern=0x123456", "--verify_only=1"});
  EXPECT_NE(code, 0);
  EXPECT_THAT(out, HasSubstr("offset 28672"));
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The test process works in `dir` while it lives (verify_dump writes in the current directory).
class WorkingDirectory {
 public:
  explicit WorkingDirectory(const std::string& dir) : previous_(fs::current_path()) {
    fs::current_path(dir);
  }
  ~WorkingDirectory() { fs::current_path(previous_); }

 private:
  fs::path previous_;
};

// verify_dump as fio's: <file>.<offset>.received holds the interval as read and .expected as it
// was written; a bad header gives <file>.<offset>.hdr_fail alone. fio 3.33 on the same file names
// the same files and reads the same bytes (its .expected is its own random data).
TEST_F(BlockIoVerifyTest, VerifyDumpWritesTheBadIntervalAsReadAndAsWritten) {
  if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
      !missing.empty()) {
    FAIL() << missing;
  }
  JobSpec write = Job(RwPattern::kWrite, VerifyType::kCrc32c);
  write.do_verify = false;
  ASSERT_EQ(Run(write).error_errno, 0);
  const std::string written = ReadFile(dir_.File("data")).substr(5 * 4096, 4096);
  FlipByte(5 * 4096 + 100);
  const std::string read = ReadFile(dir_.File("data")).substr(5 * 4096, 4096);
  ASSERT_NE(read, written);

  const std::string az_dir = dir_.File("azbench"), fio_dir = dir_.File("fio");
  fs::create_directories(az_dir);
  fs::create_directories(fio_dir);
  JobSpec check = Job(RwPattern::kRead, VerifyType::kCrc32c);
  check.verify_dump = true;
  {
    WorkingDirectory in(az_dir);
    EXPECT_EQ(Run(check).error_errno, EILSEQ);
  }
  testing::Subprocess fio({"/usr/bin/env", "--chdir=" + fio_dir, testing::kFioBinary, "--name=v",
                           "--filename=" + dir_.File("data"), "--bs=4k", "--size=256k", "--rw=read",
                           "--verify=crc32c", "--verify_dump=1", "--verify_state_save=0"},
                          dir_.File("fio-output.txt"));
  EXPECT_NE(fio.Wait(std::chrono::seconds(60)), 0) << fio.Output();
  auto names = [](const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& entry : fs::directory_iterator(dir)) {
      out.push_back(entry.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_THAT(names(az_dir), ElementsAre("data.20480.expected", "data.20480.received"));
  EXPECT_EQ(names(az_dir), names(fio_dir)) << fio.Output();
  EXPECT_EQ(ReadFile(az_dir + "/data.20480.received"), read);
  EXPECT_EQ(ReadFile(fio_dir + "/data.20480.received"), read);
  EXPECT_EQ(ReadFile(az_dir + "/data.20480.expected"), written);

  // A bad header (its magic): the bytes as read, and nothing to make the written ones from.
  ASSERT_EQ(Run(write).error_errno, 0);
  FlipByte(2 * 4096);
  fs::remove_all(az_dir);
  fs::create_directories(az_dir);
  {
    WorkingDirectory in(az_dir);
    EXPECT_EQ(Run(check).error_errno, EILSEQ);
  }
  EXPECT_THAT(names(az_dir), ElementsAre("data.8192.hdr_fail"));
  EXPECT_EQ(ReadFile(az_dir + "/data.8192.hdr_fail"),
            ReadFile(dir_.File("data")).substr(2 * 4096, 4096));
}

}  // namespace
}  // namespace azbench

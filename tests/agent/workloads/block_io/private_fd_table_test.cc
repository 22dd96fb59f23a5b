// PrivateFdTable: a thread's own descriptor table holds descriptors 0-2 and the files it was
// given, at their numbers, and nothing else of the process's; it is taken only where the copies
// the kernel closes on the way flush nothing; the process's descriptors stay open through and
// after.
#include "agent/workloads/block_io/private_fd_table.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <set>
#include <string>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

bool IsOpen(int fd) { return fcntl(fd, F_GETFD) >= 0; }

// The descriptors of the calling thread's table (/proc/thread-self/fd), without the one that
// reads the directory.
std::set<int> ThreadDescriptors() {
  std::set<int> fds;
  DIR* dir = opendir("/proc/thread-self/fd");
  if (dir == nullptr) return fds;
  const int own = dirfd(dir);
  while (const dirent* e = readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    const int fd = std::atoi(e->d_name);
    if (fd != own) fds.insert(fd);
  }
  closedir(dir);
  return fds;
}

bool SameFile(int a, int b) {
  struct stat sa, sb;
  return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

class PrivateFdTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    job_fd_ = open(dir_.File("job").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    other_fd_ = open(dir_.File("other").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    ASSERT_GE(job_fd_, 0);
    ASSERT_GE(other_fd_, 0);
  }
  void TearDown() override {
    if (job_fd_ >= 0) close(job_fd_);
    if (other_fd_ >= 0) close(other_fd_);
  }

  testing::TempDir dir_{testing::kTmpfsBase};  // tmpfs: a file system whose close flushes nothing
  int job_fd_ = -1;
  int other_fd_ = -1;
};

TEST_F(PrivateFdTableTest, TheThreadHoldsOnlyItsFilesAtTheirNumbersAndTheProcessKeepsAll) {
  std::thread([&] {
    PrivateFdTable table;
    const absl::Status taken = table.Take({job_fd_});
    ASSERT_TRUE(taken.ok()) << taken;
    EXPECT_TRUE(table.taken());
    EXPECT_EQ(ThreadDescriptors(), (std::set<int>{0, 1, 2, job_fd_}))
        << "0-2 and the job's file: no pidfd, no temporary copy, nothing else of the process's";
    errno = 0;
    EXPECT_FALSE(IsOpen(other_fd_));
    EXPECT_EQ(errno, EBADF) << "another file's number reaches nothing on this thread";
    // The same open file, not a reopening: the file offset is shared with the process's.
    ASSERT_EQ(write(job_fd_, "abc", 3), 3);
    table.Release();
    EXPECT_FALSE(IsOpen(job_fd_)) << "Release closes the thread's copy";
    EXPECT_EQ(ThreadDescriptors(), (std::set<int>{0, 1, 2}));
  }).join();
  EXPECT_TRUE(IsOpen(job_fd_));
  EXPECT_TRUE(IsOpen(other_fd_));
  EXPECT_EQ(lseek(job_fd_, 0, SEEK_CUR), 3) << "the thread wrote through the process's open file";
  struct stat st;
  ASSERT_EQ(fstat(job_fd_, &st), 0);
  EXPECT_EQ(st.st_size, 3);
}

TEST_F(PrivateFdTableTest, AFileOnTheNumberThePidfdTakesIsFilledToo) {
  // In the new table the pidfd takes 3, the lowest number above 0-2: a job file numbered 3 in
  // the process must still arrive, and the pidfd must not stay behind.
  int three = -1;
  if (!IsOpen(3)) {
    three = dup3(other_fd_, 3, O_CLOEXEC);
    ASSERT_EQ(three, 3);
  }
  std::thread([&] {
    PrivateFdTable table;
    const absl::Status taken = table.Take({3, job_fd_});
    ASSERT_TRUE(taken.ok()) << taken;
    EXPECT_EQ(ThreadDescriptors(), (std::set<int>{0, 1, 2, 3, job_fd_}));
  }).join();
  // Compared on this thread: the process's 3 is still there, and it is still what it was.
  EXPECT_TRUE(IsOpen(3));
  if (three >= 0) {
    EXPECT_TRUE(SameFile(3, other_fd_));
    close(three);
  }
}

TEST_F(PrivateFdTableTest, TheThreadsCopyIsTheProcesssOpenFile) {
  std::thread([&] {
    PrivateFdTable table;
    ASSERT_TRUE(table.Take({job_fd_, job_fd_, 1}).ok()) << "duplicates and 0-2 are accepted";
    // fstat through the thread's number, compared with the path the process opened.
    struct stat by_fd, by_path;
    ASSERT_EQ(fstat(job_fd_, &by_fd), 0);
    ASSERT_EQ(stat(dir_.File("job").c_str(), &by_path), 0);
    EXPECT_EQ(by_fd.st_ino, by_path.st_ino);
  }).join();
}

TEST_F(PrivateFdTableTest, ADescriptorWhoseCloseMayFlushKeepsTheThreadOnTheSharedTable) {
  // close_range's unshare copies descriptors 0-63 and closes the copies of 3-63: a file there
  // whose close may flush (NFS, FUSE; here a device other than /dev/null stands in) must not be.
  int zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(zero, 0);
  if (zero >= kCopiedDescriptors) {
    int low = 3;
    while (IsOpen(low)) ++low;
    ASSERT_LT(low, kCopiedDescriptors);
    ASSERT_EQ(dup3(zero, low, O_CLOEXEC), low);
    close(zero);
    zero = low;
  }
  std::thread([&] {
    PrivateFdTable table;
    const absl::Status taken = table.Take({job_fd_});
    EXPECT_EQ(taken.code(), absl::StatusCode::kUnavailable) << taken;
    EXPECT_THAT(std::string(taken.message()), HasSubstr("descriptor " + std::to_string(zero)));
    EXPECT_FALSE(table.taken());
    EXPECT_TRUE(IsOpen(other_fd_)) << "still on the shared table";
  }).join();
  close(zero);
}

TEST_F(PrivateFdTableTest, TheMainThreadIsRefusedAndKeepsEveryDescriptor) {
  PrivateFdTable table;
  EXPECT_EQ(table.Take({job_fd_}).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE(table.taken());
  EXPECT_TRUE(IsOpen(job_fd_));
  EXPECT_TRUE(IsOpen(other_fd_));
}

TEST_F(PrivateFdTableTest, ReservedLowSlotsPutLaterFilesAboveTheCopiedOnes) {
  ReserveLowDescriptors();
  for (int fd = 3; fd < kCopiedDescriptors; ++fd) EXPECT_TRUE(IsOpen(fd)) << fd;
  const int later = open(dir_.File("later").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(later, kCopiedDescriptors);
  std::thread([&] {
    PrivateFdTable table;
    const absl::Status taken = table.Take({later});
    ASSERT_TRUE(taken.ok()) << taken << ": /dev/null placeholders flush nothing";
    EXPECT_EQ(ThreadDescriptors(), (std::set<int>{0, 1, 2, later}));
  }).join();
  EXPECT_TRUE(IsOpen(later));
  close(later);
}

TEST_F(PrivateFdTableTest, ADescriptorTheProcessDoesNotHoldFailsNamingIt) {
  int missing = 1000;
  while (IsOpen(missing)) ++missing;
  std::thread([&] {
    PrivateFdTable table;
    const absl::Status taken = table.Take({job_fd_, missing});
    EXPECT_EQ(taken.code(), absl::StatusCode::kInternal) << taken;
    EXPECT_THAT(std::string(taken.message()),
                HasSubstr("copying descriptor " + std::to_string(missing)));
    EXPECT_TRUE(table.taken()) << "the thread left the shared table and must not go on";
  }).join();
  EXPECT_TRUE(IsOpen(job_fd_));
}

TEST_F(PrivateFdTableTest, ASecondTakeIsRefused) {
  std::thread([&] {
    PrivateFdTable table;
    ASSERT_TRUE(table.Take({job_fd_}).ok());
    EXPECT_EQ(table.Take({job_fd_}).code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_TRUE(IsOpen(job_fd_));
  }).join();
}

}  // namespace
}  // namespace azbench

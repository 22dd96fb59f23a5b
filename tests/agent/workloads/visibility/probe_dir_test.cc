// ProbeDir: everything below a probe's directory through its descriptor, no symlink followed.
#include "agent/workloads/visibility/probe_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "agent/workloads/visibility/probe_clock.h"
#include "agent/workloads/visibility/probe_content.h"
#include "agent/workloads/visibility/visibility.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

class ProbeDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    base_ = dir_.File("base");
    outside_ = dir_.File("outside");
    fs::create_directories(base_);
    fs::create_directories(outside_);
    absl::StatusOr<ProbeDir> opened = ProbeDir::Open(base_, "directory");
    ASSERT_TRUE(opened.ok()) << opened.status();
    probe_dir_ = *opened;
  }
  testing::TempDir dir_;
  std::string base_, outside_;
  ProbeDir probe_dir_;
};

TEST_F(ProbeDirTest, SubdirCreatesWhatIsMissingBeneathTheOpenedParent) {
  absl::StatusOr<ProbeDir> sub = probe_dir_.Subdir("a/./b//c", "rel_dir", /*create=*/true);
  ASSERT_TRUE(sub.ok()) << sub.status();
  EXPECT_TRUE(fs::is_directory(base_ + "/a/b/c"));
  EXPECT_EQ(sub->path(), base_ + "/a/b/c");
  absl::StatusOr<std::optional<ProbeDir>> missing = probe_dir_.SubdirIfExists("x/y", "rel_dir");
  ASSERT_TRUE(missing.ok()) << missing.status();
  EXPECT_FALSE(missing->has_value());
  EXPECT_FALSE(fs::exists(base_ + "/x")) << "nothing is made without create";
}

TEST_F(ProbeDirTest, ASymlinkOrDotDotAtAnyComponentIsRefusedNamingTheFieldAndThePath) {
  fs::create_directories(base_ + "/a");
  fs::create_directory_symlink(outside_, base_ + "/a/link");
  for (bool create : {false, true}) {
    absl::StatusOr<ProbeDir> sub = probe_dir_.Subdir("a/link/deeper", "rel_dir", create);
    EXPECT_EQ(sub.status().code(), absl::StatusCode::kPermissionDenied) << sub.status();
    EXPECT_THAT(std::string(sub.status().message()),
                HasSubstr("rel_dir 'a/link/deeper': '" + base_ + "/a/link' is a symlink"));
  }
  EXPECT_TRUE(testing::DirectoryNames(outside_).empty()) << "created through the symlink";
  absl::StatusOr<ProbeDir> up = probe_dir_.Subdir("a/../..", "rel_dir", false);
  EXPECT_EQ(up.status().code(), absl::StatusCode::kPermissionDenied) << up.status();
  // A file where a directory should be is not a directory, and not followed either.
  std::ofstream(base_ + "/file") << "x";
  EXPECT_EQ(probe_dir_.Subdir("file/x", "rel_dir", true).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST_F(ProbeDirTest, FileOperationsTouchTheEntryNeverTheSymlinksTarget) {
  std::ofstream(outside_ + "/target") << "precious";
  fs::create_symlink(outside_ + "/target", base_ + "/link");
  absl::StatusOr<int> fd = probe_dir_.OpenFile("link", O_WRONLY | O_TRUNC, 0, "probe file");
  EXPECT_EQ(fd.status().code(), absl::StatusCode::kPermissionDenied) << fd.status();
  EXPECT_THAT(std::string(fd.status().message()),
              HasSubstr("probe file '" + base_ + "/link' is a symlink"));
  EXPECT_EQ(probe_dir_.ReadIfExists("link", "probe file").status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(probe_dir_.Stat("link", "probe file").status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(probe_dir_.OpenFile("a/b", O_RDONLY, 0, "probe file").status().code(),
            absl::StatusCode::kInvalidArgument)
      << "a name with '/' would walk the components before it";
  ASSERT_TRUE(probe_dir_.Unlink("link").ok());
  EXPECT_FALSE(fs::is_symlink(base_ + "/link"));
  EXPECT_EQ(testing::FileContents(outside_ + "/target"), "precious");
  // Absent entries: nothing, not an error.
  absl::StatusOr<std::optional<std::string>> absent = probe_dir_.ReadIfExists("none", "f");
  ASSERT_TRUE(absent.ok()) << absent.status();
  EXPECT_FALSE(absent->has_value());
  EXPECT_TRUE(probe_dir_.Unlink("none").ok());
}

// A symlink where a probe file goes (a name planted under the probe's directory) is refused by
// the writer and by every read method, never followed: the file it points at is neither written
// nor read.
TEST_F(ProbeDirTest, AProbeFileNameThatIsASymlinkIsRefusedByTheWriterAndTheReaders) {
  RealProbeClock clock;
  std::ofstream(outside_ + "/target") << MakeProbeContent(5, 256);
  fs::create_symlink(outside_ + "/target", base_ + "/p");
  int fd = -1;
  absl::StatusOr<absl::Time> written =
      WriteProbeFile(probe_dir_, "p", 7, {.size_bytes = 256}, clock, &fd);
  EXPECT_EQ(written.status().code(), absl::StatusCode::kPermissionDenied) << written.status();
  EXPECT_THAT(std::string(written.status().message()),
              HasSubstr("probe file (named after run_id) '" + base_ + "/p' is a symlink"));
  EXPECT_EQ(testing::FileContents(outside_ + "/target"), MakeProbeContent(5, 256));
  for (auto m : {VisibilityReadMethod::kStat, VisibilityReadMethod::kOpenRead}) {
    absl::StatusOr<bool> seen = CheckProbeVisible(probe_dir_, "p", 5, 256, m);
    EXPECT_EQ(seen.status().code(), absl::StatusCode::kPermissionDenied)
        << VisibilityReadMethodName(m);
  }
}

// A FIFO at a probe file's name would block the writer's or a reader's open (or read) for ever,
// where neither a cancel nor a lease could end it: every one of them refuses it at once.
TEST_F(ProbeDirTest, AFifoAtAProbeFilesNameIsRefusedWithoutBlocking) {
  const std::string fifo = base_ + "/p";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  std::future<std::vector<absl::Status>> attempt = std::async(std::launch::async, [&] {
    RealProbeClock clock;
    int fd = -1;
    std::vector<absl::Status> results;
    results.push_back(WriteProbeFile(probe_dir_, "p", 7, {.size_bytes = 256}, clock, &fd).status());
    for (auto m : {VisibilityReadMethod::kStat, VisibilityReadMethod::kOpenRead}) {
      results.push_back(CheckProbeVisible(probe_dir_, "p", 7, 256, m).status());
    }
    results.push_back(probe_dir_.ReadIfExists("p", "field").status());
    return results;
  });
  if (attempt.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    // Let the blocked open (and read) through, so the test ends: a writer and reader in turn.
    while (attempt.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
      const int fd = open(fifo.c_str(), O_RDWR | O_NONBLOCK);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (fd >= 0) close(fd);
    }
    FAIL() << "an open or a read of the FIFO blocked";
  }
  for (const absl::Status& s : attempt.get()) {
    EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied) << s;
    EXPECT_THAT(std::string(s.message()), HasSubstr("'" + fifo + "' is not a regular file"));
  }
}

// A hard link at a probe file's name may be any file of the export (another NFS client's root can
// link one in): the writer refuses it without truncating or writing it, and the readers refuse it
// instead of counting it as a sighting.
TEST_F(ProbeDirTest, AHardLinkAtAProbeFilesNameIsRefusedAndTheLinkedFileIsUnchanged) {
  RealProbeClock clock;
  const std::string precious = outside_ + "/precious";
  std::ofstream(precious) << MakeProbeContent(5, 256);
  ASSERT_EQ(link(precious.c_str(), (base_ + "/p").c_str()), 0);
  for (bool rename_into_place : {false, true}) {
    if (rename_into_place) {
      ASSERT_EQ(link(precious.c_str(), (base_ + "/.p.azbench-tmp").c_str()), 0);
    }
    int fd = -1;
    absl::StatusOr<absl::Time> written =
        WriteProbeFile(probe_dir_, "p", 7,
                       {.rename_into_place = rename_into_place, .size_bytes = 256}, clock, &fd);
    EXPECT_EQ(written.status().code(), absl::StatusCode::kPermissionDenied) << written.status();
    EXPECT_THAT(std::string(written.status().message()), HasSubstr("hard links"));
    EXPECT_EQ(testing::FileContents(precious), MakeProbeContent(5, 256));
  }
  for (auto m : {VisibilityReadMethod::kStat, VisibilityReadMethod::kOpenRead}) {
    absl::StatusOr<bool> seen = CheckProbeVisible(probe_dir_, "p", 5, 256, m);
    EXPECT_EQ(seen.status().code(), absl::StatusCode::kPermissionDenied)
        << VisibilityReadMethodName(m) << " " << seen.status();
  }
}

// A regular file of the probe's own (one link) already at the name is rewritten, as before.
TEST_F(ProbeDirTest, ALeftoverRegularFileAtAProbeFilesNameIsRewritten) {
  RealProbeClock clock;
  std::ofstream(base_ + "/p") << std::string(10000, 'x');
  int fd = -1;
  absl::StatusOr<absl::Time> written =
      WriteProbeFile(probe_dir_, "p", 7, {.size_bytes = 256}, clock, &fd);
  ASSERT_TRUE(written.ok()) << written.status();
  EXPECT_EQ(testing::FileContents(base_ + "/p"), MakeProbeContent(7, 256));
  absl::StatusOr<bool> seen =
      CheckProbeVisible(probe_dir_, "p", 7, 256, VisibilityReadMethod::kOpenRead);
  ASSERT_TRUE(seen.ok()) << seen.status();
  EXPECT_TRUE(*seen);
}

}  // namespace
}  // namespace azbench

// ProbeDir: everything below a probe's directory through its descriptor, no symlink followed.
#include "agent/workloads/probe_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "agent/workloads/probe_clock.h"
#include "agent/workloads/probe_content.h"
#include "agent/workloads/visibility.h"
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

}  // namespace
}  // namespace azbench

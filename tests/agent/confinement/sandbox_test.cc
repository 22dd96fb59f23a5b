#include "agent/confinement/sandbox.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// Unmounts at scope exit, also when the test fails.
class MountGuard {
 public:
  explicit MountGuard(std::string target) : target_(std::move(target)) {}
  ~MountGuard() {
    if (!target_.empty()) umount2(target_.c_str(), MNT_DETACH);
  }

 private:
  std::string target_;
};

bool Exists(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

class SandboxTest : public ::testing::TestWithParam<Sandbox::Resolver> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(base_.ok());
    root_ = base_.File("root");
    outside_ = base_.File("outside");
    fs::create_directories(root_);
    fs::create_directories(outside_);
  }
  Sandbox MakeSandbox() {
    absl::StatusOr<Sandbox> sandbox = Sandbox::Create({root_}, GetParam());
    EXPECT_TRUE(sandbox.ok()) << sandbox.status();
    return std::move(*sandbox);
  }

  testing::TempDir base_{testing::kDiskBase};
  std::string root_;
  std::string outside_;
};

TEST_P(SandboxTest, CreatesMissingDirectoriesBeneathTheRootAndFilesGoThroughTheDescriptor) {
  Sandbox sandbox = MakeSandbox();
  absl::StatusOr<ConfinedDir> dir = sandbox.OpenDirectory(root_ + "/a/b/c", true);
  ASSERT_TRUE(dir.ok()) << dir.status();
  EXPECT_TRUE(fs::is_directory(root_ + "/a/b/c"));
  EXPECT_EQ(dir->path(), root_ + "/a/b/c");
  const int fd = open((dir->FdPath() + "/data").c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  close(fd);
  EXPECT_TRUE(Exists(root_ + "/a/b/c/data"));
}

TEST_P(SandboxTest, MissingDirectoryWithoutCreateIsNotFound) {
  Sandbox sandbox = MakeSandbox();
  absl::StatusOr<ConfinedDir> dir = sandbox.OpenDirectory(root_ + "/nope", false);
  EXPECT_EQ(dir.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(dir.status().message(), HasSubstr(root_ + "/nope"));
  EXPECT_FALSE(Exists(root_ + "/nope"));
}

TEST_P(SandboxTest, PathOutsideEveryRootIsRefusedNamingTheRoots) {
  Sandbox sandbox = MakeSandbox();
  absl::StatusOr<ConfinedDir> dir = sandbox.OpenDirectory(outside_, true);
  EXPECT_EQ(dir.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(dir.status().message(), HasSubstr("not beneath any allowed root"));
  EXPECT_THAT(dir.status().message(), HasSubstr(root_));
}

TEST_P(SandboxTest, DotDotCannotClimbOutOfTheRoot) {
  Sandbox sandbox = MakeSandbox();
  absl::StatusOr<ConfinedDir> dir = sandbox.OpenDirectory(root_ + "/../outside/x", true);
  EXPECT_EQ(dir.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_FALSE(Exists(outside_ + "/x"));
  // A root name that is a prefix of another directory's name does not contain it.
  fs::create_directories(root_ + "2");
  EXPECT_EQ(sandbox.OpenDirectory(root_ + "2", false).status().code(),
            absl::StatusCode::kPermissionDenied);
}

TEST_P(SandboxTest, AbsoluteSymlinkOutOfTheRootIsRefused) {
  Sandbox sandbox = MakeSandbox();
  fs::create_directory_symlink(outside_, root_ + "/escape");
  for (bool create : {false, true}) {
    absl::StatusOr<ConfinedDir> dir = sandbox.OpenDirectory(root_ + "/escape/sub", create);
    EXPECT_EQ(dir.status().code(), absl::StatusCode::kPermissionDenied) << dir.status();
  }
  EXPECT_FALSE(Exists(outside_ + "/sub"));
  EXPECT_EQ(sandbox.OpenDirectory(root_ + "/escape", false).status().code(),
            absl::StatusCode::kPermissionDenied);
}

TEST_P(SandboxTest, RelativeSymlinkOutOfTheRootIsRefused) {
  Sandbox sandbox = MakeSandbox();
  fs::create_directories(root_ + "/a");
  fs::create_directory_symlink("../../outside", root_ + "/a/up");
  absl::StatusOr<ConfinedDir> dir = sandbox.OpenDirectory(root_ + "/a/up", false);
  EXPECT_EQ(dir.status().code(), absl::StatusCode::kPermissionDenied) << dir.status();
  EXPECT_THAT(dir.status().message(), HasSubstr(root_));
}

TEST_P(SandboxTest, SymlinkInsideTheRootFollowsOnlyWithOpenat2) {
  Sandbox sandbox = MakeSandbox();
  fs::create_directories(root_ + "/real");
  fs::create_directory_symlink("real", root_ + "/alias");
  absl::StatusOr<ConfinedDir> dir = sandbox.OpenDirectory(root_ + "/alias", false);
  if (GetParam() == Sandbox::Resolver::kWalk) {
    // The fallback refuses every symlink: stricter, never looser.
    EXPECT_FALSE(dir.ok());
    EXPECT_NE(dir.status().code(), absl::StatusCode::kOk);
  } else {
    ASSERT_TRUE(dir.ok()) << dir.status();
    struct stat a, b;
    ASSERT_EQ(fstat(dir->fd(), &a), 0);
    ASSERT_EQ(stat((root_ + "/real").c_str(), &b), 0);
    EXPECT_EQ(a.st_ino, b.st_ino);
  }
}

TEST_P(SandboxTest, MountPointBeneathTheRootIsRefused) {
  // A bind mount of a directory outside the root (the same file system: st_dev alone cannot tell).
  fs::create_directories(root_ + "/bound");
  if (mount(outside_.c_str(), (root_ + "/bound").c_str(), nullptr, MS_BIND, nullptr) != 0) {
    GTEST_SKIP() << "cannot bind-mount here (" << std::strerror(errno) << "): needs root";
  }
  MountGuard guard(root_ + "/bound");
  Sandbox sandbox = MakeSandbox();
  absl::StatusOr<ConfinedDir> dir = sandbox.OpenDirectory(root_ + "/bound/sub", true);
  EXPECT_EQ(dir.status().code(), absl::StatusCode::kPermissionDenied) << dir.status();
  EXPECT_THAT(dir.status().message(), HasSubstr("mount"));
  EXPECT_FALSE(Exists(outside_ + "/sub"));
  // Configured as its own root, the mount point is fine.
  absl::StatusOr<Sandbox> own = Sandbox::Create({root_, root_ + "/bound"}, GetParam());
  ASSERT_TRUE(own.ok()) << own.status();
  EXPECT_TRUE(own->OpenDirectory(root_ + "/bound/sub", true).ok());
  EXPECT_TRUE(Exists(outside_ + "/sub"));
}

TEST_P(SandboxTest, DirectorySwappedForASymlinkAfterOpeningChangesNothing) {
  Sandbox sandbox = MakeSandbox();
  absl::StatusOr<ConfinedDir> dir = sandbox.OpenDirectory(root_ + "/job", true);
  ASSERT_TRUE(dir.ok()) << dir.status();
  // The race: the checked directory is renamed away and replaced by a symlink to the outside.
  fs::rename(root_ + "/job", root_ + "/moved");
  fs::create_directory_symlink(outside_, root_ + "/job");
  const int fd = open((dir->FdPath() + "/file").c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  close(fd);
  EXPECT_TRUE(Exists(root_ + "/moved/file"));
  EXPECT_FALSE(Exists(outside_ + "/file"));
}

TEST_P(SandboxTest, RootGivenThroughASymlinkMatchesBothSpellings) {
  const std::string link = base_.File("rootlink");
  fs::create_directory_symlink(root_, link);
  absl::StatusOr<Sandbox> sandbox = Sandbox::Create({link}, GetParam());
  ASSERT_TRUE(sandbox.ok()) << sandbox.status();
  EXPECT_TRUE(sandbox->OpenDirectory(link + "/x", true).ok());
  EXPECT_TRUE(sandbox->OpenDirectory(root_ + "/x", false).ok());
  EXPECT_TRUE(fs::is_directory(root_ + "/x"));
}

INSTANTIATE_TEST_SUITE_P(Resolvers, SandboxTest,
                         ::testing::Values(Sandbox::Resolver::kAuto, Sandbox::Resolver::kWalk),
                         [](const ::testing::TestParamInfo<Sandbox::Resolver>& info) {
                           return info.param == Sandbox::Resolver::kAuto ? "openat2" : "walk";
                         });

TEST(SandboxCreateTest, RefusesAnEmptyListAMissingRootAndARelativeRoot) {
  EXPECT_THAT(Sandbox::Create({}).status().message(), HasSubstr("allowed_roots is empty"));
  EXPECT_EQ(Sandbox::Create({"/nonexistent/azbench-root"}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Sandbox::Create({"relative/root"}).status().message(), HasSubstr("absolute"));
}

TEST(SandboxCreateTest, UnrestrictedOpensAnyAbsolutePath) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  Sandbox sandbox = Sandbox::Unrestricted();
  EXPECT_TRUE(sandbox.unrestricted());
  absl::StatusOr<ConfinedDir> opened = sandbox.OpenDirectory(dir.File("p/q"), true);
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_TRUE(fs::is_directory(dir.File("p/q")));
}

TEST(NormalizeAbsolutePathTest, CollapsesDotsAndSlashes) {
  EXPECT_EQ(*NormalizeAbsolutePath("/a//b/./c/"), "/a/b/c");
  EXPECT_EQ(*NormalizeAbsolutePath("/a/b/../c"), "/a/c");
  EXPECT_EQ(*NormalizeAbsolutePath("/../../x"), "/x");
  EXPECT_EQ(*NormalizeAbsolutePath("/"), "/");
  EXPECT_FALSE(NormalizeAbsolutePath("a/b").ok());
  EXPECT_FALSE(NormalizeAbsolutePath("").ok());
  EXPECT_FALSE(NormalizeAbsolutePath(std::string("/a\0b", 4)).ok());
}

TEST(CheckFileNameTest, OnlyPlainComponents) {
  EXPECT_TRUE(CheckFileName("data.0.0", "filename").ok());
  for (const std::string& bad :
       std::vector<std::string>{"", ".", "..", "a/b", "../x", std::string(256, 'n')}) {
    absl::Status status = CheckFileName(bad, "filename");
    EXPECT_EQ(status.code(), absl::StatusCode::kPermissionDenied) << bad;
    EXPECT_THAT(status.message(), HasSubstr("filename")) << bad;
  }
}

TEST(CheckFreeSpaceTest, KeepsTheMinimumFreeOnASmallTmpfs) {
  testing::ScopedMount tmpfs("tmpfs", "4m");
  if (!tmpfs.mounted()) GTEST_SKIP() << "cannot mount tmpfs: " << tmpfs.error();
  absl::StatusOr<Sandbox> sandbox = Sandbox::Create({tmpfs.path()});
  ASSERT_TRUE(sandbox.ok()) << sandbox.status();
  absl::StatusOr<ConfinedDir> dir = sandbox->OpenDirectory(tmpfs.path(), false);
  ASSERT_TRUE(dir.ok()) << dir.status();
  constexpr uint64_t kMiB = 1 << 20;
  EXPECT_TRUE(CheckFreeSpace(*dir, 1 * kMiB, 0).ok());
  absl::Status too_big = CheckFreeSpace(*dir, 8 * kMiB, 0);
  EXPECT_EQ(too_big.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(too_big.message(), HasSubstr("8388608 bytes"));
  EXPECT_THAT(too_big.message(), HasSubstr(tmpfs.path()));
  absl::Status keeps_free = CheckFreeSpace(*dir, 1 * kMiB, 4 * kMiB);
  EXPECT_EQ(keeps_free.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(keeps_free.message(), HasSubstr("min_free_space"));
}

}  // namespace
}  // namespace azbench

#include "common/disk_util.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

void WriteStat(const fs::path& dir, const std::string& line) {
  std::ofstream(dir / "stat") << line << "\n";
}

// A sysfs tree in `root` where the device of `path` is partition "vdz1" of disk "vdz".
struct FakeSysfs {
  FakeSysfs(const std::string& root, const std::string& path)
      : disk(fs::path(root) / "devices/vdz") {
    struct stat st;
    ::stat(path.c_str(), &st);
    fs::create_directories(disk / "queue");
    fs::create_directories(disk / "vdz1");
    fs::create_directories(fs::path(root) / "dev/block");
    fs::create_symlink(disk / "vdz1", fs::path(root) / "dev/block" /
                                          absl::StrCat(major(st.st_dev), ":", minor(st.st_dev)));
    WriteStat(disk / "vdz1", "1 1 1 1 1 1 1 1 0 1 1");
  }
  fs::path disk;
};

TEST(DiskStatTest, ParsesTheElevenFieldsFioReads) {
  auto c = ParseDiskStat("  10 2 80 7 20 3 160 9 0 15 16 0 0 0 0");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->ios[0], 10u);
  EXPECT_EQ(c->merges[1], 3u);
  EXPECT_EQ(c->ticks[1], 9u);
  EXPECT_EQ(c->io_ticks, 15u);
  EXPECT_EQ(c->time_in_queue, 16u);
  EXPECT_FALSE(ParseDiskStat("1 2 3").has_value());
}

TEST(DiskUtilTest, APartitionCountsAsItsWholeDiskAndFiguresAreDifferences) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string sysfs = dir.File("sys");
  FakeSysfs fake(sysfs, dir.path());
  ASSERT_EQ(DiskDirectoryOf(dir.File("not/yet/laid/out"), sysfs),
            fs::canonical(fake.disk).string());
  WriteStat(fake.disk, "100 5 800 40 200 6 1600 50 0 1000 90");
  // Two paths on the one disk: one entry.
  const DiskUtilTracker tracker = DiskUtilTracker::Start({dir.path(), dir.File("x")}, sysfs);
  WriteStat(fake.disk, "130 7 900 43 260 9 2000 58 0 1000000 100");
  const std::vector<DiskUtil> disks = tracker.Finish();
  ASSERT_EQ(disks.size(), 1u);
  EXPECT_EQ(disks[0].name, "vdz");
  EXPECT_EQ(disks[0].read_ios, 30u);
  EXPECT_EQ(disks[0].write_ios, 60u);
  EXPECT_EQ(disks[0].read_merges, 2u);
  EXPECT_EQ(disks[0].write_merges, 3u);
  EXPECT_EQ(disks[0].read_ticks, 3u);
  EXPECT_EQ(disks[0].write_ticks, 8u);
  EXPECT_EQ(disks[0].in_queue, 10u);
  // Busy 999 s in a run of milliseconds: capped, as fio caps it.
  EXPECT_DOUBLE_EQ(disks[0].util, 100.0);
}

TEST(DiskUtilTest, APathWithoutABlockDeviceHasNoEntry) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  // An empty sysfs: no /sys/dev/block entry for the device (as for tmpfs or NFS).
  fs::create_directories(dir.File("sys"));
  EXPECT_FALSE(DiskDirectoryOf(dir.path(), dir.File("sys")).has_value());
  EXPECT_TRUE(DiskUtilTracker::Start({dir.path()}, dir.File("sys")).Finish().empty());
  // On this machine's sysfs, tmpfs has no disk either.
  EXPECT_FALSE(DiskDirectoryOf(testing::kTmpfsBase).has_value());
}

}  // namespace
}  // namespace azbench

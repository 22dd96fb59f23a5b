#include "common/disk_util.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "common/clock.h"

namespace azbench {

namespace fs = std::filesystem;

std::optional<DiskStatCounters> ParseDiskStat(const std::string& line) {
  std::istringstream in(line);
  DiskStatCounters c;
  uint64_t in_flight = 0;
  if (!(in >> c.ios[0] >> c.merges[0] >> c.sectors[0] >> c.ticks[0] >> c.ios[1] >> c.merges[1] >>
        c.sectors[1] >> c.ticks[1] >> in_flight >> c.io_ticks >> c.time_in_queue)) {
    return std::nullopt;
  }
  return c;
}

std::optional<std::string> DiskDirectoryOf(const std::string& path, const std::string& sysfs_root) {
  // The nearest existing path: a job's directory or file may not exist before its layout.
  fs::path p = fs::absolute(path);
  struct stat st;
  while (::stat(p.c_str(), &st) != 0) {
    if (!p.has_relative_path()) return std::nullopt;
    p = p.parent_path();
  }
  const dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
  std::error_code ec;
  const fs::path link =
      fs::path(sysfs_root) / "dev/block" / absl::StrCat(major(dev), ":", minor(dev));
  fs::path dir = fs::canonical(link, ec);
  if (ec || !fs::exists(dir / "stat", ec)) return std::nullopt;
  // A partition has no queue/ of its own; its parent, the whole disk, has.
  if (!fs::exists(dir / "queue", ec) && fs::exists(dir.parent_path() / "queue", ec)) {
    dir = dir.parent_path();
  }
  return dir.string();
}

namespace {

std::optional<DiskStatCounters> ReadCounters(const std::string& stat_path) {
  std::ifstream in(stat_path);
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  return ParseDiskStat(line);
}

// The counters only grow while the disk exists; a smaller later value (the device was removed and
// added again) counts as nothing rather than as a huge wrapped difference.
uint64_t Delta(uint64_t after, uint64_t before) { return after >= before ? after - before : 0; }

}  // namespace

DiskUtilTracker DiskUtilTracker::Start(const std::vector<std::string>& paths,
                                       const std::string& sysfs_root) {
  DiskUtilTracker tracker;
  for (const std::string& path : paths) {
    std::optional<std::string> dir = DiskDirectoryOf(path, sysfs_root);
    if (!dir) continue;
    const std::string stat_path = *dir + "/stat";
    const bool seen = std::any_of(tracker.disks_.begin(), tracker.disks_.end(),
                                  [&](const Disk& d) { return d.stat_path == stat_path; });
    if (seen) continue;
    std::optional<DiskStatCounters> before = ReadCounters(stat_path);
    if (!before) continue;
    tracker.disks_.push_back(Disk{.name = fs::path(*dir).filename().string(),
                                  .stat_path = stat_path,
                                  .before = *before,
                                  .before_ns = static_cast<int64_t>(MonotonicNanos())});
  }
  return tracker;
}

std::vector<DiskUtil> DiskUtilTracker::Finish() const {
  std::vector<DiskUtil> out;
  for (const Disk& disk : disks_) {
    std::optional<DiskStatCounters> after = ReadCounters(disk.stat_path);
    if (!after) continue;
    const DiskStatCounters& b = disk.before;
    DiskUtil u;
    u.name = disk.name;
    u.read_ios = Delta(after->ios[0], b.ios[0]);
    u.write_ios = Delta(after->ios[1], b.ios[1]);
    u.read_merges = Delta(after->merges[0], b.merges[0]);
    u.write_merges = Delta(after->merges[1], b.merges[1]);
    u.read_ticks = Delta(after->ticks[0], b.ticks[0]);
    u.write_ticks = Delta(after->ticks[1], b.ticks[1]);
    u.in_queue = Delta(after->time_in_queue, b.time_in_queue);
    const double elapsed_ms =
        static_cast<double>(static_cast<int64_t>(MonotonicNanos()) - disk.before_ns) / 1e6;
    const uint64_t busy_ms = Delta(after->io_ticks, b.io_ticks);
    u.util =
        elapsed_ms > 0 ? std::min(100.0, 100.0 * static_cast<double>(busy_ms) / elapsed_ms) : 0.0;
    out.push_back(std::move(u));
  }
  return out;
}

}  // namespace azbench

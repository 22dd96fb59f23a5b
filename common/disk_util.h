// Block-device utilization around a run, as fio's disk_util: the counters of
// /sys/block/<disk>/stat read before and after, and their differences.
//
// The disk of a path is the block device of the file system holding it (its st_dev, or the
// nearest existing parent's), found as /sys/dev/block/<major>:<minor>; a partition counts as its
// whole disk (fio reports "vda", not "vda1"). A path on a file system without a block device
// (tmpfs, NFS, FUSE) has no disk, and then fio writes no "disk_util", so neither does azbench.
// fio's "aggr_*" members (the slaves of a device-mapper or md device) are not collected.
//
//   DiskUtilTracker tracker = DiskUtilTracker::Start({"/mnt/data"});
//   ... run ...
//   std::vector<DiskUtil> disks = tracker.Finish();
#ifndef AZBENCH_COMMON_DISK_UTIL_H_
#define AZBENCH_COMMON_DISK_UTIL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace azbench {

// One disk's figures over the run, named as fio's JSON names them. Ticks are milliseconds.
struct DiskUtil {
  std::string name;  // the disk's sysfs name ("vda", "nvme0n1")
  uint64_t read_ios = 0;
  uint64_t write_ios = 0;
  uint64_t read_merges = 0;
  uint64_t write_merges = 0;
  uint64_t read_ticks = 0;
  uint64_t write_ticks = 0;
  uint64_t in_queue = 0;  // time_in_queue
  // io_ticks (time the disk was busy) as a percentage of the wall time between the two reads,
  // at most 100, as fio's.
  double util = 0;
};

// The counters of one stat file (the fields fio reads, in the kernel's order).
struct DiskStatCounters {
  uint64_t ios[2] = {0, 0};  // read, write
  uint64_t merges[2] = {0, 0};
  uint64_t sectors[2] = {0, 0};
  uint64_t ticks[2] = {0, 0};
  uint64_t io_ticks = 0;
  uint64_t time_in_queue = 0;
};

// Parses the first 11 fields of a /sys/block/<disk>/stat line; nullopt when fewer are there.
std::optional<DiskStatCounters> ParseDiskStat(const std::string& line);

// The sysfs directory of the whole disk holding `path` under `sysfs_root` ("/sys"), or nullopt.
std::optional<std::string> DiskDirectoryOf(const std::string& path,
                                           const std::string& sysfs_root = "/sys");

class DiskUtilTracker {
 public:
  // Reads the counters of every distinct disk under `paths` now. Paths without a disk, or whose
  // stat file cannot be read, are left out (never an error: disk_util is an extra, not the run).
  static DiskUtilTracker Start(const std::vector<std::string>& paths,
                               const std::string& sysfs_root = "/sys");
  // Reads the counters again; one entry per disk whose both reads succeeded, in `paths` order.
  std::vector<DiskUtil> Finish() const;

 private:
  struct Disk {
    std::string name;
    std::string stat_path;
    DiskStatCounters before;
    int64_t before_ns = 0;  // CLOCK_MONOTONIC
  };
  std::vector<Disk> disks_;
};

}  // namespace azbench

#endif  // AZBENCH_COMMON_DISK_UTIL_H_

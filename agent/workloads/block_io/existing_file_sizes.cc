#include "agent/workloads/block_io/existing_file_sizes.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/workloads/file_layout.h"
#include "common/units.h"

namespace azbench {
namespace {

absl::Status JobError(const JobSpec& spec, std::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("job '", spec.name, "': ", std::string(message)));
}

// All of a fill_device job's files together, when it has no size: fio's size is then -1.
constexpr uint64_t kFillDeviceBytes = uint64_t{1} << 60;

uint64_t Percent(uint64_t bytes, uint32_t percent) {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(bytes) * percent / 100);
}

}  // namespace

absl::Status ResolveSizesFromFiles(JobSpec& spec, const FileBytesFunction& file_bytes) {
  if (!spec.SizeFromFiles()) return absl::OkStatus();
  const bool size_given = spec.TotalSizeBytes() != 0;
  // fill_device without size: fio's size of -1, writing on until ENOSPC.
  const bool fill_unsized = spec.fill_device && !size_given && spec.size_percent == 0;
  const bool needs_files = (!size_given && !fill_unsized) || spec.offset_percent != 0 ||
                           spec.offset_increment_percent != 0;
  const int clones = std::max(1, spec.numjobs);
  const uint64_t min_bs = std::max<uint64_t>(
      1, std::min(spec.BlockSizes(false).min_bytes, spec.BlockSizes(true).min_bytes));

  uint64_t file_bytes_all = 0;
  if (needs_files) {
    if (spec.ioengine == "nfs") {
      return JobError(spec,
                      "ioengine=nfs: the size of the files is not read over NFS; give size= and "
                      "offsets in bytes");
    }
    // Every file of every clone: azbench gives all of them one region size.
    std::map<std::string, uint64_t> seen;
    std::optional<std::pair<std::string, uint64_t>> first;
    for (int c = 0; c < clones; ++c) {
      for (const std::string& path : spec.FilePaths(c)) {
        if (seen.count(path) != 0) continue;
        absl::StatusOr<uint64_t> bytes = file_bytes(path);
        if (!bytes.ok()) {
          return absl::Status(bytes.status().code(),
                              absl::StrCat("job '", spec.name, "': ", bytes.status().message()));
        }
        seen.emplace(path, *bytes);
        if (!first) {
          first.emplace(path, *bytes);
        } else if (first->second != *bytes) {
          return JobError(
              spec, absl::StrCat("its size comes from its files, but '", first->first, "' (",
                                 first->second, " bytes) and '", path, "' (", *bytes,
                                 " bytes) differ in size, and azbench gives every file of a job "
                                 "one region size; give size= in bytes"));
        }
      }
    }
    if (first) file_bytes_all = first->second;
  }

  // fio's get_start_offset: a percentage is of the file's size, its result rounded up to the
  // smallest block size.
  const bool percent_offsets = spec.offset_percent != 0 || spec.offset_increment_percent != 0;
  const uint64_t increment = spec.offset_increment_percent != 0
                                 ? Percent(file_bytes_all, spec.offset_increment_percent)
                                 : spec.offset_increment_bytes;
  std::vector<uint64_t> offsets;
  for (int c = 0; c < clones; ++c) {
    const uint64_t base =
        spec.offset_percent != 0 ? Percent(file_bytes_all, spec.offset_percent) : spec.offset_bytes;
    uint64_t offset = base + static_cast<uint64_t>(c) * increment;
    if (percent_offsets) offset = (offset + min_bs - 1) / min_bs * min_bs;
    offsets.push_back(offset);
  }

  if (fill_unsized) {
    // A region no file system fills, in whole blocks, that offsets still fit in an off_t.
    const uint64_t files = static_cast<uint64_t>(std::max(1, spec.nrfiles));
    const uint64_t max_bs = std::max<uint64_t>(1, spec.MaxBlockSizeBytes());
    const uint64_t region_bytes = kFillDeviceBytes / files / max_bs * max_bs;
    spec.size_bytes = region_bytes * files;
  } else if (!size_given) {
    const std::string first_path = spec.FilePaths(0).empty() ? "" : spec.FilePaths(0).front();
    if (file_bytes_all == 0) {
      return JobError(spec, absl::StrCat("size not given, and '", first_path,
                                         "' does not exist or is empty: give size= (fio: you "
                                         "need to specify size=)"));
    }
    // As fio: each clone's region in each file is the file's size less the clone's offset, so
    // clones at different offsets (offset_increment) have regions of different sizes.
    std::vector<uint64_t> regions;
    for (int c = 0; c < clones; ++c) {
      if (offsets[c] > file_bytes_all) {
        return JobError(spec, absl::StrCat("clone ", c, "'s offset (", offsets[c],
                                           " bytes) is beyond the end of its files (",
                                           file_bytes_all, " bytes)"));
      }
      uint64_t region_bytes = file_bytes_all - offsets[c];
      if (spec.size_percent != 0 && spec.size_percent != 100) {
        region_bytes = std::min(Percent(file_bytes_all, spec.size_percent), region_bytes);
        region_bytes -= region_bytes % min_bs;
      }
      const uint64_t max_bs = spec.MaxBlockSizeBytes();
      if (region_bytes < max_bs) {
        return JobError(spec, absl::StrCat("clone ", c, "'s region of its files (", region_bytes,
                                           " bytes of '", first_path, "' from offset ", offsets[c],
                                           ") is smaller than bs (", FormatBytes(max_bs), ")"));
      }
      regions.push_back(region_bytes);
    }
    spec.size_bytes = regions[0] * static_cast<uint64_t>(std::max(1, spec.nrfiles));
    if (std::any_of(regions.begin(), regions.end(), [&](uint64_t r) { return r != regions[0]; })) {
      if (spec.io_size_percent != 0) {
        return JobError(spec,
                        "io_size=N% with clones whose regions differ in size (offset_increment "
                        "without size): give io_size= in bytes");
      }
      spec.clone_region_bytes = std::move(regions);
    }
    // filesize without size is not this case (TotalSizeBytes would be given).
  }
  spec.size_percent = 0;
  spec.offset_bytes = offsets[0];
  if (percent_offsets) spec.clone_offsets_bytes = std::move(offsets);
  spec.offset_percent = spec.offset_increment_percent = 0;
  if (spec.io_size_percent != 0) {
    // fio counts io_size=N% of each file's region, so of size.
    spec.io_size_bytes =
        std::max<uint64_t>(1, Percent(spec.TotalSizeBytes(), spec.io_size_percent));
    spec.io_size_percent = 0;
  }
  return absl::OkStatus();
}

}  // namespace azbench

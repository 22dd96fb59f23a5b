// A block-I/O job's sizes and offsets taken from the files that exist, as fio 3.33's setup_files
// decides them: done by the agent when it prepares the job, where the files are known.
//
//   JobSpec s = spec;  // size not given, filename=/dev/nvme0n1
//   RETURN_IF_ERROR(ResolveSizesFromFiles(s));  // s.size_bytes: the device's size
//
// The rules (fio's): a file's size is a regular file's st_size or a block device's BLKGETSIZE64;
// a missing file counts as 0 bytes. Without size, each file's region is its size less the clone's
// offset, and size is the sum over a clone's files; none of them with any data is fio's "you need
// to specify size=". size=N% is N% of (region + offset), at most the region, rounded down to the
// smallest block size. offset=N% and offset_increment=N% are N% of the file's size, the clone's
// start rounded up to the smallest block size. io_size=N% is N% of size. fill_device without size:
// a region larger than any file system (fio's size of -1); the job ends at ENOSPC.
//
// Clones at different offsets (offset_increment) each take the rest of the file from their own
// offset (JobSpec::clone_region_bytes), as fio's. azbench gives every file of a clone one region
// size, so the files must then be of one size: refused otherwise, asking for size=.
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_EXISTING_FILE_SIZES_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_EXISTING_FILE_SIZES_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "agent/workloads/file_layout.h"
#include "common/job_spec.h"

namespace azbench {

using FileBytesFunction = std::function<absl::StatusOr<uint64_t>(const std::string& path)>;

// Makes `spec`'s sizes and offsets bytes (size_bytes, offset_bytes, clone_offsets_bytes,
// io_size_bytes; the percentages cleared) when JobSpec::SizeFromFiles says they depend on the
// files; does nothing otherwise. Errors: InvalidArgument naming the job and the option (no size
// and no file with data, files of different sizes, offset beyond a file's end, ioengine=nfs whose
// files this agent cannot stat, a clone's region smaller than a block, io_size=N% with clones of
// different regions), and `file_bytes`'s errors.
absl::Status ResolveSizesFromFiles(JobSpec& spec,
                                   const FileBytesFunction& file_bytes = ExistingFileBytes);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_EXISTING_FILE_SIZES_H_

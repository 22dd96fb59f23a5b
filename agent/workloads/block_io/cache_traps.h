// The page-cache traps of a buffered block-I/O job: when one applies, the job's figures show how
// fast the client's memory took or gave the bytes, not the file system, and the result says so.
//
//   - Buffered writes (direct=0) with no fsync=N, fdatasync=N or end_fsync: most bytes may still
//     be dirty in the client's memory when the run ends.
//   - Buffered writes with end_fsync only, that wrote more bytes than the job's files hold, to
//   files
//     that fit in the client's memory: a time_based job rewriting a small file. end_fsync flushes
//     only the pages still dirty at the end; every rewrite before it was absorbed by the cache.
//   - Buffered reads of files that fit in the client's memory, when the cache was not dropped
//     before the run (invalidate=0) or the job read more bytes than the files hold (re-reads).
//
// "Fits" compares the job's working set on this agent (distinct files x the region each job
// uses) with the client's physical memory (MemTotal), the most its page cache can hold.
//
// Example:
//   for (std::string& w : CacheTrapWarnings(facts)) result.warnings.push_back(std::move(w));
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_CACHE_TRAPS_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_CACHE_TRAPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace azbench {

struct CacheTrapFacts {
  bool direct = false;
  bool syncs_during_run = false;  // fsync=N or fdatasync=N with N > 0
  bool end_fsync = false;
  bool invalidate = true;
  uint64_t working_set_bytes = 0;  // distinct bytes of the job's files it reads or writes
  uint64_t bytes_read = 0;         // by the run, all clones
  uint64_t bytes_written = 0;
  uint64_t client_memory_bytes = 0;  // 0: not known (then no "fits in memory" warning)
};

std::vector<std::string> CacheTrapWarnings(const CacheTrapFacts& facts);

// MemTotal of /proc/meminfo (or of `meminfo_path`), in bytes.
absl::StatusOr<uint64_t> ClientMemoryBytes(const std::string& meminfo_path = "/proc/meminfo");

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_CACHE_TRAPS_H_

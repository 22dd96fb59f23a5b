// The large-stream workload (dd-like): one thread streams sequentially through one file of `size`
// bytes in `bs` calls, `passes` times (rw=read reads a file laid out at Prepare; rw=write rewrites
// it, ending each pass with an fsync that counts in the pass's time, as dd conv=fsync). The page
// cache of the file is dropped before each pass unless invalidate=0 (O_DIRECT bypasses it).
// With nfs_url the file is beneath that export, read and written through libnfs
// (agent/workloads/file_system.h; no client cache, so nothing to drop), its directory made over
// NFS and removed again with the file when this job made them.
//
// Results: one per pass, "<job>.pass<N>" (1-based), each with its own runtime, so its MiB/s is the
// pass's; the figure over all passes (total bytes / total time) is the scenario's merged read or
// write throughput. Errors stop the pass and are counted.
#ifndef AZBENCH_AGENT_WORKLOADS_LARGE_STREAM_LARGE_STREAM_H_
#define AZBENCH_AGENT_WORKLOADS_LARGE_STREAM_LARGE_STREAM_H_

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/workloads/file_system.h"
#include "agent/workloads/workload.h"
#include "common/workload_spec.h"

namespace azbench {

class LargeStreamJob final : public Workload {
 public:
  // Errors: InvalidArgument (spec; O_DIRECT refused), FailedPrecondition (missing directory),
  // PermissionDenied, ResourceExhausted (ENOSPC while laying out the file to read); with nfs_url
  // also Unavailable (the mount).
  static absl::StatusOr<std::unique_ptr<LargeStreamJob>> Prepare(const LargeStreamSpec& spec,
                                                                 int group_id = 0);
  ~LargeStreamJob() override;

  const std::string& name() const override { return spec_.name; }
  absl::StatusOr<std::vector<JobResult>> Run(const RunControl& control) override;
  absl::Status RemoveCreatedFiles() override;
  const std::vector<LaidOutFile>& files() const override { return files_; }
  const std::vector<std::string>& warnings() const override { return warnings_; }
  uint64_t ops_done() const override { return ops_done_.load(std::memory_order_relaxed); }
  uint64_t bytes_done() const override { return bytes_done_.load(std::memory_order_relaxed); }

 private:
  LargeStreamJob() = default;
  JobResult RunPass(int pass, const RunControl& control, uint64_t start_ns);

  LargeStreamSpec spec_;
  int group_id_ = 0;
  std::unique_ptr<FileSystem> fs_;  // the one pass thread's
  std::vector<LaidOutFile> files_;
  std::vector<std::string> created_dirs_;  // made beneath an NFS export, parents first
  std::vector<std::string> warnings_;
  std::atomic<uint64_t> ops_done_{0};
  std::atomic<uint64_t> bytes_done_{0};
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_LARGE_STREAM_LARGE_STREAM_H_

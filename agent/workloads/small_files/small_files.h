// The small-files workload (study B's threshold test): for every size of `filesizes`, every
// numjobs clone writes `files` whole files of that size (create, write in `bs` calls or one, fsync
// if asked, close), the page cache of those files is dropped, then it reads them back (open, read,
// close). Op kinds: create and write (+fsync) in the write pass, open and read in the read pass.
//
// Results: two per size, "<job>.<size>.write" and "<job>.<size>.read" (size as "4k", "64k", "1m"),
// each with its own pass's runtime, so IOPS and latency are per size and per direction. The
// coordinator runs one size per scenario (the campaign turns `filesizes` into a per-size axis), so
// reports key sizes by the `filesizes` parameter; the one-shot mode shows all of them.
// The files of a size are removed (untimed) before the next size starts.
//
// With nfs_url the files are beneath that export, each clone on a libnfs connection of its own
// (agent/workloads/file_system.h; no client cache, so invalidate has nothing to drop); the job
// makes its directory over NFS and removes it again at cleanup when it made it.
#ifndef AZBENCH_AGENT_WORKLOADS_SMALL_FILES_SMALL_FILES_H_
#define AZBENCH_AGENT_WORKLOADS_SMALL_FILES_SMALL_FILES_H_

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/workloads/file_system.h"
#include "agent/workloads/workload.h"
#include "common/workload_spec.h"

namespace azbench {

class SmallFilesJob final : public Workload {
 public:
  // Validates the spec and checks the directory (and O_DIRECT support when asked). Errors:
  // InvalidArgument (spec; O_DIRECT refused), FailedPrecondition (missing directory); with
  // nfs_url also Unavailable (the mount) and the errors of MakeDirectories.
  static absl::StatusOr<std::unique_ptr<SmallFilesJob>> Prepare(const SmallFilesSpec& spec,
                                                                int group_id = 0);
  ~SmallFilesJob() override;

  const std::string& name() const override { return spec_.name; }
  absl::StatusOr<std::vector<JobResult>> Run(const RunControl& control) override;
  absl::Status RemoveCreatedFiles() override;
  const std::vector<LaidOutFile>& files() const override { return no_files_; }
  const std::vector<std::string>& warnings() const override { return warnings_; }
  uint64_t ops_done() const override { return ops_done_.load(std::memory_order_relaxed); }
  uint64_t bytes_done() const override { return bytes_done_.load(std::memory_order_relaxed); }

  std::string FilePath(uint64_t size_bytes, int clone, uint64_t n) const;

 private:
  SmallFilesJob() = default;
  // One clone's write (or read) pass over the files of one size.
  JobResult RunPass(uint64_t size_bytes, bool write, int clone, const RunControl& control,
                    uint64_t start_ns);
  void RemoveSize(uint64_t size_bytes);

  SmallFilesSpec spec_;
  int group_id_ = 0;
  std::vector<std::string> warnings_;
  std::vector<LaidOutFile> no_files_;
  std::vector<uint64_t> written_;  // per clone: files of the current size that were created
  std::vector<std::unique_ptr<FileSystem>> fs_;  // per clone; [0] also for the untimed steps
  std::vector<std::string> created_dirs_;        // made beneath an NFS export, parents first
  std::atomic<uint64_t> ops_done_{0};
  std::atomic<uint64_t> bytes_done_{0};
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_SMALL_FILES_SMALL_FILES_H_

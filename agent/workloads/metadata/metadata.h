// The metadata workload (mdtest-like): every numjobs clone creates `files` files spread over
// `dirs` directories, then the phases stat, open (+close), read (open + small read + close),
// rename and delete run over them, each phase its own op kind (create, stat, open, read, rename,
// unlink) and its own result "<job>.<phase>" whose runtime is that phase's, so its ops/s is the
// phase's rate.
//
// Layout under <directory>/<job>.md/: dir_mode=unique gives every agent and clone its own tree
// `a<agent>.c<clone>/d<k>/f<n>`; dir_mode=shared puts every file into
// `d<k>/a<agent>.c<clone>.f<n>`. Both are computable by any agent, which is what the stride needs:
// with stride=N, agent i stats, opens and reads the files agent (i+N) % agents created (its own
// cache cannot answer). Rename and delete always work on the agent's own files (rename appends
// ".r").
//
// Between phases Run calls RunControl::await_phase, which (through the runner and the coordinator)
// is a barrier across every agent of the scenario, and starts the next phase at the instant it
// returns. A phase that starts more than kLatePhaseStartNs after that instant (its release reached
// this agent late) carries a warning saying by how much. Ops that fail are counted as errors of
// their kind and the phase goes on.
//
// With nfs_url the tree is beneath that export, each clone on a libnfs connection of its own
// (agent/workloads/file_system.h): every op is its round trips to the server, no client cache
// answers a stat or an open. The job makes `directory` over NFS when it is missing.
//
//   ASSIGN_OR_RETURN(auto job, MetadataJob::Prepare(spec));
//   ASSIGN_OR_RETURN(std::vector<JobResult> phases, job->Run(RunControl{}));
#ifndef AZBENCH_AGENT_WORKLOADS_METADATA_METADATA_H_
#define AZBENCH_AGENT_WORKLOADS_METADATA_METADATA_H_

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/workloads/file_system.h"
#include "agent/workloads/workload.h"
#include "common/workload_spec.h"

namespace azbench {

class MetadataJob final : public Workload {
 public:
  // How late after its instant a phase may start before its result says so (a thread's wake-up
  // on a loaded machine stays well below it; a release lost and made again does not).
  static constexpr uint64_t kLatePhaseStartNs = 10'000'000;

  // Validates the spec and creates the directories (untimed). Errors: InvalidArgument (spec),
  // FailedPrecondition (the directory does not exist), PermissionDenied / ResourceExhausted /
  // Internal (mkdir); with nfs_url also Unavailable (the mount).
  static absl::StatusOr<std::unique_ptr<MetadataJob>> Prepare(const MetadataSpec& spec,
                                                              int group_id = 0);
  ~MetadataJob() override;

  const std::string& name() const override { return spec_.name; }
  absl::StatusOr<std::vector<JobResult>> Run(const RunControl& control) override;
  absl::Status RemoveCreatedFiles() override;
  const std::vector<LaidOutFile>& files() const override { return no_files_; }
  const std::vector<std::string>& warnings() const override { return warnings_; }
  uint64_t ops_done() const override { return ops_done_.load(std::memory_order_relaxed); }
  uint64_t bytes_done() const override { return bytes_done_.load(std::memory_order_relaxed); }
  bool phased() const override { return true; }
  std::vector<std::string> phase_names() const override;

  // The path of file `n` of (agent, clone); `renamed` gives its name after the rename phase.
  std::string FilePath(int agent, int clone, uint64_t n, bool renamed) const;
  const MetadataSpec& spec() const { return spec_; }

 private:
  struct CloneState {
    uint64_t created = 0;  // files 0..created-1 exist (create attempted them)
    uint64_t renamed = 0;  // files 0..renamed-1 carry the ".r" name
    uint64_t deleted = 0;  // files 0..deleted-1 were unlinked
  };
  MetadataJob() = default;
  JobResult RunPhase(MetadataPhase phase, int clone, const RunControl& control, uint64_t start_ns);

  MetadataSpec spec_;
  int group_id_ = 0;
  std::string root_;
  std::vector<std::string> dirs_;  // directories this job uses, parents first
  // Made beneath an NFS export on the way to `directory`, parents first.
  std::vector<std::string> made_parents_;
  std::vector<std::unique_ptr<FileSystem>> fs_;  // per clone; [0] also for the untimed steps
  std::vector<CloneState> clones_;
  std::vector<std::string> warnings_;
  std::vector<LaidOutFile> no_files_;
  std::string write_data_;
  std::atomic<uint64_t> ops_done_{0};
  std::atomic<uint64_t> bytes_done_{0};
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_METADATA_METADATA_H_

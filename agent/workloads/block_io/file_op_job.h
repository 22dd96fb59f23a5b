// The job of the file-operation engines (agent/engines/file_op_engine.h), fio's filecreate,
// filestat, filedelete and the directory forms: per numjobs clone a thread that applies the
// engine's op once to each of the clone's names, in order, as fio opens each of its files once.
//
// Names are block_io's (`<directory>/<name>.<clone>.<file>`, or `filename`). What fio counts:
// one op per name, recorded as the engine's kind (create, stat, unlink) with its latency; fio
// reports the same ops as reads of bs bytes each, which moved nothing, so no bytes are counted
// here. Before the run, stat and delete engines need their names to exist: missing files are laid
// out with filesize (else size / nrfiles) bytes, sparse; missing directories are made. A failed op
// is an error of its kind and the pass goes on. The files the layout or filecreate made are
// removed by RemoveCreatedFiles (the runner's rule for every job's files).
//
//   ASSIGN_OR_RETURN(std::unique_ptr<Workload> job, FileOpJob::Prepare(spec, group_id, cancel));
//   ASSIGN_OR_RETURN(std::vector<JobResult> results, job->Run(control));  // one result
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_FILE_OP_JOB_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_FILE_OP_JOB_H_

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/engines/file_op_engine.h"
#include "agent/workloads/workload.h"
#include "common/job_spec.h"

namespace azbench {

class FileOpJob final : public Workload {
 public:
  // Errors: InvalidArgument (invalid spec, not a file-operation engine), and the layout's
  // (file_layout.h) for the names stat and delete engines need.
  static absl::StatusOr<std::unique_ptr<FileOpJob>> Prepare(
      const JobSpec& spec, int group_id, const std::atomic<bool>* cancel = nullptr);

  const std::string& name() const override { return spec_.name; }
  absl::StatusOr<std::vector<JobResult>> Run(const RunControl& control) override;
  absl::Status RemoveCreatedFiles() override;
  const std::vector<LaidOutFile>& files() const override { return files_; }
  const std::vector<std::string>& warnings() const override { return warnings_; }
  uint64_t ops_done() const override { return ops_done_.load(std::memory_order_relaxed); }
  uint64_t bytes_done() const override { return 0; }
  bool stonewall() const override { return spec_.stonewall; }
  std::string wait_for() const override { return spec_.wait_for; }
  ExitPolicy exit_policy() const override {
    return {spec_.exitall, spec_.exitall_on_error, spec_.exit_what, group_id_};
  }

 private:
  FileOpJob() = default;
  JobResult RunClone(int clone, const RunControl& control, uint64_t start_ns);

  JobSpec spec_;
  int group_id_ = 0;
  std::unique_ptr<FileOpEngine> engine_;
  std::vector<std::vector<std::string>> clone_paths_;
  // Names this job made (layout or filecreate/dircreate), for RemoveCreatedFiles.
  std::vector<LaidOutFile> files_;
  std::vector<std::string> made_dirs_;
  std::vector<std::string> warnings_;
  std::atomic<uint64_t> ops_done_{0};
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_FILE_OP_JOB_H_

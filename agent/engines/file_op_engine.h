// fio's file-operation engines: filecreate, filestat, filedelete (fio's
// engines/fileoperations.c) and their directory forms dircreate, dirstat, dirdelete. They move
// no data: one op is one system call on one of the job's file names, timed alone.
//
//   filecreate  open(O_CREAT | O_RDWR, 0600); the close that follows is not timed   (create)
//   filestat    stat(2), lstat(2) or statx(2) by EngineOptions::stat_type             (stat)
//   filedelete  unlink(2)                                                             (unlink)
//   dircreate   mkdir(2) with mode 0700                                               (create)
//   dirstat     stat(2), lstat(2) or statx(2) of the directory                        (stat)
//   dirdelete   rmdir(2)                                                              (unlink)
//
// Each is an IoEngine only so that the registry and the job's checks treat every engine alike:
// Queue() completes any request with -EOPNOTSUPP. The job for these engines
// (agent/workloads/block_io/file_op_job.h) calls Execute() once per file name instead.
//
//   ASSIGN_OR_RETURN(auto engine, CreateFileOpEngine("filestat"));
//   int64_t r = engine->Execute("/data/t.0.0");  // 0 or -errno
#ifndef AZBENCH_AGENT_ENGINES_FILE_OP_ENGINE_H_
#define AZBENCH_AGENT_ENGINES_FILE_OP_ENGINE_H_

#include <memory>
#include <string>
#include <string_view>

#include "agent/engines/io_engine.h"

namespace azbench {

class FileOpEngine final : public IoEngine {
 public:
  enum class Op { kFileCreate, kFileStat, kFileDelete, kDirCreate, kDirStat, kDirDelete };

  explicit FileOpEngine(Op op) : op_(op) {}

  std::string_view name() const override;
  EngineCapabilities capabilities() const override;
  // Errors: InvalidArgument (iodepth other than 1, negative batch_submit).
  absl::Status Init(const EngineOptions& options) override;
  QueueResult Queue(IoRequest* request) override;
  absl::StatusOr<int> Commit() override { return 0; }
  absl::StatusOr<int> GetEvents(int /*min_events*/, std::span<IoRequest*> /*out*/) override {
    return 0;
  }
  int inflight() const override { return 0; }

  // The op on `path`: 0 or -errno (EINTR retried where the call can be interrupted).
  int64_t Execute(const std::string& path) const;
  // The kind the op is recorded as: create, stat or unlink.
  OpKind kind() const;
  // Whether the names must exist before the run (stat, delete) and are directories.
  bool needs_existing() const;
  bool on_directories() const;

 private:
  Op op_;
  StatType stat_type_ = StatType::kStat;
};

// Which names are file-operation engines: IsFileOpEngineName (common/job_spec.h).
// Errors: NotFound when `name` is not one of the six engines above.
absl::StatusOr<std::unique_ptr<FileOpEngine>> CreateFileOpEngine(std::string_view name);

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_FILE_OP_ENGINE_H_

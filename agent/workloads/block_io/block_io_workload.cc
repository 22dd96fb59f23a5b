#include "agent/workloads/block_io/block_io_workload.h"

#include <utility>

namespace azbench {
namespace {

class BlockIoWorkload final : public Workload {
 public:
  explicit BlockIoWorkload(std::unique_ptr<BlockIoJob> job) : job_(std::move(job)) {}
  const std::string& name() const override { return job_->spec().name; }
  absl::StatusOr<std::vector<JobResult>> Run(const RunControl& control) override {
    absl::StatusOr<JobResult> result = job_->Run(control);
    if (!result.ok()) return result.status();
    std::vector<JobResult> out;
    out.push_back(std::move(*result));
    return out;
  }
  absl::Status RemoveCreatedFiles() override { return job_->RemoveCreatedFiles(); }
  const std::vector<LaidOutFile>& files() const override { return job_->files(); }
  const std::vector<std::string>& warnings() const override { return job_->warnings(); }
  uint64_t ops_done() const override { return job_->ops_done(); }
  uint64_t bytes_done() const override { return job_->bytes_done(); }
  bool stonewall() const override { return job_->spec().stonewall; }
  std::string wait_for() const override { return job_->spec().wait_for; }
  ExitPolicy exit_policy() const override {
    const JobSpec& spec = job_->spec();
    return {spec.exitall, spec.exitall_on_error, spec.exit_what, job_->group_id()};
  }

 private:
  std::unique_ptr<BlockIoJob> job_;
};

}  // namespace

std::unique_ptr<Workload> WrapBlockIoJob(std::unique_ptr<BlockIoJob> job) {
  return std::make_unique<BlockIoWorkload>(std::move(job));
}

}  // namespace azbench

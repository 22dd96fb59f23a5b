#include "agent/workloads/block_io/block_io_workload.h"

#include <utility>

#include "common/clock.h"
#include "common/status_macros.h"

namespace azbench {
namespace {

class BlockIoWorkload final : public Workload {
 public:
  BlockIoWorkload(std::unique_ptr<BlockIoJob> job, bool waits_for_writer)
      : job_(std::move(job)), waits_for_writer_(waits_for_writer) {}
  const std::string& name() const override { return job_->spec().name; }
  absl::StatusOr<std::vector<JobResult>> Run(const RunControl& control) override {
    RunControl run_control = control;
    if (waits_for_writer_ && control.await_phase) {
      ASSIGN_OR_RETURN(const uint64_t start_ns, control.await_phase(0, kWritePhase));
      run_control.start_monotonic_ns = start_ns == 0 ? MonotonicNanos() : start_ns;
    }
    absl::StatusOr<JobResult> result = job_->Run(run_control);
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
  const JobProgress* progress() const override { return job_->progress(); }
  void JoinFlows(FlowRegistry& flows) override { job_->JoinFlows(flows); }
  bool phased() const override { return waits_for_writer_; }
  std::vector<std::string> phase_names() const override {
    if (!waits_for_writer_) return {};
    return {kWritePhase};
  }
  bool stonewall() const override { return job_->spec().stonewall; }
  std::string wait_for() const override { return job_->spec().wait_for; }
  ExitPolicy exit_policy() const override {
    const JobSpec& spec = job_->spec();
    return {spec.exitall, spec.exitall_on_error, spec.exit_what, job_->group_id()};
  }
  SteadyStatePolicy steady_state() const override {
    const JobSpec& spec = job_->spec();
    return {spec.steadystate, spec.group_reporting, job_->group_id(), spec.ramp_time};
  }

 private:
  static constexpr char kWritePhase[] = "write";
  std::unique_ptr<BlockIoJob> job_;
  bool waits_for_writer_;
};

}  // namespace

std::unique_ptr<Workload> WrapBlockIoJob(std::unique_ptr<BlockIoJob> job, bool waits_for_writer) {
  return std::make_unique<BlockIoWorkload>(std::move(job), waits_for_writer);
}

}  // namespace azbench

#include "agent/workloads/visibility/visibility_workload.h"

#include <atomic>
#include <utility>

#include "absl/strings/str_cat.h"
#include "agent/confinement/sandbox.h"
#include "agent/workloads/visibility/probe_dir.h"
#include "agent/workloads/visibility/probe_store.h"
#include "agent/workloads/visibility/visibility_job.h"
#include "common/clock.h"

namespace azbench {
namespace {

class VisibilityWorkload : public Workload {
 public:
  VisibilityWorkload(VisibilityJob job, s3::MetadataSource* metadata)
      : job_(std::move(job)), metadata_(metadata) {}

  const std::string& name() const override { return job_.name; }

  absl::StatusOr<std::vector<JobResult>> Run(const RunControl& control) override {
    // The run's start instant, monotonic -> this agent's realtime clock (the probe schedules on
    // realtime so the client_to_client halves on different agents agree).
    int64_t start_realtime_ns = 0;
    if (control.start_monotonic_ns > 0) {
      const int64_t now_real = RealtimeNanos();
      const uint64_t now_mono = MonotonicNanos();
      start_realtime_ns = now_real + (static_cast<int64_t>(control.start_monotonic_ns) -
                                      static_cast<int64_t>(now_mono));
    }
    const std::atomic<bool>* cancel = control.cancel;
    absl::StatusOr<VisibilityJobOutput> out =
        RunVisibilityJob(job_, metadata_, start_realtime_ns,
                         [cancel] { return cancel != nullptr && cancel->load(); });
    if (!out.ok()) return out.status();
    trials_done_ = out->records.size();
    if (job_.spec.probe == VisibilityProbe::kClientToClient &&
        job_.spec.role == VisibilityRole::kWriter) {
      // The writer's trials are writes (latency: scheduled instant -> write returned; the
      // coordinator counts the readers' latencies from that completion), not
      // visibility: they go to the `write` op kind so the scenario's `probe` histogram holds the
      // readers' latencies only.
      JobResult& r = out->result;
      std::swap(r.by_kind[static_cast<int>(OpKind::kWrite)],
                r.by_kind[static_cast<int>(OpKind::kProbe)]);
      for (OpRecord& record : out->records) record.kind = OpKind::kWrite;
    }
    if (control.on_op_log && !out->records.empty()) {
      control.on_op_log(0, std::move(out->records));
    }
    std::vector<JobResult> results;
    results.push_back(std::move(out->result));
    return results;
  }

  // The probes remove their own files as they go, except the client_to_client writer, whose files
  // the readers may still poll when it ends: they go at cleanup, after every agent ended.
  absl::Status RemoveCreatedFiles() override {
    if (job_.spec.probe != VisibilityProbe::kClientToClient ||
        job_.spec.role != VisibilityRole::kWriter) {
      return absl::OkStatus();
    }
    if (!job_.spec.nfs_url.empty()) {
      absl::StatusOr<std::unique_ptr<ProbeStore>> store =
          MakeNfsProbeStore(job_.spec.nfs_url, job_.directory, /*create=*/false);
      if (!store.ok()) return absl::OkStatus();  // best effort, as below
      for (int i = 0; i < job_.spec.schedule.trials; ++i) {
        (void)(*store)->Unlink(absl::StrCat(job_.spec.target.run_id, "-c2c-", 1 + i));
      }
      return absl::OkStatus();
    }
    // Through the job's directory descriptor: the entries themselves, never a symlink's target.
    absl::StatusOr<ProbeDir> dir = job_.dirs.directory.valid()
                                       ? job_.dirs.directory
                                       : ProbeDir::Open(job_.directory, "directory");
    if (!dir.ok()) return absl::OkStatus();  // nothing of ours can be there
    for (int i = 0; i < job_.spec.schedule.trials; ++i) {
      // The names RunVisibility gives: "<run_id>-c2c-<sequence>", sequences from 1.
      (void)dir->Unlink(absl::StrCat(job_.spec.target.run_id, "-c2c-", 1 + i));
    }
    return absl::OkStatus();
  }
  const std::vector<LaidOutFile>& files() const override { return files_; }
  const std::vector<std::string>& warnings() const override { return job_.warnings; }
  uint64_t ops_done() const override { return trials_done_.load(); }
  uint64_t bytes_done() const override { return 0; }

 private:
  VisibilityJob job_;
  s3::MetadataSource* metadata_;
  std::vector<LaidOutFile> files_;
  std::atomic<uint64_t> trials_done_{0};
};

bool Has(const std::vector<std::pair<std::string, std::string>>& options, const std::string& key) {
  for (const auto& [k, v] : options) {
    if (k == key) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Workload>> MakeVisibilityWorkload(
    const std::string& name, std::vector<std::pair<std::string, std::string>> options,
    const VisibilityRunContext& context, const std::vector<std::string>& allowed_roots) {
  // The coordinator's run id is unique per scenario run (so per repeat): always part of the probe
  // names, so a leftover file or object, or a cached attribute, of an earlier run never has the
  // name a trial polls for. A user's run_id only prefixes it.
  if (!context.run_id.empty()) {
    bool given = false;
    for (auto& [k, v] : options) {
      if (k != "run_id") continue;
      // The user's piece is judged as written, so a refusal names what the campaign says.
      if (absl::Status s = CheckFileName(v, "run_id"); !v.empty() && !s.ok()) {
        return absl::Status(s.code(), absl::StrCat("job '", name, "': ", s.message()));
      }
      v = v.empty() ? context.run_id : absl::StrCat(v, "-", context.run_id);
      given = true;
    }
    if (!given) options.emplace_back("run_id", context.run_id);
  }
  bool client_to_client = false;
  for (const auto& [k, v] : options)
    client_to_client = client_to_client || (k == "probe" && v == "client_to_client");
  if (client_to_client && !Has(options, "role") && context.agent_count > 1) {
    options.emplace_back("role", context.agent_index == 0 ? "writer" : "reader");
  }
  absl::StatusOr<VisibilityJob> job = PrepareVisibilityJob(name, options, context.agent_subdir);
  if (!job.ok()) return job.status();
  if (absl::Status s = OpenVisibilityDirs(*job, allowed_roots); !s.ok()) return s;
  if (client_to_client && job->spec.role != VisibilityRole::kLocal) {
    job->warnings.push_back(absl::StrCat(
        "client_to_client ", job->spec.role == VisibilityRole::kWriter ? "writer" : "reader",
        " (agent index ", context.agent_index, " of ", context.agent_count, ")"));
  }
  return std::unique_ptr<Workload>(
      std::make_unique<VisibilityWorkload>(*std::move(job), context.metadata));
}

}  // namespace azbench

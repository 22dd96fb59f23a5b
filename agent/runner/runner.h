// The agent's job lifecycle, free of gRPC types: prepare (validate, lay out files), run at an
// instant (phases separated by stonewall), stream events to a sink, cancel, clean up. agent/service
// adapts it to the wire; the one-shot command uses it directly.
//
//   Runner runner(config);
//   RETURN_IF_ERROR(runner.Prepare("run-1", jobs, /*interval_ns=*/1'000'000'000).status());
//   RETURN_IF_ERROR(runner.Run("run-1", /*start_at_realtime_ns=*/0, sink));
#ifndef AZBENCH_AGENT_RUNNER_RUNNER_H_
#define AZBENCH_AGENT_RUNNER_RUNNER_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "agent/confinement/job_confinement.h"
#include "agent/workloads/family.h"
#include "agent/workloads/workload.h"
#include "common/disk_util.h"
#include "common/job_result.h"
#include "common/job_spec.h"

namespace azbench {

namespace s3 {
class MetadataSource;
}  // namespace s3

// Receives a run's events. Called from several threads, never concurrently (the runner serialises).
// A method returning false means the receiver is gone (the lease broke): the runner cancels the
// run.
class RunEventSink {
 public:
  virtual ~RunEventSink() = default;
  virtual bool OnStarted(int64_t start_realtime_ns) = 0;
  virtual bool OnProgress(int64_t now_realtime_ns, uint64_t ops, uint64_t bytes,
                          int jobs_running) = 0;
  virtual bool OnInterval(const std::string& job_name, int clone,
                          const IntervalStats& interval) = 0;
  // The runner calls these two instead of OnInterval / OnResult: `job_index` is the job's place in
  // the run (Prepare's order; job names need not be unique), `origin` says which result an
  // interval belongs to and when its series began. Sinks that stream results
  // (agent/server/service.cc) use them to send each interval once; the defaults forward.
  virtual bool OnSeriesInterval(int /*job_index*/, const std::string& job_name,
                                const IntervalOrigin& origin, const IntervalStats& interval) {
    return OnInterval(job_name, origin.clone, interval);
  }
  virtual bool OnJobResult(int /*job_index*/, const JobResult& result) { return OnResult(result); }
  virtual bool OnOpLog(const std::string& job_name, int clone,
                       const std::vector<OpRecord>& records) = 0;
  virtual bool OnResult(const JobResult& result) = 0;
  // fio's disk_util of the run (common/disk_util.h): called once, just before OnFinished, with the
  // block devices under the jobs' directories (empty when there is none: tmpfs, NFS).
  virtual bool OnDiskUtil(const std::vector<DiskUtil>& /*disks*/) { return true; }
  virtual bool OnFinished(int64_t end_realtime_ns, bool cancelled) = 0;
  // Phase barrier (metadata): every phased job of the run finished barrier `phase_index` (0-based,
  // counted over the run). When DrivesPhases() is true the runner then waits for
  // Runner::Proceed; otherwise the next phase starts at once (one-shot mode, tests).
  virtual bool OnPhaseDone(int /*phase_index*/, const std::string& /*phase*/) { return true; }
  virtual bool DrivesPhases() const { return false; }
  // Polled about every progress interval; false ends the run as a broken lease.
  virtual bool Alive() { return true; }
  // The jobs' live progress in job order (null: a family that keeps none), before any job starts;
  // valid until Run returns. A sink that shows it (fio's status line) reads it from its own thread.
  virtual void OnJobsProgress(const std::vector<const JobProgress*>& /*jobs*/) {}
};

// How far ahead of the agent's clock a start instant (Run, Proceed) may be. A start further out is
// a coordinator's mistake (its clock offset, a unit): holding the run, its lease and the agent's
// shutdown for it would serve nobody.
inline constexpr int64_t kMaxStartAheadNs = 600'000'000'000;  // 10 minutes

// The interval series' resolution a run may ask for (Prepare, the one-shot --interval). Below 10 ms
// the intervals would only load the stream; above an hour a job's interval arithmetic (start +
// interval, in ns) could overflow and nobody would see a series.
inline constexpr uint64_t kMinIntervalNs = 10'000'000;         // 10 ms
inline constexpr uint64_t kMaxIntervalNs = 3'600'000'000'000;  // 1 h
// The longest progress interval a Run may ask for: the runner polls the sink's lease at each.
inline constexpr uint64_t kMaxProgressIntervalNs = 60'000'000'000;  // 1 min

struct RunnerConfig {
  absl::Duration progress_interval = absl::Milliseconds(250);  // when a Run asks for none
  // Runs held at once (prepared, running or awaiting Cleanup); Prepare beyond it is refused.
  uint64_t max_concurrent_runs = 4;
  // When set, a job that names a `directory` (and no filename) works in
  // `<directory>/<agent_subdir>`, created if missing and removed at cleanup if it is then empty, so
  // agents that share a file system never share files. The server sets it to the agent id; the
  // one-shot command leaves it empty. Jobs with `sharing=shared-dir` stay in `<directory>` with
  // file names prefixed "<agent_subdir>."; `sharing=shared-file` jobs stay there with plain names.
  std::string agent_subdir = {};
  // Lease of a run that is not running (prepared and waiting for Run, or finished and waiting for
  // Cleanup): a run that neither starts nor is renewed (Renew) within it is forgotten and its files
  // are removed, so a coordinator that died between Prepare and Run leaves no files behind.
  // A Prepare or Renew may ask for another lease. 0 = never expire.
  absl::Duration prepared_lease = absl::Seconds(60);
  // How often a background thread looks for expired runs; 0 = no thread (call ReapExpired).
  absl::Duration reap_interval = absl::Seconds(1);
  // The serving agent: every job's footprint and paths (agent/workloads/family.h) are checked by
  // ConfineJob (agent/confinement/job_confinement.h) before its layout: allowed roots, limits, free
  // space. The one-shot command leaves it off.
  bool enforce_policy = false;
  JobPolicy policy = {};
  // Instance metadata for the visibility probes' instance-role S3 credentials; may be null. Not
  // owned; outlives the runner.
  s3::MetadataSource* metadata = nullptr;
};

struct PrepareOutcome {
  std::vector<std::string> warnings;
  std::vector<LaidOutFile> files;
};

class Runner {
 public:
  explicit Runner(RunnerConfig config = {});
  ~Runner();  // cancels running runs and removes the files of every run it still knows

  // Parses every job's options by its family (agent/runner/family_registry.h; errors name the
  // job and the option), lays out the files. The run
  // id is reserved before the layout: a Prepare of an id that is held (or still being prepared)
  // with the same request (jobs, options, interval, placement), before it has run, waits for the
  // first one and answers with its outcome, so a coordinator's retry never prepares twice.
  // Errors: InvalidArgument / NotFound (bad or unknown option, an interval outside
  // [kMinIntervalNs, kMaxIntervalNs], an agent_index outside [0, agent_count)), AlreadyExists (run
  // id in use by another request, or already run), ResourceExhausted (too many runs, counting those
  // being prepared, or ENOSPC), and the BlockIoJob::Prepare errors. On error nothing of this run is
  // left behind.
  absl::StatusOr<PrepareOutcome> Prepare(const std::string& run_id,
                                         const std::vector<JobRequest>& jobs, uint64_t interval_ns,
                                         RunPlacement placement = {});

  // The same with jobs already parsed (the one-shot command's fio job files).
  absl::StatusOr<PrepareOutcome> PrepareSpecs(const std::string& run_id,
                                              const std::vector<std::pair<JobSpec, int>>& specs,
                                              uint64_t interval_ns);

  // Runs the prepared run: waits until `start_at_realtime_ns` (0 = now), runs phase after phase,
  // sends events to `sink`, returns when every job has ended. If the sink breaks (lease lost) the
  // run is cancelled and its created files are removed before returning Cancelled. Cancel wakes the
  // wait for the start instant. Errors: NotFound (unknown run), FailedPrecondition (already run),
  // Cancelled (lease lost), InvalidArgument (a start more than kMaxStartAheadNs ahead; the run
  // stays prepared).
  // `progress_interval` zero = the config's default.
  absl::Status Run(const std::string& run_id, int64_t start_at_realtime_ns, RunEventSink& sink,
                   absl::Duration progress_interval = absl::ZeroDuration());

  // Releases the phase after barrier `phase_index` of a running run, starting it at
  // `start_at_realtime_ns` (agent clock; 0 = now). Returns whether the run was waiting at that
  // barrier. NotFound for an unknown run; InvalidArgument for a start more than kMaxStartAheadNs
  // ahead.
  absl::StatusOr<bool> Proceed(const std::string& run_id, int phase_index,
                               int64_t start_at_realtime_ns);

  // Asks a running run to stop; its result covers what was done. Returns whether it was running.
  bool Cancel(const std::string& run_id);

  // Forgets the run; with remove_files, removes the files its Prepare created. NotFound if unknown;
  // FailedPrecondition while it runs or is still being prepared.
  absl::StatusOr<int> Cleanup(const std::string& run_id, bool remove_files);

  // Extends the lease of a run that is not running to `lease` from now (zero = the config's).
  // NotFound for an unknown (or already expired) run.
  absl::Status Renew(const std::string& run_id, absl::Duration lease = absl::ZeroDuration());
  absl::Duration prepared_lease() const { return config_.prepared_lease; }

  // Forgets every run that is not running and whose lease ended before `now_monotonic_ns`,
  // removing its files; returns the run ids. The background thread calls it.
  std::vector<std::string> ReapExpired(uint64_t now_monotonic_ns);

  // Cancels everything (SIGTERM).
  void CancelAll();

  // Changes the limit on runs held at once (SIGHUP reload). Runs already held stay.
  void SetMaxConcurrentRuns(uint64_t max_concurrent_runs);

  // Replaces the job policy (SIGHUP reload of allowed_roots, min_free_space, limits). Runs already
  // prepared keep the checks they passed.
  void SetJobPolicy(JobPolicy policy);

 private:
  struct PreparedRun;
  // Reserves the run id (a placeholder counted against max_concurrent_runs), lays the run out
  // (LayOut) and publishes the outcome, or removes the placeholder. `request_key` identifies the
  // request (empty: none), so that the same request again gets the first one's answer.
  absl::StatusOr<PrepareOutcome> PrepareAll(const std::string& run_id,
                                            std::vector<std::unique_ptr<ParsedJob>> jobs,
                                            uint64_t interval_ns, const std::string& request_key,
                                            RunPlacement placement);
  // Confines (with the policy) and prepares the parsed jobs in order; no family is special here.
  absl::StatusOr<PrepareOutcome> LayOut(const std::string& run_id, PreparedRun& run,
                                        std::vector<std::unique_ptr<ParsedJob>>& jobs,
                                        RunPlacement placement);
  void ReapLoop();
  absl::Mutex mu_;
  std::map<std::string, std::shared_ptr<PreparedRun>> runs_ ABSL_GUARDED_BY(mu_);
  RunnerConfig config_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread reaper_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_RUNNER_RUNNER_H_

// The run lifecycle of agent/runner/runner.h's Runner: the run id reserved around a Prepare, Run
// with its stonewall groups and events, Cancel, leases and the reaper, Cleanup. Parsing jobs
// through their families and laying out their files: runner_layout.cc; the phase barrier and
// Proceed: runner_phases.cc.
#include "agent/runner/runner.h"

#include <unistd.h>

#include <algorithm>
#include <optional>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "agent/runner/job_exits.h"
#include "agent/runner/runner_internal.h"
#include "agent/runner/steady_state_monitor.h"
#include "agent/workloads/block_io/block_io_family.h"
#include "agent/workloads/flow_registry.h"
#include "common/clock.h"
#include "common/disk_util.h"
#include "common/status_macros.h"

namespace azbench {

namespace runner_internal {

absl::Status RunOutcome(const std::vector<std::optional<absl::Status>>& job_statuses) {
  for (const std::optional<absl::Status>& status : job_statuses) {
    if (status.has_value() && !status->ok()) return *status;
  }
  return absl::OkStatus();
}

absl::Status CheckStartAhead(int64_t start_at_realtime_ns) {
  const int64_t ahead_ns = start_at_realtime_ns - RealtimeNanos();
  if (start_at_realtime_ns > 0 && ahead_ns > kMaxStartAheadNs) {
    return absl::InvalidArgumentError(
        absl::StrCat("start_at_agent_realtime_ns is ", ahead_ns / 1'000'000'000,
                     " s ahead of this agent's clock; at most ", kMaxStartAheadNs / 1'000'000'000,
                     " s (", kMaxStartAheadNs / 60'000'000'000, " minutes) ahead is allowed"));
  }
  return absl::OkStatus();
}

}  // namespace runner_internal

void Runner::PreparedRun::RemoveFiles(int* removed) {
  for (auto& job : jobs) {
    for (const auto& f : job->files()) {
      if (f.created && removed != nullptr) ++*removed;
    }
    (void)job->RemoveCreatedFiles();
  }
  for (auto it = created_dirs.rbegin(); it != created_dirs.rend(); ++it) {
    (void)rmdir(it->c_str());  // only succeeds when empty: files kept by the user stay
  }
  created_dirs.clear();
}

Runner::Runner(RunnerConfig config) : config_(config) {
  if (config_.reap_interval > absl::ZeroDuration() &&
      config_.prepared_lease > absl::ZeroDuration()) {
    reaper_ = std::thread([this] { ReapLoop(); });
  }
}

Runner::~Runner() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  if (reaper_.joinable()) reaper_.join();
  CancelAll();
  absl::MutexLock lock(&mu_);
  for (auto& [id, run] : runs_) {
    if (!run->running && !run->preparing) run->RemoveFiles(nullptr);
  }
}

absl::StatusOr<PrepareOutcome> Runner::PrepareSpecs(
    const std::string& run_id, const std::vector<std::pair<JobSpec, int>>& specs,
    uint64_t interval_ns) {
  std::vector<std::unique_ptr<ParsedJob>> jobs;
  for (const auto& [spec, group_id] : specs) {
    jobs.push_back(MakeParsedBlockIoJob(spec, group_id, config_.agent_subdir));
  }
  return PrepareAll(run_id, std::move(jobs), interval_ns, /*request_key=*/"", RunPlacement{});
}

absl::StatusOr<PrepareOutcome> Runner::PrepareAll(const std::string& run_id,
                                                  std::vector<std::unique_ptr<ParsedJob>> jobs,
                                                  uint64_t interval_ns,
                                                  const std::string& request_key,
                                                  RunPlacement placement) {
  if (run_id.empty()) return absl::InvalidArgumentError("run_id must not be empty");
  if (jobs.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("run '", run_id, "' has no jobs"));
  }
  if (interval_ns < kMinIntervalNs || interval_ns > kMaxIntervalNs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "interval ", interval_ns / 1'000'000, " ms is out of range: give ",
        kMinIntervalNs / 1'000'000, " ms to ", kMaxIntervalNs / 1'000'000, " ms (1 h)"));
  }
  auto run = std::make_shared<PreparedRun>();
  run->interval_ns = interval_ns;
  run->request_key = request_key;
  {
    // The id is reserved before the layout: two Prepares of one id never lay out (and, failing,
    // remove) the same files at once, and runs being prepared count against the limit.
    absl::MutexLock lock(&mu_);
    auto it = runs_.find(run_id);
    if (it != runs_.end()) {
      const std::shared_ptr<PreparedRun> held = it->second;
      if (request_key.empty() || held->request_key != request_key || held->running || held->ran) {
        return absl::AlreadyExistsError(
            absl::StrCat("run '", run_id, "' is already ",
                         held->preparing ? "being prepared"
                         : held->ran     ? "run"
                                         : "prepared",
                         held->request_key != request_key ? " with other jobs" : ""));
      }
      // The same request again (the coordinator's retry after a broken connection): answer as
      // the first one did, once it has.
      // The wait is bounded (a layout of many GiB takes minutes): a retry that outlives it is told
      // to ask again rather than holding a server thread for ever.
      auto prepared = [&held]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return !held->preparing; };
      if (!mu_.AwaitWithTimeout(absl::Condition(&prepared), absl::Minutes(10))) {
        return absl::UnavailableError(
            absl::StrCat("run '", run_id,
                         "' is still being prepared by an earlier request (10 min); ask again"));
      }
      if (!held->prepare_status.ok()) return held->prepare_status;
      return held->outcome;
    }
    if (runs_.size() >= config_.max_concurrent_runs) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "the agent already holds ", runs_.size(), " runs (limit ", config_.max_concurrent_runs,
          ", counting runs being prepared); clean up finished runs first"));
    }
    run->preparing = true;
    runs_[run_id] = run;
  }
  absl::StatusOr<PrepareOutcome> outcome = LayOut(run_id, *run, jobs, placement);
  absl::MutexLock lock(&mu_);
  run->preparing = false;
  if (!outcome.ok()) {
    run->prepare_status = outcome.status();
    runs_.erase(run_id);  // the placeholder: nobody else removes a run being prepared
    return outcome.status();
  }
  run->outcome = *outcome;
  if (config_.prepared_lease > absl::ZeroDuration()) {
    run->lease_end_ns = MonotonicNanos() + absl::ToInt64Nanoseconds(config_.prepared_lease);
  }
  return outcome;
}

namespace {

// Serialises sink calls from job and clone threads and remembers a broken sink.
class SerialSink {
 public:
  explicit SerialSink(RunEventSink& sink) : sink_(sink) {}
  template <typename F>
  bool Call(F&& f) {
    absl::MutexLock lock(&mu_);
    if (broken_) return false;
    if (!f(sink_)) broken_ = true;
    return !broken_;
  }
  bool broken() {
    absl::MutexLock lock(&mu_);
    return broken_;
  }

 private:
  absl::Mutex mu_;
  RunEventSink& sink_;
  bool broken_ = false;
};

}  // namespace

absl::Status Runner::Run(const std::string& run_id, int64_t start_at_realtime_ns,
                         RunEventSink& sink, absl::Duration progress_interval) {
  RETURN_IF_ERROR(runner_internal::CheckStartAhead(start_at_realtime_ns));
  if (progress_interval <= absl::ZeroDuration()) progress_interval = config_.progress_interval;
  const uint64_t progress_interval_ns =
      static_cast<uint64_t>(absl::ToInt64Nanoseconds(progress_interval));
  std::shared_ptr<PreparedRun> run;
  {
    absl::MutexLock lock(&mu_);
    auto it = runs_.find(run_id);
    if (it == runs_.end()) {
      return absl::NotFoundError(absl::StrCat("run '", run_id, "' is not prepared on this agent"));
    }
    run = it->second;
    if (run->preparing) {
      return absl::FailedPreconditionError(absl::StrCat(
          "run '", run_id, "' is still being prepared; start it once Prepare answered"));
    }
    if (run->running || run->ran) {
      return absl::FailedPreconditionError(absl::StrCat("run '", run_id, "' has already run"));
    }
    run->running = true;
  }
  SerialSink serial(sink);
  // fio's disk_util: the disks under the jobs' directories, read now and when the run ends.
  std::vector<std::string> disk_paths;
  for (const ConfinedJob& job : run->confined) {
    if (!job.disk_util) continue;
    for (const ConfinedDir& dir : job.dirs) disk_paths.push_back(dir.FdPath());
  }
  const DiskUtilTracker disks = DiskUtilTracker::Start(disk_paths);
  // The start instant, converted from the agent's realtime clock to its monotonic clock.
  const int64_t now_real = RealtimeNanos();
  const uint64_t now_mono = MonotonicNanos();
  uint64_t start_mono = now_mono;
  if (start_at_realtime_ns > now_real) start_mono += start_at_realtime_ns - now_real;

  std::atomic<bool> done{false};
  std::atomic<int> jobs_running{0};
  // Each job runs with its own cancel flag: fio's exitall ends some jobs and not others. The run's
  // cancel reaches every job through the watcher below.
  std::vector<ExitPolicy> exit_policies;
  for (const auto& job : run->jobs) exit_policies.push_back(job->exit_policy());
  JobExits exits(std::move(exit_policies));
  std::vector<const JobProgress*> progress;
  for (const auto& job : run->jobs) progress.push_back(job->progress());
  serial.Call([&](RunEventSink& s) {
    s.OnJobsProgress(progress);
    return true;
  });
  // Progress and lease watch: every progress interval, report counters and poll the sink. A cancel
  // of the run reaches the jobs as soon as it is asked for: the watcher waits on run->wake_mu,
  // which RequestCancel and the end of the run hold, rather than polling (a thread waking every
  // millisecond took CPU from the jobs on small machines).
  std::thread watcher([&] {
    bool cancel_passed = false;
    uint64_t next_report = MonotonicNanos() + progress_interval_ns;
    for (;;) {
      {
        absl::MutexLock lock(&run->wake_mu);
        const auto woken = [&] { return done.load() || (!cancel_passed && run->cancel.load()); };
        const uint64_t now = MonotonicNanos();
        if (now < next_report) {
          run->wake_mu.AwaitWithTimeout(absl::Condition(&woken),
                                        absl::Nanoseconds(next_report - now));
        }
      }
      if (done.load()) break;
      if (!cancel_passed && run->cancel.load()) {
        exits.CancelAll();
        cancel_passed = true;
      }
      if (MonotonicNanos() < next_report) continue;
      uint64_t ops = 0, bytes = 0;
      for (auto& job : run->jobs) {
        ops += job->ops_done();
        bytes += job->bytes_done();
      }
      const bool alive = serial.Call([&](RunEventSink& s) {
        return s.Alive() && s.OnProgress(RealtimeNanos(), ops, bytes, jobs_running.load());
      });
      if (!alive) run->RequestCancel();
      next_report = MonotonicNanos() + progress_interval_ns;
    }
  });

  // Per job; nullopt until it ran (a cancel ends the run before the later stonewall groups).
  std::vector<std::optional<absl::StatusOr<std::vector<JobResult>>>> results(run->jobs.size());
  // PhaseDone events for a sink that drives phases; empty: each barrier is released at once.
  runner_internal::PhaseBarrier::PhaseDone phase_done;
  if (sink.DrivesPhases()) {
    phase_done = [&serial](int seq, const std::string& phase) {
      return serial.Call([&](RunEventSink& s) { return s.OnPhaseDone(seq, phase); });
    };
  }
  // Set when a job's Run has returned: the jobs that wait_for it start then.
  std::vector<absl::Notification> ended(run->jobs.size());
  bool started_sent = false;
  FlowRegistry flows;  // fio's flow_id: every job of the run shares them
  size_t begin = 0;
  while (begin < run->jobs.size() && !run->cancel.load()) {
    size_t end = begin + 1;
    while (end < run->jobs.size() && !run->stonewall[end]) ++end;
    RunControl control;
    control.start_monotonic_ns = begin == 0 ? start_mono : MonotonicNanos();
    control.cancel = &run->cancel;
    control.interval_ns = run->interval_ns;
    control.flows = &flows;
    std::vector<std::thread> threads;
    if (run->cancel.load()) exits.CancelAll();
    exits.Started(begin, end);
    int phased_jobs = 0;
    for (size_t i = begin; i < end; ++i) {
      phased_jobs += run->jobs[i]->phased() && !exits.Ended(i) ? 1 : 0;
    }
    run->barrier.StartGroup(phased_jobs);
    // The group's jobs join their flows before any of them starts (fio joins every job at
    // setup): a job whose thread starts late would otherwise let the others run unheld. A job
    // that waits for another (wait_for) joins when it starts.
    for (size_t i = begin; i < end; ++i) {
      if (!exits.Ended(i) && run->jobs[i]->wait_for().empty()) run->jobs[i]->JoinFlows(flows);
    }
    for (size_t i = begin; i < end; ++i) {
      // Ended by another job's exit_what=all before its group started: it never runs, as in fio.
      if (exits.Ended(i)) continue;
      const std::string name = run->jobs[i]->name();
      RunControl job_control = control;
      job_control.cancel = exits.cancel(i);
      job_control.on_clone_end = [&exits, i](bool failed) { exits.CloneEnded(i, failed); };
      const int job_index = static_cast<int>(i);
      job_control.on_interval = [&serial, &run, name, job_index](const IntervalOrigin& origin,
                                                                 const IntervalStats& interval) {
        if (!serial.Call([&](RunEventSink& s) {
              return s.OnSeriesInterval(job_index, name, origin, interval);
            })) {
          run->RequestCancel();
        }
      };
      job_control.on_op_log = [&serial, &run, name](int clone, std::vector<OpRecord>&& records) {
        if (!serial.Call([&](RunEventSink& s) { return s.OnOpLog(name, clone, records); })) {
          run->RequestCancel();
        }
      };
      if (run->jobs[i]->phased()) {
        job_control.await_phase = [&](int, const std::string& phase) {
          return run->barrier.Arrive(phase, phase_done);
        };
      }
      const bool phased = run->jobs[i]->phased();
      const int waitee = run->wait_for[i];
      threads.emplace_back([&, i, job_control, phased, waitee]() mutable {
        // A waitee of an earlier stonewall group has ended already.
        if (waitee >= static_cast<int>(begin)) {
          while (!ended[waitee].WaitForNotificationWithTimeout(absl::Milliseconds(50))) {
            if (run->cancel.load()) break;
          }
          job_control.start_monotonic_ns =
              std::max(job_control.start_monotonic_ns, MonotonicNanos());
        }
        ++jobs_running;
        results[i] = run->jobs[i]->Run(job_control);
        --jobs_running;
        ended[i].Notify();
        // The job's end, for families that do not report their clones' ends.
        bool failed = !results[i]->ok();
        if (!failed) {
          for (const JobResult& r : **results[i]) {
            failed |= r.error_errno != 0 || !r.error_message.empty();
          }
        }
        exits.CloneEnded(i, failed);
        if (phased) run->barrier.JobEnded(phase_done);
      });
    }
    // fio's steady state: jobs that became steady end early, their group's verdict in the result.
    std::vector<SteadyStateMonitor::Job> steady_jobs;
    for (size_t i = begin; i < end; ++i) {
      if (!exits.Ended(i)) {
        steady_jobs.push_back({i, run->jobs[i].get(), run->jobs[i]->steady_state()});
      }
    }
    SteadyStateMonitor steady(
        std::move(steady_jobs), [&exits](size_t i) { exits.EndJob(i); },
        [&ended](size_t i) { return !ended[i].HasBeenNotified(); });
    steady.Start(control.start_monotonic_ns);
    if (!started_sent) {
      // Sleep until the start instant has passed so the event carries the actual start time; a
      // cancel ends the wait (the jobs' own waits end too, and they measure nothing).
      (void)SleepUntilMonotonicOrCancelled(start_mono, &run->cancel);
      const uint64_t woke_mono = MonotonicNanos();
      const int64_t actual =
          RealtimeNanos() -
          (woke_mono > start_mono ? static_cast<int64_t>(woke_mono - start_mono) : 0);
      serial.Call([&](RunEventSink& s) { return s.OnStarted(actual); });
      started_sent = true;
    }
    for (auto& t : threads) t.join();
    steady.Stop();
    for (size_t i = begin; i < end; ++i) {
      if (!results[i].has_value() || !results[i]->ok()) continue;
      if (std::optional<SteadyStateResult> ss = steady.Result(i)) {
        for (JobResult& result : **results[i]) result.steadystate = *ss;
      }
      for (const JobResult& result : **results[i]) {
        if (!serial.Call(
                [&](RunEventSink& s) { return s.OnJobResult(static_cast<int>(i), result); })) {
          run->RequestCancel();
        }
      }
    }
    begin = end;
  }
  {
    absl::MutexLock lock(&run->wake_mu);
    done.store(true);
  }
  watcher.join();
  const bool cancelled = run->cancel.load();
  const std::vector<DiskUtil> disk_util = disks.Finish();
  serial.Call([&](RunEventSink& s) { return s.OnDiskUtil(disk_util); });
  serial.Call([&](RunEventSink& s) { return s.OnFinished(RealtimeNanos(), cancelled); });
  const bool lease_lost = serial.broken();  // the end too may find the lease gone
  {
    absl::MutexLock lock(&mu_);
    run->running = false;
    run->ran = true;
    if (lease_lost) {
      // The coordinator is gone: nobody will call Cleanup. The run is forgotten in the same step
      // that ends it, so no Cleanup or reaper can take it and remove its files alongside this
      // thread (below).
      runs_.erase(run_id);
    } else if (config_.prepared_lease > absl::ZeroDuration()) {
      // Now waiting for Cleanup: a coordinator that died after the run still gets its files
      // removed.
      run->lease_end_ns = MonotonicNanos() + absl::ToInt64Nanoseconds(config_.prepared_lease);
    }
  }
  if (lease_lost) {
    run->RemoveFiles(nullptr);
    return absl::CancelledError(absl::StrCat(
        "run '", run_id, "': the coordinator's stream broke; run cancelled, files removed"));
  }
  std::vector<std::optional<absl::Status>> job_statuses;
  job_statuses.reserve(results.size());
  for (const auto& r : results) {
    job_statuses.push_back(r.has_value() ? std::optional<absl::Status>(r->status()) : std::nullopt);
  }
  return runner_internal::RunOutcome(job_statuses);
}

bool Runner::Cancel(const std::string& run_id) {
  absl::MutexLock lock(&mu_);
  auto it = runs_.find(run_id);
  if (it == runs_.end() || it->second->preparing) return false;
  it->second->RequestCancel();
  return it->second->running;
}

absl::Status Runner::Renew(const std::string& run_id, absl::Duration lease) {
  absl::MutexLock lock(&mu_);
  auto it = runs_.find(run_id);
  if (it == runs_.end()) {
    return absl::NotFoundError(
        absl::StrCat("run '", run_id, "' is not known to this agent (never prepared, or expired)"));
  }
  if (lease <= absl::ZeroDuration()) lease = config_.prepared_lease;
  if (lease > absl::ZeroDuration()) {
    it->second->lease_end_ns = MonotonicNanos() + absl::ToInt64Nanoseconds(lease);
  }
  return absl::OkStatus();
}

std::vector<std::string> Runner::ReapExpired(uint64_t now_monotonic_ns) {
  std::vector<std::pair<std::string, std::shared_ptr<PreparedRun>>> expired;
  {
    absl::MutexLock lock(&mu_);
    for (auto it = runs_.begin(); it != runs_.end();) {
      const PreparedRun& run = *it->second;
      if (!run.running && !run.preparing && run.lease_end_ns != 0 &&
          run.lease_end_ns < now_monotonic_ns) {
        expired.emplace_back(it->first, it->second);
        it = runs_.erase(it);
      } else {
        ++it;
      }
    }
  }
  std::vector<std::string> ids;
  for (auto& [id, run] : expired) {
    int removed = 0;
    run->RemoveFiles(&removed);
    spdlog::warn(
        "run {}: its lease expired before {} (the coordinator is gone?); forgot it and "
        "removed {} files",
        id, run->ran ? "Cleanup" : "Run", removed);
    ids.push_back(id);
  }
  return ids;
}

void Runner::ReapLoop() {
  const absl::Duration tick = config_.reap_interval;
  while (true) {
    {
      absl::MutexLock lock(&mu_);
      if (mu_.AwaitWithTimeout(absl::Condition(&stopping_), tick)) return;
    }
    ReapExpired(MonotonicNanos());
  }
}

void Runner::CancelAll() {
  absl::MutexLock lock(&mu_);
  for (auto& [id, run] : runs_) run->RequestCancel();
}

void Runner::SetJobPolicy(JobPolicy policy) {
  absl::MutexLock lock(&mu_);
  config_.policy = std::move(policy);
}

void Runner::SetMaxConcurrentRuns(uint64_t max_concurrent_runs) {
  absl::MutexLock lock(&mu_);
  config_.max_concurrent_runs = max_concurrent_runs;
}

absl::StatusOr<int> Runner::Cleanup(const std::string& run_id, bool remove_files) {
  std::shared_ptr<PreparedRun> run;
  {
    absl::MutexLock lock(&mu_);
    auto it = runs_.find(run_id);
    if (it == runs_.end()) {
      return absl::NotFoundError(absl::StrCat("run '", run_id, "' is not known to this agent"));
    }
    if (it->second->running) {
      return absl::FailedPreconditionError(
          absl::StrCat("run '", run_id, "' is running; cancel it first"));
    }
    if (it->second->preparing) {
      return absl::FailedPreconditionError(absl::StrCat(
          "run '", run_id, "' is still being prepared; clean it up once Prepare answered"));
    }
    run = it->second;
    runs_.erase(it);
  }
  int removed = 0;
  if (remove_files) run->RemoveFiles(&removed);
  return removed;
}

}  // namespace azbench

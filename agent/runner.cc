#include "agent/runner.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/job_spec.h"
#include "common/status_macros.h"

namespace azbench {

struct Runner::PreparedRun {
  std::vector<ConfinedJob> confined;  // directory descriptors the jobs' paths go through
  std::vector<std::unique_ptr<BlockIoJob>> jobs;
  std::vector<std::string> created_dirs;  // per-agent subdirectories this run made
  std::vector<bool> stonewall;            // per job: waits for every job before it
  uint64_t interval_ns = 1'000'000'000;
  std::atomic<bool> cancel{false};
  bool running = false;
  bool ran = false;

  void RemoveFiles(int* removed) {
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
};

Runner::Runner(RunnerConfig config) : config_(config) {}

Runner::~Runner() {
  CancelAll();
  absl::MutexLock lock(&mu_);
  for (auto& [id, run] : runs_) {
    if (!run->running) run->RemoveFiles(nullptr);
  }
}

absl::StatusOr<PrepareOutcome> Runner::Prepare(const std::string& run_id,
                                               const std::vector<JobRequest>& jobs,
                                               uint64_t interval_ns) {
  std::vector<std::pair<JobSpec, int>> specs;
  for (const JobRequest& request : jobs) {
    if (request.workload != "block_io") {
      return absl::InvalidArgumentError(absl::StrCat("job '", request.name, "': workload '",
                                                     request.workload,
                                                     "' is not supported (supported: block_io)"));
    }
    specs.emplace_back(JobSpec{}, request.group_id);
    JobSpec& spec = specs.back().first;
    for (const auto& [key, value] : request.options) {
      absl::Status s = ApplyJobOption(spec, key, value);
      if (!s.ok()) {
        return absl::Status(s.code(), absl::StrCat("job '", request.name, "': ", s.message()));
      }
    }
    spec.name = request.name;
  }
  return PrepareSpecs(run_id, specs, interval_ns);
}

absl::StatusOr<PrepareOutcome> Runner::PrepareSpecs(
    const std::string& run_id, const std::vector<std::pair<JobSpec, int>>& specs,
    uint64_t interval_ns) {
  if (run_id.empty()) return absl::InvalidArgumentError("run_id must not be empty");
  if (specs.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("run '", run_id, "' has no jobs"));
  }
  if (interval_ns < 10'000'000) {
    return absl::InvalidArgumentError("interval must be at least 10 ms");
  }
  {
    absl::MutexLock lock(&mu_);
    if (runs_.count(run_id) > 0) {
      return absl::AlreadyExistsError(absl::StrCat("run '", run_id, "' is already prepared"));
    }
    if (runs_.size() >= config_.max_concurrent_runs) {
      return absl::ResourceExhaustedError(absl::StrCat("the agent already holds ", runs_.size(),
                                                       " runs (limit ", config_.max_concurrent_runs,
                                                       "); clean up finished runs first"));
    }
  }
  auto run = std::make_shared<PreparedRun>();
  run->interval_ns = interval_ns;
  PrepareOutcome outcome;
  JobPolicy policy;
  bool enforce_policy = false;
  {
    absl::MutexLock lock(&mu_);
    policy = config_.policy;
    enforce_policy = config_.enforce_policy;
  }
  if (enforce_policy) {
    uint64_t clones = 0;
    for (const auto& spec : specs) clones += static_cast<uint64_t>(std::max(1, spec.first.numjobs));
    RETURN_IF_ERROR(CheckRunJobCount(clones, policy.limits));
  }
  for (const auto& [original, group_id] : specs) {
    JobSpec spec = original;
    if (enforce_policy) {
      // Confinement replaces the plain mkdir below: the subdirectory is made beneath the root.
      absl::StatusOr<ConfinedJob> confined = ConfineJob(spec, policy, config_.agent_subdir);
      if (!confined.ok()) {
        run->RemoveFiles(nullptr);
        return confined.status();
      }
      for (const std::string& dir : confined->created_dirs) run->created_dirs.push_back(dir);
      run->confined.push_back(std::move(*confined));
    } else if (!config_.agent_subdir.empty() && spec.filename.empty() && !spec.directory.empty()) {
      spec.directory = absl::StrCat(spec.directory, "/", config_.agent_subdir);
      if (mkdir(spec.directory.c_str(), 0755) == 0) {
        run->created_dirs.push_back(spec.directory);
      } else if (errno != EEXIST) {
        const int err = errno;
        run->RemoveFiles(nullptr);
        return absl::Status(err == ENOENT ? absl::StatusCode::kFailedPrecondition
                                          : absl::StatusCode::kPermissionDenied,
                            absl::StrCat("job '", spec.name, "': cannot create '", spec.directory,
                                         "': ", strerror(err)));
      }
    }
    absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec, group_id);
    // Messages and file lists name the directories, not the descriptors they go through.
    auto display = [&](std::string text) {
      return enforce_policy ? run->confined.back().DisplayText(std::move(text)) : text;
    };
    if (!job.ok()) {
      run->RemoveFiles(nullptr);
      return absl::Status(job.status().code(),
                          display(absl::StrCat("job '", spec.name, "': ", job.status().message())));
    }
    for (const auto& f : (*job)->files()) {
      outcome.files.push_back(f);
      outcome.files.back().path = display(f.path);
    }
    for (const auto& w : (*job)->warnings()) {
      outcome.warnings.push_back(absl::StrCat("job '", spec.name, "': ", w));
    }
    run->stonewall.push_back(spec.stonewall);
    run->jobs.push_back(std::move(*job));
  }
  absl::MutexLock lock(&mu_);
  if (runs_.count(run_id) > 0) {  // a concurrent Prepare of the same id won
    run->RemoveFiles(nullptr);
    return absl::AlreadyExistsError(absl::StrCat("run '", run_id, "' is already prepared"));
  }
  runs_[run_id] = std::move(run);
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
                         RunEventSink& sink, uint64_t progress_interval_ns) {
  if (progress_interval_ns == 0) progress_interval_ns = config_.progress_interval_ns;
  std::shared_ptr<PreparedRun> run;
  {
    absl::MutexLock lock(&mu_);
    auto it = runs_.find(run_id);
    if (it == runs_.end()) {
      return absl::NotFoundError(absl::StrCat("run '", run_id, "' is not prepared on this agent"));
    }
    run = it->second;
    if (run->running || run->ran) {
      return absl::FailedPreconditionError(absl::StrCat("run '", run_id, "' has already run"));
    }
    run->running = true;
  }
  SerialSink serial(sink);
  // The start instant, converted from the agent's realtime clock to its monotonic clock.
  const int64_t now_real = RealtimeNanos();
  const uint64_t now_mono = MonotonicNanos();
  uint64_t start_mono = now_mono;
  if (start_at_realtime_ns > now_real) start_mono += start_at_realtime_ns - now_real;

  std::atomic<bool> done{false};
  std::atomic<int> jobs_running{0};
  // Progress and lease watch: every progress interval, report counters and poll the sink.
  std::thread watcher([&] {
    while (!done.load()) {
      const uint64_t until = MonotonicNanos() + progress_interval_ns;
      while (!done.load() && MonotonicNanos() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      if (done.load()) break;
      uint64_t ops = 0, bytes = 0;
      for (auto& job : run->jobs) {
        ops += job->ops_done();
        bytes += job->bytes_done();
      }
      const bool alive = serial.Call([&](RunEventSink& s) {
        return s.Alive() && s.OnProgress(RealtimeNanos(), ops, bytes, jobs_running.load());
      });
      if (!alive) run->cancel.store(true);
    }
  });

  std::vector<absl::StatusOr<JobResult>> results;
  for (size_t i = 0; i < run->jobs.size(); ++i) results.emplace_back(absl::UnknownError("not run"));
  bool started_sent = false;
  size_t begin = 0;
  while (begin < run->jobs.size() && !run->cancel.load()) {
    size_t end = begin + 1;
    while (end < run->jobs.size() && !run->stonewall[end]) ++end;
    RunControl control;
    control.start_monotonic_ns = begin == 0 ? start_mono : MonotonicNanos();
    control.cancel = &run->cancel;
    control.interval_ns = run->interval_ns;
    std::vector<std::thread> threads;
    for (size_t i = begin; i < end; ++i) {
      const std::string name = run->jobs[i]->spec().name;
      RunControl job_control = control;
      job_control.on_interval = [&serial, &run, name](int clone, const IntervalStats& interval) {
        if (!serial.Call([&](RunEventSink& s) { return s.OnInterval(name, clone, interval); })) {
          run->cancel.store(true);
        }
      };
      job_control.on_op_log = [&serial, &run, name](int clone, std::vector<OpRecord>&& records) {
        if (!serial.Call([&](RunEventSink& s) { return s.OnOpLog(name, clone, records); })) {
          run->cancel.store(true);
        }
      };
      threads.emplace_back([&, i, job_control] {
        ++jobs_running;
        results[i] = run->jobs[i]->Run(job_control);
        --jobs_running;
      });
    }
    if (!started_sent) {
      // Sleep until the start instant has passed so the event carries the actual start time.
      while (MonotonicNanos() < start_mono)
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      const int64_t actual = RealtimeNanos() - static_cast<int64_t>(MonotonicNanos() - start_mono);
      serial.Call([&](RunEventSink& s) { return s.OnStarted(actual); });
      started_sent = true;
    }
    for (auto& t : threads) t.join();
    for (size_t i = begin; i < end; ++i) {
      if (!results[i].ok()) continue;
      if (!serial.Call([&](RunEventSink& s) { return s.OnResult(*results[i]); })) {
        run->cancel.store(true);
      }
    }
    begin = end;
  }
  done.store(true);
  watcher.join();
  const bool lease_lost = serial.broken();
  const bool cancelled = run->cancel.load();
  serial.Call([&](RunEventSink& s) { return s.OnFinished(RealtimeNanos(), cancelled); });
  {
    absl::MutexLock lock(&mu_);
    run->running = false;
    run->ran = true;
  }
  if (lease_lost) {
    // The coordinator is gone: nobody will call Cleanup. Remove what this run created, forget it.
    run->RemoveFiles(nullptr);
    absl::MutexLock lock(&mu_);
    runs_.erase(run_id);
    return absl::CancelledError(absl::StrCat(
        "run '", run_id, "': the coordinator's stream broke; run cancelled, files removed"));
  }
  for (auto& r : results) {
    if (!r.ok() && r.status().code() != absl::StatusCode::kUnknown) return r.status();
  }
  return absl::OkStatus();
}

bool Runner::Cancel(const std::string& run_id) {
  absl::MutexLock lock(&mu_);
  auto it = runs_.find(run_id);
  if (it == runs_.end()) return false;
  it->second->cancel.store(true);
  return it->second->running;
}

void Runner::CancelAll() {
  absl::MutexLock lock(&mu_);
  for (auto& [id, run] : runs_) run->cancel.store(true);
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
    run = it->second;
    runs_.erase(it);
  }
  int removed = 0;
  if (remove_files) run->RemoveFiles(&removed);
  return removed;
}

}  // namespace azbench

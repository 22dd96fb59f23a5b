#include "agent/one_shot.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string_view>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent/one_shot_output.h"
#include "agent/runner/runner.h"
#include "agent/workloads/visibility/visibility_job.h"
#include "common/clock.h"
#include "common/disk_util.h"
#include "common/file_util.h"
#include "common/fio_log_writer.h"
#include "common/flags.h"
#include "common/op_log_writer.h"
#include "common/status_macros.h"
#include "common/units.h"
#include "common/workload_spec.h"

namespace azbench {

namespace {

std::atomic<bool> g_interrupted{false};
void OnSignal(int) { g_interrupted.store(true); }

// Prepared jobs start together this far in the future, so every clone's thread is waiting at the
// start.
constexpr uint64_t kStartDelayNs = 20'000'000;

}  // namespace

// The command's own flags, written --flag=value; every other --key=value is fio's (fio_args).
const std::vector<FlagSpec>& OneShotFlags() {
  static const auto* flags = new std::vector<FlagSpec>{
      {.name = "--output-format", .help = "normal, json, json+, terse; several comma-separated"},
      {.name = "--minimal", .is_switch = true, .help = "terse output (--output-format=terse)"},
      {.name = "--terse-version", .help = "terse format version: 2, 3 (default), 4, 5"},
      {.name = "--output", .help = "write the results to this file"},
      {.name = "--interval", .help = "interval series step, 10ms to 1h"},
      {.name = "--workload", .help = "block_io (default), metadata, small_files, ..."},
      {.name = "--unlink", .is_switch = true, .help = "remove the job's files afterwards"},
      {.name = "--parse-only", .is_switch = true, .help = "check the jobs, run nothing"},
      {.name = "--showcmd", .is_switch = true, .help = "print the jobs as a fio command line"},
      {.name = "--section", .repeatable = true, .help = "run only this job section"},
      {.name = "--eta", .help = "fio's status line on stdout: auto (terminal only), always, never"},
      {.name = "--eta-newline", .help = "start a new status line every TIME (default: rewrite)"},
      {.name = "--eta-interval", .help = "update the status line every TIME, 250ms or more (1s)"},
  };
  return *flags;
}

absl::StatusOr<OneShotOptions> ParseOneShotArgs(const std::vector<std::string>& args) {
  OneShotOptions options;
  // The command's own flags take one value: a second one is an error, not a guess at which wins
  // (fio's options, in fio_args, follow fio: the last one counts).
  ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags(OneShotFlags(), args,
                                                 FlagSyntax{.value_in_next_argument = false,
                                                            .single_dash_flags = false,
                                                            .keep_unknown = true}));
  for (const FlagValue& f : flags.flags) {
    if (f.name == "--output-format") {
      RETURN_IF_ERROR(ParseOutputFormats(f.value).status());
      options.output_format = f.value;
    } else if (f.name == "--minimal") {
      if (f.value == "true") options.output_format = "terse";
    } else if (f.name == "--terse-version") {
      ASSIGN_OR_RETURN(options.terse_version, ParseTerseVersion(f.value));
    } else if (f.name == "--output") {
      options.output_path = f.value;
    } else if (f.name == "--interval") {
      ASSIGN_OR_RETURN(absl::Duration d, ParseDuration(f.value));
      if (d < absl::Nanoseconds(kMinIntervalNs) || d > absl::Nanoseconds(kMaxIntervalNs)) {
        return absl::InvalidArgumentError(
            absl::StrCat("--interval=", f.value, " is out of range: give 10ms to 1h"));
      }
      options.interval_ns = static_cast<uint64_t>(absl::ToInt64Nanoseconds(d));
    } else if (f.name == "--workload") {
      options.workload = f.value;
      RETURN_IF_ERROR(ParseWorkloadFamily(options.workload).status());
    } else if (f.name == "--unlink") {
      options.remove_files = f.value == "true";
    } else if (f.name == "--parse-only") {
      options.parse_only = f.value == "true";
    } else if (f.name == "--showcmd") {
      options.showcmd = f.value == "true";
    } else if (f.name == "--section") {
      options.sections.push_back(f.value);
    } else if (f.name == "--eta") {
      ASSIGN_OR_RETURN(options.eta.mode, ParseEtaMode(f.value));
    } else if (f.name == "--eta-newline") {
      ASSIGN_OR_RETURN(options.eta.newline_every, ParseEtaNewline(f.value));
    } else if (f.name == "--eta-interval") {
      ASSIGN_OR_RETURN(options.eta.interval, ParseEtaInterval(f.value));
    }
  }
  options.fio_args = std::move(flags.unknown);
  for (const std::string& arg : flags.positional) {
    if (!options.job_file.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unexpected argument '", arg, "': give one job file, or --name=... options"));
    }
    options.job_file = arg;
  }
  if (options.job_file.empty() && options.fio_args.empty()) {
    return absl::InvalidArgumentError(
        "nothing to run: give a fio job file, or job options such as --name=x --rw=read --size=1g");
  }
  if (options.workload != "block_io" && !options.job_file.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("--workload=", options.workload,
                                                   " takes --key=value options, not a job file ('",
                                                   options.job_file, "')"));
  }
  if (!options.sections.empty() && options.job_file.empty()) {
    return absl::InvalidArgumentError("--section selects sections of a job file; give one");
  }
  if (!options.job_file.empty() && !options.fio_args.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("give either a job file or job options, not both (got '", options.job_file,
                     "' and '", options.fio_args.front(), "')"));
  }
  return options;
}

namespace {

// Collects results; the one-shot command has no live consumer of intervals.
class CollectingSink final : public RunEventSink {
 public:
  bool OnStarted(int64_t) override { return true; }
  bool OnProgress(int64_t, uint64_t, uint64_t, int) override { return true; }
  bool OnInterval(const std::string&, int, const IntervalStats&) override { return true; }
  // op_log in one-shot mode: "<job>.oplog.csv.gz" in the current directory, like fio's log files;
  // fio's log files from the same records. A log that cannot be written is the job's problem, not
  // the end of the run.
  bool OnOpLog(const std::string& job, int clone, const std::vector<OpRecord>& records) override {
    if (fio_logs != nullptr && fio_logs->Wants(job)) {
      if (absl::Status s = fio_logs->Append(job, clone, records); !s.ok()) {
        AddProblem(job, s.message(), "fio log files");
      }
    }
    if (!op_log_jobs.contains(job)) return true;
    auto it = op_logs.find(job);
    if (it == op_logs.end()) {
      absl::StatusOr<std::unique_ptr<OpLogWriter>> writer =
          OpLogWriter::Open(job + ".oplog.csv.gz");
      if (!writer.ok()) {
        AddProblem(job, writer.status().message());
        return true;
      }
      it = op_logs.emplace(job, std::move(*writer)).first;
    }
    if (absl::Status s = it->second->Append(records); !s.ok()) AddProblem(job, s.message());
    return true;
  }
  bool OnResult(const JobResult& result) override {
    results.push_back(result.Clone());
    return true;
  }
  bool OnFinished(int64_t, bool) override { return true; }
  void OnJobsProgress(const std::vector<const JobProgress*>& jobs) override {
    if (eta != nullptr) eta->Watch(jobs);
  }
  // The first problem of each job's op log (later ones repeat it).
  void AddProblem(const std::string& job, absl::string_view message,
                  absl::string_view log = "op_log") {
    op_log_problems.emplace(job, absl::StrCat(log, " not complete: ", message));
  }
  std::vector<JobResult> results;
  std::set<std::string> op_log_jobs;  // the jobs with op_log=1
  FioLogWriter* fio_logs = nullptr;   // null: no job writes fio log files
  EtaPrinter* eta = nullptr;          // null: no status line
  std::map<std::string, std::unique_ptr<OpLogWriter>> op_logs;
  std::map<std::string, std::string> op_log_problems;  // job -> message
};

// Runs the prepared run `run_id` to its end (`cancel` forwarded), then closes the op logs and
// cleans up. What fails after the jobs ran (an op log, removing files) is added to the results'
// warnings and to `problems`, never instead of the results.
absl::StatusOr<OneShotRun> RunPrepared(Runner& runner, const std::string& run_id,
                                       const std::atomic<bool>* cancel, bool remove_files,
                                       std::set<std::string> op_log_jobs, FioLogWriter* fio_logs,
                                       EtaPrinter* eta) {
  std::atomic<bool> done{false};
  std::thread forwarder([&] {
    while (!done.load()) {
      if (cancel != nullptr && cancel->load()) {
        runner.Cancel(run_id);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  CollectingSink sink;
  sink.op_log_jobs = std::move(op_log_jobs);
  sink.fio_logs = fio_logs;
  sink.eta = eta;
  absl::Status status = runner.Run(run_id, RealtimeNanos() + kStartDelayNs, sink);
  // The status line ends before anything else is printed.
  if (eta != nullptr) eta->Stop();
  done.store(true);
  forwarder.join();
  if (!status.ok()) {
    // What the op logs hold is flushed, and the files go as they would after a run.
    for (auto& [job, writer] : sink.op_logs) (void)writer->Close();
    if (fio_logs != nullptr) (void)fio_logs->Close();
    (void)runner.Cleanup(run_id, remove_files);
    return status;
  }
  for (auto& [job, writer] : sink.op_logs) {
    if (absl::Status s = writer->Close(); !s.ok()) sink.AddProblem(job, s.message());
  }
  if (fio_logs != nullptr) {
    if (absl::Status s = fio_logs->Close(); !s.ok()) {
      sink.AddProblem("fio logs", s.message(), "fio log files");
    }
  }
  OneShotRun run;
  run.results = std::move(sink.results);
  for (JobResult& r : run.results) {
    if (auto it = sink.op_log_problems.find(r.name); it != sink.op_log_problems.end()) {
      r.warnings.push_back(it->second);
    }
  }
  for (const auto& [job, message] : sink.op_log_problems) {
    run.problems.push_back(absl::StrCat(job, ": ", message));
  }
  if (absl::StatusOr<int> removed = runner.Cleanup(run_id, remove_files); !removed.ok()) {
    const std::string message = absl::StrCat("files not cleaned up: ", removed.status().message());
    for (JobResult& r : run.results) r.warnings.push_back(message);
    run.problems.push_back(message);
  }
  return run;
}

// Runs `prepare` (the layout) with `cancel` forwarded: a signal during the layout cancels the run
// being prepared (the only one this runner holds), which stops its layout between files.
absl::Status PrepareCancellable(Runner& runner, const std::atomic<bool>* cancel,
                                const std::function<absl::Status()>& prepare) {
  std::atomic<bool> done{false};
  std::thread forwarder([&] {
    // Again until the layout returns: a signal before the run was registered is otherwise lost.
    while (!done.load()) {
      if (cancel != nullptr && cancel->load()) runner.CancelAll();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  absl::Status status = prepare();
  done.store(true);
  forwarder.join();
  return status;
}

}  // namespace

absl::StatusOr<OneShotRun> RunJobs(const std::vector<FioJob>& jobs, const std::atomic<bool>* cancel,
                                   uint64_t interval_ns, bool remove_files, EtaPrinter* eta) {
  Runner runner;
  std::vector<std::pair<JobSpec, int>> specs;
  for (const FioJob& job : jobs) specs.emplace_back(job.spec, job.group_id);
  // The runner removes the files of all the run's jobs or of none (fio's unlink is per job).
  const auto unlinks = [](const FioJob& job) { return job.spec.unlink; };
  if (!remove_files && std::any_of(jobs.begin(), jobs.end(), unlinks)) {
    if (!std::all_of(jobs.begin(), jobs.end(), unlinks)) {
      return absl::InvalidArgumentError(
          "unlink=1 is set on some jobs only: azbench-agent run removes the files of every job "
          "or of none; set unlink=1 in [global] or pass --unlink");
    }
    remove_files = true;
  }
  std::set<std::string> op_log_jobs;
  std::vector<FioLogWriter::Job> log_jobs;
  for (const FioJob& job : jobs) {
    if (job.spec.op_log) op_log_jobs.insert(job.spec.name);
    log_jobs.push_back({.name = job.spec.name,
                        .options = job.spec.fio_logs,
                        .clones = std::max(job.spec.numjobs, 1)});
  }
  std::unique_ptr<FioLogWriter> fio_logs;
  if (std::any_of(jobs.begin(), jobs.end(),
                  [](const FioJob& j) { return j.spec.fio_logs.Any(); })) {
    // Created before the run, as fio does: a log that cannot be created is known before any I/O.
    ASSIGN_OR_RETURN(fio_logs, FioLogWriter::Open(log_jobs));
  }
  const std::string run_id = "one-shot";
  RETURN_IF_ERROR(PrepareCancellable(
      runner, cancel, [&] { return runner.PrepareSpecs(run_id, specs, interval_ns).status(); }));
  return RunPrepared(runner, run_id, cancel, remove_files, std::move(op_log_jobs), fio_logs.get(),
                     eta);
}

namespace {

// The job of a family's --key=value options (--name= names it; the family's name otherwise).
JobRequest FamilyJobRequest(const std::string& workload, const std::vector<std::string>& args) {
  JobRequest job;
  job.name = workload;
  job.workload = workload;
  for (const std::string& arg : args) {
    const std::string option = arg.substr(2);  // ParseOneShotArgs kept only "--..." here
    const size_t eq = option.find('=');
    const std::string key = option.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : option.substr(eq + 1);
    if (key == "name") {
      job.name = value;
    } else {
      job.options.emplace_back(key, value);
    }
  }
  return job;
}

}  // namespace

absl::Status ValidateFamilyJobArgs(const std::string& workload,
                                   const std::vector<std::string>& args) {
  ASSIGN_OR_RETURN(const WorkloadFamily family, ParseWorkloadFamily(workload));
  JobRequest job = FamilyJobRequest(workload, args);
  RETURN_IF_ERROR(CheckJobName(job.name));
  if (family == WorkloadFamily::kVisibility) {
    // The probe runs with a warning that these do not apply (PrepareVisibilityJob), as before.
    std::erase_if(job.options,
                  [](const auto& option) { return VisibilityIgnoresOption(option.first); });
  }
  return ValidateWorkloadOptions(family, job.options, job.name);
}

absl::StatusOr<OneShotRun> RunFamilyJob(const std::string& workload,
                                        const std::vector<std::string>& args,
                                        const std::atomic<bool>* cancel, uint64_t interval_ns,
                                        EtaPrinter* eta) {
  const JobRequest job = FamilyJobRequest(workload, args);
  Runner runner;
  const std::string run_id = "one-shot";
  RETURN_IF_ERROR(PrepareCancellable(
      runner, cancel, [&] { return runner.Prepare(run_id, {job}, interval_ns).status(); }));
  // A family's jobs stream op records only for op_log (fio's log options are block_io's).
  std::set<std::string> op_log_jobs = {job.name};
  return RunPrepared(runner, run_id, cancel, /*remove_files=*/true, std::move(op_log_jobs),
                     /*fio_logs=*/nullptr, eta);
}

int RunOneShotCommand(const std::vector<std::string>& args) {
  absl::StatusOr<OneShotOptions> options = ParseOneShotArgs(args);
  if (!options.ok()) {
    std::cerr << "azbench-agent run: " << options.status().message() << "\n";
    return 2;
  }
  const bool family = options->workload != "block_io";
  // A family's options are checked here, as block_io's are by the parser: a bad one is a usage
  // error (2), like a bad fio option, not a failed run (1).
  if (family) {
    if (absl::Status s = ValidateFamilyJobArgs(options->workload, options->fio_args); !s.ok()) {
      std::cerr << "azbench-agent run: " << s.message() << "\n";
      return 2;
    }
  }
  absl::StatusOr<std::vector<FioJob>> jobs =
      family                      ? std::vector<FioJob>{}
      : options->job_file.empty() ? ParseFioCommandLine(options->fio_args)
                                  : ParseFioJobFileAtPath(options->job_file, options->sections);
  if (!jobs.ok()) {
    std::cerr << "azbench-agent run: " << jobs.status().message() << "\n";
    return 2;
  }
  for (const std::string& warning : options->warnings) {
    std::cerr << "azbench-agent: warning: " << warning << "\n";
  }
  for (const std::string& warning : FioJobWarnings(*jobs)) {
    std::cerr << "azbench-agent: warning: " << warning << "\n";
  }
  if (options->showcmd) {
    std::cout << FioJobsAsCommandLine(*jobs) << "\n";
    return 0;
  }
  if (options->parse_only) return 0;
  if (!options->output_path.empty()) {
    // Found out now, not after an hour of I/O: a directory, or a directory that does not exist.
    const std::filesystem::path out(options->output_path);
    std::error_code ec;
    const std::filesystem::path parent = out.has_parent_path() ? out.parent_path() : ".";
    if (std::filesystem::is_directory(out, ec)) {
      std::cerr << "azbench-agent run: --output='" << options->output_path
                << "' is a directory; give a file name\n";
      return 2;
    }
    if (!std::filesystem::is_directory(parent, ec)) {
      std::cerr << "azbench-agent run: --output='" << options->output_path << "': directory '"
                << parent.string() << "' does not exist\n";
      return 2;
    }
  }
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  const DiskUtilTracker disks = DiskUtilTracker::Start(DiskUtilPaths(*jobs));
  OutputFormats formats = *ParseOutputFormats(options->output_format);
  formats.terse_version = options->terse_version;
  std::unique_ptr<EtaPrinter> eta;
  if (ShowsEtaLine(options->eta.mode, isatty(STDOUT_FILENO) != 0, formats.normal,
                   options->output_path.empty())) {
    eta = std::make_unique<EtaPrinter>(options->eta, stdout);
  }
  absl::StatusOr<OneShotRun> run =
      family
          ? RunFamilyJob(options->workload, options->fio_args, &g_interrupted, options->interval_ns,
                         eta.get())
          : RunJobs(*jobs, &g_interrupted, options->interval_ns, options->remove_files, eta.get());
  if (eta != nullptr) eta->Stop();  // a run that failed before its jobs ran printed nothing
  if (!run.ok()) {
    std::cerr << "azbench-agent run: " << run.status().message() << "\n";
    return 1;
  }
  const std::vector<JobResult>& results = run->results;
  const bool interrupted = g_interrupted.load();
  const std::string text = RenderOneShotOutput(
      formats, results, OneShotFioContext(*jobs, results, disks.Finish()), interrupted);
  int rc = interrupted || !run->problems.empty() ? 1 : 0;
  for (const std::string& problem : run->problems) {
    std::cerr << "azbench-agent run: " << problem << "\n";
  }
  if (options->output_path.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else if (absl::Status s = WriteWholeFile(options->output_path, text, "output"); !s.ok()) {
    // The results exist only in this process: they go to stdout rather than nowhere.
    std::cerr << "azbench-agent run: " << s.message() << "; the results follow on stdout\n";
    std::fwrite(text.data(), 1, text.size(), stdout);
    rc = 1;
  }
  for (const auto& r : results) {
    // Errors that continue_on_error let pass do not fail the run, as in fio.
    if (r.error_errno != 0 || r.TotalErrors() > r.total_err_count) rc = 1;
  }
  return rc;
}

}  // namespace azbench

#include "agent/one_shot.h"

#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent/workloads/block_io.h"
#include "common/clock.h"
#include "common/result_json.h"
#include "common/result_text.h"
#include "common/status_macros.h"
#include "common/units.h"

namespace azbench {

namespace {

std::atomic<bool> g_interrupted{false};
void OnSignal(int) { g_interrupted.store(true); }

// Prepared jobs start together this far in the future, so every clone's thread is waiting at the
// start.
constexpr uint64_t kStartDelayNs = 20'000'000;

}  // namespace

absl::StatusOr<OneShotOptions> ParseOneShotArgs(const std::vector<std::string>& args) {
  OneShotOptions options;
  for (const std::string& arg : args) {
    if (absl::StartsWith(arg, "--output-format=")) {
      options.output_format = arg.substr(16);
      if (options.output_format != "normal" && options.output_format != "json") {
        return absl::InvalidArgumentError(absl::StrCat("--output-format='", options.output_format,
                                                       "' is not one of: normal, json"));
      }
    } else if (absl::StartsWith(arg, "--output=")) {
      options.output_path = arg.substr(9);
    } else if (absl::StartsWith(arg, "--interval=")) {
      ASSIGN_OR_RETURN(absl::Duration d, ParseDuration(arg.substr(11)));
      if (d < absl::Milliseconds(10)) {
        return absl::InvalidArgumentError("--interval must be at least 10ms");
      }
      options.interval_ns = static_cast<uint64_t>(absl::ToInt64Nanoseconds(d));
    } else if (arg == "--unlink" || arg == "--unlink=1") {
      options.remove_files = true;
    } else if (absl::StartsWith(arg, "--")) {
      options.fio_args.push_back(arg);
    } else if (options.job_file.empty()) {
      options.job_file = arg;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "unexpected argument '", arg, "': give one job file, or --name=... options"));
    }
  }
  if (options.job_file.empty() && options.fio_args.empty()) {
    return absl::InvalidArgumentError(
        "nothing to run: give a fio job file, or job options such as --name=x --rw=read --size=1g");
  }
  if (!options.job_file.empty() && !options.fio_args.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("give either a job file or job options, not both (got '", options.job_file,
                     "' and '", options.fio_args.front(), "')"));
  }
  return options;
}

absl::StatusOr<std::vector<JobResult>> RunJobs(const std::vector<FioJob>& jobs,
                                               const std::atomic<bool>* cancel,
                                               uint64_t interval_ns, bool remove_files) {
  std::vector<JobResult> results;
  size_t begin = 0;
  while (begin < jobs.size()) {
    if (cancel != nullptr && cancel->load()) break;
    // A phase: this job and every following job up to the next stonewall.
    size_t end = begin + 1;
    while (end < jobs.size() && !jobs[end].spec.stonewall) ++end;
    std::vector<std::unique_ptr<BlockIoJob>> prepared;
    for (size_t i = begin; i < end; ++i) {
      absl::StatusOr<std::unique_ptr<BlockIoJob>> job =
          BlockIoJob::Prepare(jobs[i].spec, jobs[i].group_id);
      if (!job.ok()) {
        for (auto& p : prepared) (void)p->RemoveCreatedFiles();
        return absl::Status(job.status().code(), absl::StrCat("job '", jobs[i].spec.name,
                                                              "': ", job.status().message()));
      }
      prepared.push_back(std::move(*job));
    }
    RunControl control;
    control.start_monotonic_ns = MonotonicNanos() + kStartDelayNs;
    control.cancel = cancel;
    control.interval_ns = interval_ns;
    std::vector<absl::StatusOr<JobResult>> phase;
    for (size_t i = 0; i < prepared.size(); ++i) phase.emplace_back(absl::UnknownError("not run"));
    std::vector<std::thread> threads;
    for (size_t i = 0; i < prepared.size(); ++i) {
      threads.emplace_back([&, i] { phase[i] = prepared[i]->Run(control); });
    }
    for (auto& t : threads) t.join();
    for (size_t i = 0; i < prepared.size(); ++i) {
      if (remove_files) (void)prepared[i]->RemoveCreatedFiles();
      if (!phase[i].ok()) return phase[i].status();
      results.push_back(std::move(*phase[i]));
    }
    begin = end;
  }
  return results;
}

int RunOneShotCommand(const std::vector<std::string>& args) {
  absl::StatusOr<OneShotOptions> options = ParseOneShotArgs(args);
  if (!options.ok()) {
    std::cerr << "azbench-agent run: " << options.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<std::vector<FioJob>> jobs = options->job_file.empty()
                                                 ? ParseFioCommandLine(options->fio_args)
                                                 : ParseFioJobFileAtPath(options->job_file);
  if (!jobs.ok()) {
    std::cerr << "azbench-agent run: " << jobs.status().message() << "\n";
    return 2;
  }
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  absl::StatusOr<std::vector<JobResult>> results =
      RunJobs(*jobs, &g_interrupted, options->interval_ns, options->remove_files);
  if (!results.ok()) {
    std::cerr << "azbench-agent run: " << results.status().message() << "\n";
    return 1;
  }
  const bool interrupted = g_interrupted.load();
  std::string text;
  if (options->output_format == "json") {
    nlohmann::json doc = ResultsToFioJson(*results);
    if (interrupted) doc["azbench_interrupted"] = true;
    text = doc.dump(2) + "\n";
  } else {
    if (interrupted) text = "interrupted: results cover the time until the signal\n";
    for (const auto& r : *results) text += FormatJobResultText(r);
  }
  if (options->output_path.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    std::ofstream out(options->output_path);
    out << text;
    if (!out) {
      std::cerr << "azbench-agent run: cannot write '" << options->output_path << "'\n";
      return 1;
    }
  }
  int rc = interrupted ? 1 : 0;
  for (const auto& r : *results) {
    if (r.TotalErrors() > 0 || r.error_errno != 0) rc = 1;
  }
  return rc;
}

}  // namespace azbench

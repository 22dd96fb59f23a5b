// `azbench-agent run`: runs fio-style jobs on this machine without a server, and prints the
// results.
//
//   azbench-agent run study-c.fio
//   azbench-agent run --workload=metadata --directory=/mnt/efs --files=1000 --dirs=10
//   azbench-agent run --name=w --rw=write --bs=4m --size=4g --ioengine=libaio --direct=1
//                     --runtime=60 --time_based --output-format=json
//
// Jobs run as fio runs them: all jobs at once, except that a job with `stonewall` waits for every
// job before it. Ctrl-C (SIGINT/SIGTERM) stops the jobs and prints what was measured, marked as
// interrupted.
#ifndef AZBENCH_AGENT_ONE_SHOT_H_
#define AZBENCH_AGENT_ONE_SHOT_H_

#include <atomic>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/one_shot_eta.h"
#include "common/fio_jobfile.h"
#include "common/job_result.h"

namespace azbench {

struct OneShotOptions {
  std::string job_file;                  // empty: jobs come from fio_args
  std::vector<std::string> fio_args;     // fio command-line job options (--name=..., --rw=...)
  std::string output_format = "normal";  // valid for ParseOutputFormats (one_shot_output.h)
  int terse_version = 3;                 // fio's --terse-version (ParseTerseVersion)
  std::string output_path;               // empty: stdout
  // fio's bwavgtime and iopsavgtime: the bw and iops samples of the output are these intervals.
  uint64_t interval_ns = 500'000'000;
  bool remove_files = false;  // remove the files the run created (fio's unlink=1)
  // block_io (fio options) or another family (common/workload_spec.h), whose options then come
  // from fio_args as --key=value.
  std::string workload = "block_io";
  // fio's --parse-only, --showcmd and --section=NAME (repeatable): check the jobs and print their
  // warnings; print them as a fio command line; run only the named job sections.
  bool parse_only = false;
  bool showcmd = false;
  std::vector<std::string> sections;
  // fio's --eta, --eta-newline, --eta-interval: its status line on stdout while the jobs run.
  EtaOptions eta;
  // Warnings about the command's own flags.
  std::vector<std::string> warnings;
};

// What a one-shot run measured, and what it could not do after the jobs ran (an op log that could
// not be written, files not removed), each also a warning on the results it concerns.
struct OneShotRun {
  std::vector<JobResult> results;
  std::vector<std::string> problems;
};

// Checks the options of a family other than block_io (--key=value, --name=) as an agent's Prepare
// will, without touching anything. Errors: InvalidArgument naming the option or the name.
absl::Status ValidateFamilyJobArgs(const std::string& workload,
                                   const std::vector<std::string>& args);

// Runs one job of a family other than block_io (one-shot mode); results as RunJobs.
absl::StatusOr<OneShotRun> RunFamilyJob(const std::string& workload,
                                        const std::vector<std::string>& args,
                                        const std::atomic<bool>* cancel, uint64_t interval_ns,
                                        EtaPrinter* eta = nullptr);

// Parses `azbench-agent run` arguments (everything after "run"). Errors: InvalidArgument naming the
// argument and what is allowed.
absl::StatusOr<OneShotOptions> ParseOneShotArgs(const std::vector<std::string>& args);

// Runs the jobs phase by phase (stonewall). Fails before any I/O result exists if a job cannot be
// prepared; files created by the failed phase are removed. Once the jobs ran, their results are
// returned whatever fails afterwards (OneShotRun::problems). `cancel` may be null; `eta` (may be
// null) watches the jobs while they run and is stopped before this returns.
absl::StatusOr<OneShotRun> RunJobs(const std::vector<FioJob>& jobs, const std::atomic<bool>* cancel,
                                   uint64_t interval_ns, bool remove_files,
                                   EtaPrinter* eta = nullptr);

// The whole command; returns the process exit code (0 ok, 1 failed, 2 usage). Writes errors to
// stderr. The output file (--output) is checked before the run; if it cannot be written after
// all, the results go to stdout rather than nowhere.
int RunOneShotCommand(const std::vector<std::string>& args);

}  // namespace azbench

#endif  // AZBENCH_AGENT_ONE_SHOT_H_

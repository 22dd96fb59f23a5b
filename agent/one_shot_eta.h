// fio's --eta, --eta-newline and --eta-interval for `azbench-agent run`: a thread that samples the
// jobs' progress as fio's helper thread does (every 250 ms) and prints fio's status line
// (agent/eta_status.h, agent/eta_line.h) to stdout while they run.
//
//   EtaPrinter printer(options, stdout);
//   printer.Watch(jobs);  // from RunEventSink::OnJobsProgress
//   ...                   // the run
//   printer.Stop();       // the last line ends with "\n": the report starts on a fresh line
#ifndef AZBENCH_AGENT_ONE_SHOT_ETA_H_
#define AZBENCH_AGENT_ONE_SHOT_ETA_H_

#include <cstdio>
#include <thread>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "agent/workloads/job_progress.h"

namespace azbench {

enum class EtaMode { kNever, kAuto, kAlways };

struct EtaOptions {
  EtaMode mode = EtaMode::kAuto;
  absl::Duration newline_every = absl::ZeroDuration();  // --eta-newline; 0: rewrite in place
  absl::Duration interval = absl::Seconds(1);           // --eta-interval
};

// fio's shortest --eta-interval (its helper thread's tick).
inline constexpr absl::Duration kMinEtaInterval = absl::Milliseconds(250);

// The values as fio takes them: never, auto, always; a time (seconds without a suffix) of at
// least 1 ms for --eta-newline and kMinEtaInterval for --eta-interval. Errors: InvalidArgument
// naming the value and what is allowed.
absl::StatusOr<EtaMode> ParseEtaMode(absl::string_view value);
absl::StatusOr<absl::Duration> ParseEtaNewline(absl::string_view value);
absl::StatusOr<absl::Duration> ParseEtaInterval(absl::string_view value);

// Whether fio prints the line: never with --eta=never; with auto only to a terminal; and not when
// the results go to stdout in a format without normal (the line would mix into them).
bool ShowsEtaLine(EtaMode mode, bool stdout_is_terminal, bool normal_output, bool output_to_stdout);

class EtaPrinter {
 public:
  EtaPrinter(EtaOptions options, std::FILE* out) : options_(options), out_(out) {}
  ~EtaPrinter() { Stop(); }
  EtaPrinter(const EtaPrinter&) = delete;
  EtaPrinter& operator=(const EtaPrinter&) = delete;

  // Starts printing the run of `jobs` (null entries: jobs that keep no progress, left out); the
  // run's clock starts now. The jobs must outlive Stop. Once only.
  void Watch(const std::vector<const JobProgress*>& jobs);
  // Ends the thread; a line printed is ended by "\n". Safe to call twice.
  void Stop();

 private:
  void Loop(std::vector<const JobProgress*> jobs, uint64_t genesis_monotonic_ns);

  EtaOptions options_;
  std::FILE* out_;
  absl::Notification stop_;
  std::thread thread_;
  bool printed_ = false;  // written by the thread, read after it joined
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ONE_SHOT_ETA_H_

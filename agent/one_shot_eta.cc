#include "agent/one_shot_eta.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "agent/eta_line.h"
#include "agent/eta_status.h"
#include "common/clock.h"
#include "common/units.h"

namespace azbench {

namespace {

// fio's helper thread wakes this often (its DISK_UTIL_MSEC) and prints a line when one is due.
constexpr absl::Duration kTick = absl::Milliseconds(250);

absl::StatusOr<absl::Duration> ParseEtaTime(absl::string_view flag, absl::string_view value,
                                            absl::Duration at_least) {
  absl::StatusOr<absl::Duration> d = ParseDuration(std::string(value), absl::Seconds(1));
  if (!d.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(flag, "=", value, ": ", d.status().message()));
  }
  if (*d < at_least) {
    return absl::InvalidArgumentError(absl::StrCat(
        flag, "=", value, " is too short: give at least ", absl::FormatDuration(at_least)));
  }
  return *d;
}

}  // namespace

absl::StatusOr<EtaMode> ParseEtaMode(absl::string_view value) {
  if (value == "never") return EtaMode::kNever;
  if (value == "auto") return EtaMode::kAuto;
  if (value == "always") return EtaMode::kAlways;
  return absl::InvalidArgumentError(
      absl::StrCat("--eta='", value, "': give never, auto or always"));
}

absl::StatusOr<absl::Duration> ParseEtaNewline(absl::string_view value) {
  return ParseEtaTime("--eta-newline", value, absl::Milliseconds(1));
}

absl::StatusOr<absl::Duration> ParseEtaInterval(absl::string_view value) {
  return ParseEtaTime("--eta-interval", value, kMinEtaInterval);
}

bool ShowsEtaLine(EtaMode mode, bool stdout_is_terminal, bool normal_output,
                  bool output_to_stdout) {
  if (mode == EtaMode::kNever) return false;
  if (!normal_output && output_to_stdout) return false;
  return mode == EtaMode::kAlways || stdout_is_terminal;
}

void EtaPrinter::Watch(const std::vector<const JobProgress*>& jobs) {
  if (thread_.joinable() || stop_.HasBeenNotified()) return;
  thread_ = std::thread(&EtaPrinter::Loop, this, jobs, MonotonicNanos());
}

void EtaPrinter::Stop() {
  if (!stop_.HasBeenNotified()) stop_.Notify();
  if (!thread_.joinable()) return;
  thread_.join();
  if (printed_) {
    std::fputs("\n", out_);
    std::fflush(out_);
  }
}

void EtaPrinter::Loop(std::vector<const JobProgress*> jobs, uint64_t genesis_monotonic_ns) {
  EtaCalculator calculator(options_.interval, genesis_monotonic_ns);
  EtaLineDisplay display(options_.newline_every);
  std::vector<CloneEtaInput> clones;
  while (!stop_.WaitForNotificationWithTimeout(kTick)) {
    clones.clear();
    for (const JobProgress* job : jobs) {
      if (job == nullptr) continue;
      for (size_t i = 0; i < job->clones.size(); ++i) {
        clones.push_back({.profile = &job->profiles[i],
                          .first_clone = i == 0,
                          .sample = job->clones[i]->Sample()});
      }
    }
    const uint64_t now_ns = MonotonicNanos();
    const std::optional<JobsEta> je = calculator.Calc(clones, now_ns);
    if (!je.has_value()) continue;
    const std::string line = display.Render(*je, absl::FromUnixNanos(static_cast<int64_t>(now_ns)));
    std::fwrite(line.data(), 1, line.size(), out_);
    std::fflush(out_);
    printed_ = true;
  }
}

}  // namespace azbench

// `azbench plan` and `azbench run` (a campaign, or a fio job file or command line): the plan, the
// results database, progress lines, and the results when the run ends.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/clock.h"
#include "common/units.h"
#include "common/version.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/cli/cli_args.h"
#include "coordinator/cli/cli_commands.h"
#include "coordinator/cli/cli_fleet.h"
#include "coordinator/cli/fio_job_run.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/plan/placement.h"
#include "coordinator/plan/plan.h"
#include "coordinator/report/placement_report.h"
#include "coordinator/report/report_input.h"
#include "coordinator/report/terminal_report.h"
#include "coordinator/run/campaign_loop.h"
#include "coordinator/run/run.h"
#include "coordinator/store/results_file.h"

namespace azbench::cli_internal {

namespace {

std::atomic<bool> g_interrupted{false};
void OnSignal(int) { g_interrupted.store(true); }

// Seconds a scenario is expected to take (largest ramp_time + runtime of its jobs), 0 if unknown.
double ExpectedSeconds(const Scenario& scenario) {
  double longest = 0;
  for (const auto& job : scenario.jobs) {
    double seconds = 0;
    for (const auto& [k, v] : job.options) {
      if (k == "runtime" || k == "ramp_time") {
        absl::StatusOr<absl::Duration> d = ParseDuration(v);
        if (d.ok()) seconds += absl::ToDoubleSeconds(*d);
      }
    }
    longest = std::max(longest, seconds);
  }
  return longest;
}

// What the campaign loop tells, printed: a line per scenario, and live progress while it runs (one
// line redrawn on a terminal, a line every 5 s otherwise).
class ProgressPrinter final : public CampaignLoopObserver {
 public:
  explicit ProgressPrinter(bool quiet) : tty_(isatty(STDOUT_FILENO) == 1), quiet_(quiet) {}
  void MovedAside(const std::string& aside) override {
    std::cout << "earlier results moved to " << aside << " (use --resume to continue a run)\n";
  }
  void ScenarioStarting(int n, int total, const Scenario& s) override {
    label_ = absl::StrFormat("[%d/%d] %s", n, total, s.key);
    expected_s_ = ExpectedSeconds(s);
    last_plain_ns_ = 0;
    if (!tty_ && !quiet_)
      std::cout << label_ << ": started on " << s.agent_ids.size() << " agents\n";
  }
  void Update(const LiveProgress& p) {
    if (quiet_) return;
    std::string eta = expected_s_ > 0 ? absl::StrFormat("/%.0fs", expected_s_) : "";
    std::string line =
        absl::StrFormat("%s  %.1fs%s  %.1f MiB/s  %.0f IOPS  agents %d running %d done %d lost",
                        label_, p.elapsed_s, eta, p.bytes_per_s / (1024.0 * 1024.0), p.ops_per_s,
                        p.running, p.done, p.lost);
    if (tty_) {
      std::cout << "\r\033[K" << line << std::flush;
    } else {
      const int64_t now = RealtimeNanos();
      if (now - last_plain_ns_ >= 5'000'000'000LL) {
        std::cout << line << "\n" << std::flush;
        last_plain_ns_ = now;
      }
    }
  }
  void ScenarioFinished(const ScenarioResult& r) override {
    if (tty_ && !quiet_) std::cout << "\r\033[K";
    std::cout << label_ << ": " << ScenarioStatusName(r.status);
    if (!r.status_detail.empty()) std::cout << " (" << r.status_detail << ")";
    if (r.first_start_realtime_ns != 0) {
      std::cout << ", start skew " << FormatNanos(static_cast<double>(r.start_skew_ns()));
    }
    std::cout << "\n" << std::flush;
  }

 private:
  bool tty_;
  bool quiet_;
  std::string label_;
  double expected_s_ = 0;
  int64_t last_plain_ns_ = 0;
};

// The arguments that continue a run after an interruption: the same command line (every flag:
// --db, TLS, ...) with --resume, quoted for a shell.
std::string ResumeCommandLine(const std::vector<std::string>& flags,
                              const std::vector<std::string>& fio_args) {
  std::vector<std::string> again;
  for (const std::string& a : flags) {
    if (a != "--resume" && !absl::StartsWith(a, "--resume=")) again.push_back(a);
  }
  again.push_back("--resume");
  if (!fio_args.empty()) {
    again.push_back("--");
    again.insert(again.end(), fio_args.begin(), fio_args.end());
  }
  return ShellJoin(again);
}

// `azbench run --fio-job` / `-- <fio command line>`: the fleet, directory and database flags.
absl::StatusOr<FioJobRun> MakeFioJobRunFromArgs(const Args& args,
                                                const std::vector<std::string>& fio_args) {
  if (!args.positional.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unexpected '", args.positional[0],
                     "': a fio job run takes no campaign file (fio options go after '--')"));
  }
  FioJobRunOptions options;
  if (const std::string* job = args.Get("--fio-job")) options.job_file = *job;
  options.fio_args = fio_args;
  if (options.job_file.empty() && fio_args.empty()) {
    return absl::InvalidArgumentError("--fio-job needs a job file");
  }
  absl::StatusOr<FleetSpec> fleet =
      FleetFromFlags(args.Get("--hosts"), args.Get("--local"), args.Get("--azs"));
  if (!fleet.ok()) return fleet.status();
  options.fleet = std::move(*fleet);
  if (const std::string* dir = args.Get("--directory")) options.directory = *dir;
  if (const std::string* db = args.Get("--db")) options.results_path = *db;
  return MakeFioJobRun(options);
}

// The options of fio_job workloads that have no effect in azbench, said when the campaign is
// loaded (before anything runs), so a job file written for fio is not silently run differently.
void PrintWorkloadWarnings(const std::string& command, const Campaign& campaign) {
  for (const Workload& workload : campaign.workloads) {
    for (const std::string& warning : workload.warnings) {
      std::cerr << "azbench " << command << ": warning: " << warning << "\n";
    }
  }
}

}  // namespace

int PlanCommand(const std::vector<std::string>& raw) {
  absl::StatusOr<Args> args = ParseArgs(raw, {}, {});
  if (!args.ok()) return Fail("plan", args.status(), 2);
  if (args->positional.size() != 1) {
    return Fail("plan", absl::InvalidArgumentError("give exactly one campaign file"), 2);
  }
  absl::StatusOr<Campaign> campaign = ParseCampaignFile(args->positional[0]);
  if (!campaign.ok()) return Fail("plan", campaign.status(), 2);
  PrintWorkloadWarnings("plan", *campaign);
  // A local fleet's AZs are known without starting it, so targets with server_az can be placed;
  // remote agents' placement is known only once they are described (azbench run).
  const std::vector<AgentInfo> expected = ExpectedAgents(campaign->fleet);
  const PlacementTable preview =
      ClassifyCampaignPlacements(*campaign, PlacementAgentsFromInfos(expected));
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(
      *campaign, expected, campaign->fleet.kind == FleetSpec::Kind::kLocal ? &preview : nullptr);
  if (!plan.ok()) return Fail("plan", plan.status(), 2);
  std::cout << FormatPlan(*plan);
  return 0;
}

int RunCommand(const std::vector<std::string>& raw_all) {
  // Everything after a lone "--" is a fio command-line job (fio's own spelling, verbatim).
  std::vector<std::string> raw = raw_all, fio_args;
  if (auto dashes = std::find(raw.begin(), raw.end(), "--"); dashes != raw.end()) {
    fio_args.assign(dashes + 1, raw.end());
    raw.erase(dashes, raw.end());
  }
  absl::StatusOr<Args> args =
      ParseArgs(raw,
                WithSecurityFlags({"--db", "--fio-job", "--hosts", "--local", "--azs",
                                   "--directory", "--prepared-lease"}),
                {"--resume", "--allow-missing", "--quiet"});
  if (!args.ok()) return Fail("run", args.status(), 2);
  // Every flag is checked before anything is touched (the earlier results moved aside, a fleet).
  RunOptions options;
  if (args->Has("--prepared-lease")) {
    absl::StatusOr<absl::Duration> lease = ParseDuration(*args->Get("--prepared-lease"));
    // The agents take the lease in milliseconds as 32 bits (~49 days); a day is already far more
    // than any layout needs.
    if (!lease.ok() || *lease < absl::Seconds(1) || *lease > absl::Hours(24)) {
      return Fail("run",
                  absl::InvalidArgumentError(
                      absl::StrCat("--prepared-lease '", *args->Get("--prepared-lease"),
                                   "': give a duration from 1s to 24h (e.g. 30s, the default)")),
                  2);
    }
    options.prepared_lease = *lease;
  }
  std::optional<FioJobRun> fio_run;
  absl::StatusOr<Campaign> campaign;
  if (args->Has("--fio-job") || !fio_args.empty()) {
    absl::StatusOr<FioJobRun> made = MakeFioJobRunFromArgs(*args, fio_args);
    if (!made.ok()) return Fail("run", made.status(), 2);
    fio_run = std::move(*made);
    campaign = fio_run->campaign;
  } else {
    for (const char* flag : {"--hosts", "--local", "--azs", "--directory"}) {
      if (args->Has(flag)) {
        return Fail("run",
                    absl::InvalidArgumentError(
                        absl::StrCat(flag,
                                     " is for fio job runs (--fio-job or -- <fio command line>); a "
                                     "campaign names its fleet and targets itself")),
                    2);
      }
    }
    if (args->positional.size() != 1) {
      return Fail("run", absl::InvalidArgumentError("give exactly one campaign file"), 2);
    }
    campaign = ParseCampaignFile(args->positional[0]);
    if (!campaign.ok()) return Fail("run", campaign.status(), 2);
  }
  PrintWorkloadWarnings("run", *campaign);
  const std::string rerun = ResumeCommandLine(raw, fio_args);
  const std::string db_path = args->Has("--db") ? *args->Get("--db") : campaign->results_path;
  const bool resume = args->Has("--resume");

  if (absl::Status s = CheckResultsPath(db_path); !s.ok()) return Fail("run", s, 2);
  // One run per results database, for the whole run: taken before anything touches the file (the
  // move aside, --resume's reads), and before the fleet is started, so a second run refuses at
  // once. Released last (declared before the fleet and the store).
  absl::StatusOr<std::unique_ptr<ResultsLock>> lock = ResultsLock::Acquire(db_path);
  if (!lock.ok()) return Fail("run", lock.status());

  // The fleet and the plan first: a TLS file that cannot be read, an agent that cannot be
  // reached or a plan that cannot be made must not move the earlier results aside.
  std::vector<std::string> target_paths;
  for (const auto& t : campaign->targets) {
    if (!t.path.empty()) target_paths.push_back(t.path);  // empty: fio jobs keep their own
  }
  absl::StatusOr<FleetHandle> handle = OpenFleet(
      campaign->fleet, target_paths, args->Has("--allow-missing"), SecurityFromFlags(*args),
      LocalFleetRoots(*campaign), LocalFleetNfsServers(*campaign));
  if (!handle.ok()) return Fail("run", handle.status());
  Fleet& fleet = handle->fleet;
  for (const auto& missing : fleet.missing) std::cout << "missing agent: " << missing << "\n";
  const PlacementTable placements =
      ClassifyCampaignPlacements(*campaign, PlacementAgentsFromFleet(fleet));
  for (const auto& w : placements.warnings) std::cout << "placement warning: " << w << "\n";
  absl::StatusOr<std::vector<Scenario>> plan =
      fio_run ? ExpandFioJobRun(*fio_run, fleet.Infos())
              : ExpandCampaign(*campaign, fleet.Infos(), &placements);
  if (!plan.ok()) return Fail("run", plan.status(), 2);

  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  ProgressPrinter printer(args->Has("--quiet"));
  options.interrupt = &g_interrupted;
  options.on_progress = [&](const LiveProgress& p) { printer.Update(p); };
  options.on_warning = [](const std::string& warning) {
    std::cerr << "\nwarning: " << warning << "\n" << std::flush;
  };
  CampaignLoopOptions loop_options;
  loop_options.db_path = db_path;
  loop_options.resume = resume;
  loop_options.run = options;
  absl::StatusOr<CampaignSummary> summary =
      RunCampaignLoop(*campaign, *plan, fleet, loop_options, &printer);
  if (!summary.ok())
    return Fail("run", summary.status(), IsResumeRefusal(summary.status()) ? 2 : 1);
  if (summary->skipped_resume > 0) {
    std::cout << summary->skipped_resume << " scenarios already stored were skipped (--resume)\n";
  }
  if (summary->interrupted) {
    std::cout << "interrupted: results so far are stored in " << db_path
              << "; continue with: azbench run " << rerun << "\n";
    return 130;
  }
  if (summary->results.has_value()) {
    ReportInput input = MakeReportInput(campaign->name, fleet.Infos(), std::move(*summary->results),
                                        campaign->keep);
    std::cout << "\n" << RenderTerminalReport(input);
    if (const std::string view = RenderPlacementView(input); !view.empty()) {
      std::cout << "\n" << view;
    }
  }
  std::cout << "results: " << db_path << "\n";
  if (summary->incomplete > 0) {
    std::cout << summary->incomplete
              << " scenarios did not complete (partial or failed); see above\n";
    return 1;
  }
  return 0;
}

}  // namespace azbench::cli_internal

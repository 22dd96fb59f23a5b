#include "coordinator/cli.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/clock.h"
#include "common/units.h"
#include "common/version.h"
#include "coordinator/campaign.h"
#include "coordinator/fleet.h"
#include "coordinator/local_fleet.h"
#include "coordinator/plan.h"
#include "coordinator/report/csv_report.h"
#include "coordinator/report/json_report.h"
#include "coordinator/report/markdown_report.h"
#include "coordinator/report/placement_report.h"
#include "coordinator/report/report_input.h"
#include "coordinator/report/terminal_report.h"
#include "coordinator/run.h"
#include "coordinator/store.h"

namespace azbench {

namespace {

constexpr char kUsage[] =
    "usage: azbench <command> [options]\n"
    "  agents (--hosts FILE|host:port,... | --local N [--azs a,b] | --campaign FILE)\n"
    "         [--allow-missing]        who is there: version, host, AZ, subnets, clock offset;\n"
    "                                  with --campaign, each target's mount and placement\n"
    "  plan CAMPAIGN.yaml              validate and print the expanded scenarios; runs nothing\n"
    "  run CAMPAIGN.yaml [--resume] [--allow-missing] [--db FILE] [--quiet]\n"
    "                                  run every scenario, store results as each one ends\n"
    "  report RESULTS.db [--format terminal|md|csv|json] [-o FILE] [--keep all|last|median]\n"
    "  version\n";

std::atomic<bool> g_interrupted{false};
void OnSignal(int) { g_interrupted.store(true); }

int Fail(const std::string& command, const absl::Status& status, int code = 1) {
  std::cerr << "azbench " << command << ": " << status.message() << "\n";
  return code;
}

// Splits "--flag=value" / "--flag value" arguments; positional arguments are kept in order.
struct Args {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> flags;
  const std::string* Get(const std::string& name) const {
    for (const auto& [k, v] : flags) {
      if (k == name) return &v;
    }
    return nullptr;
  }
  bool Has(const std::string& name) const { return Get(name) != nullptr; }
};

absl::StatusOr<Args> ParseArgs(const std::vector<std::string>& raw,
                               const std::vector<std::string>& value_flags,
                               const std::vector<std::string>& bool_flags) {
  Args args;
  for (size_t i = 0; i < raw.size(); ++i) {
    const std::string& a = raw[i];
    if (!absl::StartsWith(a, "-") || a == "-") {
      args.positional.push_back(a);
      continue;
    }
    std::string name = a, value;
    const size_t eq = a.find('=');
    if (eq != std::string::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
    }
    const bool takes_value =
        std::find(value_flags.begin(), value_flags.end(), name) != value_flags.end();
    const bool is_bool = std::find(bool_flags.begin(), bool_flags.end(), name) != bool_flags.end();
    if (!takes_value && !is_bool) {
      std::string allowed;
      for (const auto& f : value_flags) absl::StrAppend(&allowed, allowed.empty() ? "" : ", ", f);
      for (const auto& f : bool_flags) absl::StrAppend(&allowed, allowed.empty() ? "" : ", ", f);
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag '", name, "' (allowed: ", allowed, ")"));
    }
    if (takes_value && eq == std::string::npos) {
      if (i + 1 >= raw.size()) {
        return absl::InvalidArgumentError(absl::StrCat("flag '", name, "' needs a value"));
      }
      value = raw[++i];
    }
    args.flags.emplace_back(name, value);
  }
  return args;
}

// The fleet a command talks to: a local fleet it started (stopped on destruction) or remote hosts.
struct FleetHandle {
  std::unique_ptr<LocalFleet> local;
  Fleet fleet;
};

absl::StatusOr<FleetHandle> OpenFleet(const FleetSpec& spec,
                                      const std::vector<std::string>& targets, bool allow_missing) {
  FleetHandle handle;
  std::vector<std::string> addresses;
  if (spec.kind == FleetSpec::Kind::kLocal) {
    LocalFleetOptions options;
    options.agents = spec.local_agents;
    options.azs = spec.local_azs;
    for (const auto& t : targets) {
      if (!t.empty() && t.front() != '/') options.target_dirs.push_back(t);
    }
    absl::StatusOr<std::unique_ptr<LocalFleet>> local = LocalFleet::Start(options);
    if (!local.ok()) return local.status();
    handle.local = std::move(*local);
    addresses = handle.local->addresses();
  } else {
    addresses = spec.hosts;
  }
  ConnectOptions connect;
  connect.allow_missing = allow_missing;
  connect.target_paths = targets;
  absl::StatusOr<Fleet> fleet = ConnectFleet(addresses, connect);
  if (!fleet.ok()) return fleet.status();
  handle.fleet = std::move(*fleet);
  return handle;
}

// Under an agent's row: its AZ source and subnets, then each target's mount (server, addr=,
// clientaddr=, resolved addresses, options that change results) and placement with evidence.
void AppendAgentTopology(const FleetMember& m, const PlacementTable* placements, std::string& out) {
  const v1::Identity& id = m.description.identity();
  std::vector<std::string> subnets;
  for (const v1::Subnet& s : id.subnets()) {
    subnets.push_back(s.subnet_id().empty() ? s.cidr()
                                            : absl::StrCat(s.subnet_id(), " ", s.cidr()));
  }
  absl::StrAppend(&out, "    AZ source: ", id.az_source().empty() ? "none" : id.az_source(),
                  id.instance_id().empty() ? "" : absl::StrCat("; instance ", id.instance_id()),
                  id.local_ipv4().empty() ? "" : absl::StrCat("; ", id.local_ipv4()),
                  "; subnets: ", subnets.empty() ? "-" : absl::StrJoin(subnets, ", "), "\n");
  for (const auto& mount : m.description.mounts()) {
    absl::StrAppend(&out, absl::StrFormat("    %s on %s (%s, %s)", mount.target_path(),
                                          mount.mount_point(), mount.fstype(), mount.source()));
    if (!mount.addr().empty()) absl::StrAppend(&out, " addr=", mount.addr());
    if (!mount.client_addr().empty()) absl::StrAppend(&out, " clientaddr=", mount.client_addr());
    if (mount.server_addresses_size() > 0) {
      absl::StrAppend(&out, " resolves to ", absl::StrJoin(mount.server_addresses(), ","));
    } else if (!mount.resolve_error().empty()) {
      absl::StrAppend(&out, " (", mount.resolve_error(), ")");
    }
    std::vector<std::string> options;
    for (const char* name : {"vers", "proto", "rsize", "wsize", "hard", "soft", "timeo", "nconnect",
                             "actimeo", "noac", "lookupcache"}) {
      auto it = mount.options().find(name);
      if (it == mount.options().end()) continue;
      options.push_back(it->second.empty() ? name : absl::StrCat(name, "=", it->second));
    }
    if (!options.empty()) absl::StrAppend(&out, " [", absl::StrJoin(options, ","), "]");
    absl::StrAppend(&out, "\n");
  }
  if (placements == nullptr) return;
  for (const PlacementEvidence& e : placements->entries) {
    if (e.agent_id != m.info.agent_id) continue;
    absl::StrAppend(&out, "    target ", e.target, ": ", FormatPlacementEvidence(e), "\n");
  }
}

std::string AgentsTable(const Fleet& fleet, const PlacementTable* placements = nullptr) {
  std::string out =
      absl::StrFormat("%-14s %-22s %-8s %-16s %-12s %-10s %14s %10s\n", "AGENT", "ADDRESS",
                      "VERSION", "HOST", "AZ", "AZ-ID", "CLOCK-OFFSET", "RTT");
  for (const auto& m : fleet.members) {
    const AgentInfo& a = m.info;
    absl::StrAppend(&out,
                    absl::StrFormat("%-14s %-22s %-8s %-16s %-12s %-10s %14s %10s\n", a.agent_id,
                                    a.address, a.version, a.hostname,
                                    a.availability_zone.empty() ? "-" : a.availability_zone,
                                    a.availability_zone_id.empty() ? "-" : a.availability_zone_id,
                                    FormatNanos(static_cast<double>(a.clock_offset_ns)),
                                    FormatNanos(static_cast<double>(a.clock_rtt_ns))));
    AppendAgentTopology(m, placements, out);
  }
  for (const auto& missing : fleet.missing) absl::StrAppend(&out, "missing: ", missing, "\n");
  if (placements != nullptr) {
    for (const auto& w : placements->warnings) absl::StrAppend(&out, "warning: ", w, "\n");
  }
  return out;
}

int AgentsCommand(const std::vector<std::string>& raw) {
  absl::StatusOr<Args> args =
      ParseArgs(raw, {"--hosts", "--local", "--azs", "--campaign"}, {"--allow-missing"});
  if (!args.ok()) return Fail("agents", args.status(), 2);
  FleetSpec spec;
  if (const std::string* file = args->Get("--campaign")) {
    // The campaign's fleet, described with its target paths and placed with its topology.
    absl::StatusOr<Campaign> campaign = ParseCampaignFile(*file);
    if (!campaign.ok()) return Fail("agents", campaign.status(), 2);
    std::vector<std::string> target_paths;
    for (const auto& t : campaign->targets) target_paths.push_back(t.path);
    absl::StatusOr<FleetHandle> handle =
        OpenFleet(campaign->fleet, target_paths, args->Has("--allow-missing"));
    if (!handle.ok()) return Fail("agents", handle.status());
    const PlacementTable placements =
        ClassifyCampaignPlacements(*campaign, PlacementAgentsFromFleet(handle->fleet));
    std::cout << AgentsTable(handle->fleet, &placements);
    return 0;
  }
  if (const std::string* local = args->Get("--local")) {
    absl::StatusOr<int64_t> n = ParseInt(*local, 1, kMaxLocalAgents);
    if (!n.ok()) return Fail("agents", n.status(), 2);
    spec.kind = FleetSpec::Kind::kLocal;
    spec.local_agents = static_cast<int>(*n);
    spec.local_azs = {"local"};
    if (const std::string* azs = args->Get("--azs")) {
      spec.local_azs = absl::StrSplit(*azs, ',', absl::SkipEmpty());
    }
  } else if (const std::string* hosts = args->Get("--hosts")) {
    spec.kind = FleetSpec::Kind::kHosts;
    if (std::filesystem::exists(*hosts)) {
      absl::StatusOr<std::vector<std::string>> list = ReadHostsFile(*hosts);
      if (!list.ok()) return Fail("agents", list.status(), 2);
      spec.hosts = *list;
    } else {
      for (absl::string_view h : absl::StrSplit(*hosts, ',', absl::SkipEmpty())) {
        absl::StatusOr<std::string> address = NormalizeAddress(std::string(h));
        if (!address.ok()) return Fail("agents", address.status(), 2);
        spec.hosts.push_back(*address);
      }
    }
  } else {
    return Fail("agents",
                absl::InvalidArgumentError("give --hosts FILE|LIST, --local N or --campaign FILE"),
                2);
  }
  absl::StatusOr<FleetHandle> handle = OpenFleet(spec, {}, args->Has("--allow-missing"));
  if (!handle.ok()) return Fail("agents", handle.status());
  std::cout << AgentsTable(handle->fleet);
  return 0;
}

int PlanCommand(const std::vector<std::string>& raw) {
  absl::StatusOr<Args> args = ParseArgs(raw, {}, {});
  if (!args.ok()) return Fail("plan", args.status(), 2);
  if (args->positional.size() != 1) {
    return Fail("plan", absl::InvalidArgumentError("give exactly one campaign file"), 2);
  }
  absl::StatusOr<Campaign> campaign = ParseCampaignFile(args->positional[0]);
  if (!campaign.ok()) return Fail("plan", campaign.status(), 2);
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

class ProgressPrinter {
 public:
  explicit ProgressPrinter(bool quiet) : tty_(isatty(STDOUT_FILENO) == 1), quiet_(quiet) {}
  void Begin(int n, int total, const Scenario& s) {
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
  void End(const ScenarioResult& r) {
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

int RunCommand(const std::vector<std::string>& raw) {
  absl::StatusOr<Args> args = ParseArgs(raw, {"--db"}, {"--resume", "--allow-missing", "--quiet"});
  if (!args.ok()) return Fail("run", args.status(), 2);
  if (args->positional.size() != 1) {
    return Fail("run", absl::InvalidArgumentError("give exactly one campaign file"), 2);
  }
  absl::StatusOr<Campaign> campaign = ParseCampaignFile(args->positional[0]);
  if (!campaign.ok()) return Fail("run", campaign.status(), 2);
  const std::string db_path = args->Has("--db") ? *args->Get("--db") : campaign->results_path;
  const bool resume = args->Has("--resume");

  // An earlier, finished or not, run of this campaign in the same file is kept aside unless
  // resuming: results are never overwritten and never mixed.
  if (!resume && std::filesystem::exists(db_path)) {
    const std::string aside = absl::StrCat(db_path, ".", RealtimeNanos() / 1'000'000'000, ".bak");
    std::error_code ec;
    std::filesystem::rename(db_path, aside, ec);
    if (ec) {
      return Fail("run",
                  absl::FailedPreconditionError(absl::StrCat("cannot move the earlier results '",
                                                             db_path, "' aside: ", ec.message())));
    }
    for (const char* suffix : {"-wal", "-shm"}) {
      std::filesystem::rename(db_path + suffix, aside + suffix, ec);
    }
    std::cout << "earlier results moved to " << aside << " (use --resume to continue a run)\n";
  }
  absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(db_path);
  if (!store.ok()) return Fail("run", store.status());
  absl::StatusOr<int64_t> campaign_id =
      (*store)->BeginCampaign(campaign->name, campaign->file, campaign->text, kAzbenchVersion);
  if (!campaign_id.ok()) return Fail("run", campaign_id.status());
  if (absl::StatusOr<int64_t> run = (*store)->BeginRun(resume); !run.ok()) {
    return Fail("run", run.status());
  }
  std::set<std::string> done;
  if (resume) {
    absl::StatusOr<std::set<std::string>> keys = (*store)->CompletedScenarioKeys();
    if (!keys.ok()) return Fail("run", keys.status());
    done = *keys;
  }

  std::vector<std::string> target_paths;
  for (const auto& t : campaign->targets) target_paths.push_back(t.path);
  absl::StatusOr<FleetHandle> handle =
      OpenFleet(campaign->fleet, target_paths, args->Has("--allow-missing"));
  if (!handle.ok()) return Fail("run", handle.status());
  Fleet& fleet = handle->fleet;
  if (absl::Status s = (*store)->SaveAgents(fleet.Infos()); !s.ok()) return Fail("run", s);
  for (const auto& missing : fleet.missing) std::cout << "missing agent: " << missing << "\n";

  const PlacementTable placements =
      ClassifyCampaignPlacements(*campaign, PlacementAgentsFromFleet(fleet));
  for (const auto& w : placements.warnings) std::cout << "placement warning: " << w << "\n";
  absl::StatusOr<std::vector<Scenario>> plan =
      ExpandCampaign(*campaign, fleet.Infos(), &placements);
  if (!plan.ok()) return Fail("run", plan.status(), 2);

  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  ProgressPrinter printer(args->Has("--quiet"));
  RunOptions options;
  options.interrupt = &g_interrupted;
  options.on_progress = [&](const LiveProgress& p) { printer.Update(p); };
  options.run_id_prefix = campaign->name;
  int incomplete = 0, skipped_resume = 0, n = 0;
  const int total = static_cast<int>(plan->size());
  bool first = true;
  for (const Scenario& scenario : *plan) {
    ++n;
    if (g_interrupted.load()) break;
    if (done.count(scenario.key) > 0) {
      ++skipped_resume;
      continue;
    }
    if (!first && scenario.cooldown_s > 0) {
      std::this_thread::sleep_for(
          std::chrono::milliseconds(static_cast<int64_t>(scenario.cooldown_s * 1000)));
    }
    first = false;
    printer.Begin(n, total, scenario);
    // Raw op records (jobs with op_log) go beside the database, one directory per scenario.
    std::string dir_name = absl::StrCat(scenario.index, "-", scenario.key);
    for (char& c : dir_name) {
      if (c == '/' || c == '=' || c == ' ') c = '_';
    }
    options.op_log_dir = absl::StrCat(db_path, ".oplog/", dir_name);
    ScenarioResult result = RunScenario(fleet, scenario, options);
    printer.End(result);
    if (scenario.warmup) continue;  // a warmup is run and discarded
    if (result.status != ScenarioStatus::kComplete && result.status != ScenarioStatus::kSkipped) {
      ++incomplete;
    }
    if (absl::Status s = (*store)->SaveScenario(result); !s.ok()) {
      return Fail(
          "run", absl::Status(s.code(), absl::StrCat("storing ", scenario.key, ": ", s.message())));
    }
  }
  if (skipped_resume > 0) {
    std::cout << skipped_resume << " scenarios already stored were skipped (--resume)\n";
  }
  if (g_interrupted.load()) {
    (void)(*store)->FinishRun("interrupted");
    std::cout << "interrupted: results so far are stored in " << db_path
              << "; continue with: azbench run " << args->positional[0] << " --resume\n";
    return 130;
  }
  (void)(*store)->FinishRun(incomplete > 0 ? "incomplete" : "finished");
  (void)(*store)->FinishCampaign();
  absl::StatusOr<std::vector<ScenarioResult>> stored = (*store)->LoadScenarios();
  if (stored.ok()) {
    ReportInput input =
        MakeReportInput(campaign->name, fleet.Infos(), std::move(*stored), campaign->keep);
    std::cout << "\n" << RenderTerminalReport(input);
    if (const std::string view = RenderPlacementView(input); !view.empty()) {
      std::cout << "\n" << view;
    }
  }
  std::cout << "results: " << db_path << "\n";
  if (incomplete > 0) {
    std::cout << incomplete << " scenarios did not complete (partial or failed); see above\n";
    return 1;
  }
  return 0;
}

int ReportCommand(const std::vector<std::string>& raw) {
  absl::StatusOr<Args> args = ParseArgs(raw, {"--format", "-o", "--output", "--keep"}, {});
  if (!args.ok()) return Fail("report", args.status(), 2);
  if (args->positional.size() != 1) {
    return Fail("report", absl::InvalidArgumentError("give exactly one results database"), 2);
  }
  const std::string format = args->Has("--format") ? *args->Get("--format") : "terminal";
  if (format != "terminal" && format != "md" && format != "csv" && format != "json") {
    return Fail("report",
                absl::InvalidArgumentError(
                    absl::StrCat("--format '", format, "' is not one of: terminal, md, csv, json")),
                2);
  }
  absl::StatusOr<std::unique_ptr<Store>> store = Store::OpenExisting(args->positional[0]);
  if (!store.ok()) return Fail("report", store.status());
  absl::StatusOr<CampaignRecord> record = (*store)->LoadCampaign();
  if (!record.ok()) return Fail("report", record.status());
  absl::StatusOr<std::vector<AgentInfo>> agents = (*store)->LoadAgents();
  if (!agents.ok()) return Fail("report", agents.status());
  absl::StatusOr<std::vector<ScenarioResult>> scenarios = (*store)->LoadScenarios();
  if (!scenarios.ok()) return Fail("report", scenarios.status());
  // `keep` comes from the stored campaign unless given.
  KeepPolicy keep = KeepPolicy::kAll;
  if (absl::StatusOr<Campaign> c = ParseCampaign(record->campaign_yaml, record->file); c.ok()) {
    keep = c->keep;
  }
  if (const std::string* k = args->Get("--keep")) {
    if (*k == "all") {
      keep = KeepPolicy::kAll;
    } else if (*k == "last") {
      keep = KeepPolicy::kLast;
    } else if (*k == "median") {
      keep = KeepPolicy::kMedian;
    } else {
      return Fail("report",
                  absl::InvalidArgumentError(
                      absl::StrCat("--keep '", *k, "' is not one of: all, last, median")),
                  2);
    }
  }
  ReportInput input =
      MakeReportInput(record->name, std::move(*agents), std::move(*scenarios), keep);
  std::string text;
  if (format == "md") {
    text = RenderMarkdownReport(input);
    if (const std::string view = RenderPlacementView(input); !view.empty()) {
      absl::StrAppend(&text, "\n", view);
    }
  } else if (format == "csv") {
    text = RenderCsvReport(input);
  } else if (format == "json") {
    text = RenderJsonReport(input);
  } else {
    text = RenderTerminalReport(input);
    if (const std::string view = RenderPlacementView(input); !view.empty()) {
      absl::StrAppend(&text, "\n", view);
    }
  }
  const std::string* out_path = args->Has("-o") ? args->Get("-o") : args->Get("--output");
  if (out_path == nullptr) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(*out_path);
  out << text;
  if (!out)
    return Fail("report", absl::InternalError(absl::StrCat("cannot write '", *out_path, "'")));
  return 0;
}

}  // namespace

int RunCli(const std::vector<std::string>& all) {
  if (all.empty() || all[0] == "-h" || all[0] == "--help" || all[0] == "help") {
    std::cout << kUsage;
    return all.empty() ? 2 : 0;
  }
  const std::string command = all[0];
  const std::vector<std::string> rest(all.begin() + 1, all.end());
  if (command == "agents") return AgentsCommand(rest);
  if (command == "plan") return PlanCommand(rest);
  if (command == "run") return RunCommand(rest);
  if (command == "report") return ReportCommand(rest);
  if (command == "version" || command == "--version") {
    std::cout << "azbench " << kAzbenchVersion << " (protocol " << kProtocolVersion << ")\n";
    return 0;
  }
  std::cerr << "azbench: unknown command '" << command << "'\n" << kUsage;
  return 2;
}

}  // namespace azbench

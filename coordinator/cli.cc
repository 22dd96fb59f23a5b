#include "coordinator/cli.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/clock.h"
#include "common/status_macros.h"
#include "common/units.h"
#include "common/version.h"
#include "coordinator/campaign.h"
#include "coordinator/certs.h"
#include "coordinator/compare.h"
#include "coordinator/fio_job_run.h"
#include "coordinator/fleet.h"
#include "coordinator/local_fleet.h"
#include "coordinator/plan.h"
#include "coordinator/report/csv_report.h"
#include "coordinator/report/fio_json_report.h"
#include "coordinator/report/html_report.h"
#include "coordinator/report/json_report.h"
#include "coordinator/report/markdown_report.h"
#include "coordinator/report/placement_report.h"
#include "coordinator/report/report_input.h"
#include "coordinator/report/scaling_rows.h"
#include "coordinator/report/terminal_report.h"
#include "coordinator/run.h"
#include "coordinator/store.h"

namespace azbench {

namespace {

constexpr char kUsage[] =
    "usage: azbench <command> [options]\n"
    "  agents (--hosts FILE|host:port,... | --local N [--azs a,b] | --campaign FILE)\n"
    "      [--allow-missing] [--tls-ca CA --tls-cert CRT --tls-key KEY] [--token-file F]\n"
    "      [--tls-server-name N]       who is there: version, host, AZ, subnets, clock offset;\n"
    "                                  with --campaign, each target's mount and placement\n"
    "                                  (the TLS flags also apply to `run`; see certs init)\n"
    "  plan CAMPAIGN.yaml              validate and print the expanded scenarios; runs nothing\n"
    "  run CAMPAIGN.yaml [--resume] [--allow-missing] [--db FILE] [--quiet]\n"
    "      [--prepared-lease 30s]      run every scenario, store results as each one ends\n"
    "  run (--fio-job JOB.fio | -- FIO-COMMAND-LINE) [--hosts FILE|host:port,... | --local N\n"
    "      [--azs a,b]] [--directory DIR] [--db FILE] [--resume] [--allow-missing] [--quiet]\n"
    "                                  a fio job file or command line, unchanged, on every agent\n"
    "                                  at once (default fleet: --local 1)\n"
    "  report RESULTS.db [--format terminal|md|csv|json|fio-json|html|scaling-csv] [-o FILE|DIR]\n"
    "      [--keep all|last|median]      html: one self-contained page with SVG charts\n"
    "  certs init --dir DIR --agent NAME_OR_IP[=ALT,...] ... [--days N] [--force]\n"
    "                                  a CA, a coordinator client certificate and one server\n"
    "                                  certificate per agent, for mutual TLS\n"
    "  compare A.db B.db [--format terminal|md] [-o FILE] [--keep all|last|median]\n"
    "      [--fail-on-regression]      matching scenarios side by side, deltas flagged beyond the\n"
    "                                  spread of the repeats (exit 1 on a flagged regression)\n"
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

// --tls-ca, --tls-cert, --tls-key, --token-file, --tls-server-name (coordinator/client_security.h).
const std::vector<std::string> kSecurityFlags = {"--tls-ca", "--tls-cert", "--tls-key",
                                                 "--token-file", "--tls-server-name"};

ClientSecurity SecurityFromFlags(const Args& args) {
  ClientSecurity security;
  const std::pair<const char*, std::string*> fields[] = {
      {"--tls-ca", &security.ca_file},
      {"--tls-cert", &security.cert_file},
      {"--tls-key", &security.key_file},
      {"--token-file", &security.token_file},
      {"--tls-server-name", &security.server_name}};
  for (const auto& [flag, field] : fields) {
    if (const std::string* value = args.Get(flag)) *field = *value;
  }
  return security;
}

std::vector<std::string> WithSecurityFlags(std::vector<std::string> flags) {
  flags.insert(flags.end(), kSecurityFlags.begin(), kSecurityFlags.end());
  return flags;
}

// The directories a local fleet's agents may use besides their work directories: the campaign's
// absolute target paths and the absolute `directory` / `filename` parents its jobs name.
std::vector<std::string> LocalFleetRoots(const Campaign& campaign) {
  std::vector<std::string> roots;
  auto add = [&](const std::string& path) {
    if (path.empty() || path.front() != '/') return;
    if (std::find(roots.begin(), roots.end(), path) == roots.end()) roots.push_back(path);
  };
  for (const auto& t : campaign.targets) add(t.path);
  for (const auto& w : campaign.workloads) {
    for (const auto& job : w.jobs) {
      for (const auto& [key, value] : job.options) {
        if (key == "directory") add(value);
        if (key == "filename") {
          for (absl::string_view name : absl::StrSplit(value, ':', absl::SkipEmpty())) {
            const std::string n(name);
            if (!n.empty() && n.front() == '/') add(n.substr(0, std::max<size_t>(1, n.rfind('/'))));
          }
        }
      }
    }
  }
  return roots;
}

absl::StatusOr<FleetHandle> OpenFleet(const FleetSpec& spec,
                                      const std::vector<std::string>& targets, bool allow_missing,
                                      const ClientSecurity& flag_security = {},
                                      const std::vector<std::string>& local_roots = {}) {
  FleetHandle handle;
  std::vector<std::string> addresses;
  if (spec.kind == FleetSpec::Kind::kLocal && !flag_security.empty()) {
    return absl::InvalidArgumentError(
        "--tls-* and --token-file are for remote agents (--hosts or a campaign's fleet.hosts); "
        "the local fleet talks plaintext over loopback");
  }
  if (spec.kind == FleetSpec::Kind::kLocal) {
    LocalFleetOptions options;
    options.agents = spec.local_agents;
    options.azs = spec.local_azs;
    options.allowed_roots = local_roots;
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
  connect.security = MergeClientSecurity(spec.security, flag_security);
  RETURN_IF_ERROR(ValidateClientSecurity(connect.security, "--tls-* / fleet.tls"));
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
  absl::StatusOr<Args> args = ParseArgs(
      raw, WithSecurityFlags({"--hosts", "--local", "--azs", "--campaign"}), {"--allow-missing"});
  if (!args.ok()) return Fail("agents", args.status(), 2);
  FleetSpec spec;
  if (const std::string* file = args->Get("--campaign")) {
    // The campaign's fleet, described with its target paths and placed with its topology.
    absl::StatusOr<Campaign> campaign = ParseCampaignFile(*file);
    if (!campaign.ok()) return Fail("agents", campaign.status(), 2);
    std::vector<std::string> target_paths;
    for (const auto& t : campaign->targets) target_paths.push_back(t.path);
    absl::StatusOr<FleetHandle> handle =
        OpenFleet(campaign->fleet, target_paths, args->Has("--allow-missing"),
                  SecurityFromFlags(*args), LocalFleetRoots(*campaign));
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
  absl::StatusOr<FleetHandle> handle =
      OpenFleet(spec, {}, args->Has("--allow-missing"), SecurityFromFlags(*args));
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

// fio-json: one fio document per kept scenario; one to `out_path` (or stdout), several into the
// directory `out_path`. Errors: InvalidArgument when several documents have no directory to go to.
absl::Status WriteFioJsonReport(const ReportInput& input, const std::string* out_path) {
  const std::vector<size_t> indices = FioJsonScenarioIndices(input);
  if (indices.empty()) {
    return absl::FailedPreconditionError(
        "no scenario with results (complete or partial) to write as fio JSON");
  }
  const bool into_directory = out_path != nullptr && std::filesystem::is_directory(*out_path);
  if (indices.size() > 1 && !into_directory) {
    if (out_path != nullptr && !std::filesystem::exists(*out_path)) {
      std::error_code ec;
      std::filesystem::create_directories(*out_path, ec);
      if (ec) {
        return absl::InternalError(
            absl::StrCat("cannot create directory '", *out_path, "': ", ec.message()));
      }
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          indices.size(), " scenarios are kept (keep=", std::string(KeepPolicyName(input.keep)),
          "); fio JSON is one document per scenario: give -o DIR (one file per scenario) or "
          "--keep last|median"));
    }
  }
  if (out_path == nullptr) {
    std::cout << RenderFioJson(FioJsonDocument(input, indices.front()));
    return absl::OkStatus();
  }
  for (size_t index : indices) {
    const bool to_dir = indices.size() > 1 || into_directory;
    const std::string path =
        to_dir ? (std::filesystem::path(*out_path) / FioJsonFileName(input, index)).string()
               : *out_path;
    std::ofstream out(path);
    out << RenderFioJson(FioJsonDocument(input, index));
    if (!out) return absl::InternalError(absl::StrCat("cannot write '", path, "'"));
  }
  return absl::OkStatus();
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
  std::optional<FioJobRun> fio_run;
  absl::StatusOr<Campaign> campaign;
  std::string rerun;  // the arguments that continue this run after an interruption
  if (args->Has("--fio-job") || !fio_args.empty()) {
    absl::StatusOr<FioJobRun> made = MakeFioJobRunFromArgs(*args, fio_args);
    if (!made.ok()) return Fail("run", made.status(), 2);
    fio_run = std::move(*made);
    campaign = fio_run->campaign;
    rerun =
        absl::StrCat(absl::StrJoin(raw, " "), " --resume",
                     fio_args.empty() ? "" : absl::StrCat(" -- ", absl::StrJoin(fio_args, " ")));
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
    rerun = args->positional[0] + " --resume";
  }
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
  for (const auto& t : campaign->targets) {
    if (!t.path.empty()) target_paths.push_back(t.path);  // empty: fio jobs keep their own
  }
  absl::StatusOr<FleetHandle> handle =
      OpenFleet(campaign->fleet, target_paths, args->Has("--allow-missing"),
                SecurityFromFlags(*args), LocalFleetRoots(*campaign));
  if (!handle.ok()) return Fail("run", handle.status());
  Fleet& fleet = handle->fleet;
  if (absl::Status s = (*store)->SaveAgents(fleet.Infos()); !s.ok()) return Fail("run", s);
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
  RunOptions options;
  if (args->Has("--prepared-lease")) {
    absl::StatusOr<absl::Duration> lease = ParseDuration(*args->Get("--prepared-lease"));
    if (!lease.ok() || *lease < absl::Seconds(1)) {
      return Fail("run",
                  absl::InvalidArgumentError(
                      absl::StrCat("--prepared-lease '", *args->Get("--prepared-lease"),
                                   "': give a duration of at least 1s (e.g. 30s, the default)")),
                  2);
    }
    options.prepared_lease = *lease;
  }
  options.interrupt = &g_interrupted;
  options.on_progress = [&](const LiveProgress& p) { printer.Update(p); };
  options.run_id_prefix = campaign->name;
  options.stage_db_path = db_path;  // intervals are stored as they arrive (interval_spool.h)
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
    if (scenario.warmup) {  // a warmup is run and discarded
      if (result.staged_stream_id != 0) (void)(*store)->DiscardStaged(result.staged_stream_id);
      continue;
    }
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
              << "; continue with: azbench run " << rerun << "\n";
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

// --keep all|last|median, or nullopt when not given.
absl::StatusOr<std::optional<KeepPolicy>> KeepFlag(const Args& args) {
  const std::string* k = args.Get("--keep");
  if (k == nullptr) return std::optional<KeepPolicy>();
  if (*k == "all") return std::optional<KeepPolicy>(KeepPolicy::kAll);
  if (*k == "last") return std::optional<KeepPolicy>(KeepPolicy::kLast);
  if (*k == "median") return std::optional<KeepPolicy>(KeepPolicy::kMedian);
  return absl::InvalidArgumentError(
      absl::StrCat("--keep '", *k, "' is not one of: all, last, median"));
}

// Writes `text` to -o/--output, or to stdout without one.
int WriteOutput(const std::string& command, const Args& args, const std::string& text) {
  const std::string* out_path = args.Has("-o") ? args.Get("-o") : args.Get("--output");
  if (out_path == nullptr) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(*out_path);
  out << text;
  if (!out) {
    return Fail(command, absl::InternalError(absl::StrCat("cannot write '", *out_path, "'")));
  }
  return 0;
}

// report --format html: the report input plus the stored campaign's context.
int HtmlReportCommand(const Args& args) {
  absl::StatusOr<std::optional<KeepPolicy>> keep = KeepFlag(args);
  if (!keep.ok()) return Fail("report", keep.status(), 2);
  absl::StatusOr<StoredReport> report = LoadStoredReport(args.positional[0], *keep);
  if (!report.ok()) return Fail("report", report.status());
  return WriteOutput("report", args,
                     RenderHtmlReport(report->input, MakeHtmlReportContext(report->campaign)));
}

int ReportCommand(const std::vector<std::string>& raw) {
  absl::StatusOr<Args> args = ParseArgs(raw, {"--format", "-o", "--output", "--keep"}, {});
  if (!args.ok()) return Fail("report", args.status(), 2);
  if (args->positional.size() != 1) {
    return Fail("report", absl::InvalidArgumentError("give exactly one results database"), 2);
  }
  const std::string format = args->Has("--format") ? *args->Get("--format") : "terminal";
  if (format == "html") return HtmlReportCommand(*args);
  if (format != "terminal" && format != "md" && format != "csv" && format != "json" &&
      format != "fio-json" && format != "scaling-csv") {
    return Fail("report",
                absl::InvalidArgumentError(
                    absl::StrCat("--format '", format,
                                 "' is not one of: terminal, md, csv, json, fio-json, html, "
                                 "scaling-csv")),
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
  if (format == "fio-json") {
    const std::string* out_path = args->Has("-o") ? args->Get("-o") : args->Get("--output");
    absl::Status written = WriteFioJsonReport(input, out_path);
    return written.ok() ? 0 : Fail("report", written, absl::IsInvalidArgument(written) ? 2 : 1);
  }
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
  } else if (format == "scaling-csv") {
    std::vector<ScenarioFigures> storage;
    const std::vector<ScenarioFigures>& figures = FiguresOf(input, storage);
    text = RenderScalingCsv(BuildScalingRows(input, BuildCells(input, figures), figures));
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

int CompareCommand(const std::vector<std::string>& raw) {
  absl::StatusOr<Args> args =
      ParseArgs(raw, {"--format", "-o", "--output", "--keep"}, {"--fail-on-regression"});
  if (!args.ok()) return Fail("compare", args.status(), 2);
  if (args->positional.size() != 2) {
    return Fail("compare", absl::InvalidArgumentError("give two results databases: A.db B.db"), 2);
  }
  const std::string format = args->Has("--format") ? *args->Get("--format") : "terminal";
  if (format != "terminal" && format != "md") {
    return Fail("compare",
                absl::InvalidArgumentError(
                    absl::StrCat("--format '", format, "' is not one of: terminal, md")),
                2);
  }
  absl::StatusOr<std::optional<KeepPolicy>> keep = KeepFlag(*args);
  if (!keep.ok()) return Fail("compare", keep.status(), 2);
  absl::StatusOr<StoredReport> a = LoadStoredReport(args->positional[0], *keep);
  if (!a.ok()) return Fail("compare", a.status());
  absl::StatusOr<StoredReport> b = LoadStoredReport(args->positional[1], *keep);
  if (!b.ok()) return Fail("compare", b.status());
  Comparison comparison = CompareReports(a->input, b->input);
  comparison.a_name = absl::StrCat(args->positional[0], " (campaign ", a->campaign.name, ")");
  comparison.b_name = absl::StrCat(args->positional[1], " (campaign ", b->campaign.name, ")");
  const std::string text =
      format == "md" ? RenderComparisonMarkdown(comparison) : RenderComparisonText(comparison);
  const int written = WriteOutput("compare", *args, text);
  if (written != 0 || !args->Has("--fail-on-regression")) return written;
  // Opt-in exit status for CI: 1 when a flagged difference is a regression (compare.h).
  const std::vector<std::string> regressions = Regressions(comparison);
  for (const std::string& r : regressions) {
    std::cerr << "azbench compare: regression: " << r << "\n";
  }
  return regressions.empty() ? 0 : 1;
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
  if (command == "compare") return CompareCommand(rest);
  if (command == "certs") return CertsCommand(rest);
  if (command == "version" || command == "--version") {
    std::cout << "azbench " << kAzbenchVersion << " (protocol " << kProtocolVersion << ")\n";
    return 0;
  }
  std::cerr << "azbench: unknown command '" << command << "'\n" << kUsage;
  return 2;
}

}  // namespace azbench

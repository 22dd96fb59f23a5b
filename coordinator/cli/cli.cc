#include "coordinator/cli/cli.h"

#include <iostream>

#include "common/version.h"
#include "coordinator/cli/cli_commands.h"
#include "coordinator/fleet/certs.h"

// The usage text and the dispatch to each subcommand (cli_commands.h).

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
    "  report RESULTS.db [--format terminal|md|csv|json|fio-json|fio-json+|html|scaling-csv|\n"
    "      verify-csv] [-o FILE|DIR]\n"
    "      [--keep all|last|median]      html: one self-contained page with SVG charts\n"
    "  certs init --dir DIR --agent NAME_OR_IP[=ALT,...] ... [--days N] [--force]\n"
    "                                  a CA, a coordinator client certificate and one server\n"
    "                                  certificate per agent, for mutual TLS\n"
    "  compare A.db B.db [--format terminal|md] [-o FILE] [--keep all|last|median]\n"
    "      [--fail-on-regression]      matching scenarios side by side, deltas flagged beyond the\n"
    "                                  spread of the repeats (exit 1 on a flagged regression)\n"
    "  lab up [--azs 3] [--agents-per-az 1] [--cross-az-delay 800us] [--cross-az-bandwidth 1g]\n"
    "      [--dir DIR] | lab down [--dir DIR] | lab status [--dir DIR]\n"
    "                                  (root) simulated AZs on this machine: an NFS server, "
    "agents\n"
    "                                  over mutual TLS, a delay line and shaping between AZs\n"
    "  version\n";

}  // namespace

int RunCli(const std::vector<std::string>& all) {
  if (all.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  if (all[0] == "-h" || all[0] == "--help" || all[0] == "help") {
    std::cout << kUsage;
    return 0;
  }
  const std::string command = all[0];
  const std::vector<std::string> rest(all.begin() + 1, all.end());
  const bool known = command == "agents" || command == "plan" || command == "run" ||
                     command == "report" || command == "compare" || command == "certs" ||
                     command == "lab";
  // `azbench <command> --help` (before a lone "--", after which fio's options start): the usage.
  for (const std::string& arg : known ? rest : std::vector<std::string>{}) {
    if (arg == "--") break;
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    }
  }
  if (command == "agents") return cli_internal::AgentsCommand(rest);
  if (command == "plan") return cli_internal::PlanCommand(rest);
  if (command == "run") return cli_internal::RunCommand(rest);
  if (command == "report") return cli_internal::ReportCommand(rest);
  if (command == "compare") return cli_internal::CompareCommand(rest);
  if (command == "certs") return CertsCommand(rest);
  if (command == "lab") return cli_internal::LabCommand(rest);
  if (command == "version" || command == "--version") {
    std::cout << "azbench " << kAzbenchVersion << " (protocol " << kProtocolVersion << ")\n";
    return 0;
  }
  std::cerr << "azbench: unknown command '" << command << "'\n" << kUsage;
  return 2;
}

}  // namespace azbench

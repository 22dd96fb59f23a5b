// `azbench lab up | down | status` (coordinator/lab/lab.h), and the lab's hidden helpers that
// `up` starts inside its namespaces: `lab delay-line --dir DIR` and
// `lab imds --dir DIR --az I --agent J`.

#include <fstream>
#include <iostream>

#include "absl/strings/numbers.h"
#include "common/flags.h"
#include "common/units.h"
#include "coordinator/cli/cli_commands.h"
#include "coordinator/lab/delay_line.h"
#include "coordinator/lab/imds_server.h"
#include "coordinator/lab/lab.h"

namespace azbench::cli_internal {
namespace {

constexpr char kLabUsage[] =
    "usage: azbench lab up [--azs N] [--agents-per-az M] [--cross-az-delay 800us]\n"
    "                      [--cross-az-bandwidth 1g] [--dir DIR]\n"
    "       azbench lab down [--dir DIR]\n"
    "       azbench lab status [--dir DIR]\n";

int Fail(const absl::Status& status) {
  std::cerr << "azbench lab: " << status.message() << "\n";
  return status.code() == absl::StatusCode::kInvalidArgument ? 2 : 1;
}

absl::StatusOr<LabOptions> ParseUp(const ParsedFlags& flags) {
  LabOptions options;
  if (const std::string* v = flags.Get("--azs")) {
    if (!absl::SimpleAtoi(*v, &options.azs)) {
      return absl::InvalidArgumentError("--azs: '" + *v + "' is no whole number");
    }
  }
  if (const std::string* v = flags.Get("--agents-per-az")) {
    if (!absl::SimpleAtoi(*v, &options.agents_per_az)) {
      return absl::InvalidArgumentError("--agents-per-az: '" + *v + "' is no whole number");
    }
  }
  if (const std::string* v = flags.Get("--cross-az-delay")) {
    absl::StatusOr<absl::Duration> d = ParseDuration(*v);
    if (!d.ok()) return absl::InvalidArgumentError("--cross-az-delay: " + d.status().ToString());
    options.cross_az_delay = *d;
  }
  if (const std::string* v = flags.Get("--cross-az-bandwidth")) {
    absl::StatusOr<int64_t> bits = ParseLabBandwidth(*v);
    if (!bits.ok()) return bits.status();
    options.cross_az_bandwidth_bits_per_s = *bits;
  }
  if (const std::string* v = flags.Get("--dir")) options.dir = *v;
  return options;
}

// The hidden helpers find their lab in DIR/state, as `down` and `status` do.
absl::StatusOr<LabTopology> LabOfDir(const std::string& dir) {
  std::ifstream in(dir + "/state");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.empty()) return absl::NotFoundError("no lab state in " + dir);
  absl::StatusOr<LabOptions> options = ParseLabState(text);
  if (!options.ok()) return options.status();
  return PlanLab(*options);
}

}  // namespace

int LabCommand(const std::vector<std::string>& raw) {
  if (raw.empty() || raw[0] == "-h" || raw[0] == "--help") {
    (raw.empty() ? std::cerr : std::cout) << kLabUsage;
    return raw.empty() ? 2 : 0;
  }
  const std::string& verb = raw[0];
  const std::vector<std::string> args(raw.begin() + 1, raw.end());
  std::vector<FlagSpec> table = {{.name = "--dir"}};
  if (verb == "up") {
    for (const char* name :
         {"--azs", "--agents-per-az", "--cross-az-delay", "--cross-az-bandwidth"}) {
      table.push_back({.name = name});
    }
  } else if (verb == "imds") {
    table.push_back({.name = "--az"});
    table.push_back({.name = "--agent"});
  } else if (verb != "down" && verb != "status" && verb != "delay-line") {
    std::cerr << "azbench lab: unknown command '" << verb << "'\n" << kLabUsage;
    return 2;
  }
  absl::StatusOr<ParsedFlags> flags = ParseFlags(table, args);
  if (!flags.ok()) return Fail(flags.status());
  if (!flags->positional.empty()) {
    return Fail(absl::InvalidArgumentError("unexpected argument '" + flags->positional[0] + "'"));
  }
  const std::string dir = flags->Get("--dir") ? *flags->Get("--dir") : kLabDefaultDir;

  if (verb == "up") {
    absl::StatusOr<LabOptions> options = ParseUp(*flags);
    if (!options.ok()) return Fail(options.status());
    absl::StatusOr<std::string> summary = LabUp(*options);
    if (!summary.ok()) return Fail(summary.status());
    std::cout << *summary;
    return 0;
  }
  if (verb == "down") {
    absl::Status down = LabDown(dir);
    if (!down.ok()) return Fail(down);
    std::cout << "lab down\n";
    return 0;
  }
  if (verb == "status") {
    absl::StatusOr<std::string> status = LabStatus(dir);
    if (!status.ok()) return Fail(status.status());
    std::cout << *status;
    return 0;
  }
  absl::StatusOr<LabTopology> lab = LabOfDir(dir);
  if (!lab.ok()) return Fail(lab.status());
  if (verb == "delay-line") {
    DelayLine line(*lab);
    absl::Status status = line.Open();
    if (status.ok()) status = line.Run();
    return Fail(status);
  }
  int az = -1;
  int agent = -1;
  if (!flags->Get("--az") || !flags->Get("--agent") ||
      !absl::SimpleAtoi(*flags->Get("--az"), &az) ||
      !absl::SimpleAtoi(*flags->Get("--agent"), &agent) || az < 0 ||
      az >= static_cast<int>(lab->azs.size()) || agent < 0 || agent >= lab->options.agents_per_az) {
    return Fail(absl::InvalidArgumentError("imds needs --az and --agent of the lab"));
  }
  return Fail(
      ServeImds("127.0.0.1", lab->azs[az].agents[agent].imds_port, LabImdsValues(*lab, az, agent)));
}

}  // namespace azbench::cli_internal

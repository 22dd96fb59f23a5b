#include "coordinator/lab/lab_topology.h"

#include <cctype>
#include <map>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace azbench {

absl::Status ValidateLabOptions(const LabOptions& options) {
  if (options.azs < 1 || options.azs > kLabMaxAzs) {
    return absl::InvalidArgumentError(
        absl::StrCat("--azs: ", options.azs, " is outside 1..", kLabMaxAzs));
  }
  if (options.agents_per_az < 1 || options.agents_per_az > kLabMaxAgentsPerAz) {
    return absl::InvalidArgumentError(absl::StrCat("--agents-per-az: ", options.agents_per_az,
                                                   " is outside 1..", kLabMaxAgentsPerAz));
  }
  if (options.cross_az_bandwidth_bits_per_s < 1000 ||
      options.cross_az_bandwidth_bits_per_s > 100'000'000'000) {
    return absl::InvalidArgumentError(
        "--cross-az-bandwidth: allowed is 1k .. 100g (bits per second)");
  }
  if (options.cross_az_delay < absl::ZeroDuration() || options.cross_az_delay > absl::Seconds(1)) {
    return absl::InvalidArgumentError("--cross-az-delay: allowed is 0 .. 1s (added round trip)");
  }
  if (options.dir.empty() || options.dir[0] != '/' ||
      options.dir.find_first_of(" \t\n=") != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("--dir: '", options.dir, "' is no absolute path without spaces"));
  }
  return absl::OkStatus();
}

LabTopology PlanLab(const LabOptions& options) {
  LabTopology lab;
  lab.options = options;
  lab.export_dir = options.dir + "/export";
  for (int i = 0; i < options.azs; ++i) {
    const std::string letter(1, static_cast<char>('a' + i));
    LabAz az;
    az.name = "lab-1" + letter;
    az.id = absl::StrCat("lab1-az", i + 1);
    az.namespace_name = kLabPrefix + letter;
    az.subnet_base = absl::StrCat("10.", 100 + i, ".0");
    az.subnet = az.subnet_base + ".0/24";
    az.gateway = az.subnet_base + ".1";
    az.router_link = std::string(kLabPrefix) + "rt-" + letter;
    az.az_link = std::string(kLabPrefix) + "az-" + letter;
    az.tun = std::string(kLabPrefix) + "tun-" + letter;
    for (int j = 0; j < options.agents_per_az; ++j) {
      az.agents.push_back({.name = absl::StrCat("agent-", letter, j),
                           .address = absl::StrCat(az.subnet_base, ".", 10 + j),
                           .imds_port = kLabImdsBasePort + j});
    }
    lab.azs.push_back(std::move(az));
  }
  lab.nfs_server_address = lab.azs[0].subnet_base + ".2";
  return lab;
}

int LabAzOfAddress(const LabTopology& lab, uint32_t address) {
  if ((address >> 24) != 10 || (address & 0xff00) != 0) return -1;
  const int second = static_cast<int>((address >> 16) & 0xff) - 100;
  return second >= 0 && second < static_cast<int>(lab.azs.size()) ? second : -1;
}

absl::StatusOr<int64_t> ParseLabBandwidth(const std::string& text) {
  std::string digits = text;
  int64_t multiple = 1;
  if (!digits.empty()) {
    switch (std::tolower(static_cast<unsigned char>(digits.back()))) {
      case 'k':
        multiple = 1000;
        break;
      case 'm':
        multiple = 1000'000;
        break;
      case 'g':
        multiple = 1000'000'000;
        break;
      default:
        break;
    }
    if (multiple != 1) digits.pop_back();
  }
  int64_t value = 0;
  if (!absl::SimpleAtoi(digits, &value) || value <= 0 || value > 100'000'000'000 / multiple ||
      value * multiple < 1000) {
    return absl::InvalidArgumentError(
        absl::StrCat("--cross-az-bandwidth: '", text,
                     "' is no bandwidth; allowed is 1k .. 100g bits per second, e.g. 1g, 500m"));
  }
  return value * multiple;
}

std::string FormatLabState(const LabOptions& options) {
  return absl::StrCat("# azbench lab state: what `azbench lab down` and `status` read\n",
                      "azs=", options.azs, "\nagents_per_az=", options.agents_per_az,
                      "\ncross_az_bandwidth_bits_per_s=", options.cross_az_bandwidth_bits_per_s,
                      "\ncross_az_delay_ns=", absl::ToInt64Nanoseconds(options.cross_az_delay),
                      "\ndir=", options.dir, "\n");
}

absl::StatusOr<LabOptions> ParseLabState(const std::string& text) {
  LabOptions options;
  std::map<std::string, bool> seen;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    const size_t eq = line.find('=');
    auto bad = [&](absl::string_view why) {
      return absl::InvalidArgumentError(
          absl::StrCat("lab state line ", line_number, " ('", line, "'): ", why));
    };
    if (eq == absl::string_view::npos) return bad("expected key=value");
    const std::string key(line.substr(0, eq));
    const std::string value(line.substr(eq + 1));
    if (seen[key]) return bad("key given twice");
    seen[key] = true;
    int64_t number = 0;
    const bool numeric = absl::SimpleAtoi(value, &number);
    if (key == "dir") {
      options.dir = value;
    } else if (!numeric) {
      return key == "azs" || key == "agents_per_az" || key == "cross_az_bandwidth_bits_per_s" ||
                     key == "cross_az_delay_ns"
                 ? bad("expected a whole number")
                 : bad("unknown key");
    } else if (key == "azs") {
      options.azs = static_cast<int>(number);
    } else if (key == "agents_per_az") {
      options.agents_per_az = static_cast<int>(number);
    } else if (key == "cross_az_bandwidth_bits_per_s") {
      options.cross_az_bandwidth_bits_per_s = number;
    } else if (key == "cross_az_delay_ns") {
      options.cross_az_delay = absl::Nanoseconds(number);
    } else {
      return bad("unknown key");
    }
  }
  for (const char* key :
       {"azs", "agents_per_az", "cross_az_bandwidth_bits_per_s", "cross_az_delay_ns", "dir"}) {
    if (!seen[key]) return absl::InvalidArgumentError(absl::StrCat("lab state: no ", key));
  }
  if (absl::Status s = ValidateLabOptions(options); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("lab state: ", s.message()));
  }
  return options;
}

}  // namespace azbench

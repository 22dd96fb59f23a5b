#include "common/thread_placement.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace azbench {
namespace {

absl::Status CpuTooLarge(int64_t cpu, int cpu_count) {
  return absl::InvalidArgumentError(
      absl::StrCat("CPU ", cpu, " is not on this host; allowed: 0 to ", cpu_count - 1));
}

absl::StatusOr<int64_t> ParseCpu(absl::string_view text) {
  int64_t cpu = 0;
  if (!absl::SimpleAtoi(text, &cpu) || cpu < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not a CPU number; write CPUs as 0-3,6"));
  }
  return cpu;
}

}  // namespace

int ConfiguredCpuCount() {
  const long count = sysconf(_SC_NPROCESSORS_CONF);
  return count > 0 ? static_cast<int>(count) : 1;
}

absl::StatusOr<std::vector<int>> ParseCpuList(std::string_view value, int cpu_count) {
  const absl::string_view text(value.data(), value.size());
  std::vector<int> cpus;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    part = absl::StripAsciiWhitespace(part);
    if (part.empty()) continue;
    const size_t dash = part.find('-');
    int64_t first = 0;
    int64_t last = 0;
    if (dash == absl::string_view::npos) {
      auto cpu = ParseCpu(part);
      if (!cpu.ok()) return cpu.status();
      first = last = *cpu;
    } else {
      auto low = ParseCpu(part.substr(0, dash));
      if (!low.ok()) return low.status();
      auto high = ParseCpu(part.substr(dash + 1));
      if (!high.ok()) return high.status();
      first = *low;
      last = *high;
      if (last < first) {
        return absl::InvalidArgumentError(
            absl::StrCat("range '", part, "' ends before it starts; write CPUs as 0-3,6"));
      }
    }
    if (last >= cpu_count) return CpuTooLarge(last, cpu_count);
    for (int64_t cpu = first; cpu <= last; ++cpu) cpus.push_back(static_cast<int>(cpu));
  }
  if (cpus.empty()) return absl::InvalidArgumentError("no CPU given; write CPUs as 0-3,6");
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

absl::StatusOr<std::vector<int>> ParseCpuMask(std::string_view value, int cpu_count) {
  absl::string_view text =
      absl::StripAsciiWhitespace(absl::string_view(value.data(), value.size()));
  uint64_t mask = 0;
  const bool hex = absl::ConsumePrefix(&text, "0x") || absl::ConsumePrefix(&text, "0X");
  const bool parsed = hex ? absl::SimpleHexAtoi(text, &mask) : absl::SimpleAtoi(text, &mask);
  if (!parsed || mask == 0) {
    return absl::InvalidArgumentError(
        "a CPU mask is a number greater than 0 whose bit n allows CPU n, e.g. 0x3");
  }
  std::vector<int> cpus;
  for (int bit = 0; bit < 64; ++bit) {
    if ((mask & (uint64_t{1} << bit)) == 0) continue;
    if (bit >= cpu_count) return CpuTooLarge(bit, cpu_count);
    cpus.push_back(bit);
  }
  return cpus;
}

}  // namespace azbench

#include "agent/enghelp.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/fio_option_table.h"
#include "common/job_spec.h"

namespace azbench {
namespace {

constexpr std::string_view kFlag = "--enghelp";

struct EngineOptions {
  std::string_view engine;
  std::vector<std::string_view> options;
};

// Each engine's own options: fio 3.33's (`fio --enghelp=ENGINE`), then azbench's. Engines not
// listed have none, as in fio.
const std::vector<EngineOptions>& EngineOptionLists() {
  static const auto* lists = new std::vector<EngineOptions>{
      {"pvsync2", {"hipri", "hipri_percentage", "uncached", "nowait"}},
      {"mmap", {"thp"}},
      {"libaio",
       {"userspace_reap", "cmdprio_percentage", "cmdprio_class", "cmdprio", "cmdprio_bssplit",
        "nowait"}},
      {"io_uring",
       {"hipri", "cmdprio_percentage", "cmdprio_class", "cmdprio", "cmdprio_bssplit", "fixedbufs",
        "registerfiles", "sqthread_poll", "sqthread_poll_cpu", "nonvectored", "uncached", "nowait",
        "force_async", "cmd_type", "uring_wait_pause"}},
      {"filestat", {"stat_type"}},
      {"dirstat", {"stat_type"}},
      {"nfs", {"nfs_url"}},
  };
  return *lists;
}

// "<help>", with what azbench does when it does not honour it.
std::string OptionLine(std::string_view name) {
  const FioOptionInfo* info = FindFioOption(name);
  std::string help;
  if (info == nullptr) {
    help = "not supported by azbench";
  } else {
    help = std::string(info->help);
    if (info->support == FioSupport::kRefused) {
      help += " (refused by azbench: " + std::string(info->why) + ")";
    } else if (info->support == FioSupport::kNoEffect) {
      help += " (no effect in azbench: " + std::string(info->why) + ")";
    }
  }
  char padded[32];
  std::snprintf(padded, sizeof(padded), "%-24.*s", static_cast<int>(name.size()), name.data());
  return std::string(padded) + ": " + help + "\n";
}

}  // namespace

bool IsEnghelpArgument(std::string_view arg) {
  return arg == kFlag ||
         (arg.starts_with(kFlag) && arg.size() > kFlag.size() && arg[kFlag.size()] == '=');
}

int RunEnghelp(std::string_view arg, std::ostream& out, std::ostream& err) {
  const std::string_view what =
      arg.size() > kFlag.size() ? arg.substr(kFlag.size() + 1) : std::string_view();
  if (what.empty()) {
    out << "Available IO engines:\n";
    for (std::string_view engine : kIoEngineNames) out << "\t" << engine << "\n";
    return 0;
  }
  const size_t comma = what.find(',');
  const std::string_view engine = what.substr(0, comma);
  if (std::find(kIoEngineNames.begin(), kIoEngineNames.end(), engine) == kIoEngineNames.end()) {
    err << "IO engine " << engine << " not found\n";
    return 1;
  }
  const auto list = std::find_if(EngineOptionLists().begin(), EngineOptionLists().end(),
                                 [engine](const EngineOptions& e) { return e.engine == engine; });
  if (list == EngineOptionLists().end()) {
    out << "IO engine " << engine << " has no options\n";
    return 1;
  }
  if (comma == std::string_view::npos) {
    for (std::string_view option : list->options) out << OptionLine(option);
    return 0;
  }
  const std::string_view option = what.substr(comma + 1);
  if (std::find(list->options.begin(), list->options.end(), option) == list->options.end()) {
    err << "IO engine " << engine << " has no option " << option << "\n";
    return 1;
  }
  absl::StatusOr<std::string> help = FioOptionHelpText(option);
  if (!help.ok()) {
    out << OptionLine(option);
    return 0;
  }
  out << *help;
  return 0;
}

}  // namespace azbench

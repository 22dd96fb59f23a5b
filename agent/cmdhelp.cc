#include "agent/cmdhelp.h"

#include <ostream>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "common/fio_option_table.h"

namespace azbench {
namespace {

constexpr std::string_view kFlag = "--cmdhelp";

}  // namespace

bool IsCmdhelpArgument(std::string_view arg) {
  return arg == kFlag ||
         (arg.starts_with(kFlag) && arg.size() > kFlag.size() && arg[kFlag.size()] == '=');
}

int RunCmdhelp(std::string_view arg, std::ostream& out, std::ostream& err) {
  const std::string_view what =
      arg.size() > kFlag.size() ? arg.substr(kFlag.size() + 1) : std::string_view();
  // fio takes `all` for the whole list too.
  if (what.empty() || what == "all") {
    out << FioOptionListText();
    return 0;
  }
  if (what == "markdown") {
    out << FioOptionsMarkdown();
    return 0;
  }
  absl::StatusOr<std::string> help = FioOptionHelpText(what);
  if (!help.ok()) {
    err << "azbench-agent: " << help.status().message() << "\n";
    return 1;
  }
  out << *help;
  return 0;
}

}  // namespace azbench

// What every `azbench` subcommand (cli.h) shares: flag parsing, the TLS/token flags, --keep,
// -o/--output, and the one way a command reports an error. Internal to the command line.
//
// Example:
//   ASSIGN_OR_RETURN(Args args, ParseArgs(raw, {"--db"}, {"--quiet"}));
//   if (const std::string* db = args.Get("--db")) Use(*db);
#ifndef AZBENCH_COORDINATOR_CLI_CLI_ARGS_H_
#define AZBENCH_COORDINATOR_CLI_CLI_ARGS_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/fleet/client_security.h"

namespace azbench::cli_internal {

// Prints "azbench <command>: <message>" on stderr and returns `code` (the exit status).
int Fail(const std::string& command, const absl::Status& status, int code = 1);

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

// "--flag=value" and "--flag value" for `value_flags`, "--flag" (or "--flag=true|false", fio's
// boolean spellings) for `bool_flags`; anything else starting with '-' (but "-" itself) is an
// InvalidArgument naming the allowed flags, and so is a flag given twice (-o and --output are
// one flag). The parsing and its error messages are common/flags.h's.
absl::StatusOr<Args> ParseArgs(const std::vector<std::string>& raw,
                               const std::vector<std::string>& value_flags,
                               const std::vector<std::string>& bool_flags);

// --tls-ca, --tls-cert, --tls-key, --token-file, --tls-server-name
// (coordinator/fleet/client_security.h).
ClientSecurity SecurityFromFlags(const Args& args);
// `flags` plus the security flags above.
std::vector<std::string> WithSecurityFlags(std::vector<std::string> flags);

// --keep all|last|median, or nullopt when not given.
absl::StatusOr<std::optional<KeepPolicy>> KeepFlag(const Args& args);

// `args` as one shell command line: each quoted with '...' unless made only of characters a
// shell leaves alone (letters, digits, and _-./:=,@%+).
std::string ShellJoin(const std::vector<std::string>& args);

// -o or --output (one flag), or nullptr.
const std::string* OutputFlag(const Args& args);

// Refuses an output path that is a directory or an existing SQLite database (a report written
// over the results it was made from would destroy them). InvalidArgument naming the path.
absl::Status CheckOutputPath(const std::string& path);

// Writes `text` to -o/--output (checked by CheckOutputPath, then written whole: a failed write
// leaves an earlier file as it was), or to stdout without one; the exit status.
int WriteOutput(const std::string& command, const Args& args, const std::string& text);

}  // namespace azbench::cli_internal

#endif  // AZBENCH_COORDINATOR_CLI_CLI_ARGS_H_

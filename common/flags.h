// One command-line flag parser for both binaries: `azbench`'s subcommands
// (coordinator/cli/cli_args.h), `azbench-agent serve` (agent/server/serve.h) and `azbench-agent
// run` (agent/one_shot.h). Each command states its flags in one table; the parser splits the
// arguments and refuses, with the same words everywhere, an unknown flag, a missing value, a bad
// switch value and a single-valued flag given twice. What a value means is the command's business.
//
//   const std::vector<FlagSpec> kFlags = {{.name = "--listen"},
//                                         {.name = "--allowed-root", .repeatable = true}};
//   ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags(kFlags, args, FlagSyntax{}));
//   for (const FlagValue& f : flags.flags) Apply(f.name, f.value);
#ifndef AZBENCH_COMMON_FLAGS_H_
#define AZBENCH_COMMON_FLAGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace azbench {

struct FlagSpec {
  std::string name = "";  // as written, with its dashes: "--listen", "-o"
  // A switch takes no value ("--resume"), or one of ParseBool's spellings after '='
  // ("--resume=false"); its FlagValue::value is then "true" or "false".
  bool is_switch = false;
  // Each occurrence adds a value (--allowed-root); any other flag is given at most once.
  bool repeatable = false;
  // Another spelling of the same flag ("--output" for "-o"), or empty.
  std::string alias = "";
  std::string help = "";
};

// How a command's arguments are written; the defaults are `azbench`'s.
struct FlagSyntax {
  // "--flag value" as well as "--flag=value". Without it a value flag needs '='.
  bool value_in_next_argument = true;
  // Whether the next argument may be the value when it starts with "--" (a file named so). When
  // not, "--listen --port-file x" says --listen needs a value.
  bool value_may_start_with_dashes = true;
  // Whether "-x" is a flag; when not, only "--x" is, and "-x" is a positional argument.
  bool single_dash_flags = true;
  // Whether an argument starting with "--" that is no flag of the table is kept, in order, in
  // ParsedFlags::unknown (fio's options, passed through) rather than refused.
  bool keep_unknown = false;
};

// One flag as given, in command-line order.
struct FlagValue {
  std::string name;     // the table's name, whichever spelling (alias) was used
  std::string spelled;  // the name as written: the table's name or its alias
  std::string value;    // "true" / "false" for a switch
  std::string written;  // as written: "--listen 127.0.0.1:0", "--listen=127.0.0.1:0", "--unlink"
};

struct ParsedFlags {
  std::vector<std::string> positional;  // arguments not starting with a dash, and "-"
  std::vector<FlagValue> flags;
  std::vector<std::string> unknown;  // FlagSyntax::keep_unknown only

  // The value of a single-valued flag, or nullptr when it was not given.
  const std::string* Get(const std::string& name) const;
  // Every value of `name`, in order.
  std::vector<std::string> GetAll(const std::string& name) const;
};

// Splits `args` by `table`. InvalidArgument, worded the same for every command:
//   unknown flag '--bogus' (allowed: --config, --listen, ...)
//   flag '--listen' needs a value
//   --listen is given twice ('--listen 127.0.0.1:0' and '--listen=127.0.0.1:7480'): give it once
//   -o and --output are the same flag: give one
//   --unlink: 'maybe' is not a boolean (...); '--unlink' is a switch: give it alone, or as
//   --unlink=true / =false
absl::StatusOr<ParsedFlags> ParseFlags(const std::vector<FlagSpec>& table,
                                       const std::vector<std::string>& args,
                                       const FlagSyntax& syntax = FlagSyntax{});

// The table's flag names (aliases after their flag), comma-separated; "none" for an empty table.
std::string FlagNames(const std::vector<FlagSpec>& table);

}  // namespace azbench

#endif  // AZBENCH_COMMON_FLAGS_H_

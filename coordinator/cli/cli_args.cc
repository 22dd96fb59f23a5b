#include "coordinator/cli/cli_args.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/file_util.h"
#include "common/flags.h"
#include "common/status_macros.h"
#include "common/units.h"
#include "coordinator/store/results_file.h"

namespace azbench::cli_internal {

namespace {

const std::vector<std::string> kSecurityFlags = {"--tls-ca", "--tls-cert", "--tls-key",
                                                 "--token-file", "--tls-server-name"};

}  // namespace

int Fail(const std::string& command, const absl::Status& status, int code) {
  std::cerr << "azbench " << command << ": " << status.message() << "\n";
  return code;
}

absl::StatusOr<Args> ParseArgs(const std::vector<std::string>& raw,
                               const std::vector<std::string>& value_flags,
                               const std::vector<std::string>& bool_flags) {
  std::vector<FlagSpec> table;
  const auto listed = [&](const std::string& name) {
    return std::find(value_flags.begin(), value_flags.end(), name) != value_flags.end();
  };
  for (const std::string& name : value_flags) {
    // -o and --output are one flag.
    if (name == "--output" && listed("-o")) continue;
    table.push_back({.name = name, .alias = name == "-o" && listed("--output") ? "--output" : ""});
  }
  for (const std::string& name : bool_flags) table.push_back({.name = name, .is_switch = true});
  ASSIGN_OR_RETURN(ParsedFlags parsed, ParseFlags(table, raw));
  Args args;
  args.positional = std::move(parsed.positional);
  for (FlagValue& flag : parsed.flags) {
    const bool is_switch =
        std::find(bool_flags.begin(), bool_flags.end(), flag.name) != bool_flags.end();
    if (!is_switch) {
      args.flags.emplace_back(flag.spelled, std::move(flag.value));
    } else if (flag.value == "true") {
      args.flags.emplace_back(flag.spelled, "");  // "--resume=false": not given
    }
  }
  return args;
}

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

absl::StatusOr<std::optional<KeepPolicy>> KeepFlag(const Args& args) {
  const std::string* k = args.Get("--keep");
  if (k == nullptr) return std::optional<KeepPolicy>();
  if (*k == "all") return std::optional<KeepPolicy>(KeepPolicy::kAll);
  if (*k == "last") return std::optional<KeepPolicy>(KeepPolicy::kLast);
  if (*k == "median") return std::optional<KeepPolicy>(KeepPolicy::kMedian);
  return absl::InvalidArgumentError(
      absl::StrCat("--keep '", *k, "' is not one of: all, last, median"));
}

std::string ShellJoin(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& a : args) {
    if (!out.empty()) out += ' ';
    const bool plain = !a.empty() && std::all_of(a.begin(), a.end(), [](char c) {
      return absl::ascii_isalnum(static_cast<unsigned char>(c)) ||
             std::strchr("_-./:=,@%+", c) != nullptr;
    });
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) {
      if (c == '\'') {
        out += "'\\''";
      } else {
        out += c;
      }
    }
    out += '\'';
  }
  return out;
}

absl::Status CheckOutputPath(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(
        absl::StrCat("-o '", path, "' is a directory; give a file name"));
  }
  if (IsSqliteFile(path)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "-o '", path,
        "' is an SQLite database (results?); a report never overwrites one: give another file"));
  }
  return absl::OkStatus();
}

const std::string* OutputFlag(const Args& args) {
  return args.Has("-o") ? args.Get("-o") : args.Get("--output");
}

int WriteOutput(const std::string& command, const Args& args, const std::string& text) {
  const std::string* out_path = OutputFlag(args);
  if (out_path == nullptr) {
    std::cout << text;
    return 0;
  }
  if (absl::Status s = CheckOutputPath(*out_path); !s.ok()) return Fail(command, s, 2);
  if (absl::Status s = WriteWholeFile(*out_path, text, "output"); !s.ok()) return Fail(command, s);
  return 0;
}

}  // namespace azbench::cli_internal

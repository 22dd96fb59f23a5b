#include "coordinator/cli/cli_args.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/file_util.h"
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
  Args args;
  // One value per flag: a repeated flag is an error, not a guess. Key -> the spelling given first.
  std::map<std::string, std::string> seen;
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
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown flag '", name, "' (allowed: ", allowed.empty() ? "none" : allowed, ")"));
    }
    // -o and --output are one flag.
    const std::string key = name == "--output" ? "-o" : name;
    if (auto [it, inserted] = seen.emplace(key, name); !inserted) {
      return absl::InvalidArgumentError(
          it->second == name
              ? absl::StrCat("flag '", name, "' is given twice: give it once")
              : absl::StrCat(it->second, " and ", name, " are the same flag: give one"));
    }
    bool on = true;
    if (is_bool && eq != std::string::npos) {
      // "--resume=false" must not resume: a switch's value is read, never ignored.
      absl::StatusOr<bool> parsed = ParseBool(value);
      if (!parsed.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "flag '", name, "' is a switch: give it alone, or as ", name, "=true / =false"));
      }
      on = *parsed;
      value.clear();
    }
    if (takes_value && eq == std::string::npos) {
      if (i + 1 >= raw.size()) {
        return absl::InvalidArgumentError(absl::StrCat("flag '", name, "' needs a value"));
      }
      value = raw[++i];
    }
    if (on) args.flags.emplace_back(name, value);
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

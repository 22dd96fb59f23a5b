#include "coordinator/cli_args.h"

#include <algorithm>
#include <fstream>
#include <iostream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

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
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag '", name, "' (allowed: ", allowed, ")"));
    }
    if (takes_value && eq == std::string::npos) {
      if (i + 1 >= raw.size()) {
        return absl::InvalidArgumentError(absl::StrCat("flag '", name, "' needs a value"));
      }
      value = raw[++i];
    }
    args.flags.emplace_back(name, value);
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

int WriteOutput(const std::string& command, const Args& args, const std::string& text) {
  const std::string* out_path = args.Has("-o") ? args.Get("-o") : args.Get("--output");
  if (out_path == nullptr) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(*out_path);
  out << text;
  if (!out) {
    return Fail(command, absl::InternalError(absl::StrCat("cannot write '", *out_path, "'")));
  }
  return 0;
}

}  // namespace azbench::cli_internal

#include "agent/server/agent_settings.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/host/logging.h"
#include "common/errno_text.h"
#include "common/status_macros.h"
#include "common/units.h"

namespace azbench {

namespace {

std::string Where(const std::string& path, const YAML::Mark& mark) {
  return absl::StrCat(path, ":", mark.line + 1, ":", mark.column + 1, ": ");
}

absl::Status Error(const std::string& path, const YAML::Mark& mark, const std::string& key,
                   const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat(Where(path, mark), key, ": ", message));
}

// An absolute path without "." or ".." parts, trailing slashes removed.
absl::StatusOr<std::string> AbsolutePath(const std::string& text) {
  if (text.empty() || text[0] != '/') {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not an absolute path"));
  }
  const std::filesystem::path p(text);
  for (const auto& part : p) {
    if (part == "." || part == "..") {
      return absl::InvalidArgumentError(absl::StrCat("'", text, "' contains '.' or '..'"));
    }
  }
  std::string normal = p.lexically_normal().string();
  while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
  return normal;
}

absl::Status ParseFileKey(const std::string& path, const YAML::Mark& mark, const std::string& key,
                          const YAML::Node& value, std::string& out) {
  if (!value.IsScalar()) return Error(path, mark, key, "must be a file path");
  absl::StatusOr<std::string> file = AbsolutePath(value.as<std::string>());
  if (!file.ok()) return Error(path, mark, key, std::string(file.status().message()));
  out = *file;
  return absl::OkStatus();
}

std::string CheckReadable(const std::string& what, const std::string& file) {
  if (access(file.c_str(), R_OK) != 0) {
    return absl::StrCat(what, " '", file, "' cannot be read: ", ErrnoText(errno));
  }
  return "";
}

}  // namespace

const std::vector<std::string>& AgentSettingsKeys() {
  static const std::vector<std::string> kKeys = {
      "allowed_roots", "allowed_nfs_servers", "min_free_space",         "limits",
      "tls",           "token_file",          "insecure_loopback_only", "log_levels"};
  return kKeys;
}

bool IsAgentSettingsKey(const std::string& key) {
  const auto& keys = AgentSettingsKeys();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

absl::Status ApplyAgentSettingsKey(const std::string& path, const std::string& key,
                                   const YAML::Mark& mark, const YAML::Node& value,
                                   AgentSettings& settings) {
  if (key == "allowed_roots") {
    if (!value.IsSequence() || value.size() == 0) {
      return Error(path, mark, key, "must be a non-empty list of absolute directories");
    }
    settings.allowed_roots.clear();
    for (const YAML::Node& item : value) {
      if (!item.IsScalar()) {
        return Error(path, item.Mark(), key, "each entry must be an absolute directory");
      }
      absl::StatusOr<std::string> root = AbsolutePath(item.as<std::string>());
      if (!root.ok()) return Error(path, item.Mark(), key, std::string(root.status().message()));
      if (*root == "/") {
        return Error(path, item.Mark(), key, "'/' is not allowed: name the benchmark mounts");
      }
      settings.allowed_roots.push_back(*root);
    }
    return absl::OkStatus();
  }
  if (key == "allowed_nfs_servers") {
    if (!value.IsSequence() || value.size() == 0) {
      return Error(path, mark, key,
                   "must be a non-empty list of IP addresses or CIDR blocks (10.0.0.0/16)");
    }
    settings.allowed_nfs_servers.clear();
    for (const YAML::Node& item : value) {
      if (!item.IsScalar()) {
        return Error(path, item.Mark(), key, "each entry must be an IP address or CIDR block");
      }
      const std::string rule = item.as<std::string>();
      if (absl::Status s = ParseNfsServerRule(rule); !s.ok()) {
        return Error(path, item.Mark(), key, std::string(s.message()));
      }
      settings.allowed_nfs_servers.push_back(rule);
    }
    return absl::OkStatus();
  }
  if (key == "min_free_space") {
    if (!value.IsScalar()) return Error(path, mark, key, "must be a size such as 1g or 500m");
    absl::StatusOr<uint64_t> bytes = ParseSize(value.as<std::string>());
    if (!bytes.ok()) return Error(path, mark, key, std::string(bytes.status().message()));
    settings.min_free_space_bytes = *bytes;
    return absl::OkStatus();
  }
  if (key == "tls") {
    if (!value.IsMap()) {
      return Error(path, mark, key, "must be a mapping with cert_file, key_file and ca_file");
    }
    TlsFiles tls;
    for (const auto& kv : value) {
      const std::string sub = kv.first.as<std::string>();
      const YAML::Mark sub_mark = kv.first.Mark();
      std::string* target = sub == "cert_file"  ? &tls.cert_file
                            : sub == "key_file" ? &tls.key_file
                            : sub == "ca_file"  ? &tls.ca_file
                                                : nullptr;
      if (target == nullptr) {
        return Error(path, sub_mark, "tls." + sub,
                     "unknown key (allowed: cert_file, key_file, ca_file)");
      }
      RETURN_IF_ERROR(ParseFileKey(path, sub_mark, "tls." + sub, kv.second, *target));
    }
    if (tls.cert_file.empty() != tls.key_file.empty()) {
      return Error(path, mark, key, "cert_file and key_file go together: set both or neither");
    }
    if (tls.cert_file.empty()) {
      return Error(path, mark, key, "needs cert_file and key_file (ca_file adds mutual TLS)");
    }
    settings.tls = tls;
    return absl::OkStatus();
  }
  if (key == "token_file") return ParseFileKey(path, mark, key, value, settings.token_file);
  if (key == "insecure_loopback_only") {
    const std::string text = value.IsScalar() ? value.as<std::string>() : "";
    absl::StatusOr<bool> flag = ParseBool(text);
    if (!flag.ok()) return Error(path, mark, key, "must be true or false");
    settings.insecure_loopback_only = *flag;
    return absl::OkStatus();
  }
  if (key == "limits") {
    if (!value.IsMap()) {
      return Error(path, mark, key,
                   "must be a mapping of max_jobs_per_run, max_files_per_job, max_job_size, "
                   "max_message_size");
    }
    JobLimits limits;
    for (const auto& kv : value) {
      const std::string sub = kv.first.as<std::string>();
      const YAML::Mark sub_mark = kv.first.Mark();
      const std::string field = "limits." + sub;
      const std::string text = kv.second.IsScalar() ? kv.second.as<std::string>() : "";
      if (sub == "max_jobs_per_run" || sub == "max_files_per_job") {
        absl::StatusOr<int64_t> n = ParseInt(text, 1, 100'000'000);
        if (!n.ok()) return Error(path, sub_mark, field, std::string(n.status().message()));
        (sub == "max_jobs_per_run" ? limits.max_jobs_per_run : limits.max_files_per_job) =
            static_cast<uint64_t>(*n);
      } else if (sub == "max_job_size" || sub == "max_message_size") {
        absl::StatusOr<uint64_t> bytes = ParseSize(text);
        if (!bytes.ok()) return Error(path, sub_mark, field, std::string(bytes.status().message()));
        if (sub == "max_message_size" && (*bytes < (64 << 10) || *bytes > (1ULL << 30))) {
          return Error(path, sub_mark, field, "must be 64k..1g");
        }
        (sub == "max_job_size" ? limits.max_job_size_bytes : limits.max_message_size_bytes) =
            *bytes;
      } else {
        return Error(path, sub_mark, field,
                     "unknown key (allowed: max_jobs_per_run, max_files_per_job, max_job_size, "
                     "max_message_size)");
      }
    }
    settings.limits = limits;
    return absl::OkStatus();
  }
  if (key == "log_levels") {
    if (!value.IsMap()) {
      return Error(path, mark, key,
                   absl::StrCat("must map components (", absl::StrJoin(LogComponentNames(), ", "),
                                ") to levels"));
    }
    std::map<std::string, std::string> levels;
    for (const auto& kv : value) {
      const std::string component = kv.first.as<std::string>();
      const auto& names = LogComponentNames();
      if (std::find(names.begin(), names.end(), component) == names.end()) {
        return Error(path, kv.first.Mark(), "log_levels." + component,
                     absl::StrCat("unknown component (allowed: ", absl::StrJoin(names, ", "), ")"));
      }
      const std::string level = kv.second.IsScalar() ? kv.second.as<std::string>() : "";
      if (absl::Status s = ValidateLogLevel(level); !s.ok()) {
        return Error(path, kv.first.Mark(), "log_levels." + component, std::string(s.message()));
      }
      levels[component] = level;
    }
    settings.log_levels = levels;
    return absl::OkStatus();
  }
  return Error(path, mark, key, "not an agent settings key");
}

SettingsFindings CheckAgentSettingsFiles(const AgentSettings& settings) {
  SettingsFindings findings;
  for (const std::string& root : settings.allowed_roots) {
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec)) {
      findings.warnings.push_back(absl::StrCat(
          "allowed root '", root, "' does not exist (yet): mount or create it before jobs use it"));
    }
  }
  const std::pair<const char*, const std::string*> files[] = {
      {"tls.cert_file", &settings.tls.cert_file},
      {"tls.key_file", &settings.tls.key_file},
      {"tls.ca_file", &settings.tls.ca_file},
      {"token_file", &settings.token_file}};
  for (const auto& [what, file] : files) {
    if (file->empty()) continue;
    if (std::string problem = CheckReadable(what, *file); !problem.empty()) {
      findings.errors.push_back(problem);
      continue;
    }
    struct stat st {};
    const bool secret = std::string(what) == "tls.key_file" || std::string(what) == "token_file";
    if (secret && stat(file->c_str(), &st) == 0 && (st.st_mode & 0077) != 0) {
      findings.warnings.push_back(
          absl::StrCat(what, " '", *file, "' is readable by group or others: chmod 600 it"));
    }
  }
  return findings;
}

std::vector<std::string> AgentSettingsNotes(const AgentSettings& settings) {
  std::vector<std::string> notes;
  if (settings.allowed_roots.empty()) {
    notes.push_back(
        "allowed_roots: not set -- every job that uses files is refused (set allowed_roots)");
  } else {
    notes.push_back(absl::StrCat("allowed_roots: ", absl::StrJoin(settings.allowed_roots, ", "),
                                 " (jobs outside them, or escaping through a symlink, '..' or "
                                 "another mount, are refused)"));
  }
  notes.push_back(
      settings.allowed_nfs_servers.empty()
          ? std::string("allowed_nfs_servers: not set -- every NFS job (an nfs_url) is refused")
          : absl::StrCat("allowed_nfs_servers: ", absl::StrJoin(settings.allowed_nfs_servers, ", "),
                         " (ioengine=nfs jobs naming another server are refused)"));
  notes.push_back(absl::StrCat("min_free_space: ",
                               settings.min_free_space_bytes > 0
                                   ? FormatBytes(settings.min_free_space_bytes)
                                   : std::string("0"),
                               " (a job whose layout would leave less free space is refused)"));
  const JobLimits& l = settings.limits;
  notes.push_back(absl::StrCat(
      "limits: max_jobs_per_run ", l.max_jobs_per_run, ", max_files_per_job ", l.max_files_per_job,
      ", max_job_size ",
      l.max_job_size_bytes > 0 ? FormatBytes(l.max_job_size_bytes) : std::string("unlimited"),
      ", max_message_size ", FormatBytes(l.max_message_size_bytes)));
  if (!settings.tls.empty()) {
    notes.push_back(absl::StrCat(
        "tls: cert ", settings.tls.cert_file, ", key ", settings.tls.key_file,
        settings.tls.ca_file.empty()
            ? " (no ca_file: coordinators are not asked for a certificate)"
            : absl::StrCat(", ca ", settings.tls.ca_file,
                           " (mutual TLS: coordinators need a certificate signed by it)")));
  }
  if (!settings.token_file.empty()) {
    notes.push_back(absl::StrCat("token_file: ", settings.token_file,
                                 " (every request needs 'authorization: Bearer <token>')"));
  }
  if (settings.insecure_loopback_only) {
    notes.push_back(
        "insecure_loopback_only: true -- plaintext gRPC, allowed only on a loopback listen "
        "address");
  }
  for (const auto& [component, level] : settings.log_levels) {
    notes.push_back(absl::StrCat("log_levels.", component, ": ", level));
  }
  return notes;
}

}  // namespace azbench

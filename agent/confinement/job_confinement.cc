#include "agent/confinement/job_confinement.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "common/status_macros.h"
#include "common/units.h"

namespace azbench {

namespace {

struct DirFiles {
  std::vector<std::string> names;
  uint64_t bytes_to_write = 0;
};

std::string EscapeColons(const std::string& path) {
  return absl::StrReplaceAll(path, {{":", "\\:"}});
}

absl::Status RefuseLimit(const std::string& message) {
  spdlog::warn("limits: refused {}", message);
  return absl::ResourceExhaustedError(message);
}

}  // namespace

std::string ConfinedJob::DisplayText(std::string text) const {
  for (const auto& [fd_path, real] : aliases) {
    text = absl::StrReplaceAll(text, {{fd_path, real}});
  }
  return text;
}

absl::Status CheckRunJobCount(uint64_t clones, const JobLimits& limits) {
  if (clones > limits.max_jobs_per_run) {
    return RefuseLimit(absl::StrCat("the run has ", clones,
                                    " job clones (numjobs summed over its jobs); this agent "
                                    "allows at most ",
                                    limits.max_jobs_per_run, " (limits.max_jobs_per_run)"));
  }
  return absl::OkStatus();
}

absl::Status CheckJobLimits(const std::string& job_name, const JobFootprint& footprint,
                            const JobLimits& limits) {
  RETURN_IF_ERROR(CheckRunJobCount(std::max<uint64_t>(1, footprint.clones), limits));
  if (footprint.files > limits.max_files_per_job) {
    return RefuseLimit(absl::StrCat(
        "job '", job_name, "': it uses ", footprint.files, " files",
        footprint.files_formula.empty() ? "" : absl::StrCat(" (", footprint.files_formula, ")"),
        "; this agent allows at most ", limits.max_files_per_job, " (limits.max_files_per_job)"));
  }
  return absl::OkStatus();
}

namespace {

// An address (in6_addr form; IPv4 as ::ffff:a.b.c.d) and how many leading bits of it count.
struct AddressRule {
  in6_addr address{};
  int prefix_bits = 128;
};

bool ParseAddress(const std::string& text, in6_addr* out, bool* v4) {
  in_addr a4{};
  if (inet_pton(AF_INET, text.c_str(), &a4) == 1) {
    std::memset(out, 0, sizeof(*out));
    out->s6_addr[10] = 0xff;
    out->s6_addr[11] = 0xff;
    std::memcpy(&out->s6_addr[12], &a4, 4);
    *v4 = true;
    return true;
  }
  *v4 = false;
  return inet_pton(AF_INET6, text.c_str(), out) == 1;
}

absl::StatusOr<AddressRule> ParseRule(const std::string& rule) {
  const size_t slash = rule.find('/');
  const std::string address = rule.substr(0, slash);
  AddressRule parsed;
  bool v4 = false;
  const std::string allowed =
      "allowed: an IPv4 or IPv6 address, optionally with a prefix length (10.0.0.0/16, "
      "fd00::/8); host names are not";
  if (!ParseAddress(address, &parsed.address, &v4)) {
    return absl::InvalidArgumentError(absl::StrCat("'", rule, "' is not an address; ", allowed));
  }
  const int max_bits = v4 ? 32 : 128;
  int bits = max_bits;
  if (slash != std::string::npos) {
    const std::string text = rule.substr(slash + 1);
    if (text.empty() || text.size() > 3 ||
        text.find_first_not_of("0123456789") != std::string::npos ||
        (bits = std::stoi(text)) > max_bits) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", rule, "': prefix length must be 0..", max_bits, "; ", allowed));
    }
  }
  parsed.prefix_bits = v4 ? 96 + bits : bits;
  return parsed;
}

bool Matches(const AddressRule& rule, const in6_addr& address) {
  for (int bit = 0; bit < rule.prefix_bits; ++bit) {
    const int byte = bit / 8, mask = 0x80 >> (bit % 8);
    if ((rule.address.s6_addr[byte] & mask) != (address.s6_addr[byte] & mask)) return false;
  }
  return true;
}

}  // namespace

absl::Status ParseNfsServerRule(const std::string& rule) { return ParseRule(rule).status(); }

absl::Status CheckNfsServerAllowed(const std::string& job_name, const std::string& server,
                                   const std::vector<std::string>& allowed_nfs_servers) {
  const std::string job = absl::StrCat("job '", job_name, "': ");
  if (allowed_nfs_servers.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        job, "NFS server ", server,
        ": this agent has no allowed_nfs_servers configured and refuses every NFS job; list the "
        "server's address in allowed_nfs_servers in its config"));
  }
  in6_addr address{};
  bool v4 = false;
  if (!ParseAddress(server, &address, &v4)) {
    const std::string message = absl::StrCat(
        job, "NFS server '", server,
        "' is not an address: with allowed_nfs_servers set, nfs_url must name the server by its "
        "IP address (a name could resolve elsewhere by the time the engine connects)");
    spdlog::warn("sandbox: refused {}", message);
    return absl::PermissionDeniedError(message);
  }
  for (const std::string& rule : allowed_nfs_servers) {
    absl::StatusOr<AddressRule> parsed = ParseRule(rule);
    if (parsed.ok() && Matches(*parsed, address)) return absl::OkStatus();
  }
  const std::string message =
      absl::StrCat(job, "NFS server ", server, " is outside allowed_nfs_servers (",
                   absl::StrJoin(allowed_nfs_servers, ", "), ")");
  spdlog::warn("sandbox: refused {}", message);
  return absl::PermissionDeniedError(message);
}

absl::StatusOr<ConfinedJob> ConfineJob(const std::string& job_name, const JobFootprint& footprint,
                                       JobPaths& target, const JobPolicy& policy,
                                       const std::string& agent_subdir) {
  ConfinedJob confined;
  const std::string job = absl::StrCat("job '", job_name, "': ");
  RETURN_IF_ERROR(CheckJobLimits(job_name, footprint, policy.limits));

  const bool subdir = !agent_subdir.empty() && target.filename.empty() && !target.directory.empty();
  std::string directory_as_named = target.directory;
  while (directory_as_named.size() > 1 && directory_as_named.back() == '/') {
    directory_as_named.pop_back();
  }
  if (target.directory.empty() || target.directory.front() != '/') {
    // Relative to the agent's working directory, as fio does; the roots still decide.
    std::error_code ec;
    const std::string cwd = std::filesystem::current_path(ec).string();
    if (ec) return absl::InternalError(absl::StrCat(job, "cannot read the working directory"));
    target.directory = target.directory.empty() ? cwd : absl::StrCat(cwd, "/", target.directory);
  }
  if (subdir) {
    while (target.directory.size() > 1 && target.directory.back() == '/')
      target.directory.pop_back();
    target.directory = absl::StrCat(target.directory, "/", agent_subdir);
  }
  // Every distinct file of the job (all clones), as the job names it; the count above bounds them.
  std::vector<std::string> paths;
  if (target.file_paths) {
    std::unordered_set<std::string> seen;
    for (std::string& p : target.file_paths(target.directory)) {
      if (seen.insert(p).second) paths.push_back(std::move(p));
    }
  }
  const uint64_t files = std::max<uint64_t>(1, footprint.files);
  const uint64_t per_file_bytes = footprint.bytes / files;
  if (policy.limits.max_job_size_bytes > 0 && footprint.bytes > policy.limits.max_job_size_bytes) {
    return RefuseLimit(absl::StrCat(job, "it lays out ", footprint.bytes, " bytes (", files,
                                    " files of ", per_file_bytes, "); this agent allows at most ",
                                    policy.limits.max_job_size_bytes, " (limits.max_job_size ",
                                    FormatBytes(policy.limits.max_job_size_bytes), ")"));
  }
  if (!target.opens_files) return confined;
  if (!target.nfs_server.empty()) {
    RETURN_IF_ERROR(CheckNfsServerAllowed(job_name, target.nfs_server, policy.allowed_nfs_servers));
    // Beneath the export: what was relative stays so (no working directory on the server).
    target.directory =
        subdir ? absl::StrCat(directory_as_named, "/", agent_subdir) : directory_as_named;
    return confined;
  }

  if (policy.allowed_roots.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        job,
        "this agent has no allowed_roots configured and refuses every job that uses files; set "
        "allowed_roots in its config (or serve --allowed-root DIR)"));
  }
  std::vector<std::string> existing_roots, missing_roots;
  for (const std::string& root : policy.allowed_roots) {
    std::error_code ec;
    (std::filesystem::is_directory(root, ec) ? existing_roots : missing_roots).push_back(root);
  }
  if (existing_roots.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(job, "none of the allowed roots exists (",
                                                      absl::StrJoin(policy.allowed_roots, ", "),
                                                      "): mount or create them"));
  }
  ASSIGN_OR_RETURN(const Sandbox sandbox, Sandbox::Create(existing_roots));
  auto with_job = [&](const absl::Status& s) {
    std::string message = absl::StrCat(job, s.message());
    if (!missing_roots.empty()) {
      absl::StrAppend(&message,
                      " (allowed roots that do not exist now: ", absl::StrJoin(missing_roots, ", "),
                      ")");
    }
    return absl::Status(s.code(), message);
  };

  // Group the files by directory; each directory is opened once, beneath its root.
  std::map<std::string, DirFiles> by_dir;
  std::vector<std::string> dir_order;
  if (paths.empty()) {
    // The family names its files itself: the directory is checked, and all the bytes count.
    dir_order.push_back(target.directory);
    by_dir[target.directory].bytes_to_write = footprint.bytes;
  }
  for (const std::string& p : paths) {
    if (p.empty() || p.front() != '/') {
      return absl::FailedPreconditionError(absl::StrCat(
          job, "file '", p,
          "' is relative to nothing: give the job an absolute `directory` (or absolute "
          "filenames)"));
    }
    const size_t slash = p.rfind('/');
    const std::string dir = slash == 0 ? "/" : p.substr(0, slash);
    const std::string name = p.substr(slash + 1);
    RETURN_IF_ERROR(CheckFileName(name, target.filename.empty() ? "file" : "filename"));
    if (by_dir.count(dir) == 0) dir_order.push_back(dir);
    by_dir[dir].names.push_back(name);
  }

  std::map<std::string, std::string> fd_path_of;  // directory -> /proc/self/fd/N
  // A refusal after the agent subdirectory was made removes it again (only when empty).
  struct RemoveCreatedOnError {
    ConfinedJob& job;
    bool armed = true;
    ~RemoveCreatedOnError() {
      if (!armed) return;
      for (const std::string& dir : job.created_dirs) (void)rmdir(dir.c_str());
    }
  } cleanup{confined};
  for (const std::string& dir : dir_order) {
    absl::StatusOr<ConfinedDir> opened = sandbox.OpenDirectory(dir, /*create_missing=*/false);
    if (!opened.ok() && opened.status().code() == absl::StatusCode::kNotFound && subdir) {
      // The per-agent subdirectory: its parent (the job's directory) must exist, it may not.
      const std::string parent = dir.substr(0, dir.rfind('/'));
      absl::StatusOr<ConfinedDir> base = sandbox.OpenDirectory(parent, false);
      if (!base.ok()) {
        return with_job(base.status().code() == absl::StatusCode::kNotFound
                            ? absl::FailedPreconditionError(base.status().message())
                            : base.status());
      }
      opened = sandbox.OpenDirectory(dir, /*create_missing=*/true);
      if (opened.ok()) confined.created_dirs.push_back(dir);
    }
    if (!opened.ok()) {
      return with_job(opened.status().code() == absl::StatusCode::kNotFound
                          ? absl::FailedPreconditionError(opened.status().message())
                          : opened.status());
    }
    DirFiles& files = by_dir[dir];
    for (const std::string& name : files.names) {
      struct stat st {};
      if (fstatat(opened->fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        files.bytes_to_write += per_file_bytes;
        continue;
      }
      if (S_ISLNK(st.st_mode) || !S_ISREG(st.st_mode)) {
        const std::string message = absl::StrCat(
            job, "'", dir, "/", name, "' exists and is ",
            S_ISLNK(st.st_mode) ? "a symlink" : "not a regular file",
            ": the agent only uses plain files it may create (a symlink could lead outside the "
            "allowed roots)");
        spdlog::warn("sandbox: refused {}", message);
        return absl::PermissionDeniedError(message);
      }
      if (static_cast<uint64_t>(st.st_size) < per_file_bytes) {
        files.bytes_to_write += per_file_bytes - static_cast<uint64_t>(st.st_size);
      }
    }
    if (absl::Status s = CheckFreeSpace(*opened, files.bytes_to_write, policy.min_free_space_bytes);
        !s.ok()) {
      spdlog::warn("limits: refused {}{}", job, std::string(s.message()));
      return with_job(s);
    }
    const std::string fd_path = opened->FdPath();
    fd_path_of[dir] = fd_path;
    confined.aliases.emplace_back(fd_path, dir);
    confined.dirs.push_back(std::move(*opened));
  }
  // Longer descriptor paths first, so "/proc/self/fd/12" is not replaced inside ".../fd/123".
  std::sort(confined.aliases.begin(), confined.aliases.end(),
            [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });

  if (target.filename.empty() || paths.empty()) {
    target.directory = fd_path_of.at(dir_order.front());
  } else {
    std::vector<std::string> rewritten;
    for (const std::string& p : paths) {
      const size_t slash = p.rfind('/');
      const std::string dir = slash == 0 ? "/" : p.substr(0, slash);
      rewritten.push_back(EscapeColons(absl::StrCat(fd_path_of.at(dir), "/", p.substr(slash + 1))));
    }
    target.filename = absl::StrJoin(rewritten, ":");
  }
  cleanup.armed = false;
  return confined;
}

}  // namespace azbench

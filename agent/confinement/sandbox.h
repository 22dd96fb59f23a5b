// Where an agent may do I/O. Every job directory must lie beneath one of the configured allowed
// roots; the agent opens it as a directory descriptor with the kernel doing the confinement, so
// that a symlink, a `..`, a mount point or a rename racing with the check cannot lead it elsewhere:
//
//   1. The directory is matched lexically (after normalising `.`, `..` and repeated slashes)
//   against
//      each root as configured and as canonicalised at start-up (a root may itself be a symlink,
//      e.g. /mnt/efs -> /data/efs). No match: PermissionDenied naming the path and the roots.
//   2. The rest of the path is opened from the root's descriptor with openat2(2) and
//      RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV: a symlink inside the root may
//      point elsewhere inside it, but never out (absolute symlinks and `..` above the root fail),
//      /proc magic links are refused, and crossing into another mount (a bind mount of /etc under
//      the root) is refused: configure such a mount point as its own root.
//   3. Kernels without openat2 (before 5.6) get a walk one component at a time with
//      openat(O_NOFOLLOW | O_DIRECTORY), refusing every symlink and `..`, and comparing st_dev with
//      the root's: stricter, never looser.
//
// The workloads then open files through the descriptor (ConfinedDir::FdPath(), a /proc/self/fd
// path the kernel resolves to the opened directory itself, not by re-walking the name), so a
// directory swapped for a symlink after the check changes nothing. File names inside a job are
// plain names (CheckFileName). Every refusal is logged as a warning.
#ifndef AZBENCH_AGENT_CONFINEMENT_SANDBOX_H_
#define AZBENCH_AGENT_CONFINEMENT_SANDBOX_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace azbench {

// An open directory beneath an allowed root. Movable, closes its descriptor.
class ConfinedDir {
 public:
  ConfinedDir() = default;
  ConfinedDir(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ConfinedDir(ConfinedDir&& other) noexcept;
  ConfinedDir& operator=(ConfinedDir&& other) noexcept;
  ConfinedDir(const ConfinedDir&) = delete;
  ConfinedDir& operator=(const ConfinedDir&) = delete;
  ~ConfinedDir();

  int fd() const { return fd_; }
  // The path as the job gave it (normalised), for messages.
  const std::string& path() const { return path_; }
  // "/proc/self/fd/N": a path that names exactly this directory for open(2) and friends.
  std::string FdPath() const;

 private:
  int fd_ = -1;
  std::string path_;
};

class Sandbox {
 public:
  enum class Resolver { kAuto, kWalk };  // kWalk: the pre-openat2 fallback (tests use it)

  // `allowed_roots`: absolute paths of existing directories. An empty list is an error: an agent
  // with nowhere to write is misconfigured (use Unrestricted() deliberately).
  static absl::StatusOr<Sandbox> Create(const std::vector<std::string>& allowed_roots,
                                        Resolver resolver = Resolver::kAuto);
  // Every absolute path allowed, with no confinement (the one-shot `azbench-agent run` mode, where
  // the user runs the agent on their own paths).
  static Sandbox Unrestricted();

  bool unrestricted() const { return unrestricted_; }
  const std::vector<std::string>& roots() const { return roots_; }

  // Opens `directory` (absolute) beneath its allowed root; with `create_missing`, creates missing
  // components (mode 0755) one at a time beneath the root.
  absl::StatusOr<ConfinedDir> OpenDirectory(const std::string& directory,
                                            bool create_missing) const;

 private:
  struct Root {
    std::string configured;  // normalised as written
    std::string canonical;   // realpath at Create()
  };
  std::vector<Root> root_entries_;
  std::vector<std::string> roots_;
  bool unrestricted_ = false;
  Resolver resolver_ = Resolver::kAuto;
};

// A job's file name must be one plain component: not empty, not "." or "..", no '/', no NUL, at
// most NAME_MAX bytes. `field` names the option in the error.
absl::Status CheckFileName(const std::string& name, const std::string& field);

// A path a job names relative to its directory (a probe's rel_dir): not absolute, no ".."
// component, no NUL, so it cannot leave the directory lexically. Empty is allowed (the directory
// itself). PermissionDenied naming `field`.
absl::Status CheckRelativePath(const std::string& path, const std::string& field);

// Lexical normalisation of an absolute path: collapses "//" and ".", resolves ".." against the
// preceding component (never above "/"). Relative paths: InvalidArgument.
absl::StatusOr<std::string> NormalizeAbsolutePath(const std::string& path);

// Free space guard: fails with ResourceExhausted when writing `bytes_to_write` more into the file
// system of `dir` would leave less than `min_free_bytes` available to unprivileged users (statvfs
// f_bavail), naming the directory and the numbers.
absl::Status CheckFreeSpace(const ConfinedDir& dir, uint64_t bytes_to_write,
                            uint64_t min_free_bytes);

}  // namespace azbench

#endif  // AZBENCH_AGENT_CONFINEMENT_SANDBOX_H_

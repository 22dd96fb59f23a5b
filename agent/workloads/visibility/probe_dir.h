// A directory a visibility probe works in, held open as a descriptor: every file the probe
// creates, writes, reads, stats, lists or removes is named relative to that descriptor, and no
// symlink beneath it is ever followed. The probe's base directories (the job's `directory`, a
// client_to_client reader's `read_dir`) are opened once, by the agent through its sandbox
// (agent/confinement/sandbox.h: beneath an allowed root) when it enforces one; the pieces a job
// names below them (`rel_dir` with the agent's subdirectory, the probe files named after `run_id`,
// a conflict copy in lost+found) are resolved one component at a time with O_NOFOLLOW, so a symlink
// planted at any of them is refused (PermissionDenied naming the field and the path) instead of
// leading the probe outside the root. A probe file is created with O_EXCL, opened without blocking,
// and used only when it is a regular file with one link (CheckProbeFile: no FIFO, device, or hard
// link to a file elsewhere).
//
//   ASSIGN_OR_RETURN(ProbeDir mount, ProbeDir::Open("/mnt/s3files", "directory"));
//   ASSIGN_OR_RETURN(ProbeDir dir, mount.Subdir("azbench-visibility/agent-1", "rel_dir", true));
//   ASSIGN_OR_RETURN(int fd, dir.OpenFile("run-1-export-0", O_WRONLY | O_CREAT, 0644, "run_id"));
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_DIR_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_DIR_H_

#include <sys/stat.h>
#include <sys/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace azbench {

class ProbeDir {
 public:
  ProbeDir() = default;  // not open: valid() is false

  // Opens `path` (absolute) as a base directory. The path itself is resolved as given (the agent
  // confined it beneath its allowed roots before); with `create`, missing components are made
  // first (0755). `field` names the option in errors.
  static absl::StatusOr<ProbeDir> Open(const std::string& path, const std::string& field,
                                       bool create = false);
  // Takes ownership of an open directory descriptor (e.g. one the sandbox opened); `path` is how
  // messages name it.
  static ProbeDir Adopt(int fd, std::string path);

  bool valid() const { return handle_ != nullptr; }
  int fd() const;
  const std::string& path() const;
  // path()/relative, for messages.
  std::string PathOf(const std::string& relative) const;

  // The directory `relative` ("a/b"; "" is this one) beneath this one, walked one component at a
  // time without following a symlink. PermissionDenied naming `field`, `relative` and the
  // component when one is a symlink or '..' (or otherwise not a directory: FailedPrecondition);
  // NotFound when a component is missing and !create; with `create`, missing components are made
  // (0755) beneath the opened parent.
  absl::StatusOr<ProbeDir> Subdir(const std::string& relative, const std::string& field,
                                  bool create) const;
  // As Subdir without create, but a missing component is nullopt rather than NotFound.
  absl::StatusOr<std::optional<ProbeDir>> SubdirIfExists(const std::string& relative,
                                                         const std::string& field) const;

  // Opens the file `name` (one plain component) in this directory with O_NOFOLLOW | O_CLOEXEC |
  // O_NONBLOCK added to `flags` (O_NONBLOCK is cleared again once open, unless `flags` holds it),
  // and only when it is a regular file with one link (CheckProbeFile): PermissionDenied naming
  // `field` and the path when it is a symlink, a FIFO, socket or device, or has another link;
  // AlreadyExists for O_CREAT | O_EXCL on an existing name; other errors name the call and the
  // path (ErrnoError). O_TRUNC in `flags` empties the file only after that check. The caller
  // closes the descriptor.
  absl::StatusOr<int> OpenFile(const std::string& name, int flags, mode_t mode,
                               const std::string& field) const;
  // Creates `name` for writing (O_WRONLY | O_CREAT | O_EXCL, plus `extra_flags` such as O_APPEND);
  // when the name exists already (a leftover of the same run id) it is opened as OpenFile does
  // -- refused unless a regular file with one link -- and only then emptied.
  absl::StatusOr<int> CreateFile(const std::string& name, int extra_flags, mode_t mode,
                                 const std::string& field) const;
  // The file's content; nullopt when it does not exist. Refused as in OpenFile.
  absl::StatusOr<std::optional<std::string>> ReadIfExists(const std::string& name,
                                                          const std::string& field) const;
  // lstat of `name`; nullopt when it does not exist. A symlink is refused as in OpenFile.
  absl::StatusOr<std::optional<struct stat>> Stat(const std::string& name,
                                                  const std::string& field) const;
  // The names readdir lists in this directory (without "." and ".."), and whether it lists `name`.
  absl::StatusOr<std::vector<std::string>> Names() const;
  absl::StatusOr<bool> Lists(const std::string& name) const;
  // What `name` is, by lstat (never following a symlink); kMissing when lstat fails.
  enum class EntryType { kMissing, kDirectory, kRegular, kSymlink, kOther };
  EntryType TypeOf(const std::string& name) const;
  // renameat within this directory (the entries themselves, never what a symlink points at).
  absl::Status Rename(const std::string& from, const std::string& to) const;
  // unlinkat(name): removes the entry itself (a symlink, not its target). A missing entry is OK.
  absl::Status Unlink(const std::string& name) const;
  // unlinkat(name, AT_REMOVEDIR): false when it could not be removed (not empty, missing, ...).
  bool RemoveDirIfEmpty(const std::string& name) const;

 private:
  struct Handle;
  explicit ProbeDir(std::shared_ptr<const Handle> handle) : handle_(std::move(handle)) {}
  std::shared_ptr<const Handle> handle_;  // shared: copies of a ProbeDir name one descriptor
};

// A directory that may not exist yet (a client_to_client reader's, which the writer on another
// client creates; over NFS the reader may see it late): its deepest existing ancestor, held open,
// and the components still missing below it, walked again (one at a time, never following a
// symlink: one appearing there is refused) on every Find() until they all exist.
struct PendingProbeDir {
  ProbeDir ancestor;  // not valid: nothing pending
  std::string rest;   // "a/b", relative to `ancestor`
  std::string field;  // names the option in errors
  bool valid() const { return ancestor.valid(); }
  // The directory once every component exists; nullopt while one is missing.
  absl::StatusOr<std::optional<ProbeDir>> Find() const {
    return ancestor.SubdirIfExists(rest, field);
  }
};

// Opens `path` with `open` when it exists (rest ""); when it does not, opens its deepest existing
// ancestor with `open` instead (so a sandbox confines it the same way) and leaves the missing
// components in `rest`. Errors are `open`'s for `path` itself.
absl::StatusOr<PendingProbeDir> OpenOrAncestor(
    const std::string& path, const std::string& field,
    const std::function<absl::StatusOr<ProbeDir>(const std::string&)>& open);

// A probe file must be a regular file with one link: a FIFO, socket or device could block an open
// or a read for ever, and a file with another link may be any file of the export (another client
// can link one in), outside the allowed roots. OK for such a file, else PermissionDenied naming
// `field`, `path` and why.
absl::Status CheckProbeFile(const struct stat& st, const std::string& field,
                            const std::string& path);

// The refusal of a symlink under a probe's directory (PermissionDenied): "<field> '<value>':
// '<path>' is a symlink; a visibility probe does not follow symlinks beneath its directory
// ('<base>'): one could lead it outside the allowed roots".
absl::Status ProbeSymlinkRefused(const std::string& field, const std::string& value,
                                 const std::string& path, const std::string& base);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_DIR_H_

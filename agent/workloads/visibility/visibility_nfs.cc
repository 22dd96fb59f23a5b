// The NFS ProbeStore of probe_store.h: the client_to_client probe's files beneath an NFS export,
// reached through libnfs on a connection of the store's own (no kernel mount, so no client cache:
// every check is a fresh LOOKUP/GETATTR/READ or READDIR at the server).
#include <fcntl.h>
#include <nfsc/libnfs.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "agent/engines/nfs_engine.h"
#include "agent/workloads/visibility/probe_content.h"
#include "agent/workloads/visibility/probe_store.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"

namespace azbench {
namespace {

// A probe file is a few KiB; a file far larger under a probe's name is not one of ours.
constexpr uint64_t kMaxProbeReadBytes = 64 << 20;
constexpr uint64_t kReadChunkBytes = 64 << 10;

class NfsProbeStore final : public ProbeStore {
 public:
  NfsProbeStore(NfsContextPtr nfs, std::string server, std::string dir, int version)
      : nfs_(std::move(nfs)),
        server_(std::move(server)),
        dir_(std::move(dir)),
        max_write_bytes_(version == 4 ? kNfsV4MaxWriteBytes
                                      : std::numeric_limits<uint64_t>::max()) {}
  ~NfsProbeStore() override { CloseHeld(); }

  // Creates the missing directories of dir_, one component at a time; a component that is not a
  // directory (lstat: a symlink counts as not one) is refused.
  absl::Status MakeDirs() {
    for (size_t slash = dir_.find('/', 1);; slash = dir_.find('/', slash + 1)) {
      const std::string dir = slash == std::string::npos ? dir_ : dir_.substr(0, slash);
      nfs_stat_64 st{};
      const int rc = nfs_lstat64(nfs_.get(), dir.c_str(), &st);
      if (rc == 0 && !S_ISDIR(st.nfs_mode)) {
        return absl::FailedPreconditionError(
            absl::StrCat("'", dir, "' (on the way to directory '", dir_,
                         "') is not a directory on the NFS export of ", server_));
      }
      if (rc != 0) {
        if (const int made = nfs_mkdir(nfs_.get(), dir.c_str()); made != 0 && made != -EEXIST) {
          return Error("mkdir", dir, made);
        }
      }
      if (slash == std::string::npos) return absl::OkStatus();
    }
  }

  absl::StatusOr<absl::Time> Write(const std::string& name, uint64_t sequence,
                                   const ProbeWriteOptions& options, ProbeClock& clock) override {
    const std::string target =
        options.rename_into_place ? absl::StrCat(".", name, ".azbench-tmp") : name;
    const std::string path = PathOf(target);
    const std::string content = MakeProbeContent(sequence, options.size_bytes);
    ASSIGN_OR_RETURN(nfsfh * fh, Create(path));
    absl::Status s = absl::OkStatus();
    for (uint64_t done = 0; s.ok() && done < content.size();) {
      const uint64_t len = std::min<uint64_t>(max_write_bytes_, content.size() - done);
      const int n = nfs_pwrite(nfs_.get(), fh, done, len, content.data() + done);
      if (n <= 0) {
        s = Error("write", path, n == 0 ? -EIO : n);
      } else {
        done += static_cast<uint64_t>(n);
      }
    }
    if (s.ok() && options.fsync) {
      if (const int rc = nfs_fsync(nfs_.get(), fh); rc != 0) s = Error("fsync", path, rc);
    }
    if (s.ok() && options.rename_into_place) {
      if (const int rc = nfs_rename(nfs_.get(), path.c_str(), PathOf(name).c_str()); rc != 0) {
        s = Error("rename", path, rc);
      }
    }
    if (!s.ok() || options.close) {
      if (const int rc = nfs_close(nfs_.get(), fh); rc != 0 && s.ok()) s = Error("close", path, rc);
    } else {
      held_.push_back(fh);
    }
    if (!s.ok() && options.rename_into_place) (void)nfs_unlink(nfs_.get(), path.c_str());
    RETURN_IF_ERROR(s);
    return clock.Now();
  }

  absl::StatusOr<bool> Visible(const std::string& name, uint64_t sequence, size_t size_bytes,
                               VisibilityReadMethod method) override {
    if (method == VisibilityReadMethod::kReaddir) return Lists(name);
    const std::string path = PathOf(name);
    ASSIGN_OR_RETURN(std::optional<nfs_stat_64> st, Lstat(path));
    if (!st.has_value()) return false;
    if (method == VisibilityReadMethod::kStat) {
      return st->nfs_size == std::max<uint64_t>(size_bytes, kMinProbeContentBytes);
    }
    ASSIGN_OR_RETURN(std::optional<std::string> content, Read(path, st->nfs_size));
    if (!content.has_value()) return false;
    absl::StatusOr<uint64_t> seq = ParseProbeContent(*content);
    return seq.ok() && *seq == sequence;
  }

  bool HoldsOpen() const override { return !held_.empty(); }
  void CloseHeld() override {
    for (nfsfh* fh : held_) nfs_close(nfs_.get(), fh);
    held_.clear();
  }

  absl::Status Unlink(const std::string& name) override {
    const std::string path = PathOf(name);
    const int rc = nfs_unlink(nfs_.get(), path.c_str());
    if (rc != 0 && rc != -ENOENT) return Error("unlink", path, rc);
    return absl::OkStatus();
  }

 private:
  std::string PathOf(const std::string& name) const {
    return dir_ == "/" ? absl::StrCat("/", name) : absl::StrCat(dir_, "/", name);
  }

  // -errno of a libnfs call as a Status naming the call, the path and the server.
  absl::Status Error(const std::string& call, const std::string& path, int rc) const {
    const std::string message = absl::StrCat(call, " '", path, "' over NFS (server ", server_,
                                             "): ", NfsErrorText(nfs_.get()));
    if (rc == -EACCES || rc == -EPERM) return absl::PermissionDeniedError(message);
    if (rc == -ENOENT) return absl::NotFoundError(message);
    return absl::InternalError(message);
  }

  // lstat of a probe file: nullopt when it (or its directory) does not exist; refused unless a
  // regular file with one link (CheckProbeFile), never followed when a symlink.
  absl::StatusOr<std::optional<nfs_stat_64>> Lstat(const std::string& path) const {
    nfs_stat_64 st{};
    const int rc = nfs_lstat64(nfs_.get(), path.c_str(), &st);
    if (rc == -ENOENT || rc == -ENOTDIR) return std::nullopt;
    if (rc != 0) return Error("lstat", path, rc);
    const std::string shown = absl::StrCat("nfs://", server_, path);
    if (S_ISLNK(st.nfs_mode)) {
      return ProbeSymlinkRefused(kProbeFileField, path.substr(path.rfind('/') + 1), shown,
                                 absl::StrCat("nfs://", server_, dir_));
    }
    struct stat as_posix {};
    as_posix.st_mode = static_cast<mode_t>(st.nfs_mode);
    as_posix.st_nlink = static_cast<nlink_t>(st.nfs_nlink);
    RETURN_IF_ERROR(CheckProbeFile(as_posix, kProbeFileField, shown));
    return st;
  }

  // Creates `path` (O_EXCL); a leftover of the same run id is reused only when it is a regular
  // file with one link, and emptied.
  absl::StatusOr<nfsfh*> Create(const std::string& path) {
    nfsfh* fh = nullptr;
    int rc = nfs_create(nfs_.get(), path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644, &fh);
    if (rc == -EEXIST) {
      ASSIGN_OR_RETURN(std::optional<nfs_stat_64> st, Lstat(path));
      if (!st.has_value()) return Error("create", path, rc);
      rc = nfs_open(nfs_.get(), path.c_str(), O_WRONLY, &fh);
      if (rc == 0 && (rc = nfs_ftruncate(nfs_.get(), fh, 0)) != 0) {
        nfs_close(nfs_.get(), fh);
        return Error("truncate", path, rc);
      }
    }
    if (rc != 0) return Error("create", path, rc);
    return fh;
  }

  // The file's first `size_bytes` (its size at the lstat: no READ that only finds the end, one
  // round trip less per poll); nullopt when it vanished between the lstat and the open.
  absl::StatusOr<std::optional<std::string>> Read(const std::string& path,
                                                  uint64_t size_bytes) const {
    nfsfh* fh = nullptr;
    const int rc = nfs_open(nfs_.get(), path.c_str(), O_RDONLY, &fh);
    if (rc == -ENOENT) return std::nullopt;
    if (rc != 0) return Error("open", path, rc);
    std::string content;
    std::vector<char> chunk(kReadChunkBytes);
    absl::Status s = absl::OkStatus();
    const uint64_t want = std::min(size_bytes, kMaxProbeReadBytes);
    while (content.size() < want) {
      const int n =
          nfs_pread(nfs_.get(), fh, content.size(),
                    std::min<uint64_t>(chunk.size(), want - content.size()), chunk.data());
      if (n < 0) s = Error("read", path, n);
      if (n <= 0) break;
      content.append(chunk.data(), static_cast<size_t>(n));
    }
    nfs_close(nfs_.get(), fh);
    RETURN_IF_ERROR(s);
    return content;
  }

  absl::StatusOr<bool> Lists(const std::string& name) const {
    nfsdir* dir = nullptr;
    const int rc = nfs_opendir(nfs_.get(), dir_.c_str(), &dir);
    if (rc == -ENOENT || rc == -ENOTDIR) return false;  // not there yet
    if (rc != 0) return Error("readdir", dir_, rc);
    bool found = false;
    for (nfsdirent* e = nfs_readdir(nfs_.get(), dir); e != nullptr && !found;
         e = nfs_readdir(nfs_.get(), dir)) {
      found = e->name != nullptr && name == e->name;
    }
    nfs_closedir(nfs_.get(), dir);
    return found;
  }

  NfsContextPtr nfs_;
  std::string server_;
  std::string dir_;  // absolute beneath the export, no trailing '/' except "/" itself
  // One WRITE's most: libnfs 4.0 cannot encode a larger NFSv4 WRITE (common/nfs_url.h).
  uint64_t max_write_bytes_;
  std::vector<nfsfh*> held_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<ProbeStore>> MakeNfsProbeStore(std::string_view nfs_url,
                                                              const std::string& directory,
                                                              bool create) {
  ASSIGN_OR_RETURN(const NfsUrl url, ParseNfsUrl(nfs_url));
  std::string dir = NfsPathOf(directory);
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  ASSIGN_OR_RETURN(NfsContextPtr nfs, MountNfsExport(nfs_url));
  auto store =
      std::make_unique<NfsProbeStore>(std::move(nfs), url.server, std::move(dir), url.version);
  if (create) RETURN_IF_ERROR(store->MakeDirs());
  return std::unique_ptr<ProbeStore>(std::move(store));
}

}  // namespace azbench

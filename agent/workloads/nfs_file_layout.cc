#include "agent/workloads/nfs_file_layout.h"

#include <fcntl.h>
#include <nfsc/libnfs.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "agent/engines/nfs_engine.h"
#include "agent/workloads/file_layout.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"

namespace azbench {

namespace {

absl::Status NfsStatus(nfs_context* nfs, int rc, const std::string& what) {
  return absl::Status(LayoutErrorCode(-rc), absl::StrCat(what, " over NFS: ", NfsErrorText(nfs)));
}

// Creates the directories on the way to `path` that are missing.
absl::Status MakeParents(nfs_context* nfs, const std::string& path) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    const std::string dir = path.substr(0, slash);
    nfs_stat_64 st{};
    if (nfs_stat64(nfs, dir.c_str(), &st) == 0) {
      if (!S_ISDIR(st.nfs_mode)) {
        return absl::FailedPreconditionError(absl::StrCat(
            "'", dir, "' (on the way to '", path, "') is not a directory on the NFS export"));
      }
      continue;
    }
    if (const int rc = nfs_mkdir(nfs, dir.c_str()); rc != 0 && rc != -EEXIST) {
      return NfsStatus(nfs, rc, absl::StrCat("cannot create directory '", dir, "'"));
    }
  }
  return absl::OkStatus();
}

absl::Status LayOutOne(nfs_context* nfs, uint64_t chunk_bytes, const LayoutRequest& request,
                       BufferPool& filler, LaidOutFile& out) {
  const std::string path = NfsPathOf(request.path);
  RETURN_IF_ERROR(MakeParents(nfs, path));
  nfs_stat_64 st{};
  const bool exists = nfs_stat64(nfs, path.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.nfs_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", path, "' is not a regular file on the NFS export"));
  }
  const uint64_t current = exists ? st.nfs_size : 0;
  if (exists && current >= request.required_bytes) return absl::OkStatus();
  // NFS has no preallocation that libnfs offers: native falls back to a sparse extension, as fio's
  // native does where fallocate is missing; keep and posix cannot be done.
  if (request.fallocate == FallocateMode::kKeep || request.fallocate == FallocateMode::kPosix) {
    return absl::InvalidArgumentError(absl::StrCat(
        "fallocate=", std::string(FallocateModeName(request.fallocate)), " cannot preallocate '",
        path,
        "' over NFS (libnfs has no fallocate); allowed with ioengine=nfs: none, native, truncate"));
  }
  nfsfh* fh = nullptr;
  const int rc = exists ? nfs_open(nfs, path.c_str(), O_RDWR, &fh)
                        : nfs_create(nfs, path.c_str(), O_RDWR | O_CREAT, 0644, &fh);
  if (rc != 0) return NfsStatus(nfs, rc, absl::StrCat("cannot create '", path, "'"));
  out.created = !exists;
  out.extended = exists;
  struct Close {
    nfs_context* nfs;
    nfsfh* fh;
    ~Close() { nfs_close(nfs, fh); }
  } close_fh{nfs, fh};
  if (!request.needs_data) {
    if (request.fallocate == FallocateMode::kNone) return absl::OkStatus();
    // By path: libnfs 4.0's NFSv4 create opens the file read-only, and the server refuses to
    // resize through that open (NFS4ERR_OPENMODE).
    if (const int t = nfs_truncate(nfs, path.c_str(), request.required_bytes); t != 0) {
      return NfsStatus(
          nfs, t, absl::StrCat("cannot extend '", path, "' to ", request.required_bytes, " bytes"));
    }
    return absl::OkStatus();
  }
  std::unique_ptr<unsigned char[]> chunk(new unsigned char[chunk_bytes]);
  uint64_t offset = current;
  while (offset < request.required_bytes) {
    const uint64_t len = std::min(chunk_bytes, request.required_bytes - offset);
    filler.Fill(chunk.get(), len);
    const int n = nfs_pwrite(nfs, fh, offset, len, chunk.get());
    if (n <= 0) {
      return NfsStatus(nfs, n == 0 ? -EIO : n,
                       absl::StrCat("laying out '", path, "' failed at byte ", offset, " of ",
                                    request.required_bytes));
    }
    offset += static_cast<uint64_t>(n);
  }
  if (const int f = nfs_fsync(nfs, fh); f != 0) {
    return NfsStatus(nfs, f, absl::StrCat("fsync after laying out '", path, "'"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<LaidOutFile>> LayOutNfsFiles(std::string_view nfs_url,
                                                        const std::vector<LayoutRequest>& requests,
                                                        BufferPool& filler,
                                                        const std::atomic<bool>* cancel) {
  ASSIGN_OR_RETURN(const NfsUrl url, ParseNfsUrl(nfs_url));
  ASSIGN_OR_RETURN(NfsContextPtr nfs, MountNfsExport(nfs_url));
  // NFSv4 through libnfs 4.0 takes small WRITEs only (common/nfs_url.h).
  const uint64_t chunk_bytes = url.version == 4 ? kNfsV4MaxWriteBytes : 128 << 10;
  std::vector<LaidOutFile> files;
  files.reserve(requests.size());
  auto remove_created = [&] {
    for (const LaidOutFile& file : files) {
      if (file.created) (void)nfs_unlink(nfs.get(), NfsPathOf(file.path).c_str());
    }
  };
  for (const LayoutRequest& request : requests) {
    if (cancel != nullptr && cancel->load()) {
      const size_t done = files.size();
      remove_created();
      return absl::CancelledError(absl::StrCat("cancelled during the layout, after ", done, " of ",
                                               requests.size(), " files (removed)"));
    }
    LaidOutFile file{request.path};
    absl::Status status = LayOutOne(nfs.get(), chunk_bytes, request, filler, file);
    files.push_back(file);
    if (!status.ok()) {
      remove_created();
      return status;
    }
  }
  return files;
}

absl::Status RemoveCreatedNfsFiles(std::string_view nfs_url,
                                   const std::vector<LaidOutFile>& files) {
  if (std::none_of(files.begin(), files.end(), [](const LaidOutFile& f) { return f.created; })) {
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(NfsContextPtr nfs, MountNfsExport(nfs_url));
  absl::Status first;
  for (const LaidOutFile& file : files) {
    if (!file.created) continue;
    const std::string path = NfsPathOf(file.path);
    if (const int rc = nfs_unlink(nfs.get(), path.c_str());
        rc != 0 && rc != -ENOENT && first.ok()) {
      first = NfsStatus(nfs.get(), rc, absl::StrCat("cannot remove '", path, "'"));
    }
  }
  return first;
}

}  // namespace azbench

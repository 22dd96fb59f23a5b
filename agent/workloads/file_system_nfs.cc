// The NFS FileSystem of file_system.h: each call is libnfs's synchronous call of the same name on
// the backend's own connection, so an op's time is its round trips to the server and nothing
// else (no client cache answers it). A handle is an index into the open libnfs file handles.
#include <fcntl.h>
#include <nfsc/libnfs.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/engines/nfs_engine.h"
#include "agent/workloads/file_system.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"

namespace azbench {
namespace {

class NfsFileSystem final : public FileSystem {
 public:
  NfsFileSystem(NfsContextPtr nfs, std::string server, int version)
      : nfs_(std::move(nfs)),
        server_(std::move(server)),
        max_read_bytes_(version == 4 ? kNfsV4MaxReadBytes : 0),
        max_write_bytes_(version == 4 ? kNfsV4MaxWriteBytes : 0) {}
  ~NfsFileSystem() override {
    for (nfsfh* fh : files_) {
      if (fh != nullptr) nfs_close(nfs_.get(), fh);
    }
  }

  int64_t Open(const std::string& path, int flags) override {
    if ((flags & O_DIRECT) != 0) return -EINVAL;
    nfsfh* fh = nullptr;
    const std::string at = NfsExportPath(path);
    const int rc = (flags & O_CREAT) != 0 ? nfs_create(nfs_.get(), at.c_str(), flags, 0644, &fh)
                                          : nfs_open(nfs_.get(), at.c_str(), flags, &fh);
    if (rc != 0) return rc;
    if (!free_.empty()) {
      const int64_t handle = free_.back();
      free_.pop_back();
      files_[static_cast<size_t>(handle)] = fh;
      return handle;
    }
    files_.push_back(fh);
    return static_cast<int64_t>(files_.size() - 1);
  }
  int64_t Pread(int64_t handle, void* buffer, size_t length, uint64_t offset) override {
    nfsfh* fh = File(handle);
    if (fh == nullptr) return -EBADF;
    return InPieces(length, max_read_bytes_, [&](size_t done, size_t piece) {
      return nfs_pread(nfs_.get(), fh, offset + done, piece, static_cast<char*>(buffer) + done);
    });
  }
  int64_t Pwrite(int64_t handle, const void* buffer, size_t length, uint64_t offset) override {
    nfsfh* fh = File(handle);
    if (fh == nullptr) return -EBADF;
    return InPieces(length, max_write_bytes_, [&](size_t done, size_t piece) {
      return nfs_pwrite(nfs_.get(), fh, offset + done, piece,
                        static_cast<const char*>(buffer) + done);
    });
  }
  int64_t Fsync(int64_t handle) override {
    nfsfh* fh = File(handle);
    return fh == nullptr ? -EBADF : nfs_fsync(nfs_.get(), fh);
  }
  int64_t Close(int64_t handle) override {
    nfsfh* fh = File(handle);
    if (fh == nullptr) return -EBADF;
    files_[static_cast<size_t>(handle)] = nullptr;
    free_.push_back(handle);
    return nfs_close(nfs_.get(), fh);
  }
  int64_t Stat(const std::string& path, FileStat* out) override {
    nfs_stat_64 st{};
    const int rc = nfs_stat64(nfs_.get(), NfsExportPath(path).c_str(), &st);
    if (rc == 0 && out != nullptr) {
      *out = {.is_directory = S_ISDIR(st.nfs_mode),
              .is_regular = S_ISREG(st.nfs_mode),
              .size_bytes = st.nfs_size};
    }
    return rc;
  }
  int64_t Rename(const std::string& from, const std::string& to) override {
    return nfs_rename(nfs_.get(), NfsExportPath(from).c_str(), NfsExportPath(to).c_str());
  }
  int64_t Unlink(const std::string& path) override {
    return nfs_unlink(nfs_.get(), NfsExportPath(path).c_str());
  }
  int64_t Mkdir(const std::string& path) override {
    return nfs_mkdir(nfs_.get(), NfsExportPath(path).c_str());
  }
  int64_t Rmdir(const std::string& path) override {
    return nfs_rmdir(nfs_.get(), NfsExportPath(path).c_str());
  }
  void DropCache(const std::string&) override {}
  std::string Display(const std::string& path) const override {
    return absl::StrCat("nfs://", server_, NfsExportPath(path));
  }

 private:
  // One call of `length` bytes as calls of at most `max_piece` bytes (0: no limit) one after
  // another, where libnfs 4.0 cannot carry it in one NFSv4 RPC (common/nfs_url.h): the bytes up to
  // the first short piece, or the first error.
  template <typename Call>
  static int64_t InPieces(size_t length, uint64_t max_piece, Call call) {
    if (max_piece == 0 || length <= max_piece) return call(0, length);
    size_t done = 0;
    while (done < length) {
      const size_t piece = std::min<size_t>(length - done, max_piece);
      const int64_t rc = call(done, piece);
      if (rc < 0) return done == 0 ? rc : static_cast<int64_t>(done);
      done += static_cast<size_t>(rc);
      if (static_cast<size_t>(rc) < piece) break;
    }
    return static_cast<int64_t>(done);
  }

  nfsfh* File(int64_t handle) const {
    if (handle < 0 || static_cast<size_t>(handle) >= files_.size()) return nullptr;
    return files_[static_cast<size_t>(handle)];
  }

  NfsContextPtr nfs_;
  std::string server_;
  uint64_t max_read_bytes_;    // 0: no limit
  uint64_t max_write_bytes_;   // 0: no limit
  std::vector<nfsfh*> files_;  // nullptr: a free slot (listed in free_)
  std::vector<int64_t> free_;
};

}  // namespace

std::string NfsExportPath(std::string_view path) {
  const std::string absolute = NfsPathOf(path);
  std::string out;
  out.reserve(absolute.size());
  for (char c : absolute) {
    if (c == '/' && !out.empty() && out.back() == '/') continue;
    out.push_back(c);
  }
  return out;
}

absl::StatusOr<std::unique_ptr<FileSystem>> MakeNfsFileSystem(std::string_view nfs_url) {
  ASSIGN_OR_RETURN(const NfsUrl url, ParseNfsUrl(nfs_url));
  ASSIGN_OR_RETURN(NfsContextPtr nfs, MountNfsExport(nfs_url));
  return std::unique_ptr<FileSystem>(
      std::make_unique<NfsFileSystem>(std::move(nfs), url.server, url.version));
}

}  // namespace azbench

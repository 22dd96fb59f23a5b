// The POSIX FileSystem of file_system.h: the system calls themselves, a handle being the file
// descriptor.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>

#include "agent/workloads/file_system.h"

namespace azbench {
namespace {

int64_t Result(int64_t r) { return r < 0 ? -static_cast<int64_t>(errno) : r; }

class PosixFileSystem final : public FileSystem {
 public:
  int64_t Open(const std::string& path, int flags) override {
    return Result(open(path.c_str(), flags | O_CLOEXEC, 0644));
  }
  int64_t Pread(int64_t handle, void* buffer, size_t length, uint64_t offset) override {
    return Result(pread(static_cast<int>(handle), buffer, length, static_cast<off_t>(offset)));
  }
  int64_t Pwrite(int64_t handle, const void* buffer, size_t length, uint64_t offset) override {
    return Result(pwrite(static_cast<int>(handle), buffer, length, static_cast<off_t>(offset)));
  }
  int64_t Fsync(int64_t handle) override { return Result(fsync(static_cast<int>(handle))); }
  int64_t Close(int64_t handle) override { return Result(close(static_cast<int>(handle))); }
  int64_t Stat(const std::string& path, FileStat* out) override {
    struct stat st {};
    const int64_t r = Result(stat(path.c_str(), &st));
    if (r == 0 && out != nullptr) {
      *out = {.is_directory = S_ISDIR(st.st_mode),
              .is_regular = S_ISREG(st.st_mode),
              .size_bytes = static_cast<uint64_t>(st.st_size)};
    }
    return r;
  }
  int64_t Rename(const std::string& from, const std::string& to) override {
    return Result(rename(from.c_str(), to.c_str()));
  }
  int64_t Unlink(const std::string& path) override { return Result(unlink(path.c_str())); }
  int64_t Mkdir(const std::string& path) override { return Result(mkdir(path.c_str(), 0755)); }
  int64_t Rmdir(const std::string& path) override { return Result(rmdir(path.c_str())); }

  void DropCache(const std::string& path) override {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    (void)fdatasync(fd);  // dirty pages cannot be dropped
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
  }
  std::string Display(const std::string& path) const override { return path; }
};

}  // namespace

std::unique_ptr<FileSystem> MakePosixFileSystem() { return std::make_unique<PosixFileSystem>(); }

}  // namespace azbench

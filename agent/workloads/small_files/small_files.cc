#include "agent/workloads/small_files/small_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "absl/strings/str_cat.h"
#include "agent/workloads/event_relay.h"
#include "agent/workloads/op_recorder.h"
#include "common/clock.h"
#include "common/errno_text.h"
#include "common/status_macros.h"

namespace azbench {
namespace {

struct AlignedBuffer {
  explicit AlignedBuffer(size_t bytes) {
    if (posix_memalign(&data, 4096, std::max<size_t>(bytes, 4096)) != 0) data = nullptr;
    if (data != nullptr) {
      auto* p = static_cast<unsigned char*>(data);
      uint64_t x = 0x9E3779B97F4A7C15ULL;
      for (size_t i = 0; i < bytes; ++i) {  // incompressible enough: xorshift bytes
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = static_cast<unsigned char>(x);
      }
    }
  }
  ~AlignedBuffer() { free(data); }
  void* data = nullptr;
};

inline int64_t Neg(int err) { return -static_cast<int64_t>(err); }

}  // namespace

SmallFilesJob::~SmallFilesJob() = default;

absl::StatusOr<std::unique_ptr<SmallFilesJob>> SmallFilesJob::Prepare(const SmallFilesSpec& spec,
                                                                      int group_id) {
  RETURN_IF_ERROR(ValidateSmallFilesSpec(spec));
  std::unique_ptr<SmallFilesJob> job(new SmallFilesJob());
  job->spec_ = spec;
  job->group_id_ = group_id;
  job->written_.assign(spec.numjobs, 0);
  // One backend per clone: a libnfs connection serves one thread.
  for (int c = 0; c < spec.numjobs; ++c) {
    ASSIGN_OR_RETURN(job->fs_.emplace_back(), OpenFileSystem(spec.nfs_url));
  }
  if (!spec.nfs_url.empty()) {
    // Beneath an export the job makes its directory (the agent subdirectory) itself.
    job->spec_.directory = NfsExportPath(spec.directory);
    absl::Status made = MakeDirectories(*job->fs_[0], job->spec_.directory, job->created_dirs_);
    if (!made.ok()) {
      (void)job->RemoveCreatedFiles();
      return made;
    }
    return job;
  }
  struct stat st;
  if (stat(spec.directory.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("directory '", spec.directory, "' does not exist or is not a directory"));
  }
  if (spec.direct) {
    const std::string probe = absl::StrCat(spec.directory, "/", spec.name, ".direct-probe");
    const int fd = open(probe.c_str(), O_CREAT | O_WRONLY | O_DIRECT | O_CLOEXEC, 0644);
    const int err = errno;
    if (fd >= 0) close(fd);
    unlink(probe.c_str());
    if (fd < 0) {
      return absl::InvalidArgumentError(absl::StrCat("direct=1: the file system of '",
                                                     spec.directory,
                                                     "' refuses O_DIRECT: ", ErrnoText(err)));
    }
  }
  return job;
}

std::string SmallFilesJob::FilePath(uint64_t size_bytes, int clone, uint64_t n) const {
  const std::string& dir = spec_.directory;
  return absl::StrCat(dir, dir.back() == '/' ? "" : "/", spec_.name, ".", SizeLabel(size_bytes),
                      ".", clone, ".", n);
}

JobResult SmallFilesJob::RunPass(uint64_t size, bool write, int clone, const RunControl& control,
                                 uint64_t start_ns) {
  OpRecorder rec(absl::StrCat(spec_.name, ".", SizeLabel(size), write ? ".write" : ".read"), clone,
                 control, start_ns, &ops_done_, &bytes_done_, spec_.op_log, spec_.op_log_rate);
  const uint64_t block =
      spec_.block_size_bytes == 0 ? size : std::min(spec_.block_size_bytes, size);
  if (write) {
    rec.Activate(OpKind::kCreate);
    rec.Activate(OpKind::kWrite);
    if (spec_.fsync) rec.Activate(OpKind::kFsync);
  } else {
    rec.Activate(OpKind::kOpen);
    rec.Activate(OpKind::kRead);
  }
  AlignedBuffer buffer(block);
  FileSystem& fs = *fs_[static_cast<size_t>(clone)];
  const int direct = spec_.direct ? O_DIRECT : 0;
  const uint64_t count = write ? spec_.files : written_[clone];
  uint64_t n = 0;
  for (; n < count; ++n) {
    if (control.cancel != nullptr && control.cancel->load()) break;
    const std::string path = FilePath(size, clone, n);
    uint64_t t0 = MonotonicNanos();
    const int64_t fd =
        fs.Open(path, write ? O_CREAT | O_TRUNC | O_WRONLY | direct : O_RDONLY | direct);
    rec.Record(write ? OpKind::kCreate : OpKind::kOpen, t0, MonotonicNanos(), fd < 0 ? fd : 0, 0,
               path);
    if (fd < 0) continue;
    if (write) written_[clone] = n + 1;
    for (uint64_t offset = 0; offset < size; offset += block) {
      const size_t len = static_cast<size_t>(std::min(block, size - offset));
      t0 = MonotonicNanos();
      const int64_t r =
          write ? fs.Pwrite(fd, buffer.data, len, offset) : fs.Pread(fd, buffer.data, len, offset);
      const int64_t result = r < 0 ? r : (static_cast<size_t>(r) == len ? r : Neg(EIO));
      rec.Record(write ? OpKind::kWrite : OpKind::kRead, t0, MonotonicNanos(), result, offset,
                 path);
      if (result < 0) break;
    }
    if (write && spec_.fsync) {
      t0 = MonotonicNanos();
      const int64_t r = fs.Fsync(fd);
      rec.Record(OpKind::kFsync, t0, MonotonicNanos(), r < 0 ? r : 0, 0, path);
    }
    fs.Close(fd);
  }
  return rec.Finish();
}

void SmallFilesJob::RemoveSize(uint64_t size) {
  for (size_t c = 0; c < written_.size(); ++c) {
    for (uint64_t n = 0; n < written_[c]; ++n) {
      (void)fs_[0]->Unlink(FilePath(size, static_cast<int>(c), n));
    }
    written_[c] = 0;
  }
}

absl::StatusOr<std::vector<JobResult>> SmallFilesJob::Run(const RunControl& control) {
  if (control.interval_ns == 0) return absl::InvalidArgumentError("interval must be positive");
  uint64_t start_ns =
      control.start_monotonic_ns != 0 ? control.start_monotonic_ns : MonotonicNanos();
  (void)SleepUntilMonotonicOrCancelled(start_ns, control.cancel);  // cancelled: no file is made
  // Intervals and op logs leave the clone threads through the relay (event_relay.h).
  EventRelay relay;
  const RunControl clone_control = RelayedControl(control, relay);
  std::vector<JobResult> out;
  for (uint64_t size : spec_.file_sizes_bytes) {
    for (const bool write : {true, false}) {
      if (!write && spec_.invalidate && !spec_.direct) {
        for (size_t c = 0; c < written_.size(); ++c) {
          for (uint64_t n = 0; n < written_[c]; ++n) {
            fs_[0]->DropCache(FilePath(size, static_cast<int>(c), n));
          }
        }
        start_ns = MonotonicNanos();
      }
      std::vector<JobResult> results(written_.size());
      std::vector<std::thread> threads;
      for (size_t c = 0; c < written_.size(); ++c) {
        threads.emplace_back([&, c] {
          results[c] = RunPass(size, write, static_cast<int>(c), clone_control, start_ns);
        });
      }
      for (auto& t : threads) t.join();
      JobResult merged = std::move(results[0]);
      for (size_t c = 1; c < results.size(); ++c) merged.Merge(results[c]);
      merged.group_id = group_id_;
      out.push_back(std::move(merged));
      start_ns = MonotonicNanos();
    }
    RemoveSize(size);
    if (control.cancel != nullptr && control.cancel->load()) break;
  }
  relay.Drain();
  return out;
}

absl::Status SmallFilesJob::RemoveCreatedFiles() {
  if (fs_.empty()) return absl::OkStatus();  // Prepare failed before a file could be made
  for (uint64_t size : spec_.file_sizes_bytes) {
    for (size_t c = 0; c < written_.size(); ++c) {
      // written_ only covers the size in progress; an interrupted run leaves at most that one.
      for (uint64_t n = 0; n < written_[c]; ++n) {
        (void)fs_[0]->Unlink(FilePath(size, static_cast<int>(c), n));
      }
    }
  }
  std::fill(written_.begin(), written_.end(), 0);
  // Only the directories this job made (beneath an NFS export), and only when empty.
  for (auto it = created_dirs_.rbegin(); it != created_dirs_.rend(); ++it) {
    (void)fs_[0]->Rmdir(*it);
  }
  created_dirs_.clear();
  return absl::OkStatus();
}

}  // namespace azbench

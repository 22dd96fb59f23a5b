#include "agent/workloads/large_stream/large_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "absl/strings/str_cat.h"
#include "agent/workloads/buffer_pool.h"
#include "agent/workloads/event_relay.h"
#include "agent/workloads/file_layout.h"
#include "agent/workloads/nfs_file_layout.h"
#include "agent/workloads/op_recorder.h"
#include "common/clock.h"
#include "common/status_macros.h"

namespace azbench {

LargeStreamJob::~LargeStreamJob() = default;

absl::StatusOr<std::unique_ptr<LargeStreamJob>> LargeStreamJob::Prepare(const LargeStreamSpec& spec,
                                                                        int group_id) {
  RETURN_IF_ERROR(ValidateLargeStreamSpec(spec));
  std::unique_ptr<LargeStreamJob> job(new LargeStreamJob());
  job->spec_ = spec;
  job->group_id_ = group_id;
  const bool nfs = !spec.nfs_url.empty();
  if (nfs) {
    job->spec_.directory = NfsExportPath(spec.directory);
    if (!spec.filename.empty() && spec.filename.front() == '/') {
      job->spec_.filename = NfsExportPath(spec.filename);
    }
  }
  ASSIGN_OR_RETURN(job->fs_, OpenFileSystem(spec.nfs_url));
  const std::string path = job->spec_.FilePath();
  ASSIGN_OR_RETURN(BufferPool filler, BufferPool::Create({.count = 1, .size_bytes = 1 << 20}));
  // Reads need a file of `size` with data; writes start from one extended sparsely (so the free
  // space check of the layout applies to both).
  const std::vector<LayoutRequest> layout = {{path, spec.size_bytes, !spec.write}};
  if (nfs) {
    // Beneath an export the job makes its directory (the agent subdirectory) itself.
    const std::string dir = path.substr(0, path.rfind('/'));
    absl::Status made = MakeDirectories(*job->fs_, dir, job->created_dirs_);
    absl::StatusOr<std::vector<LaidOutFile>> files =
        made.ok() ? LayOutNfsFiles(spec.nfs_url, layout, filler)
                  : absl::StatusOr<std::vector<LaidOutFile>>(made);
    if (!files.ok()) {
      (void)job->RemoveCreatedFiles();
      return files.status();
    }
    job->files_ = *std::move(files);
    const int64_t handle = job->fs_->Open(path, spec.write ? O_WRONLY : O_RDONLY);
    if (handle < 0) {
      const absl::Status status = FileSystemError(*job->fs_, "open", path, handle);
      (void)job->RemoveCreatedFiles();
      return status;
    }
    job->fs_->Close(handle);
    return job;
  }
  ASSIGN_OR_RETURN(job->files_, LayOutFiles(layout, filler));
  absl::StatusOr<int> fd = OpenForRun(path, true, spec.write, spec.direct);
  if (!fd.ok()) {
    (void)job->RemoveCreatedFiles();
    return fd.status();
  }
  close(*fd);
  return job;
}

JobResult LargeStreamJob::RunPass(int pass, const RunControl& control, uint64_t start_ns) {
  const std::string path = spec_.FilePath();
  const OpKind kind = spec_.write ? OpKind::kWrite : OpKind::kRead;
  OpRecorder rec(absl::StrCat(spec_.name, ".pass", pass + 1), 0, control, start_ns, &ops_done_,
                 &bytes_done_, spec_.op_log, spec_.op_log_rate);
  rec.Activate(kind);
  if (spec_.write && spec_.end_fsync) rec.Activate(OpKind::kFsync);
  void* buffer = nullptr;
  if (posix_memalign(&buffer, 4096, spec_.block_size_bytes) != 0) return rec.Finish();
  std::memset(buffer, 0x5a, spec_.block_size_bytes);
  for (uint64_t i = 0; i < spec_.block_size_bytes / 8; ++i) {
    static_cast<uint64_t*>(buffer)[i] = (i + 1) * 0x9E3779B97F4A7C15ULL ^ pass;
  }
  const int flags = (spec_.write ? O_WRONLY : O_RDONLY) | (spec_.direct ? O_DIRECT : 0);
  const int64_t fd = fs_->Open(path, flags);
  if (fd < 0) {
    rec.Record(kind, start_ns, MonotonicNanos(), fd, 0, path);
  } else {
    for (uint64_t offset = 0; offset < spec_.size_bytes; offset += spec_.block_size_bytes) {
      if ((offset / spec_.block_size_bytes) % 64 == 0 && control.cancel != nullptr &&
          control.cancel->load()) {
        break;
      }
      const size_t len =
          static_cast<size_t>(std::min(spec_.block_size_bytes, spec_.size_bytes - offset));
      const uint64_t t0 = MonotonicNanos();
      const int64_t r =
          spec_.write ? fs_->Pwrite(fd, buffer, len, offset) : fs_->Pread(fd, buffer, len, offset);
      const int64_t result = r < 0 ? r : (static_cast<size_t>(r) == len ? r : -EIO);
      rec.Record(kind, t0, MonotonicNanos(), result, offset, path);
      if (result < 0) break;
    }
    if (spec_.write && spec_.end_fsync) {
      const uint64_t t0 = MonotonicNanos();
      const int64_t r = fs_->Fsync(fd);
      rec.Record(OpKind::kFsync, t0, MonotonicNanos(), r < 0 ? r : 0, 0, path);
    }
    fs_->Close(fd);
  }
  free(buffer);
  return rec.Finish();
}

absl::StatusOr<std::vector<JobResult>> LargeStreamJob::Run(const RunControl& control) {
  if (control.interval_ns == 0) return absl::InvalidArgumentError("interval must be positive");
  uint64_t start_ns =
      control.start_monotonic_ns != 0 ? control.start_monotonic_ns : MonotonicNanos();
  (void)SleepUntilMonotonicOrCancelled(start_ns, control.cancel);  // cancelled: no pass runs
  // Intervals and op logs leave the pass's thread through the relay (event_relay.h): a slow
  // coordinator stream must not stop the reads or writes it is timing.
  EventRelay relay;
  const RunControl pass_control = RelayedControl(control, relay);
  std::vector<JobResult> out;
  for (int pass = 0; pass < spec_.passes; ++pass) {
    if (control.cancel != nullptr && control.cancel->load()) break;
    if (pass > 0 && spec_.invalidate && !spec_.direct) {
      fs_->DropCache(spec_.FilePath());
      start_ns = MonotonicNanos();
    } else if (pass == 0 && spec_.invalidate && !spec_.direct && !spec_.write) {
      // The layout just wrote (and synced) the file: drop it before the start instant if there
      // is time.
      fs_->DropCache(spec_.FilePath());
      start_ns = std::max(start_ns, MonotonicNanos());
    }
    JobResult result = RunPass(pass, pass_control, start_ns);
    result.group_id = group_id_;
    out.push_back(std::move(result));
    start_ns = MonotonicNanos();
  }
  relay.Drain();
  return out;
}

absl::Status LargeStreamJob::RemoveCreatedFiles() {
  absl::Status status = spec_.nfs_url.empty() ? azbench::RemoveCreatedFiles(files_)
                                              : RemoveCreatedNfsFiles(spec_.nfs_url, files_);
  for (auto& f : files_) f.created = false;
  // Only the directories this job made, and only when empty.
  for (auto it = created_dirs_.rbegin(); it != created_dirs_.rend() && fs_ != nullptr; ++it) {
    (void)fs_->Rmdir(*it);
  }
  created_dirs_.clear();
  return status;
}

}  // namespace azbench

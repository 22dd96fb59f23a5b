#include "agent/workloads/block_io/file_op_job.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/memory/memory.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "agent/workloads/buffer_pool.h"
#include "agent/workloads/file_layout.h"
#include "agent/workloads/op_recorder.h"
#include "agent/workloads/thread_placement.h"
#include "common/clock.h"
#include "common/errno_text.h"
#include "common/status_macros.h"

namespace azbench {
namespace {

// A file-operation job is one pass over its names: the options that pace, repeat or extend a
// data job have nothing here to act on, so setting one is an error rather than a silent no-op.
absl::Status CheckPacingOptions(const JobSpec& s) {
  std::vector<std::string> set;
  if (s.time_based) set.push_back("time_based");
  if (s.ramp_time > absl::ZeroDuration()) set.push_back("ramp_time");
  if (s.loops > 1) set.push_back("loops");
  if (s.number_ios > 0) set.push_back("number_ios");
  if (s.startdelay_high > s.startdelay) set.push_back("startdelay (a range)");
  for (int dir = 0; dir < 2; ++dir) {
    if (s.rate_iops[dir] != 0 || s.rate_bytes_per_s[dir] != 0 || s.rate_iops_min[dir] != 0 ||
        s.rate_min_bytes_per_s[dir] != 0) {
      set.push_back("rate, rate_iops, rate_min or rate_iops_min");
      break;
    }
  }
  if (s.thinktime > absl::ZeroDuration()) set.push_back("thinktime");
  if (set.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "ioengine=", s.ioengine, " makes one pass over the job's names, one op each: ",
      absl::StrJoin(set, ", "), " cannot be used with it (runtime and a fixed startdelay can)"));
}

}  // namespace

absl::StatusOr<std::unique_ptr<FileOpJob>> FileOpJob::Prepare(const JobSpec& spec, int group_id,
                                                              const std::atomic<bool>* cancel) {
  RETURN_IF_ERROR(ValidateJobSpec(spec));
  if (!IsFileOpEngineName(spec.ioengine)) {
    return absl::InvalidArgumentError(
        absl::StrCat("ioengine ", spec.ioengine, " is not a file-operation engine"));
  }
  if (spec.fio_logs.Any()) {
    return absl::InvalidArgumentError(
        absl::StrCat("ioengine=", spec.ioengine,
                     ": write_bw_log, write_lat_log, write_iops_log and write_hist_log are not "
                     "written for the file-operation engines yet; use op_log=1 for each op's "
                     "record"));
  }
  RETURN_IF_ERROR(CheckPacingOptions(spec));
  auto job = absl::WrapUnique(new FileOpJob());
  job->spec_ = spec;
  job->group_id_ = group_id;
  ASSIGN_OR_RETURN(job->engine_, CreateFileOpEngine(spec.ioengine));
  EngineOptions options;
  options.stat_type = spec.stat_type;
  RETURN_IF_ERROR(job->engine_->Init(options));
  if (spec.iodepth > 1) {
    job->warnings_.push_back(absl::StrCat("iodepth=", spec.iodepth, " has no effect with the ",
                                          spec.ioengine, " engine: it runs at iodepth 1"));
  }
  // Clones sharing a `filename` share its names: each name is laid out or counted once.
  const int clones = std::max(1, spec.numjobs);
  std::vector<std::string> unique;
  for (int c = 0; c < clones; ++c) {
    job->clone_paths_.push_back(spec.FilePaths(c));
    for (const std::string& p : job->clone_paths_.back()) {
      if (std::find(unique.begin(), unique.end(), p) == unique.end()) unique.push_back(p);
    }
  }
  const bool dirs = job->engine_->on_directories();
  if (!job->engine_->needs_existing()) {
    // The run creates them: those missing now are this job's to remove.
    for (const std::string& p : unique) {
      struct stat st;
      if (lstat(p.c_str(), &st) == 0) continue;
      if (dirs) {
        job->made_dirs_.push_back(p);
      } else {
        job->files_.push_back(LaidOutFile{.path = p, .created = true});
      }
    }
    return job;
  }
  if (dirs) {
    for (const std::string& p : unique) {
      if (cancel != nullptr && cancel->load()) {
        (void)job->RemoveCreatedFiles();
        return absl::CancelledError("cancelled while making the job's directories");
      }
      if (mkdir(p.c_str(), 0700) == 0) {
        job->made_dirs_.push_back(p);
      } else if (errno != EEXIST) {
        const int error = errno;
        (void)job->RemoveCreatedFiles();
        return absl::Status(LayoutErrorCode(error),
                            absl::StrCat("mkdir ", p, ": ", ErrnoText(error)));
      }
    }
    return job;
  }
  const uint64_t file_bytes =
      spec.file_size_bytes > 0 ? spec.file_size_bytes
                               : spec.size_bytes / static_cast<uint64_t>(std::max(1, spec.nrfiles));
  std::vector<LayoutRequest> requests;
  for (const std::string& p : unique) {
    requests.push_back(LayoutRequest{.path = p, .required_bytes = file_bytes, .needs_data = false});
  }
  ASSIGN_OR_RETURN(BufferPool filler, BufferPool::Create({.count = 1,
                                                          .size_bytes = 4096,
                                                          .alignment_bytes = 4096,
                                                          .compress_percentage = 0,
                                                          .scramble = false,
                                                          .refill = false,
                                                          .seed = 1}));
  ASSIGN_OR_RETURN(job->files_, LayOutFiles(requests, filler, cancel));
  return job;
}

JobResult FileOpJob::RunClone(int clone, const RunControl& control, uint64_t start_ns) {
  (void)SleepUntilMonotonicOrCancelled(start_ns, control.cancel);
  uint64_t origin_ns = start_ns == 0 ? MonotonicNanos() : start_ns;
  origin_ns += static_cast<uint64_t>(absl::ToInt64Nanoseconds(spec_.startdelay));
  (void)SleepUntilMonotonicOrCancelled(origin_ns, control.cancel);
  // runtime caps the pass, as it caps a data job.
  const int64_t runtime_ns = absl::ToInt64Nanoseconds(spec_.runtime);
  const uint64_t end_ns =
      runtime_ns > 0 ? origin_ns + static_cast<uint64_t>(runtime_ns) : UINT64_MAX;
  OpRecorder rec(spec_.name, clone, control, origin_ns, &ops_done_, nullptr, spec_.op_log,
                 spec_.op_log_rate);
  const OpKind kind = engine_->kind();
  rec.Activate(kind);
  for (const std::string& path : clone_paths_[clone]) {
    if (control.cancel != nullptr && control.cancel->load()) break;
    const uint64_t t0 = MonotonicNanos();
    if (t0 >= end_ns) break;
    const int64_t result = engine_->Execute(path);
    rec.Record(kind, t0, MonotonicNanos(), result, 0, path);
  }
  return rec.Finish();
}

absl::StatusOr<std::vector<JobResult>> FileOpJob::Run(const RunControl& control) {
  std::vector<JobResult> results(clone_paths_.size());
  std::vector<std::thread> threads;
  for (size_t c = 0; c < clone_paths_.size(); ++c) {
    threads.emplace_back([&, c] {
      if (absl::Status s = ApplyThreadPlacement(spec_.placement, static_cast<int>(c)); !s.ok()) {
        results[c].error_errno = EPERM;
        results[c].error_message = absl::StrCat("clone ", c, ": ", s.message());
        return;
      }
      results[c] = RunClone(static_cast<int>(c), control, control.start_monotonic_ns);
    });
  }
  for (std::thread& t : threads) t.join();
  JobResult merged = std::move(results[0]);
  for (size_t c = 1; c < results.size(); ++c) merged.Merge(results[c]);
  merged.group_id = group_id_;
  for (const std::string& w : warnings_) merged.warnings.push_back(w);
  std::vector<JobResult> out;
  out.push_back(std::move(merged));
  return out;
}

absl::Status FileOpJob::RemoveCreatedFiles() {
  // filedelete removes the laid-out files itself: a name already gone is not an error.
  absl::Status status = azbench::RemoveCreatedFiles(files_);
  for (LaidOutFile& f : files_) f.created = false;
  for (auto it = made_dirs_.rbegin(); it != made_dirs_.rend(); ++it) {
    if (rmdir(it->c_str()) != 0 && errno != ENOENT && status.ok()) {
      status = absl::InternalError(absl::StrCat("rmdir ", *it, ": ", ErrnoText(errno)));
    }
  }
  made_dirs_.clear();
  return status;
}

}  // namespace azbench

#include "agent/workloads/metadata/metadata.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "agent/workloads/event_relay.h"
#include "agent/workloads/op_recorder.h"
#include "common/clock.h"
#include "common/errno_text.h"
#include "common/status_macros.h"
#include "common/units.h"

namespace azbench {

MetadataJob::~MetadataJob() = default;

absl::StatusOr<std::unique_ptr<MetadataJob>> MetadataJob::Prepare(const MetadataSpec& spec,
                                                                  int group_id) {
  RETURN_IF_ERROR(ValidateMetadataSpec(spec));
  std::unique_ptr<MetadataJob> job(new MetadataJob());
  job->spec_ = spec;
  job->group_id_ = group_id;
  job->clones_.resize(spec.numjobs);
  // One backend per clone: a libnfs connection serves one thread.
  for (int c = 0; c < spec.numjobs; ++c) {
    ASSIGN_OR_RETURN(job->fs_.emplace_back(), OpenFileSystem(spec.nfs_url));
  }
  FileSystem& fs = *job->fs_[0];
  if (!spec.nfs_url.empty()) {
    // Beneath an export the job makes its directory itself.
    job->spec_.directory = NfsExportPath(spec.directory);
    if (absl::Status made = MakeDirectories(fs, job->spec_.directory, job->made_parents_);
        !made.ok()) {
      (void)job->RemoveCreatedFiles();
      return made;
    }
  }
  job->write_data_.resize(spec.write_bytes);
  for (size_t i = 0; i < job->write_data_.size(); ++i) {
    job->write_data_[i] = static_cast<char>('a' + (i * 7 + 3) % 26);
  }
  const std::string& directory = job->spec_.directory;
  const std::string base = directory.back() == '/' ? directory : absl::StrCat(directory, "/");
  job->root_ = absl::StrCat(base, spec.name, ".md");
  job->dirs_.push_back(job->root_);
  if (spec.shared_dirs) {
    for (int d = 0; d < spec.dirs; ++d) job->dirs_.push_back(absl::StrCat(job->root_, "/d", d));
  } else {
    for (int c = 0; c < spec.numjobs; ++c) {
      const std::string tree = absl::StrCat(job->root_, "/a", spec.agent_index, ".c", c);
      job->dirs_.push_back(tree);
      for (int d = 0; d < spec.dirs; ++d) job->dirs_.push_back(absl::StrCat(tree, "/d", d));
    }
  }
  for (const std::string& dir : job->dirs_) {
    // An existing directory is fine (dir_mode=shared: another agent made it).
    if (const int64_t made = fs.Mkdir(dir); made != 0 && made != -EEXIST) {
      (void)job->RemoveCreatedFiles();
      return FileSystemError(fs, "mkdir", dir, made);
    }
  }
  if (spec.stride > 0 && spec.stride % spec.agent_count == 0) {
    job->warnings_.push_back(absl::StrCat("stride=", spec.stride, " with ", spec.agent_count,
                                          " agent(s) points every agent at its own files"));
  }
  return job;
}

std::vector<std::string> MetadataJob::phase_names() const {
  std::vector<std::string> names;
  for (MetadataPhase p : spec_.phases) names.emplace_back(MetadataPhaseName(p));
  return names;
}

std::string MetadataJob::FilePath(int agent, int clone, uint64_t n, bool renamed) const {
  const uint64_t dir = n % static_cast<uint64_t>(spec_.dirs);
  const char* suffix = renamed ? ".r" : "";
  if (spec_.shared_dirs) {
    return absl::StrCat(root_, "/d", dir, "/a", agent, ".c", clone, ".f", n, suffix);
  }
  return absl::StrCat(root_, "/a", agent, ".c", clone, "/d", dir, "/f", n, suffix);
}

JobResult MetadataJob::RunPhase(MetadataPhase phase, int clone, const RunControl& control,
                                uint64_t start_ns) {
  const OpKind kind = MetadataPhaseOpKind(phase);
  // First: the recorder measures this thread's CPU from its creation. A cancelled wait leaves
  // the loop below before its first op.
  (void)SleepUntilMonotonicOrCancelled(start_ns, control.cancel);
  OpRecorder rec(absl::StrCat(spec_.name, ".", std::string(MetadataPhaseName(phase))), clone,
                 control, start_ns, &ops_done_, &bytes_done_, spec_.op_log, spec_.op_log_rate);
  rec.Activate(kind);
  const int64_t stonewall_ns = absl::ToInt64Nanoseconds(spec_.stonewall);
  const uint64_t deadline = stonewall_ns > 0 ? start_ns + static_cast<uint64_t>(stonewall_ns)
                                             : std::numeric_limits<uint64_t>::max();
  CloneState& state = clones_[clone];
  FileSystem& fs = *fs_[static_cast<size_t>(clone)];
  const int me = spec_.agent_index;
  // stat, open and read visit the stride partner's files (all `files` of them: stonewall and
  // stride exclude each other), the others the clone's own.
  const bool strided = phase == MetadataPhase::kStat || phase == MetadataPhase::kOpen ||
                       phase == MetadataPhase::kRead;
  const int agent = strided ? (me + spec_.stride) % spec_.agent_count : me;
  uint64_t count = phase == MetadataPhase::kCreate ? spec_.files : state.created;
  if (strided && agent != me) count = spec_.files;
  std::vector<char> read_buffer(std::max<uint64_t>(spec_.read_bytes, 1));
  auto cancelled = [&] { return control.cancel != nullptr && control.cancel->load(); };
  uint64_t n = 0;
  for (; n < count; ++n) {
    if ((n & 63) == 0 && cancelled()) break;
    const bool renamed = agent == me && n < state.renamed;
    const std::string path = FilePath(agent, clone, n, renamed);
    const uint64_t t0 = MonotonicNanos();
    if (t0 >= deadline) break;
    int64_t result = 0;
    switch (phase) {
      case MetadataPhase::kCreate: {
        const int64_t fd = fs.Open(path, O_CREAT | O_EXCL | O_WRONLY);
        result = fd;
        if (fd >= 0) {
          if (!write_data_.empty()) {
            const int64_t w = fs.Pwrite(fd, write_data_.data(), write_data_.size(), 0);
            result = w < 0 ? w : (static_cast<size_t>(w) == write_data_.size() ? w : -EIO);
          }
          if (const int64_t closed = fs.Close(fd); closed != 0 && result >= 0) result = closed;
        }
        break;
      }
      case MetadataPhase::kStat:
        result = fs.Stat(path, nullptr);
        break;
      case MetadataPhase::kOpen: {
        const int64_t fd = fs.Open(path, O_RDONLY);
        result = fd;
        if (fd >= 0) result = fs.Close(fd);
        break;
      }
      case MetadataPhase::kRead: {
        const int64_t fd = fs.Open(path, O_RDONLY);
        result = fd;
        if (fd >= 0) {
          result = 0;
          if (spec_.read_bytes > 0) {
            const int64_t r = fs.Pread(fd, read_buffer.data(), spec_.read_bytes, 0);
            result = r < 0 ? r : (static_cast<uint64_t>(r) == spec_.read_bytes ? r : -EIO);
          }
          fs.Close(fd);
        }
        break;
      }
      case MetadataPhase::kRename: {
        const std::string to = FilePath(me, clone, n, true);
        result = fs.Rename(path, to);
        break;
      }
      case MetadataPhase::kDelete:
        if (n < state.deleted) continue;
        result = fs.Unlink(path);
        break;
    }
    rec.Record(kind, t0, MonotonicNanos(), result, n, path);
  }
  switch (phase) {
    case MetadataPhase::kCreate:
      state.created = n;
      break;
    case MetadataPhase::kRename:
      state.renamed = n;
      break;
    case MetadataPhase::kDelete:
      state.deleted = n;
      break;
    default:
      break;
  }
  return rec.Finish();
}

absl::StatusOr<std::vector<JobResult>> MetadataJob::Run(const RunControl& control) {
  if (control.interval_ns == 0) return absl::InvalidArgumentError("interval must be positive");
  uint64_t start_ns =
      control.start_monotonic_ns != 0 ? control.start_monotonic_ns : MonotonicNanos();
  // Intervals and op logs leave the clone threads through the relay (event_relay.h): a slow
  // coordinator stream must not stop the creates and stats it is timing.
  EventRelay relay;
  const RunControl clone_control = RelayedControl(control, relay);
  std::vector<JobResult> out;
  std::string late_start;  // the next phase's warning when its release came late
  for (size_t p = 0; p < spec_.phases.size(); ++p) {
    const MetadataPhase phase = spec_.phases[p];
    std::vector<JobResult> results(clones_.size());
    std::vector<std::thread> threads;
    for (size_t c = 0; c < clones_.size(); ++c) {
      threads.emplace_back(
          [&, c] { results[c] = RunPhase(phase, static_cast<int>(c), clone_control, start_ns); });
    }
    for (auto& t : threads) t.join();
    // The phase's intervals are delivered before the barrier reports it done.
    relay.Drain();
    JobResult merged = std::move(results[0]);
    for (size_t c = 1; c < results.size(); ++c) merged.Merge(results[c]);
    merged.group_id = group_id_;
    if (p == 0) {
      for (const auto& w : warnings_) merged.warnings.push_back(w);
    }
    if (!late_start.empty()) merged.warnings.push_back(std::exchange(late_start, std::string()));
    out.push_back(std::move(merged));
    if (p + 1 == spec_.phases.size()) break;
    if (control.await_phase) {
      absl::StatusOr<uint64_t> next =
          control.await_phase(static_cast<int>(p), std::string(MetadataPhaseName(phase)));
      if (!next.ok()) break;  // cancelled: the results so far stand
      const uint64_t now_ns = MonotonicNanos();
      if (*next != 0 && *next + kLatePhaseStartNs < now_ns) {
        late_start = absl::StrCat(
            "phase ", std::string(MetadataPhaseName(spec_.phases[p + 1])), " started ",
            FormatNanos(static_cast<double>(now_ns - *next)),
            " after the instant every agent was given: the barrier's release reached this agent "
            "late (a call lost and made again, or a slow link); this agent's figures for the "
            "phase count from when it started here");
      }
      start_ns = *next != 0 ? std::max(*next, now_ns) : now_ns;
    } else {
      start_ns = MonotonicNanos();
    }
    if (control.cancel != nullptr && control.cancel->load()) break;
  }
  return out;
}

absl::Status MetadataJob::RemoveCreatedFiles() {
  if (fs_.empty()) return absl::OkStatus();  // Prepare failed before a file could be made
  FileSystem& fs = *fs_[0];
  absl::Status first;
  for (size_t c = 0; c < clones_.size(); ++c) {
    CloneState& s = clones_[c];
    for (uint64_t n = s.deleted; n < s.created; ++n) {
      const std::string path = FilePath(spec_.agent_index, static_cast<int>(c), n, n < s.renamed);
      if (const int64_t rc = fs.Unlink(path); rc != 0 && rc != -ENOENT && first.ok()) {
        first = absl::InternalError(absl::StrCat("cannot remove '", fs.Display(path),
                                                 "': ", ErrnoText(static_cast<int>(-rc))));
      }
    }
    s.deleted = s.created;
  }
  // Directories: only empty ones go (shared ones still holding another agent's files stay, and
  // that agent removes them).
  for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it) (void)fs.Rmdir(*it);
  for (auto it = made_parents_.rbegin(); it != made_parents_.rend(); ++it) (void)fs.Rmdir(*it);
  made_parents_.clear();
  return first;
}

}  // namespace azbench

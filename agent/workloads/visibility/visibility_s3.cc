// The file system <-> S3 probes of visibility.h: export, import, continuous append, conflict.
#include <fcntl.h>
#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent/s3/payload_hash.h"
#include "agent/workloads/visibility/probe_cleanup.h"
#include "agent/workloads/visibility/probe_content.h"
#include "agent/workloads/visibility/probe_file_io.h"
#include "agent/workloads/visibility/visibility.h"
#include "common/status_macros.h"

namespace azbench {
namespace {

std::string RelPath(const S3ProbeTarget& t, const std::string& name) {
  return t.rel_dir.empty() ? name : absl::StrCat(t.rel_dir, "/", name);
}

absl::Status CheckTarget(const S3ProbeTarget& t) {
  if (t.mount_dir.empty())
    return absl::InvalidArgumentError("visibility probe: mount_dir is empty");
  if (t.bucket.empty()) return absl::InvalidArgumentError("visibility probe: bucket is empty");
  if (!t.key_prefix.empty() && t.key_prefix.back() != '/') {
    return absl::InvalidArgumentError(absl::StrCat("visibility probe: key_prefix '", t.key_prefix,
                                                   "' must be empty or end in '/'"));
  }
  return absl::OkStatus();
}

// A readable summary of an FS file's probe content.
std::string DescribeContent(const std::optional<std::string>& content) {
  if (!content.has_value()) return "absent";
  absl::StatusOr<uint64_t> seq = ParseProbeContent(*content);
  if (!seq.ok()) return absl::StrCat("other (", content->size(), " bytes)");
  return absl::StrCat("seq=", *seq);
}

// Records each change of an S3 object's state (size, ETag and, on a versioned bucket, version id)
// with the instant it was first seen.
class S3StateTracker {
 public:
  S3StateTracker(s3::S3Client& s3, std::string bucket, std::string key)
      : s3_(s3), bucket_(std::move(bucket)), key_(std::move(key)) {}
  // The object as HeadObject answered now (nullopt: absent). An error is counted and returned; it
  // leaves the recorded state unchanged.
  absl::StatusOr<std::optional<s3::ObjectInfo>> Observe(absl::Time now) {
    absl::StatusOr<s3::ObjectInfo> info = s3_.HeadObject(bucket_, key_);
    std::optional<s3::ObjectInfo> current;
    std::string state;
    if (info.ok()) {
      current = *info;
      state = absl::StrCat("size=", info->size_bytes, " etag=", info->etag);
      if (!info->version_id.empty()) absl::StrAppend(&state, " version=", info->version_id);
    } else if (absl::IsNotFound(info.status())) {
      state = "absent";
    } else {
      ++errors_;
      last_error_ = std::string(info.status().message());
      return info.status();
    }
    if (state != last_) {
      if (!(last_.empty() && state == "absent")) changes_.push_back({now, state});
      last_ = state;
    }
    return current;
  }
  const std::vector<std::pair<absl::Time, std::string>>& changes() const { return changes_; }
  int errors() const { return errors_; }
  const std::string& last_error() const { return last_error_; }

 private:
  s3::S3Client& s3_;
  std::string bucket_, key_;
  std::string last_;
  std::vector<std::pair<absl::Time, std::string>> changes_;
  int errors_ = 0;
  std::string last_error_;
};

// Whether the object `key`, as HeadObject answered `info`, holds exactly `content`. Decided on the
// content alone, never on the version id a versioned bucket adds: the size must match; an ETag
// equal to the content's MD5 settles it (a single-part upload without SSE-KMS / SSE-C); any other
// ETag of the right size (SSE-KMS and SSE-C ETags are not the MD5, a multipart ETag is
// "<hash>-<parts>") is settled by reading the object. NotFound between the two calls is false.
absl::StatusOr<bool> ObjectHoldsContent(s3::S3Client& s3, const std::string& bucket,
                                        const std::string& key, const s3::ObjectInfo& info,
                                        const std::string& content) {
  if (info.size_bytes != content.size()) return false;
  if (info.etag == s3::Md5Hex(content)) return true;
  absl::StatusOr<std::string> body = s3.GetObject(bucket, key);
  if (absl::IsNotFound(body.status())) return false;
  RETURN_IF_ERROR(body.status());
  return *body == content;
}

// The bucket's version listing for `key`, as one timeline detail.
std::string DescribeVersions(s3::S3Client& s3, const std::string& bucket, const std::string& key) {
  absl::StatusOr<std::vector<s3::ObjectVersion>> versions = s3.ListObjectVersions(bucket, key);
  if (!versions.ok()) {
    return absl::StrCat("unsupported or failed: ", versions.status().message());
  }
  std::string detail;
  int count = 0;
  for (const s3::ObjectVersion& v : *versions) {
    if (v.key != key) continue;
    ++count;
    absl::StrAppend(&detail, detail.empty() ? "" : "; ", v.version_id,
                    v.is_delete_marker ? " delete-marker"
                                       : absl::StrCat(" size=", v.size_bytes, " etag=", v.etag),
                    v.is_latest ? " latest" : "", " at ", v.last_modified);
  }
  return absl::StrCat(count, " version(s)", count > 0 ? ": " : "", detail);
}

// Searches `dir` (at `relative` beneath the mount) for a regular file whose path ends with
// `suffix`, never through a symlink; at most 32 directories deep. Its path under the mount or "".
std::string FindCopyBeneath(const ProbeDir& dir, const std::string& relative,
                            const std::string& suffix, int depth) {
  absl::StatusOr<std::vector<std::string>> names = dir.Names();
  if (!names.ok() || depth > 32) return "";
  for (const std::string& name : *names) {
    const std::string path = absl::StrCat(relative, "/", name);
    switch (dir.TypeOf(name)) {
      case ProbeDir::EntryType::kRegular:
        if (absl::EndsWith(path, suffix)) return path;
        break;
      case ProbeDir::EntryType::kDirectory: {
        absl::StatusOr<ProbeDir> sub = dir.Subdir(name, "lost_found_pattern", false);
        if (!sub.ok()) break;
        if (std::string found = FindCopyBeneath(*sub, path, suffix, depth + 1); !found.empty()) {
          return found;
        }
        break;
      }
      default:
        break;  // symlinks are never followed
    }
  }
  return "";
}

// The probe file `rel` (its path under the mount) moved into a directory at the mount's root
// matching `pattern`: a regular file whose path ends with /<rel> (S3 Files keeps the relative
// path). Not a file merely of the same name: several agents' probes use the same names in their
// own rel_dir, and one agent must never take (and later remove) another's copy. Its path relative
// to the mount, or "".
std::string FindLostFoundCopy(const ProbeDir& mount, const std::string& pattern,
                              const std::string& rel) {
  absl::StatusOr<std::vector<std::string>> names = mount.Names();
  if (!names.ok()) return "";
  for (const std::string& name : *names) {
    if (fnmatch(pattern.c_str(), name.c_str(), 0) != 0 ||
        mount.TypeOf(name) != ProbeDir::EntryType::kDirectory) {
      continue;
    }
    absl::StatusOr<ProbeDir> dir = mount.Subdir(name, "lost_found_pattern", false);
    if (!dir.ok()) continue;
    if (std::string found = FindCopyBeneath(*dir, name, "/" + rel, 0); !found.empty()) {
      return found;
    }
  }
  return "";
}

// The content of the file at `relative` beneath the mount (nullopt: absent), no symlink followed.
absl::StatusOr<std::optional<std::string>> ReadBeneath(const ProbeDir& mount,
                                                       const std::string& relative,
                                                       const std::string& field) {
  const size_t slash = relative.rfind('/');
  const std::string parent = slash == std::string::npos ? "" : relative.substr(0, slash);
  const std::string name = slash == std::string::npos ? relative : relative.substr(slash + 1);
  ASSIGN_OR_RETURN(std::optional<ProbeDir> dir, mount.SubdirIfExists(parent, field));
  if (!dir.has_value()) return std::optional<std::string>();
  return dir->ReadIfExists(name, field);
}

// The probe's mount: the directory the caller opened, else mount_dir opened now.
absl::StatusOr<ProbeDir> MountOf(const S3ProbeTarget& t, bool create) {
  if (t.mount.valid()) return t.mount;
  return ProbeDir::Open(t.mount_dir, "directory", create);
}

}  // namespace

absl::StatusOr<VisibilityResult> RunExportProbe(const ExportProbeOptions& options, s3::S3Client& s3,
                                                ProbeClock& clock) {
  const S3ProbeTarget& t = options.target;
  RETURN_IF_ERROR(CheckTarget(t));
  ASSIGN_OR_RETURN(const ProbeDir mount, MountOf(t, /*create=*/true));
  ProbeCleanup cleanup(&s3, t.bucket, mount, t.rel_dir);
  ASSIGN_OR_RETURN(const ProbeDir dir, mount.Subdir(t.rel_dir, "rel_dir", /*create=*/true));
  std::vector<std::string> contents(options.schedule.trials);
  auto name = [&](int trial) { return absl::StrCat(t.run_id, "-export-", trial); };
  auto rel = [&](int trial) { return RelPath(t, name(trial)); };
  TrialCallbacks callbacks;
  callbacks.cancelled = options.cancelled;
  callbacks.start = [&](int trial) -> absl::StatusOr<absl::Time> {
    contents[trial] = MakeProbeContent(trial + 1, options.size_bytes);
    int fd = -1;
    ProbeWriteOptions write;
    write.size_bytes = options.size_bytes;
    cleanup.AddFile(rel(trial));
    cleanup.AddKey(t.key_prefix + rel(trial));  // exported from the probe's file
    return WriteProbeFile(dir, name(trial), trial + 1, write, clock, &fd);
  };
  callbacks.poll = [&](int trial) -> absl::StatusOr<bool> {
    absl::StatusOr<s3::ObjectInfo> info = s3.HeadObject(t.bucket, t.key_prefix + rel(trial));
    if (absl::IsNotFound(info.status())) return false;
    RETURN_IF_ERROR(info.status());
    return ObjectHoldsContent(s3, t.bucket, t.key_prefix + rel(trial), *info, contents[trial]);
  };
  ASSIGN_OR_RETURN(std::vector<TrialOutcome> outcomes,
                   RunOverlappingTrials(options.schedule, clock, callbacks));
  VisibilityResult result;
  result.probe = "export";
  result.resolution = options.schedule.poll_interval;
  result.timeout = options.schedule.timeout;
  result.trials = std::move(outcomes);
  result.cleanup_failures = cleanup.Finish();
  return result;
}

absl::StatusOr<VisibilityResult> RunImportProbe(const ImportProbeOptions& options, s3::S3Client& s3,
                                                ProbeClock& clock) {
  const S3ProbeTarget& t = options.target;
  RETURN_IF_ERROR(CheckTarget(t));
  // The directories are the synchroniser's (imported with the objects); removed when empty.
  ASSIGN_OR_RETURN(const ProbeDir mount, MountOf(t, /*create=*/false));
  // Checked now, so a symlink already planted on the way fails the probe rather than every poll.
  RETURN_IF_ERROR(mount.SubdirIfExists(t.rel_dir, "rel_dir").status());
  ProbeCleanup cleanup(&s3, t.bucket, mount, t.rel_dir);
  auto name = [&](int trial) { return absl::StrCat(t.run_id, "-import-", trial); };
  auto rel = [&](int trial) { return RelPath(t, name(trial)); };
  TrialCallbacks callbacks;
  callbacks.cancelled = options.cancelled;
  callbacks.start = [&](int trial) -> absl::StatusOr<absl::Time> {
    cleanup.AddFile(rel(trial));  // imported from the probe's object
    cleanup.AddKey(t.key_prefix + rel(trial));
    RETURN_IF_ERROR(s3.PutObject(t.bucket, t.key_prefix + rel(trial),
                                 MakeProbeContent(trial + 1, options.size_bytes))
                        .status());
    return clock.Now();
  };
  callbacks.poll = [&](int trial) -> absl::StatusOr<bool> {
    // The directories come with the imported objects: absent until then.
    ASSIGN_OR_RETURN(std::optional<ProbeDir> dir, mount.SubdirIfExists(t.rel_dir, "rel_dir"));
    if (!dir.has_value()) return false;
    return CheckProbeVisible(*dir, name(trial), trial + 1, options.size_bytes, options.read_method);
  };
  ASSIGN_OR_RETURN(std::vector<TrialOutcome> outcomes,
                   RunOverlappingTrials(options.schedule, clock, callbacks));
  VisibilityResult result;
  result.probe = "import";
  result.resolution = options.schedule.poll_interval;
  result.timeout = options.schedule.timeout;
  result.trials = std::move(outcomes);
  result.cleanup_failures = cleanup.Finish();
  return result;
}

absl::StatusOr<VisibilityResult> RunAppendProbe(const AppendProbeOptions& options, s3::S3Client& s3,
                                                ProbeClock& clock) {
  const S3ProbeTarget& t = options.target;
  RETURN_IF_ERROR(CheckTarget(t));
  if (options.append_interval <= absl::ZeroDuration() ||
      options.poll_interval <= absl::ZeroDuration() ||
      options.append_duration < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        "append probe: append_interval and poll_interval must be positive, append_duration >= 0");
  }
  ASSIGN_OR_RETURN(const ProbeDir mount, MountOf(t, /*create=*/true));
  ProbeCleanup cleanup(&s3, t.bucket, mount, t.rel_dir);
  ASSIGN_OR_RETURN(const ProbeDir dir, mount.Subdir(t.rel_dir, "rel_dir", /*create=*/true));
  const std::string name = absl::StrCat(t.run_id, "-append");
  const std::string rel = RelPath(t, name);
  const std::string path = mount.PathOf(rel);
  const std::string key = t.key_prefix + rel;
  cleanup.AddFile(rel);
  cleanup.AddKey(key);
  ASSIGN_OR_RETURN(const int fd, dir.CreateFile(name, O_APPEND, 0644, kProbeFileField));

  S3StateTracker tracker(s3, t.bucket, key);
  std::vector<absl::Time> append_times;
  std::string content;
  const absl::Time first = clock.Now();
  const int appends = 1 + static_cast<int>(options.append_duration / options.append_interval);
  absl::Time next_poll = first;
  absl::Time last_append = first;  // the reference for offsets, even if cancelled before any append
  TrialOutcome outcome;
  outcome.state = TrialState::kTimedOut;
  absl::Status status;
  while (true) {
    if (options.cancelled && options.cancelled()) {
      outcome.error = "cancelled";
      break;
    }
    const absl::Time now = clock.Now();
    const int done = static_cast<int>(append_times.size());
    if (done < appends && now >= first + options.append_interval * done) {
      const std::string chunk = MakeProbeContent(done + 1, options.append_bytes);
      status = WriteAll(fd, chunk, path);
      if (status.ok() && fsync(fd) != 0) status = ErrnoError("fsync", path);
      if (!status.ok()) break;
      content += chunk;
      last_append = clock.Now();
      append_times.push_back(last_append);
      if (done + 1 == appends) outcome.started = last_append;
      continue;
    }
    if (now >= next_poll) {
      absl::StatusOr<std::optional<s3::ObjectInfo>> info = tracker.Observe(clock.Now());
      ++outcome.polls;
      absl::StatusOr<bool> holds = false;
      if (done == appends && info.ok() && info->has_value()) {
        holds = ObjectHoldsContent(s3, t.bucket, key, **info, content);
        if (!holds.ok()) {
          ++outcome.poll_errors;
          outcome.error = std::string(holds.status().message());
        }
      }
      const absl::Time polled = clock.Now();
      if (done == appends) {
        if (holds.ok() && *holds) {
          outcome.state = TrialState::kVisible;
          outcome.visible_at = polled;
          outcome.latency = polled - last_append;
          break;
        }
        outcome.last_miss_latency = polled - last_append;
        if (polled - last_append >= options.timeout) break;
      }
      next_poll = std::max(next_poll + options.poll_interval, polled);
    }
    absl::Time wake = next_poll;
    if (done < appends) wake = std::min(wake, first + options.append_interval * done);
    clock.SleepUntil(wake);
  }
  close(fd);
  outcome.poll_errors += tracker.errors();
  if (!status.ok()) {
    outcome.state = TrialState::kFailed;
    outcome.error = std::string(status.message());
  } else if (outcome.state != TrialState::kVisible && tracker.errors() > 0 &&
             outcome.error.empty()) {
    outcome.error = tracker.last_error();
  }
  VisibilityResult result;
  result.probe = "append";
  result.resolution = options.poll_interval;
  result.timeout = options.timeout;
  for (size_t i = 0; i < append_times.size(); ++i) {
    result.timeline.push_back(
        {0, append_times[i] - last_append, "append", absl::StrCat("seq=", i + 1)});
  }
  for (const auto& [when, state] : tracker.changes()) {
    result.timeline.push_back({0, when - last_append, "s3_version", state});
  }
  result.timeline.push_back(
      {0, clock.Now() - last_append, "versions", DescribeVersions(s3, t.bucket, key)});
  result.trials.push_back(outcome);
  result.cleanup_failures = cleanup.Finish();
  return result;
}

absl::StatusOr<VisibilityResult> RunConflictProbe(const ConflictProbeOptions& options,
                                                  s3::S3Client& s3, ProbeClock& clock) {
  const S3ProbeTarget& t = options.target;
  RETURN_IF_ERROR(CheckTarget(t));
  if (options.trials < 1 || options.poll_interval <= absl::ZeroDuration() ||
      options.put_delay < absl::ZeroDuration() || options.put_delay >= options.timeout) {
    // timeout counts from the FS write: a put_delay as long would never make the PutObject.
    return absl::InvalidArgumentError(
        "conflict probe: trials >= 1, poll_interval > 0 and 0 <= put_delay < timeout are required");
  }
  ASSIGN_OR_RETURN(const ProbeDir mount, MountOf(t, /*create=*/true));
  ProbeCleanup cleanup(&s3, t.bucket, mount, t.rel_dir);
  ASSIGN_OR_RETURN(const ProbeDir dir, mount.Subdir(t.rel_dir, "rel_dir", /*create=*/true));
  VisibilityResult result;
  result.probe = "conflict";
  result.resolution = options.poll_interval;
  result.timeout = options.timeout;
  for (int trial = 0; trial < options.trials; ++trial) {
    const std::string name = absl::StrCat(t.run_id, "-conflict-", trial);
    const std::string rel = RelPath(t, name);
    const std::string key = t.key_prefix + rel;
    const uint64_t fs_seq = 2 * trial + 1, s3_seq = 2 * trial + 2;
    const std::string s3_content = MakeProbeContent(s3_seq, options.size_bytes);
    const std::string s3_seen = absl::StrCat("seq=", s3_seq);
    TrialOutcome outcome;
    outcome.index = trial;
    int fd = -1;
    ProbeWriteOptions write;
    write.size_bytes = options.size_bytes;
    cleanup.AddFile(rel);
    cleanup.AddKey(key);
    absl::StatusOr<absl::Time> written = WriteProbeFile(dir, name, fs_seq, write, clock, &fd);
    if (!written.ok()) {
      outcome.error = std::string(written.status().message());
      result.trials.push_back(outcome);
      continue;
    }
    const absl::Time t0 = *written;
    auto event = [&](absl::Time when, std::string kind, std::string detail) {
      result.timeline.push_back({trial, when - t0, std::move(kind), std::move(detail)});
    };
    S3StateTracker tracker(s3, t.bucket, key);
    std::string fs_state;
    std::string lost_found;
    bool put_done = false;
    absl::Time next_poll = t0;
    outcome.state = TrialState::kTimedOut;
    while (true) {
      if (options.cancelled && options.cancelled()) {
        if (outcome.state != TrialState::kVisible) outcome.state = TrialState::kTimedOut;
        outcome.error = "cancelled";
        break;
      }
      const absl::Time now = clock.Now();
      if (!put_done && now >= t0 + options.put_delay) {
        absl::StatusOr<std::string> etag = s3.PutObject(t.bucket, key, s3_content);
        put_done = true;
        if (!etag.ok()) {
          outcome.state = TrialState::kFailed;
          outcome.error = std::string(etag.status().message());
          break;
        }
        outcome.started = clock.Now();
        event(outcome.started, "s3_put", absl::StrCat(s3_seen, " etag=", *etag));
        continue;
      }
      if (now >= next_poll) {
        ++outcome.polls;
        absl::StatusOr<std::optional<std::string>> content =
            dir.ReadIfExists(name, kProbeFileField);
        const absl::Time polled = clock.Now();
        if (content.ok()) {
          const std::string state = DescribeContent(*content);
          if (state != fs_state) {
            event(polled, "fs_content", state);
            fs_state = state;
          }
        } else {
          ++outcome.poll_errors;
          outcome.error = std::string(content.status().message());
        }
        (void)tracker.Observe(polled);  // for the timeline; errors are counted
        if (lost_found.empty()) {
          lost_found = FindLostFoundCopy(mount, options.lost_found_pattern, rel);
          if (!lost_found.empty()) {
            cleanup.AddFile(lost_found);  // the probe's own file, moved there
            absl::StatusOr<std::optional<std::string>> copy =
                ReadBeneath(mount, lost_found, "lost_found_pattern");
            event(polled, "lost_found",
                  absl::StrCat(mount.PathOf(lost_found), " ",
                               copy.ok() ? DescribeContent(*copy) : std::string("unreadable")));
          }
        }
        if (put_done && fs_state == s3_seen && outcome.state != TrialState::kVisible) {
          outcome.state = TrialState::kVisible;
          outcome.visible_at = polled;
          outcome.latency = polled - outcome.started;
        } else if (put_done && outcome.state != TrialState::kVisible) {
          outcome.last_miss_latency = polled - outcome.started;
        }
        if (outcome.state == TrialState::kVisible && !lost_found.empty()) break;
        if (polled - t0 >= options.timeout) break;
        next_poll = std::max(next_poll + options.poll_interval, polled);
      }
      absl::Time wake = next_poll;
      if (!put_done) wake = std::min(wake, t0 + options.put_delay);
      clock.SleepUntil(wake);
    }
    for (const auto& [when, state] : tracker.changes()) event(when, "s3_version", state);
    event(clock.Now(), "versions", DescribeVersions(s3, t.bucket, key));
    if (outcome.state == TrialState::kVisible && lost_found.empty()) {
      // The FS took the S3 content but the FS copy was not found: keep the trial, say so.
      outcome.error = absl::StrCat("no copy in a lost+found directory matching '",
                                   options.lost_found_pattern, "' before the timeout");
    }
    outcome.poll_errors += tracker.errors();
    result.trials.push_back(outcome);
  }
  result.cleanup_failures = cleanup.Finish();
  return result;
}

}  // namespace azbench

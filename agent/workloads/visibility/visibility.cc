#include "agent/workloads/visibility/visibility.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "agent/workloads/visibility/probe_content.h"
#include "agent/workloads/visibility/probe_file_io.h"
#include "agent/workloads/visibility/probe_store.h"
#include "common/status_macros.h"

namespace azbench {

const char* VisibilityReadMethodName(VisibilityReadMethod method) {
  switch (method) {
    case VisibilityReadMethod::kStat:
      return "stat";
    case VisibilityReadMethod::kOpenRead:
      return "open_read";
    case VisibilityReadMethod::kReaddir:
      return "readdir";
  }
  return "unknown";
}

absl::StatusOr<VisibilityReadMethod> ParseVisibilityReadMethod(const std::string& text) {
  if (text == "stat") return VisibilityReadMethod::kStat;
  if (text == "open_read") return VisibilityReadMethod::kOpenRead;
  if (text == "readdir") return VisibilityReadMethod::kReaddir;
  return absl::InvalidArgumentError(
      absl::StrCat("read method '", text, "' is not one of stat, open_read, readdir"));
}

int VisibilityResult::visible_count() const {
  int n = 0;
  for (const TrialOutcome& t : trials) n += t.state == TrialState::kVisible;
  return n;
}
int VisibilityResult::timed_out_count() const {
  int n = 0;
  for (const TrialOutcome& t : trials) n += t.state == TrialState::kTimedOut;
  return n;
}
int VisibilityResult::failed_count() const {
  int n = 0;
  for (const TrialOutcome& t : trials) n += t.state == TrialState::kFailed;
  return n;
}

absl::StatusOr<absl::Time> WriteProbeFile(const ProbeDir& dir, const std::string& name,
                                          uint64_t sequence, const ProbeWriteOptions& options,
                                          ProbeClock& clock, int* open_fd) {
  *open_fd = -1;
  const std::string target =
      options.rename_into_place ? absl::StrCat(".", name, ".azbench-tmp") : name;
  const std::string content = MakeProbeContent(sequence, options.size_bytes);
  ASSIGN_OR_RETURN(const int fd, dir.CreateFile(target, 0, 0644, kProbeFileField));
  absl::Status s = WriteAll(fd, content, dir.PathOf(target));
  if (s.ok() && options.fsync && fsync(fd) != 0) s = ErrnoError("fsync", dir.PathOf(target));
  if (s.ok() && options.rename_into_place) s = dir.Rename(target, name);
  if (!s.ok() || options.close) {
    if (close(fd) != 0 && s.ok()) s = ErrnoError("close", dir.PathOf(target));
  } else {
    *open_fd = fd;
  }
  if (!s.ok() && options.rename_into_place) (void)dir.Unlink(target);  // no temp file left
  RETURN_IF_ERROR(s);
  return clock.Now();
}

absl::StatusOr<bool> CheckProbeVisible(const ProbeDir& dir, const std::string& name,
                                       uint64_t sequence, size_t size_bytes,
                                       VisibilityReadMethod method) {
  switch (method) {
    case VisibilityReadMethod::kStat: {
      ASSIGN_OR_RETURN(std::optional<struct stat> st, dir.Stat(name, kProbeFileField));
      if (!st.has_value()) return false;
      RETURN_IF_ERROR(CheckProbeFile(*st, kProbeFileField, dir.PathOf(name)));
      return static_cast<size_t>(st->st_size) == std::max(size_bytes, kMinProbeContentBytes);
    }
    case VisibilityReadMethod::kOpenRead: {
      ASSIGN_OR_RETURN(std::optional<std::string> content, dir.ReadIfExists(name, kProbeFileField));
      if (!content.has_value()) return false;
      absl::StatusOr<uint64_t> seq = ParseProbeContent(*content);
      return seq.ok() && *seq == sequence;
    }
    case VisibilityReadMethod::kReaddir:
      return dir.Lists(name);
  }
  return absl::InvalidArgumentError("unknown read method");
}

namespace {

// A base directory of a probe: the one the caller opened, else `path` opened now.
absl::StatusOr<ProbeDir> BaseDir(const ProbeDir& opened, const std::string& path,
                                 const std::string& field, bool create) {
  if (opened.valid()) return opened;
  return ProbeDir::Open(path, field, create);
}

// The writer's store: write_dir beneath the NFS export, else the mounted directory.
absl::StatusOr<std::unique_ptr<ProbeStore>> WriterStore(const ClientToClientOptions& options) {
  if (!options.nfs_url.empty()) {
    return MakeNfsProbeStore(options.nfs_url, options.write_dir, /*create=*/true);
  }
  ASSIGN_OR_RETURN(ProbeDir dir, BaseDir(options.write_base, options.write_dir, "directory", true));
  return MakePosixProbeStore(std::move(dir));
}

// The reader's store: read_dir, which may not exist yet (not visible yet until it does).
absl::StatusOr<std::unique_ptr<ProbeStore>> ReaderStore(const ClientToClientOptions& options) {
  if (!options.nfs_url.empty()) {
    return MakeNfsProbeStore(options.nfs_url, options.read_dir, /*create=*/false);
  }
  if (options.read_base.valid()) return MakePosixProbeStore(options.read_base);
  PendingProbeDir pending = options.read_pending;
  if (!pending.valid()) {
    ASSIGN_OR_RETURN(pending,
                     OpenOrAncestor(options.read_dir, "read_dir", [](const std::string& p) {
                       return ProbeDir::Open(p, "read_dir");
                     }));
  }
  return MakePendingPosixProbeStore(std::move(pending));
}

}  // namespace

absl::StatusOr<VisibilityResult> RunClientToClientProbe(const ClientToClientOptions& options,
                                                        ProbeClock& clock) {
  if (options.write_dir.empty() || options.read_dir.empty()) {
    return absl::InvalidArgumentError("client_to_client probe: write_dir and read_dir must be set");
  }
  ASSIGN_OR_RETURN(const std::unique_ptr<ProbeStore> writer, WriterStore(options));
  std::unique_ptr<ProbeStore> reader;
  if (options.nfs_url.empty()) {
    // The reader's directory exists once the writer's does (they are one, or two mounts of it).
    ASSIGN_OR_RETURN(const ProbeDir read_dir,
                     BaseDir(options.read_base, options.read_dir, "read_dir", false));
    reader = MakePosixProbeStore(read_dir);
  } else {
    ASSIGN_OR_RETURN(reader, ReaderStore(options));
  }
  auto name = [&](int trial) {
    return absl::StrCat(options.name_prefix, "-", options.first_sequence + trial);
  };
  TrialCallbacks callbacks;
  callbacks.cancelled = options.cancelled;
  callbacks.start = [&](int trial) -> absl::StatusOr<absl::Time> {
    return writer->Write(name(trial), options.first_sequence + trial, options.write, clock);
  };
  callbacks.poll = [&](int trial) {
    return reader->Visible(name(trial), options.first_sequence + trial, options.write.size_bytes,
                           options.read_method);
  };
  absl::StatusOr<std::vector<TrialOutcome>> outcomes =
      RunOverlappingTrials(options.schedule, clock, callbacks);
  writer->CloseHeld();
  for (int i = 0; i < options.schedule.trials; ++i) (void)writer->Unlink(name(i));
  RETURN_IF_ERROR(outcomes.status());
  VisibilityResult result;
  result.probe = "client_to_client";
  result.resolution = options.schedule.poll_interval;
  result.timeout = options.schedule.timeout;
  result.trials = std::move(*outcomes);
  return result;
}

absl::StatusOr<std::vector<TrialOutcome>> RunClientToClientWriter(
    const ClientToClientOptions& options, absl::Time start_at, ProbeClock& clock) {
  if (options.write_dir.empty() && !options.write_base.valid()) {
    return absl::InvalidArgumentError("client_to_client writer: write_dir must be set");
  }
  ASSIGN_OR_RETURN(const std::unique_ptr<ProbeStore> writer, WriterStore(options));
  std::vector<TrialOutcome> outcomes(options.schedule.trials);
  for (int i = 0; i < options.schedule.trials; ++i) {
    if (options.cancelled && options.cancelled()) break;
    clock.SleepUntil(start_at + options.schedule.spacing * i);
    TrialOutcome& o = outcomes[i];
    o.index = i;
    o.started = start_at + options.schedule.spacing * i;
    absl::StatusOr<absl::Time> written =
        writer->Write(absl::StrCat(options.name_prefix, "-", options.first_sequence + i),
                      options.first_sequence + i, options.write, clock);
    if (written.ok()) {
      // "Written"; the join decides visibility. started = the scheduled instant, visible_at = the
      // completion instant (what reader latencies count from), latency = the write time.
      o.state = TrialState::kVisible;
      o.visible_at = *written;
      o.latency = *written - o.started;
    } else {
      o.error = std::string(written.status().message());
    }
  }
  // Keep unclosed files open until the readers' timeout has passed for the last trial.
  if (writer->HoldsOpen()) {
    clock.SleepUntil(start_at + options.schedule.spacing * (options.schedule.trials - 1) +
                     options.schedule.timeout);
  }
  writer->CloseHeld();
  return outcomes;
}

absl::StatusOr<std::vector<TrialOutcome>> RunClientToClientReader(
    const ClientToClientOptions& options, absl::Time start_at, ProbeClock& clock) {
  if (options.read_dir.empty() && !options.read_base.valid()) {
    return absl::InvalidArgumentError("client_to_client reader: read_dir must be set");
  }
  ASSIGN_OR_RETURN(const std::unique_ptr<ProbeStore> reader, ReaderStore(options));
  clock.SleepUntil(start_at);
  TrialCallbacks callbacks;
  callbacks.cancelled = options.cancelled;
  callbacks.start = [&](int trial) -> absl::StatusOr<absl::Time> {
    return start_at + options.schedule.spacing * trial;
  };
  callbacks.poll = [&](int trial) -> absl::StatusOr<bool> {
    return reader->Visible(absl::StrCat(options.name_prefix, "-", options.first_sequence + trial),
                           options.first_sequence + trial, options.write.size_bytes,
                           options.read_method);
  };
  return RunOverlappingTrials(options.schedule, clock, callbacks);
}

absl::StatusOr<VisibilityResult> JoinClientToClient(const std::vector<TrialOutcome>& writer,
                                                    const std::vector<TrialOutcome>& reader,
                                                    absl::Duration reader_clock_offset,
                                                    absl::Duration poll_interval) {
  if (writer.size() != reader.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "client_to_client join: writer has ", writer.size(), " trials, reader ", reader.size()));
  }
  VisibilityResult result;
  result.probe = "client_to_client";
  result.resolution = poll_interval;
  for (size_t i = 0; i < writer.size(); ++i) {
    TrialOutcome o = reader[i];
    o.index = static_cast<int>(i);
    if (writer[i].state == TrialState::kFailed) {
      o.state = TrialState::kFailed;
      o.error = absl::StrCat("writer: ", writer[i].error);
    } else {
      // The writer's completion instant, on the reader's clock.
      const absl::Time written = writer[i].visible_at + reader_clock_offset;
      o.last_miss_latency =
          std::max(absl::ZeroDuration(), reader[i].started + reader[i].last_miss_latency - written);
      o.started = written;
      if (o.state == TrialState::kVisible) {
        o.latency = o.visible_at - written;
        if (o.latency < absl::ZeroDuration()) {  // seen before the write returned
          o.latency = absl::ZeroDuration();
          ++result.seen_before_write;
        }
      }
    }
    result.trials.push_back(o);
  }
  return result;
}

}  // namespace azbench

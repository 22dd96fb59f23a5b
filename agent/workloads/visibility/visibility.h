// Visibility probes: how long until a write made in one place is seen in another (study D in
// docs/field-studies.md). Five probes, each returning per-trial outcomes (see
// trial_scheduler.h for what a latency means and its resolution) and, for the append and conflict
// probes, a timeline of what was observed:
//   - client to client: a writer creates a probe file (fsync or not, close or not, rename into
//     place or not); a reader polls another path to the same data (stat / open+read / readdir);
//   - export (FS -> S3): write + fsync on the mount, poll HeadObject for the size and ETag;
//   - import (S3 -> FS): PutObject, poll the mount for the content;
//   - continuous append: append every N s for T s, record when S3 versions appear relative to the
//     last append;
//   - conflict: write through the FS, PutObject the same key D s later, record the FS content over
//     time, a copy in a lost+found directory at the FS root (fnmatch pattern) and the S3 versions.
// The mount directory maps to the bucket as <mount_dir>/<rel> <-> <key_prefix><rel>. Every probe
// removes what it created when it ends, also on an error or a cancellation (probe_cleanup.h): its
// files, their S3 objects and its empty probe directories; the client_to_client writer's files go
// at the run's cleanup, after the readers ended
// (agent/workloads/visibility/visibility_workload.cc).
//
//   S3Client s3(...);  RealProbeClock clock;
//   ASSIGN_OR_RETURN(VisibilityResult r, RunExportProbe(options, s3, clock));
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "agent/s3/s3_client.h"
#include "agent/workloads/visibility/probe_clock.h"
#include "agent/workloads/visibility/probe_dir.h"
#include "agent/workloads/visibility/trial_scheduler.h"

namespace azbench {

enum class VisibilityReadMethod { kStat, kOpenRead, kReaddir };
const char* VisibilityReadMethodName(VisibilityReadMethod method);
// Accepts "stat", "open_read", "readdir"; InvalidArgument naming the allowed values otherwise.
absl::StatusOr<VisibilityReadMethod> ParseVisibilityReadMethod(const std::string& text);

struct ProbeWriteOptions {
  bool fsync = true;
  // false: the file stays open until the trial ends (close-to-open consistency is not triggered).
  bool close = true;
  // true: write "<dir>/.<name>.azbench-tmp", then rename(2) onto <name>.
  bool rename_into_place = false;
  size_t size_bytes = 4096;
};

// One observation in a timeline, relative to the trial's reference instant (the last append for
// the append probe, the FS write for the conflict probe).
struct ProbeEvent {
  int trial = 0;
  absl::Duration offset;
  std::string kind;    // "append", "s3_version", "fs_content", "lost_found", "s3_put", "versions"
  std::string detail;  // e.g. "seq=2", "size=120 etag=..."
};

struct VisibilityResult {
  std::string probe;          // "client_to_client", "export", "import", "append", "conflict"
  absl::Duration resolution;  // = the poll interval
  // How long a trial is polled before it counts as timed out (0: not stated). A timed-out trial's
  // latency is only known to be at least this.
  absl::Duration timeout;
  std::vector<TrialOutcome> trials;
  std::vector<ProbeEvent> timeline;
  // client_to_client joins: trials a reader saw before the writer's write call returned (clock
  // error, or data that reached the reader while fsync/close/rename was still running); their
  // latency is clamped to 0.
  int seen_before_write = 0;
  // What the probe could not remove of its files and objects at its end ("" = all removed).
  std::string cleanup_failures;
  int visible_count() const;
  int timed_out_count() const;
  int failed_count() const;
};

// ---- client to client -------------------------------------------------------------------------

// The field probe files are refused under (a symlink where a probe file goes): their names are
// "<run_id>-<probe>-<n>".
inline constexpr char kProbeFileField[] = "probe file (named after run_id)";

// Writes probe content with `sequence` to the file `name` in `dir`, created with O_EXCL (never
// through a symlink, and never into a FIFO, device or a file with another link: one already there
// is refused, see ProbeDir::CreateFile). Returns the instant the write (with fsync, close
// and rename as asked) returned. When !options.close, the open descriptor is stored in *open_fd
// (the caller closes it); otherwise *open_fd is -1. Errors name the path and the failed call.
absl::StatusOr<absl::Time> WriteProbeFile(const ProbeDir& dir, const std::string& name,
                                          uint64_t sequence, const ProbeWriteOptions& options,
                                          ProbeClock& clock, int* open_fd);

// One reader check: true when the file `name` in `dir` is visible the way `method` sees it --
// stat: exists with `size_bytes`; open_read: opens and holds probe content with `sequence`;
// readdir: the name is listed in the directory. Absent or older/partial content is false, not an
// error; errors are unexpected failures (EACCES, EIO) naming the path, and a symlink, a FIFO,
// socket or device, or a file with another hard link under the name (refused, never followed,
// read or counted as a sighting; opened without blocking).
absl::StatusOr<bool> CheckProbeVisible(const ProbeDir& dir, const std::string& name,
                                       uint64_t sequence, size_t size_bytes,
                                       VisibilityReadMethod method);

struct ClientToClientOptions {
  std::string write_dir;  // the writer's view (mount 1)
  std::string read_dir;   // the reader's view of the same data (mount 2); may equal write_dir
  // The same directories already opened (by the agent, through its sandbox); one that is not
  // valid is opened from its path when the probe starts (write_dir created if missing).
  ProbeDir write_base;
  ProbeDir read_base;
  // A reader's directory that did not exist yet when the agent opened the others (read_base not
  // valid): the reader looks for it again on each poll, a trial not visible until it exists. Not
  // valid either: read_dir is opened from its path (or its deepest existing ancestor) at start.
  PendingProbeDir read_pending;
  std::string name_prefix = "azbench-vis";
  ProbeWriteOptions write;
  VisibilityReadMethod read_method = VisibilityReadMethod::kOpenRead;
  TrialSchedule schedule;
  uint64_t first_sequence = 1;
  std::function<bool()> cancelled;  // optional, see TrialCallbacks
  // Not empty: write_dir and read_dir are paths beneath this NFS export, reached through libnfs
  // with no kernel mount (probe_store.h); the ProbeDir fields are then unused.
  std::string nfs_url;
};

// Writer and reader in one process (both views mounted here). Trial i writes
// "<write_dir>/<name_prefix>-<first_sequence+i>" and polls the same name under read_dir. The
// files are removed at the end.
absl::StatusOr<VisibilityResult> RunClientToClientProbe(const ClientToClientOptions& options,
                                                        ProbeClock& clock);

// Client to client across agents: the writer agent and each reader agent run their half against a
// common start instant (the coordinator's, corrected to each agent's clock); trial i's file is
// "<name_prefix>-<first_sequence+i>", written at start_at + i * spacing.
// Writer half: trial outcomes whose `started` is the scheduled instant, `visible_at` the instant
// the write (with fsync, close, rename as asked) returned and `latency` the write time between
// them (kFailed on error).
absl::StatusOr<std::vector<TrialOutcome>> RunClientToClientWriter(
    const ClientToClientOptions& options, absl::Time start_at, ProbeClock& clock);
// Reader half: polls read_dir for trial i from start_at + i * spacing; `started` is that scheduled
// instant, `visible_at` the first poll that saw the expected content, `latency` their difference.
// A read_dir that does not exist yet (the writer, on another client, has not created it, or this
// client does not see it yet) is "not visible yet", looked for again on each poll.
// The coordinator joins both halves on the common clock (coordinator/visibility_join.h).
absl::StatusOr<std::vector<TrialOutcome>> RunClientToClientReader(
    const ClientToClientOptions& options, absl::Time start_at, ProbeClock& clock);
// Joins both halves: latency = reader visible_at - (writer visible_at + reader_clock_offset), the
// offset being the reader's clock minus the writer's, as the coordinator measured it; a negative
// latency (seen before the write call returned) is clamped to 0 and counted in seen_before_write.
// A trial the writer failed is kFailed; one the reader never saw is kTimedOut. InvalidArgument when
// the trial counts differ.
absl::StatusOr<VisibilityResult> JoinClientToClient(const std::vector<TrialOutcome>& writer,
                                                    const std::vector<TrialOutcome>& reader,
                                                    absl::Duration reader_clock_offset,
                                                    absl::Duration poll_interval);

// ---- file system <-> S3 -----------------------------------------------------------------------

struct S3ProbeTarget {
  std::string mount_dir;  // where the bucket (prefix) is mounted
  std::string bucket;
  std::string key_prefix;  // "" when the mount shows the bucket root, else ends in '/'
  std::string rel_dir = "azbench-visibility";  // probe files live in <mount_dir>/<rel_dir>/
  std::string run_id = "run";                  // distinguishes runs: names carry it
  // mount_dir already opened (by the agent, through its sandbox); when not valid, the probe opens
  // mount_dir itself. rel_dir is walked beneath it without following symlinks (probe_dir.h).
  ProbeDir mount;
};

struct ExportProbeOptions {
  S3ProbeTarget target;
  TrialSchedule schedule;  // study D: 20 trials 5 s apart, poll 0.5 s
  size_t size_bytes = 1024;
  std::function<bool()> cancelled;  // optional, see TrialCallbacks
};
// Visible when the object holds the trial's content: HeadObject answers its size and an ETag equal
// to its MD5, or, when the size matches but the ETag is not that MD5 (SSE-KMS, SSE-C, multipart),
// a GetObject answers the content itself. The version id plays no part.
absl::StatusOr<VisibilityResult> RunExportProbe(const ExportProbeOptions& options, s3::S3Client& s3,
                                                ProbeClock& clock);

struct ImportProbeOptions {
  S3ProbeTarget target;
  TrialSchedule schedule = {20, absl::Seconds(3), absl::Milliseconds(200), absl::Seconds(180)};
  size_t size_bytes = 1024;
  VisibilityReadMethod read_method = VisibilityReadMethod::kOpenRead;
  std::function<bool()> cancelled;  // optional, see TrialCallbacks
};
absl::StatusOr<VisibilityResult> RunImportProbe(const ImportProbeOptions& options, s3::S3Client& s3,
                                                ProbeClock& clock);

struct AppendProbeOptions {
  S3ProbeTarget target;
  absl::Duration append_interval = absl::Seconds(5);
  absl::Duration append_duration = absl::Seconds(115);
  absl::Duration poll_interval = absl::Milliseconds(500);
  // After the last append: how long to wait for S3 to show the final content.
  absl::Duration timeout = absl::Seconds(180);
  size_t append_bytes = 64;
  std::function<bool()> cancelled;  // optional: ends the probe early (trial timed out, "cancelled")
};
// One trial: latency = first poll showing the final content (decided as for export) - last append.
// Timeline: every append and every distinct S3 state (size, ETag) first seen, offsets relative to
// the last append (negative = before it), and the bucket's version listing at the end ("versions"
// event; "unsupported" when the server does not list versions).
absl::StatusOr<VisibilityResult> RunAppendProbe(const AppendProbeOptions& options, s3::S3Client& s3,
                                                ProbeClock& clock);

struct ConflictProbeOptions {
  S3ProbeTarget target;
  absl::Duration put_delay = absl::Seconds(10);  // D: PutObject this long after the FS write
  absl::Duration poll_interval = absl::Milliseconds(500);
  absl::Duration timeout = absl::Seconds(180);  // counted from the FS write
  // fnmatch(3) pattern of lost+found directories at the mount root.
  std::string lost_found_pattern = ".s3files-lost+found-*";
  size_t size_bytes = 1024;
  int trials = 1;
  std::function<bool()> cancelled;  // optional: ends the probe early (trial timed out, "cancelled")
};
// Per trial: the FS file gets content seq=A, D s later S3 gets seq=B for the same key. Polls until
// the FS shows B and a copy of A is found under a lost+found directory (at <dir>/.../<rel>, the
// file's path relative to the mount), or the timeout. Latency = FS shows B - PutObject returned
// (timed out when the FS never shows B). Timeline (offsets from the FS write): s3_put, every change
// of FS content ("seq=A", "seq=B", "absent", "other"), every distinct S3 state, lost_found (with
// the copy's path and seq).
absl::StatusOr<VisibilityResult> RunConflictProbe(const ConflictProbeOptions& options,
                                                  s3::S3Client& s3, ProbeClock& clock);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_H_

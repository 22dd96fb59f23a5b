// The domain model of one block-I/O job, with fio's option names and meanings.
//
// A JobSpec is what a fio job section (after [global] inheritance) or a campaign workload becomes.
// It holds no gRPC or YAML types. Units are in the field names; defaults follow fio 3.33 unless a
// comment says why not.
//
// Example:
//   JobSpec job;  RETURN_IF_ERROR(ApplyJobOption(job, "rw", "randread"));
//   RETURN_IF_ERROR(ValidateJobSpec(job));
#ifndef AZBENCH_COMMON_JOB_SPEC_H_
#define AZBENCH_COMMON_JOB_SPEC_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"

namespace azbench {

enum class RwPattern {
  kRead,       // sequential read
  kWrite,      // sequential write
  kRandRead,   // random read
  kRandWrite,  // random write
  kReadWrite,  // sequential mixed (fio: rw, readwrite)
  kRandRw,     // random mixed
};

bool IsRandom(RwPattern rw);
bool DoesRead(RwPattern rw);
bool DoesWrite(RwPattern rw);
// fio's spelling: read, write, randread, randwrite, rw, randrw.
std::string_view RwPatternName(RwPattern rw);

// azbench `sharing`: how the agents of a multi-agent scenario use a job's generated files
// (`directory` without `filename`). file-per-agent: each agent in its own subdirectory
// `<directory>/<agent_id>`; shared-dir: all agents in `<directory>`, files named
// "<agent_id>.<name>.<clone>.<file>"; shared-file: all agents on the same files
// `<directory>/<name>.<clone>.<file>` (one agent lays them out first, see
// coordinator/run/run_prepare.cc).
enum class FileSharing { kFilePerAgent, kSharedDir, kSharedFile };
// "file-per-agent", "shared-dir", "shared-file".
std::string_view FileSharingName(FileSharing sharing);

// The clock that timestamps ops (fio's `clocksource`): kAuto = the TSC where the machine makes it
// usable, else clock_gettime (see agent/engines/op_clock.h).
enum class ClockSource { kAuto, kCpu, kClockGettime };
// "auto", "cpu", "clock_gettime".
std::string_view ClockSourceName(ClockSource source);

// The I/O engines an agent is built with (agent/engines/engine_registry.cc creates them), in the
// order `azbench-agent --help` lists them. `ioengine` is checked against it when a job is parsed,
// so `azbench plan` refuses a misspelt engine before anything runs; whether an agent's kernel
// offers it (io_uring may be disabled) is checked when the agent prepares the job.
inline constexpr std::array<std::string_view, 19> kIoEngineNames = {
    "psync",     "sync",     "vsync",     "pvsync", "pvsync2",    "posixaio", "mmap",
    "libaio",    "io_uring", "null",      "nfs",    "filecreate", "filestat", "filedelete",
    "dircreate", "dirstat",  "dirdelete", "falloc", "ftruncate"};

// Engines that operate on file names instead of moving data (agent/engines/file_op_engine.h).
bool IsFileOpEngineName(std::string_view name);

// fio's stat_type (filestat, dirstat): which system call looks a name up.
enum class StatType { kStat, kLstat, kStatx };

// The deepest queue of the engines that hand requests to the kernel (libaio, io_uring): their
// kernel context or ring is sized by it. Checked when a job is parsed, so `azbench plan` refuses a
// deeper one before anything runs; the engines declare it as their max_iodepth.
inline constexpr int kMaxKernelAsyncIodepth = 4096;

// Limits of the options that the option table's setters and ValidateJobSpec both check.
inline constexpr int kMaxJobIodepth = 65536;
inline constexpr int kMaxJobNumjobs = 4096;
inline constexpr int kMaxJobNrfiles = 1'000'000;
inline constexpr absl::Duration kMaxUringWaitPause = absl::Milliseconds(1);

// How the next file is chosen when a job has several files (fio's file_service_type).
enum class FileServiceType { kRoundRobin, kSequential, kRandom };

struct JobSpec {
  std::string name = "job";
  // Target: `filename` wins over `directory`; with only `directory`, files are named like fio's
  // "<name>.<jobindex>.<fileindex>" inside it. Several filenames are separated by ':' as in fio.
  std::string filename;
  std::string directory;
  uint64_t size_bytes = 0;     // per job (per numjobs clone); required
  uint64_t io_size_bytes = 0;  // 0 = size_bytes
  uint64_t offset_bytes = 0;   // start of the I/O region inside each file
  uint64_t block_size_bytes = 4096;
  RwPattern rw = RwPattern::kRead;
  int rwmixread_percent = 50;  // for kReadWrite / kRandRw
  std::string ioengine = "psync";
  // fio's nfs_url (ioengine=nfs only; common/nfs_url.h): the export that `filename` and
  // `directory` are beneath.
  std::string nfs_url;
  int iodepth = 1;
  // Async engines: how many I/Os are submitted per submit call, and reaped per getevents call.
  // 0 means azbench's default: submit every free slot per call (O_DIRECT: one per call, as fio
  // does), reap between 1 and iodepth completions per call.
  int iodepth_batch_submit = 0;
  int iodepth_batch_complete_min = 0;
  int iodepth_batch_complete_max = 0;
  int numjobs = 1;
  int nrfiles = 1;
  FileServiceType file_service_type = FileServiceType::kRoundRobin;
  bool direct = false;
  int fsync_every_n = 0;      // fio `fsync=N`: fsync after every N writes; 0 = never
  int fdatasync_every_n = 0;  // fio `fdatasync=N`
  bool end_fsync = false;
  absl::Duration runtime = absl::ZeroDuration();  // 0 = until io_size is done
  bool time_based = false;
  absl::Duration ramp_time = absl::ZeroDuration();
  bool randrepeat = true;
  std::optional<uint64_t> randseed;
  // false: random offsets visit every block once per pass (fio's random map).
  bool norandommap = false;
  // azbench: stream every measured op's raw record (start, kind, offset, bytes, latency, errno) to
  // the coordinator, at most op_log_rate records per second per clone (the rest are counted).
  bool op_log = false;
  uint64_t op_log_rate = 10000;
  uint64_t rate_iops = 0;  // 0 = unlimited; per job clone
  // azbench, io_uring only: how long the engine spins before a blocking wait for completions while
  // its recent waits were short (agent/engines/wait_pause.h); 0 = never. Unset = the engine's
  // default (2 us).
  std::optional<absl::Duration> uring_wait_pause;
  // fio's io_uring options. fixedbufs: register the I/O buffers with the ring (READ_FIXED /
  // WRITE_FIXED), which saves pinning the pages of every O_DIRECT request; unset = on with
  // direct=1, off for buffered I/O, where the kernel copies through the page cache anyway and the
  // plain path is faster (bench/README.md). registerfiles: register the files (no file reference
  // taken per request); unset = on. io_uring only.
  std::optional<bool> fixedbufs;
  std::optional<bool> registerfiles;
  bool invalidate = true;  // drop the page cache of the file before the job (fio's default)
  int buffer_compress_percentage = 0;  // 0 = incompressible random data
  bool refill_buffers = false;         // regenerate the whole buffer before every write
  bool scramble_buffers = true;        // cheap per-write perturbation so dedupe cannot fold blocks
  bool group_reporting = false;
  bool stonewall = false;  // wait for the previous jobs to finish before this one starts
  bool new_group = false;
  int kb_base = 1024;
  ClockSource clocksource = ClockSource::kAuto;
  FileSharing sharing = FileSharing::kFilePerAgent;  // azbench `sharing` (see FileSharing)
  // Prepended to generated file names (not to `filename`); the agent sets it for shared-dir.
  std::string file_name_prefix;
  // fio's file options. file_size_bytes: each file's size (filesize); 0 = size / nrfiles; honoured
  // by the file-operation engines only. create_on_open: create files when first opened (only
  // with filecreate and dircreate, which create them anyway). openfiles: most files open at once;
  // 0 = nrfiles. stat_type: filestat and dirstat.
  uint64_t file_size_bytes = 0;
  bool create_on_open = false;
  int openfiles = 0;
  StatType stat_type = StatType::kStat;
  // fio's unlink: remove the job's files when it ends. `azbench-agent run` honours it when every
  // job of the run sets it (as --unlink); a serving agent removes them always.
  bool unlink = false;
  // fio's pvsync2 options: RWF_HIPRI (polled completion) and RWF_NOWAIT on every read and write.
  bool hipri = false;
  bool nowait = false;
  // Not options: this agent's place among the agents sharing the job's files (sharing=shared-file
  // or a `filename`; set by the agent from its Prepare). Stream k of n uses its own random seed
  // (stream 0 keeps randseed) and starts sequential passes k/n of the way into each file, so agents
  // do not read or write the same blocks in lockstep.
  int shared_stream_index = 0;
  int shared_stream_count = 1;

  // File names this job clone will use, in order (index = numjobs clone number, 0-based).
  std::vector<std::string> FilePaths(int clone_index) const;
  uint64_t EffectiveIoSize() const { return io_size_bytes == 0 ? size_bytes : io_size_bytes; }
};

// Sets one option by its fio name or alias from its textual value, as the option table
// (common/fio_option_table.h) says: honoured options with fio's unit rules and the spec's kb_base;
// options without effect in azbench are accepted, and their reason is added to `warnings` when
// given. Errors: InvalidArgument naming the option and what is allowed; Unimplemented("option
// 'rate' is not supported by azbench: <why>") for a refused fio option; NotFound("unknown option
// ...", with the closest name) for a name that is no option at all. The caller adds file and line.
absl::Status ApplyJobOption(JobSpec& job, std::string_view key, std::string_view value,
                            std::vector<std::string>* warnings = nullptr);

// True for every option (or fio alias, e.g. `blocksize`) that ApplyJobOption accepts: honoured
// and no-effect options.
bool IsSupportedJobOption(std::string_view key);

// The options ApplyJobOption accepts: honoured names, then no-effect ones, then their aliases
// (for "supported: ..." messages).
std::vector<std::string> SupportedJobOptionNames();

// The longest job name: names end up in file names ("<name>.<clone>.<file>") and result rows; a
// campaign's name has the same cap.
inline constexpr size_t kMaxJobNameLength = 100;

// A job name that can be part of a file name: not empty, at most kMaxJobNameLength characters, no
// '/', NUL or other control character, not "." or "..". InvalidArgument naming the job otherwise.
absl::Status CheckJobName(std::string_view name);

// Whole-spec checks that no single option can make: the name (CheckJobName), size present, bs <=
// size, offsets aligned for direct, iodepth >= 1, rwmixread in 0..100, runtime given when
// time_based. Errors name the field.
absl::Status ValidateJobSpec(const JobSpec& job);

}  // namespace azbench

#endif  // AZBENCH_COMMON_JOB_SPEC_H_

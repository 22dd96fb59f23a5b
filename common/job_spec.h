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

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "common/fio_log_options.h"
#include "common/report_choice.h"
#include "common/steady_state.h"
#include "common/thread_placement.h"

namespace azbench {

enum class RwPattern {
  kRead,       // sequential read
  kWrite,      // sequential write
  kRandRead,   // random read
  kRandWrite,  // random write
  kReadWrite,  // sequential mixed (fio: rw, readwrite)
  kRandRw,     // random mixed
  kTrim,       // sequential trim
  kRandTrim,   // random trim
  // Each trim is followed by a write of the same blocks (fio's trimwrite, randtrimwrite).
  kTrimWrite,
  kRandTrimWrite,
};

bool IsRandom(RwPattern rw);
bool DoesRead(RwPattern rw);
bool DoesWrite(RwPattern rw);  // the trim-and-write patterns too
bool DoesTrim(RwPattern rw);
// fio's spelling: read, write, randread, randwrite, rw, randrw, trim, randtrim, trimwrite,
// randtrimwrite.
std::string_view RwPatternName(RwPattern rw);

// fio's fallocate: how a file is preallocated when it is laid out (agent/workloads/file_layout.h).
// kNative is fallocate(2) with mode 0, whose failure is ignored; kPosix posix_fallocate(3), whose
// failure is a warning; kKeep fallocate(FALLOC_FL_KEEP_SIZE); kTruncate ftruncate(2) to the size.
enum class FallocateMode { kNone, kNative, kPosix, kKeep, kTruncate };
// fio's spelling: none, native, posix, keep, truncate.
std::string_view FallocateModeName(FallocateMode mode);

// azbench `sharing`: how the agents of a multi-agent scenario use a job's generated files
// (`directory` without `filename`). file-per-agent: each agent in its own subdirectory
// `<directory>/<agent_id>`; shared-dir: all agents in `<directory>`, files named
// "<agent_id>.<name>.<clone>.<file>"; shared-file: all agents on the same files
// `<directory>/<name>.<clone>.<file>` (one agent lays them out first, see
// coordinator/run/run_prepare.cc); write-verify: the shared-file layout, agent 0 writes the
// files with verify headers, the others wait for it, then read them back and verify them
// (agent/workloads/block_io/write_verify.h).
enum class FileSharing { kFilePerAgent, kSharedDir, kSharedFile, kWriteVerify };
// "file-per-agent", "shared-dir", "shared-file", "write-verify".
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

// One entry of fio's bssplit: a block size and its share of a direction's I/Os, in percent.
struct BlockSizeShare {
  uint64_t bytes = 0;
  uint32_t percent = 0;
  bool operator==(const BlockSizeShare&) const = default;
};

// How one direction (read or write) picks the size of each I/O, resolved from fio's bs, bsrange
// and bssplit (bssplit wins over bsrange, bsrange over bs, as in fio). Sizes are drawn by
// agent/workloads/block_size_picker.h.
struct BlockSizeChoice {
  uint64_t min_bytes = 4096;
  uint64_t max_bytes = 4096;
  std::vector<BlockSizeShare> split;  // bssplit, ordered by share as fio; empty: bs or bsrange
  uint64_t align_bytes = 4096;        // blockalign: random offsets are multiples of it
  bool unaligned = false;             // bs_unaligned: sizes need not be multiples of min_bytes
};

// fio's random_distribution (agent/workloads/random_distribution.h has the definitions).
enum class RandomDistributionKind {
  kUniform,
  kZipf,
  kPareto,
  kNormal,
  kZoned,
  kZonedAbs,
  kSequence
};
// One zone of zoned (size_percent of the region) or zoned_abs (size_bytes): its share of accesses.
struct RandomZone {
  uint32_t access_percent = 0;
  uint32_t size_percent = 0;
  uint64_t size_bytes = 0;
  bool operator==(const RandomZone&) const = default;
};
struct RandomDistributionSpec {
  RandomDistributionKind kind = RandomDistributionKind::kUniform;
  double value = 0;              // zipf's theta, pareto's h, normal's deviation in percent
  std::optional<double> center;  // 0..1: where the hottest blocks sit (zipf, pareto, normal)
  std::array<std::vector<RandomZone>, 2> zones;  // zoned, zoned_abs: [0] read, [1] write
  // sequence: the block indices each direction's I/Os visit in turn (fio's random_sequence, at
  // most 64); with `sequence_stride` (fio's random_sequence_stride, set by its own option) each
  // round of the list moves on by its length: 2,0,1 then 5,3,4.
  std::vector<uint64_t> sequence;
  bool sequence_stride = false;
};
// fio's random_generator: every one draws uniformly; lfsr also visits every block exactly once
// per pass even with norandommap, as fio's LFSR does.
enum class RandomGenerator { kTausworthe, kLfsr, kTausworthe64 };

// fio's rw_sequencer: where the I/Os between two random ones of `rw=randread:<n>` go.
enum class RwSequencer { kSequential, kIdentical };

// fio's exit_what: which jobs a job's end ends (agent/runner/job_exits.h).
enum class ExitWhat { kGroup, kStonewall, kAll };

// How the next file is chosen when a job has several files (fio's file_service_type).
enum class FileServiceType { kRoundRobin, kSequential, kRandom };

// fio's verify types, numbered as fio 3.33 numbers them: the number is written into every block's
// header (agent/workloads/verify_block.h), so it must not change. Only those azbench implements
// are listed.
enum class VerifyType : uint16_t {
  kNone = 0,
  kMeta = 1,  // fio's VERIFY_HDR_ONLY: the header, and verify_pattern when one is given
  kMd5 = 2,
  kCrc32 = 4,
  kCrc32c = 5,  // crc32c-intel too
  kSha256 = 9,
  kSha512 = 10,
  kXxhash = 15,
  kSha1 = 16,
  kPattern = 17,          // verify_pattern without verify: a header, then the pattern
  kPatternNoHeader = 18,  // verify=pattern: the pattern only
  kNull = 19,             // pretend to verify
};
// fio's spelling (crc32c for both crc32c and crc32c-intel).
std::string_view VerifyTypeName(VerifyType type);

struct JobSpec {
  std::string name = "job";
  // Target: `filename` wins over `directory`; with only `directory`, files are named like fio's
  // "<name>.<jobindex>.<fileindex>" inside it. Several filenames are separated by ':' as in fio,
  // and so are several directories (`\:` is a colon): clone n's generated files go in directory n
  // modulo their count, the names of `filename` in the first (fio's set_name_idx).
  std::string filename;
  std::string directory;
  uint64_t size_bytes = 0;                // per job (per numjobs clone); 0: the files' sizes
  uint64_t io_size_bytes = 0;             // 0 = size_bytes
  uint64_t offset_bytes = 0;              // start of the I/O region inside each file
  uint64_t block_size_bytes = 4096;       // fio's bs for reads (and writes unless bs=R,W)
  uint64_t write_block_size_bytes = 0;    // fio's bs=R,W: the writes' bs; 0 = block_size_bytes
  uint64_t trim_block_size_bytes = 4096;  // fio's bs=R,W,T: the trims' bs (bs=R,W sets it to W)
  // fio's bsrange (min, max) and bssplit per direction ([0] read, [1] write); {0, 0} and empty
  // when not given. Use BlockSizes() for what a direction does.
  std::array<std::pair<uint64_t, uint64_t>, 2> bsrange_bytes{};
  std::array<std::vector<BlockSizeShare>, 2> bssplit;
  std::array<uint64_t, 2> blockalign_bytes{};  // fio's ba per direction; 0 = the minimum size
  bool bs_unaligned = false;
  // fio's bs_is_seq_rand: the per-direction values of bs, bsrange, bssplit and ba (read,write) are
  // for sequential and random I/Os instead, whatever their direction. BlockSizes() resolves it.
  bool bs_is_seq_rand = false;
  RwPattern rw = RwPattern::kRead;
  // fio's rw modifiers: `rw=read:-8k` moves each sequential I/O this many bytes from where the
  // previous one ended (a hole, or backwards when negative); `rw=randread:8` draws a new random
  // offset only every 8th I/O, the others placed by rw_sequencer.
  int64_t rw_seq_add_bytes = 0;
  int rw_seq_nr = 1;
  RwSequencer rw_sequencer = RwSequencer::kSequential;
  // fio's percentage_random per direction ([0] read, [1] write): in a random job, the share of
  // I/Os at a random offset; the others continue where the previous one ended.
  std::array<int, 2> percentage_random = {100, 100};
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
  bool disk_util = true;  // report the disks under the job's files (fio's disk_util)
  ReportChoice report;    // what the fio-format outputs report (percentiles, unified directions)
  absl::Duration runtime = absl::ZeroDuration();  // 0 = until io_size is done
  bool time_based = false;
  absl::Duration ramp_time = absl::ZeroDuration();
  // fio's ss, ss_dur and ss_ramp: end the job (its reporting group with group_reporting) once its
  // IOPS or bandwidth is steady (common/steady_state.h); off while ss_dur is under a second.
  SteadyStateSpec steadystate;
  bool randrepeat = true;
  std::optional<uint64_t> randseed;
  // false: random offsets visit every block once per pass (fio's random map).
  bool norandommap = false;
  RandomDistributionSpec random_distribution;
  RandomGenerator random_generator = RandomGenerator::kTausworthe;
  // azbench: stream every measured op's raw record (start, kind, offset, bytes, latency, errno) to
  // the coordinator, at most op_log_rate records per second per clone (the rest are counted).
  bool op_log = false;
  uint64_t op_log_rate = 10000;
  // fio's log files, written by `azbench-agent run` from the same op records (every op, no cap).
  FioLogOptions fio_logs;
  // fio's rate options, per clone and per direction (index 0 read, 1 write; 0 = none): rate caps
  // bytes/s, rate_iops ops/s (not both for one direction, as fio); the _min ones fail the job when
  // a direction's rate over a rate_cycle stays below them (checked after 2 s, as fio).
  // rate_poisson: fio's rate_process=poisson, exponential gaps between ops instead of even ones.
  std::array<uint64_t, 2> rate_iops = {0, 0};
  std::array<uint64_t, 2> rate_bytes_per_s = {0, 0};
  std::array<uint64_t, 2> rate_min_bytes_per_s = {0, 0};
  std::array<uint64_t, 2> rate_iops_min = {0, 0};
  absl::Duration rate_cycle = absl::Milliseconds(1000);
  bool rate_poisson = false;
  // fio's rate_ignore_thinktime: after a think time the rate's schedule moves on by it (less one
  // op's time) instead of catching up on it.
  bool rate_ignore_thinktime = false;
  // fio's latency_target search (agent/workloads/block_io/latency_target.h): the clone looks for
  // the deepest queue, up to iodepth, at which latency_percentile percent of each
  // latency_window's reads and writes take at most latency_target, and reports it; without
  // latency_run the job ends once found. latency_target 0: no search, iodepth throughout.
  absl::Duration latency_target = absl::ZeroDuration();
  absl::Duration latency_window = absl::ZeroDuration();
  double latency_percentile = 100.0;
  bool latency_run = false;
  // fio's job-structure options. number_ios: the most data ops of one loop (0 = no cap; a
  // time_based job ignores it, as fio loops on). loops: how many times the job does its io_size
  // (or number_ios), each loop starting over at the region's start. offset_increment: clone n's
  // region starts at offset + n * offset_increment. startdelay: each clone starts this much later;
  // with startdelay_high above it (`startdelay=1-3`), a random delay in between, per clone.
  uint64_t number_ios = 0;
  int loops = 1;
  uint64_t offset_increment_bytes = 0;
  absl::Duration startdelay = absl::ZeroDuration();
  absl::Duration startdelay_high = absl::ZeroDuration();
  // fio's thinktime: after every thinktime_blocks ops (completed, or issued with
  // thinktime_blocks_issue), or after thinktime_iotime of I/O since the last think time if sooner,
  // the clone lets its queue drain, then spins thinktime_spin and sleeps the rest of thinktime.
  // thinktime_blocks 0 = unset: 1, or no block count at all when thinktime_iotime is set (fio).
  absl::Duration thinktime = absl::ZeroDuration();
  absl::Duration thinktime_spin = absl::ZeroDuration();
  int thinktime_blocks = 0;
  bool thinktime_blocks_issue = false;
  absl::Duration thinktime_iotime = absl::ZeroDuration();
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
  // Write buffer contents as fio (agent/workloads/buffer_pool.h). refill_buffers: regenerate the
  // whole buffer before every write; scramble_buffers: cheap per-write perturbation so dedupe
  // cannot fold blocks. Unset: fio's default given the other buffer options.
  std::optional<bool> refill_buffers;
  std::optional<bool> scramble_buffers;
  bool zero_buffers = false;
  std::string buffer_pattern;                  // the bytes, parsed (fio's pattern syntax)
  uint64_t buffer_compress_chunk_bytes = 512;  // 0 = the smallest write size
  int dedupe_percentage = 0;                   // share of written blocks that repeat an earlier one
  // dedupe_mode=working_set: a repeated block is one of the first dedupe_working_set_percentage
  // percent of the job's size in unique blocks (else the previous block); dedupe_global: that
  // set is spread over every clone of the run.
  bool dedupe_working_set = false;
  int dedupe_working_set_percentage = 5;
  bool dedupe_global = false;
  bool group_reporting = false;
  bool stonewall = false;  // wait for the previous jobs to finish before this one starts
  bool new_group = false;
  // fio's wait_for: the name of an earlier job of the same run; this one starts when that one has
  // ended (the job file parser checks that it names an earlier job).
  std::string wait_for;
  // fio's flow control (agent/workloads/flow_registry.h): clones of a run with the same flow_id
  // issue I/Os in proportion to flow_weight (fio's flow; 0 = not in a flow). One that is ahead
  // waits: it drains its queue and sleeps flow_sleep, or with flow_sleep 0 tries again at once.
  uint32_t flow_id = 0;
  uint32_t flow_weight = 0;
  absl::Duration flow_sleep = absl::ZeroDuration();
  // fio's exitall, exitall_on_error and exit_what (agent/runner/job_exits.h): when one of this
  // job's clones ends, the jobs exit_what names end too: on any end when any job of the run sets
  // exitall (fio's flag is global), on a failed end with exitall_on_error.
  bool exitall = false;
  bool exitall_on_error = false;
  ExitWhat exit_what = ExitWhat::kGroup;
  // fio's continue_on_error, ignore_error and error_dump (common/error_policy.h): the error types
  // (a mask of 1 << ErrorType) whose listed errors are counted and let a clone go on; per type
  // (read, write, verify) those errno values, empty for fio's default EIO and EILSEQ; error_dump
  // logs every error, ignored ones too.
  uint32_t continue_on_error = 0;
  std::array<std::vector<int>, 3> ignore_error;
  bool error_dump = false;
  int kb_base = 1024;
  ClockSource clocksource = ClockSource::kAuto;
  FileSharing sharing = FileSharing::kFilePerAgent;  // azbench `sharing` (see FileSharing)
  // Prepended to generated file names (not to `filename`); the agent sets it for shared-dir.
  std::string file_name_prefix;
  // fio's filename_format: the generated names, with $jobname, $jobnum (the clone), $filenum and
  // $clientuid replaced (case-insensitive, as fio); empty means fio's "$jobname.$jobnum.$filenum".
  std::string filename_format;
  // Not an option: what $clientuid becomes. The agent's id in a campaign (so agents sharing a
  // directory get distinct names, as fio's clients do); empty in one-shot runs, as in fio without
  // client/server mode.
  std::string client_uid;
  // fio's file options. file_size_bytes: each file's size (filesize); 0 = size / nrfiles; with
  // only filesize given, size is nrfiles files of it (fio's default). create_on_open: create files
  // when first opened (only with filecreate and dircreate, which create them anyway). openfiles:
  // most files open at once; 0 = nrfiles. stat_type: filestat and dirstat.
  uint64_t file_size_bytes = 0;
  bool create_on_open = false;
  // fio's create_serialize: the jobs with 0 lay out their files at once, after those with 1, which
  // lay out one after another (agent/runner/runner_layout.cc).
  bool create_serialize = true;
  int openfiles = 0;
  StatType stat_type = StatType::kStat;
  // fio's fallocate: native is fio's default on Linux.
  FallocateMode fallocate = FallocateMode::kNative;
  // fio's unlink: remove the job's files when it ends. `azbench-agent run` honours it when every
  // job of the run sets it (as --unlink); a serving agent removes them always.
  bool unlink = false;
  // fio's sizes from the files that exist (agent/workloads/block_io/existing_file_sizes.h resolves
  // them when the job is prepared, where the files are known). size not given (size_bytes 0, no
  // filesize): each file's size less the offset. The _percent fields are fio's `size=N%`,
  // `offset=N%`, `offset_increment=N%` and `io_size=N%`, of each file's size (0: not a
  // percentage). fill_device: ENOSPC or EDQUOT ends the job cleanly; without size, a sequential
  // write goes on until the file system is full.
  uint32_t size_percent = 0;
  uint32_t offset_percent = 0;
  uint32_t offset_increment_percent = 0;
  uint32_t io_size_percent = 0;
  bool fill_device = false;
  // Not an option: each clone's region start, when a percentage made it (offset=N% and
  // offset_increment=N% are rounded up to the smallest block size per clone, as fio); empty
  // otherwise.
  std::vector<uint64_t> clone_offsets_bytes;
  // Not an option: each clone's region in each file, when the size came from the files and the
  // clones start at different offsets (fio's region: the file's size less the clone's offset);
  // empty otherwise (every clone's is FileRegionBytes).
  std::vector<uint64_t> clone_region_bytes;
  // fio's unlink_each_loop: between two loops a clone removes its files and opens them again
  // (a job that writes creates them anew; one that only reads then fails with ENOENT, as fio).
  bool unlink_each_loop = false;
  // fio's pvsync2 options: RWF_HIPRI (polled completion) and RWF_NOWAIT on every read and write.
  bool hipri = false;
  bool nowait = false;
  // Not options: this agent's place among the agents sharing the job's files (sharing=shared-file
  // or a `filename`; set by the agent from its Prepare). Stream k of n uses its own random seed
  // (stream 0 keeps randseed) and starts sequential passes k/n of the way into each file, so agents
  // do not read or write the same blocks in lockstep.
  int shared_stream_index = 0;
  int shared_stream_count = 1;
  // Data verification, fio's verify options (agent/workloads/verify_block.h). Unset `verify` with a
  // verify_pattern means kPattern, as fio (EffectiveVerify).
  std::optional<VerifyType> verify;
  uint64_t verify_interval_bytes = 0;  // 0: the smallest write size (fio's default)
  uint64_t verify_offset_bytes = 0;    // where in each interval the header goes
  std::string verify_pattern;          // the bytes, parsed
  bool do_verify = true;               // a write job reads back what it wrote
  bool verify_only = false;            // a write job only reads back what it would have written
  bool verify_fatal = false;           // stop checking a block at its first bad interval
  // A failed interval's bytes as read and as written go to files in the current directory (fio's
  // verify_dump: <file>.<offset>.received and .expected, or .hdr_fail for a bad header).
  bool verify_dump = false;
  uint64_t verify_backlog = 0;  // verify after every N writes; 0: after all of them
  // fio's cpus_allowed / cpumask, cpus_allowed_policy, nice, prio and prioclass: each clone thread
  // sets its affinity, nice value and I/O priority as it starts.
  ThreadPlacementSpec placement;

  VerifyType EffectiveVerify() const {
    return verify.value_or(verify_pattern.empty() ? VerifyType::kNone : VerifyType::kPattern);
  }
  // File names this job clone will use, in order (index = numjobs clone number, 0-based).
  std::vector<std::string> FilePaths(int clone_index) const;
  uint64_t EffectiveIoSize() const { return io_size_bytes == 0 ? TotalSizeBytes() : io_size_bytes; }
  // size; with filesize, at most nrfiles files of it, and that when size is not given (fio).
  uint64_t TotalSizeBytes() const;
  // Each file's I/O region: filesize, else size shared equally among a clone's files.
  uint64_t FileRegionBytes() const;
  // Where clone `clone_index`'s I/O region starts in each file (offset + n * offset_increment).
  uint64_t CloneOffset(int clone_index) const {
    if (static_cast<size_t>(clone_index) < clone_offsets_bytes.size()) {
      return clone_offsets_bytes[static_cast<size_t>(clone_index)];
    }
    return offset_bytes + static_cast<uint64_t>(clone_index) * offset_increment_bytes;
  }
  // Clone `clone_index`'s region in each of its files.
  uint64_t CloneRegionBytes(int clone_index) const {
    if (static_cast<size_t>(clone_index) < clone_region_bytes.size()) {
      return clone_region_bytes[static_cast<size_t>(clone_index)];
    }
    return FileRegionBytes();
  }
  // What one loop of clone `clone_index` does: io_size, else its regions' bytes.
  uint64_t CloneIoSize(int clone_index) const {
    if (io_size_bytes != 0 || static_cast<size_t>(clone_index) >= clone_region_bytes.size()) {
      return EffectiveIoSize();
    }
    return clone_region_bytes[static_cast<size_t>(clone_index)] *
           static_cast<uint64_t>(std::max(1, nrfiles));
  }
  // Whether the job's sizes or offsets depend on the files' existing sizes (size not given, or a
  // percentage): the agent decides them when it prepares the job.
  bool SizeFromFiles() const {
    return TotalSizeBytes() == 0 || size_percent != 0 || offset_percent != 0 ||
           offset_increment_percent != 0 || io_size_percent != 0;
  }
  // What a direction's I/O sizes are (bs, bsrange, bssplit, blockalign, bs_unaligned resolved).
  // What a direction's I/O sizes are (bs, bsrange, bssplit, blockalign, bs_unaligned resolved;
  // with bs_is_seq_rand, those of the job's sequential or random I/Os, for either direction).
  BlockSizeChoice BlockSizes(bool write) const;
  // A trim's size: trim_block_size_bytes, aligned to itself (trims take no bsrange, bssplit or
  // blockalign: ValidateJobSpec refuses them with a trim pattern).
  BlockSizeChoice TrimBlockSizes() const;
  // The largest I/O of either direction: the size of the I/O buffers.
  uint64_t MaxBlockSizeBytes() const;
};

// A generated file name by fio's filename_format rules (JobSpec::filename_format): "$jobname",
// "$jobnum", "$filenum" and "$clientuid" replaced wherever they appear, in any case; an empty
// format gives "<job_name>.<job_number>.<file_number>".
std::string GeneratedFileName(std::string_view format, std::string_view job_name, int job_number,
                              int file_number, std::string_view client_uid);

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

// Whole-spec checks that no single option can make: the name (CheckJobName), bs <= size (when
// the size does not come from the files, see JobSpec::SizeFromFiles), offsets aligned for direct,
// iodepth >= 1, rwmixread in 0..100, runtime given when time_based. Errors name the field.
absl::Status ValidateJobSpec(const JobSpec& job);

}  // namespace azbench

#endif  // AZBENCH_COMMON_JOB_SPEC_H_

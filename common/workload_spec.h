// The workload families other than block I/O, their options, and which family accepts which
// option. Like JobSpec (block I/O, common/job_spec.h), these are plain domain structs that the
// campaign parser and the agent both fill from the same "key=value" options, so a campaign that
// parses is one every agent accepts.
//
//   metadata     mdtest-like: files per clone across directories; phases create, stat, open,
//                read (small), rename, delete, each its own op kind; phases separated by a
//                barrier across all agents of a scenario.
//   small_files  write then read whole files of each size in a list; one result per size.
//   large_stream dd-like: one sequential stream over one big file, N passes; one result per pass.
//   visibility   how long until a write is seen elsewhere
//   (agent/workloads/visibility/visibility_spec.h runs
//                it; only its options are checked here, see ValidateVisibilityOptions).
//
// Example:
//   ASSIGN_OR_RETURN(WorkloadFamily family, ParseWorkloadFamily("metadata"));
//   MetadataSpec md;  RETURN_IF_ERROR(ApplyMetadataOption(md, "files", "100"));
//   RETURN_IF_ERROR(ValidateMetadataSpec(md));
#ifndef AZBENCH_COMMON_WORKLOAD_SPEC_H_
#define AZBENCH_COMMON_WORKLOAD_SPEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/op_kind.h"

namespace azbench {

enum class WorkloadFamily { kBlockIo, kMetadata, kSmallFiles, kLargeStream, kVisibility };

// "block_io", "metadata", "small_files", "large_stream", "visibility".
std::string_view WorkloadFamilyName(WorkloadFamily family);
// InvalidArgument naming the value and the allowed families.
absl::StatusOr<WorkloadFamily> ParseWorkloadFamily(std::string_view name);
// "block_io, metadata, small_files, large_stream, visibility"
std::string WorkloadFamilyNames();

// --- metadata ---------------------------------------------------------------------------------

enum class MetadataPhase { kCreate, kStat, kOpen, kRead, kRename, kDelete };
inline constexpr int kMetadataPhaseCount = 6;
std::string_view MetadataPhaseName(
    MetadataPhase phase);                         // create, stat, open, read, rename, delete
OpKind MetadataPhaseOpKind(MetadataPhase phase);  // create, stat, open, read, rename, unlink

// The most a metadata job writes into (write_bytes) or reads from (read_bytes) one file: each
// clone holds a buffer of that size. mdtest-style files are small; larger files are the block_io
// and large_stream families' work.
inline constexpr uint64_t kMaxMetadataFileBytes = 16ULL << 20;  // 16 MiB

struct MetadataSpec {
  std::string name = "job";
  std::string directory;  // required
  // Set: `directory` is beneath this NFS export, reached through libnfs (common/nfs_url.h).
  std::string nfs_url;
  int numjobs = 1;        // threads per agent, each with its own files
  uint64_t files = 5000;  // per clone (mdtest -n)
  int dirs = 10;          // directories the files of one tree are spread over (round robin)
  // false (dir_mode=unique, mdtest -u): every agent and clone has its own directory tree; true
  // (dir_mode=shared, mdtest's default): all agents and clones put their files into the same
  // `dirs` directories.
  bool shared_dirs = false;
  std::vector<MetadataPhase> phases = {MetadataPhase::kCreate, MetadataPhase::kStat,
                                       MetadataPhase::kOpen,   MetadataPhase::kRead,
                                       MetadataPhase::kRename, MetadataPhase::kDelete};
  // mdtest -N: in the stat, open and read phases agent i works on the files agent
  // (i + stride) % agents created, so it cannot answer from its own cache. 0 = own files.
  int stride = 0;
  // Written into every file when it is created (mdtest -w); at most kMaxMetadataFileBytes.
  uint64_t write_bytes = 4096;
  // Read from every file in the read phase (mdtest -e); follows write_bytes unless given; at most
  // kMaxMetadataFileBytes.
  uint64_t read_bytes = 4096;
  bool read_bytes_given = false;
  // mdtest -W: a phase stops issuing new ops after this long; later phases only touch the files
  // that were created. 0 = every phase does all its files.
  absl::Duration stonewall = absl::ZeroDuration();
  bool op_log = false;
  uint64_t op_log_rate = 10000;
  // Set by the coordinator (PrepareRequest.agent_index / agent_count), not by users.
  int agent_index = 0;
  int agent_count = 1;
};

absl::Status ApplyMetadataOption(MetadataSpec& spec, std::string_view key, std::string_view value);
absl::Status ValidateMetadataSpec(const MetadataSpec& spec);

// --- small_files ------------------------------------------------------------------------------

struct SmallFilesSpec {
  std::string name = "job";
  std::string directory;  // required
  // Set: `directory` is beneath this NFS export, reached through libnfs (common/nfs_url.h).
  std::string nfs_url;
  int numjobs = 1;
  std::vector<uint64_t> file_sizes_bytes = {4096, 64 << 10, 128 << 10, 256 << 10, 1 << 20};
  uint64_t files = 100;           // files per size per clone
  uint64_t block_size_bytes = 0;  // bytes per read/write call; 0 = the whole file in one call
  bool direct = false;
  bool fsync = false;      // fsync every file after writing it (timed as fsync)
  bool invalidate = true;  // drop the files' page cache between the write and the read pass
  bool op_log = false;
  uint64_t op_log_rate = 10000;
};

absl::Status ApplySmallFilesOption(SmallFilesSpec& spec, std::string_view key,
                                   std::string_view value);
absl::Status ValidateSmallFilesSpec(const SmallFilesSpec& spec);
// "4k", "64k", "1m", "1536" (the campaign's per-size parameter and the result name suffix).
std::string SizeLabel(uint64_t bytes);
// Splits a `filesizes` list ("4k:64k,1m"; ':' or ',' separated) into its entries, unparsed.
std::vector<std::string> SplitSizeList(std::string_view list);

// --- large_stream -----------------------------------------------------------------------------

struct LargeStreamSpec {
  std::string name = "job";
  std::string directory;  // required unless filename is absolute
  std::string filename;   // default "<name>.stream"
  // Set: `directory` and `filename` are beneath this NFS export, reached through libnfs
  // (common/nfs_url.h).
  std::string nfs_url;
  uint64_t size_bytes = 4ULL << 30;
  uint64_t block_size_bytes = 1 << 20;
  bool write = false;  // rw=write: every pass writes the file; rw=read (default): reads it
  bool direct = false;
  int passes = 3;
  bool end_fsync = true;   // write passes end with an fsync that counts in their time (dd's
                           // conv=fsync)
  bool invalidate = true;  // drop the file's page cache before every pass
  bool op_log = false;
  uint64_t op_log_rate = 10000;

  std::string FilePath() const;
};

absl::Status ApplyLargeStreamOption(LargeStreamSpec& spec, std::string_view key,
                                    std::string_view value);
absl::Status ValidateLargeStreamSpec(const LargeStreamSpec& spec);

// --- visibility -------------------------------------------------------------------------------

// The visibility probes (agent/workloads/visibility/visibility_spec.h runs them; the agent's parser
// is the full check). The coordinator checks here what it can without the agent: every key is a
// visibility option, `probe` is given and known, `bucket` is given unless the probe is
// client_to_client, numbers, sizes, durations, booleans and enums parse, and `key_prefix` is empty
// or ends in '/'; an option the chosen probe would ignore (fsync on export, read_dir on an S3
// probe, trials on append, ...) is refused naming the option, the probe and the probes it applies
// to; conflict's put_delay must be less than its timeout. `directory` is set from the target. The
// agent's parser runs this check too.
absl::Status ValidateVisibilityOptions(
    const std::vector<std::pair<std::string, std::string>>& options);
// One visibility option's value alone (known key, number, duration, enum, key_prefix form), as
// ValidateVisibilityOptions checks each; what depends on other options (the probe it applies to,
// bucket, put_delay < timeout) is left to the whole set.
absl::Status ValidateVisibilityOptionValue(const std::string& key, const std::string& value);

// --- any family -------------------------------------------------------------------------------

// NotFound naming `key`, the family and the options it supports.
absl::Status UnknownWorkloadOption(WorkloadFamily family, std::string_view key);
// The option names `family` accepts (block_io: SupportedJobOptionNames()).
std::vector<std::string> WorkloadOptionNames(WorkloadFamily family);
bool IsWorkloadOption(WorkloadFamily family, std::string_view key);

// Applies `options` to a fresh spec of `family` and validates it, as an agent will. Errors:
// InvalidArgument naming the option and what is allowed; an unknown option says "option 'X' is not
// supported by workload F; supported: ...".
absl::Status ValidateWorkloadOptions(
    WorkloadFamily family, const std::vector<std::pair<std::string, std::string>>& options,
    std::string_view job_name);

}  // namespace azbench

#endif  // AZBENCH_COMMON_WORKLOAD_SPEC_H_

#include "agent/workloads/block_io/block_io_family.h"

#include <algorithm>
#include <limits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/engines/io_engine.h"
#include "agent/workloads/block_io/block_io.h"
#include "agent/workloads/block_io/block_io_workload.h"
#include "agent/workloads/block_io/file_op_job.h"
#include "agent/workloads/block_io/write_verify.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"

namespace azbench {

namespace {

// An unescaped ':' makes `directory` fio's list of directories (JobSpec::FilePaths).
bool HasDirectoryList(const std::string& directory) {
  for (size_t i = 0; i < directory.size(); ++i) {
    if (directory[i] == ':' && (i == 0 || directory[i - 1] != '\\')) return true;
  }
  return false;
}

class ParsedBlockIoJob final : public ParsedJob {
 public:
  ParsedBlockIoJob(JobSpec spec, int group_id) : spec_(std::move(spec)), group_id_(group_id) {
    paths_ = BlockIoPaths(spec_);
  }

  const std::string& name() const override { return spec_.name; }
  absl::StatusOr<JobFootprint> Footprint() const override { return BlockIoFootprint(spec_); }

  // `sharing` (job_spec.h): only file-per-agent jobs take the per-agent subdirectory.
  std::vector<JobPathSet> Paths() override {
    JobPathSet main = JobPathSet::Main(&paths_, spec_.sharing == FileSharing::kFilePerAgent);
    main.disk_util = spec_.disk_util;
    return {main};
  }

  absl::StatusOr<std::unique_ptr<Workload>> Prepare(const FamilyContext& context) override {
    spec_.directory = paths_.directory;
    spec_.filename = paths_.filename;
    if (IsFileOpEngineName(spec_.ioengine)) {
      ASSIGN_OR_RETURN(std::unique_ptr<FileOpJob> job,
                       FileOpJob::Prepare(spec_, group_id_, context.cancel));
      return job;
    }
    ASSIGN_OR_RETURN(std::unique_ptr<BlockIoJob> job,
                     BlockIoJob::Prepare(spec_, group_id_, CreateEngine, context.cancel,
                                         context.job_index, context.dedupe_threads));
    return WrapBlockIoJob(std::move(job), waits_for_writer_);
  }

  bool create_serialize() const override { return spec_.create_serialize; }

  void set_waits_for_writer(bool waits) { waits_for_writer_ = waits; }

 private:
  JobSpec spec_;
  int group_id_;
  JobPaths paths_;
  bool waits_for_writer_ = false;  // sharing=write-verify's verifiers (write_verify.h)
};

class BlockIoFamilyImpl final : public Family {
 public:
  std::string_view name() const override { return "block_io"; }
  absl::StatusOr<std::unique_ptr<ParsedJob>> Parse(const JobRequest& request,
                                                   const FamilyContext& context) const override {
    JobSpec spec;
    for (const auto& [key, value] : request.options) {
      absl::Status applied = ApplyJobOption(spec, key, value);
      // A refused fio option is a bad request, not a missing RPC (gRPC's UNIMPLEMENTED).
      if (absl::IsUnimplemented(applied)) applied = absl::InvalidArgumentError(applied.message());
      RETURN_IF_ERROR(WithJobName(request.name, applied));
    }
    spec.name = request.name;
    // fio's log files of a serving agent's job are the coordinator's to write, from the op records
    // the job streams (every op, not capped by op_log_rate): the agent writes no file a request
    // names.
    if (spec.verify_dump) {
      return absl::InvalidArgumentError(absl::StrCat(
          "job '", request.name,
          "': verify_dump=1 is written by `azbench-agent run` only; a serving agent writes no "
          "file a request names (the failed offsets are in the result)"));
    }
    // A serving agent puts a job's files beneath its own directory in the campaign's target; a
    // list of directories has no place there.
    if ((!context.agent_subdir.empty() || !context.allowed_roots.empty()) &&
        HasDirectoryList(spec.directory)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "job '", request.name, "': directory '", spec.directory,
          "' is a ':'-separated list, which only `azbench-agent run` takes; in a campaign each "
          "agent's directory comes from the target (write '\\:' for a colon in a name)"));
    }
    // Files every agent uses (sharing=shared-file, or a `filename`): this agent's own offsets in
    // them (job_spec.h).
    if (spec.sharing == FileSharing::kSharedFile || !spec.filename.empty()) {
      spec.shared_stream_index = context.placement.agent_index;  // range-checked by block_io
      spec.shared_stream_count = context.placement.agent_count;
    }
    absl::StatusOr<WriteVerifyRole> role =
        ApplyWriteVerifyRole(spec, context.placement.agent_index, context.placement.agent_count);
    RETURN_IF_ERROR(WithJobName(request.name, role.status()));
    std::unique_ptr<ParsedJob> parsed =
        MakeParsedBlockIoJob(std::move(spec), request.group_id, context.agent_subdir);
    static_cast<ParsedBlockIoJob&>(*parsed).set_waits_for_writer(role->waits_for_writer);
    return parsed;
  }
};

}  // namespace

const Family& BlockIoFamily() {
  static const BlockIoFamilyImpl family;
  return family;
}

std::unique_ptr<ParsedJob> MakeParsedBlockIoJob(JobSpec spec, int group_id,
                                                const std::string& agent_subdir) {
  // shared-dir names the files after the agent instead of a per-agent subdirectory.
  if (spec.sharing == FileSharing::kSharedDir && !agent_subdir.empty()) {
    spec.file_name_prefix = absl::StrCat(agent_subdir, ".");
  }
  spec.client_uid = agent_subdir;
  return std::make_unique<ParsedBlockIoJob>(std::move(spec), group_id);
}

JobFootprint BlockIoFootprint(const JobSpec& spec) {
  JobFootprint footprint;
  footprint.clones = static_cast<uint64_t>(std::max(1, spec.numjobs));
  const uint64_t nrfiles = static_cast<uint64_t>(std::max(1, spec.nrfiles));
  if (spec.filename.empty()) {
    // Each clone its own files (name.clone.file).
    footprint.files = nrfiles * footprint.clones;
    footprint.files_formula =
        absl::StrCat("nrfiles ", spec.nrfiles, " x numjobs ", footprint.clones);
  } else {
    // Clones sharing a filename share its files: counted once.
    const std::vector<std::string> paths = spec.FilePaths(0);
    footprint.files = std::unordered_set<std::string>(paths.begin(), paths.end()).size();
    footprint.files_formula = absl::StrCat(footprint.files, " names in filename");
  }
  const uint64_t per_file_bytes = spec.offset_bytes + spec.FileRegionBytes();
  // fill_device without size writes until the file system is full: no free-space reserve holds.
  const bool fills = spec.fill_device && spec.TotalSizeBytes() == 0 && spec.size_percent == 0;
  if (fills || __builtin_mul_overflow(per_file_bytes, footprint.files, &footprint.bytes)) {
    footprint.bytes = std::numeric_limits<uint64_t>::max();  // refused by any limit that applies
  }
  return footprint;
}

JobPaths BlockIoPaths(const JobSpec& spec) {
  JobPaths paths;
  paths.directory = spec.directory;
  paths.filename = spec.filename;
  paths.opens_files = spec.ioengine != "null";
  if (spec.ioengine == "nfs") {
    // Checked by ValidateJobSpec before the job runs; a URL it refuses names no server here.
    absl::StatusOr<NfsUrl> url = ParseNfsUrl(spec.nfs_url);
    paths.nfs_server = url.ok() ? url->server : spec.nfs_url;
  }
  paths.file_paths = [spec](const std::string& directory) {
    JobSpec at = spec;
    at.directory = directory;
    std::vector<std::string> all;
    const int clones = at.filename.empty() ? std::max(1, at.numjobs) : 1;
    for (int c = 0; c < clones; ++c) {
      for (std::string& p : at.FilePaths(c)) all.push_back(std::move(p));
    }
    return all;
  };
  return paths;
}

}  // namespace azbench

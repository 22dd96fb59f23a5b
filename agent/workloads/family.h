// The workload family interface, as agent/engines/io_engine.h is the engines': a Family parses a
// job request's options into a ParsedJob, which states what it lays out and the paths it names
// (so the runner can confine it) and prepares the Workload that runs it. The runner holds one list
// of parsed jobs and never asks which family a job is; agent/runner/family_registry.cc lists the
// families.
//
//   ASSIGN_OR_RETURN(std::unique_ptr<ParsedJob> job, family.Parse(request, context));
//   ASSIGN_OR_RETURN(std::unique_ptr<Workload> workload, job->Prepare(context));
#ifndef AZBENCH_AGENT_WORKLOADS_FAMILY_H_
#define AZBENCH_AGENT_WORKLOADS_FAMILY_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "agent/confinement/job_confinement.h"
#include "agent/workloads/workload.h"

namespace azbench {

namespace s3 {
class MetadataSource;
}  // namespace s3
class DedupeThreads;

struct JobRequest {
  std::string name;
  // block_io, metadata, small_files, large_stream or visibility (agent/runner/family_registry.h);
  // options are that family's.
  std::string workload = "block_io";
  std::vector<std::pair<std::string, std::string>> options;  // fio names and values
  int group_id = 0;
  bool stonewall = false;  // filled from the options when parsed
};

// This agent's place among the agents of a scenario (metadata's shared directories and stride,
// block_io's shared files, visibility's roles).
struct RunPlacement {
  int agent_index = 0;
  int agent_count = 1;
};

// What a family learns about the run and the agent, at Parse and at Prepare.
struct FamilyContext {
  std::string run_id;
  // The per-agent subdirectory name (RunnerConfig::agent_subdir); empty: none.
  std::string agent_subdir;
  RunPlacement placement;
  // Instance metadata for the visibility probes' instance-role credentials; may be null.
  s3::MetadataSource* metadata = nullptr;
  // The allowed roots when the agent confines jobs (the paths were then confined before Prepare);
  // empty otherwise.
  std::vector<std::string> allowed_roots;
  // The run's cancel flag; outlives the prepared workload.
  std::atomic<bool>* cancel = nullptr;
  // At Prepare: the job's place in the run's list of jobs, and the run's registry of the clones
  // whose buffers dedupe_global draws on (may be null; outlives the prepared workload).
  int job_index = 0;
  DedupeThreads* dedupe_threads = nullptr;
};

// One set of paths a job names, as the runner confines it (ConfineJob) or, without a policy,
// gives it the per-agent subdirectory.
struct JobPathSet {
  JobPaths* paths = nullptr;  // the job's own: rewritten in place before Prepare
  // `paths->directory` (when it has no filename) takes the per-agent subdirectory.
  bool agent_subdir = false;
  // Names the set in a refusal ("read_dir"); empty: the job's main paths.
  std::string label;
  // What lies beneath these paths; unset: the job's Footprint().
  std::optional<JobFootprint> footprint;
  // fio's disk_util: whether the run reports the disks beneath these paths.
  bool disk_util = true;

  // A job's main paths.
  static JobPathSet Main(JobPaths* paths, bool agent_subdir) {
    JobPathSet set;
    set.paths = paths;
    set.agent_subdir = agent_subdir;
    return set;
  }
};

// A job whose options parsed. The runner calls Footprint (when it confines jobs) and Paths before
// Prepare, once each.
class ParsedJob {
 public:
  virtual ~ParsedJob() = default;
  virtual const std::string& name() const = 0;
  // Threads, files and bytes, for the limits and the free space. Errors: InvalidArgument when a
  // count does not fit in 64 bits, or a name would lead out of the confined directory.
  virtual absl::StatusOr<JobFootprint> Footprint() const = 0;
  // The paths to confine; pointers into this job, valid until Prepare.
  virtual std::vector<JobPathSet> Paths() = 0;
  // Lays out what the job needs (untimed) through the paths as rewritten. The errors are the
  // family's Prepare's; the runner prefixes the job name when they lack it. Jobs that are not
  // create_serialize() may be prepared at once, each on its own thread.
  virtual absl::StatusOr<std::unique_ptr<Workload>> Prepare(const FamilyContext& context) = 0;
  // fio's create_serialize: true (the default) lays the job out on its own, in the jobs' order,
  // before the jobs that answer false are laid out together.
  virtual bool create_serialize() const { return true; }
};

class Family {
 public:
  virtual ~Family() = default;
  // The `workload` value that selects the family ("block_io").
  virtual std::string_view name() const = 0;
  // Applies the request's options in order. Errors (InvalidArgument, NotFound for an unknown
  // option) name the job and the option.
  virtual absl::StatusOr<std::unique_ptr<ParsedJob>> Parse(const JobRequest& request,
                                                           const FamilyContext& context) const = 0;
};

// `status` with "job '<job>': " in front (OK stays OK; a message that has it keeps it once).
absl::Status WithJobName(const std::string& job, const absl::Status& status);

// The product of named factors ({"files", 5000}), or InvalidArgument naming them and their values
// when it does not fit in 64 bits (a wrapped product would defeat the limits and free-space checks
// it feeds).
absl::StatusOr<uint64_t> CheckedProduct(
    const std::vector<std::pair<std::string, uint64_t>>& factors);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_FAMILY_H_

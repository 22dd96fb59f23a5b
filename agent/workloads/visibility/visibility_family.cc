#include "agent/workloads/visibility/visibility_family.h"

#include <algorithm>
#include <utility>

#include "agent/workloads/visibility/visibility_workload.h"
#include "common/nfs_url.h"

namespace azbench {

namespace {

class ParsedVisibilityJob final : public ParsedJob {
 public:
  ParsedVisibilityJob(std::string name, std::vector<std::pair<std::string, std::string>> options)
      : name_(std::move(name)), options_(std::move(options)) {
    for (const auto& [key, value] : options_) {
      if (key == "directory") directory_.directory = value;
      if (key == "read_dir") read_dir_.directory = value;
      if (key == "nfs_url") {
        // Paths beneath the export: the policy checks the server against allowed_nfs_servers,
        // as for ioengine=nfs. A URL that does not parse is refused by the probe's own parser.
        absl::StatusOr<NfsUrl> url = ParseNfsUrl(value);
        directory_.nfs_server = read_dir_.nfs_server = url.ok() ? url->server : value;
      }
    }
  }

  const std::string& name() const override { return name_; }

  absl::StatusOr<JobFootprint> Footprint() const override {
    JobFootprint footprint;  // the probe files
    footprint.bytes = 1 << 20;
    return footprint;
  }

  // The probe works on the target's path itself (its files map to S3 keys and its mount is
  // looked up by path): the policy checks the directory (roots, symlinks, mounts, free space for
  // the probe files) and Prepare opens it again through the sandbox; the rewritten paths go
  // unused. read_dir (a client_to_client reader's view of the writer's directory) is read only,
  // but it must be beneath the roots too.
  std::vector<JobPathSet> Paths() override {
    std::vector<JobPathSet> sets;
    if (!directory_.directory.empty()) {
      sets.push_back(JobPathSet::Main(&directory_, false));
    }
    if (!read_dir_.directory.empty()) {
      JobPathSet set;
      set.paths = &read_dir_;
      set.label = "read_dir";
      set.footprint = JobFootprint();
      set.footprint->bytes = 1;
      sets.push_back(set);
    }
    return sets;
  }

  absl::StatusOr<std::unique_ptr<Workload>> Prepare(const FamilyContext& context) override {
    const VisibilityRunContext run{context.run_id, context.agent_subdir,
                                   context.placement.agent_index,
                                   std::max(1, context.placement.agent_count), context.metadata};
    // With a policy, the probe's directories are opened through the sandbox beneath the allowed
    // roots, and everything below them without following a symlink.
    return MakeVisibilityWorkload(name_, options_, run, context.allowed_roots);
  }

 private:
  std::string name_;
  std::vector<std::pair<std::string, std::string>> options_;
  JobPaths directory_;
  JobPaths read_dir_;
};

class VisibilityFamilyImpl final : public Family {
 public:
  std::string_view name() const override { return "visibility"; }
  absl::StatusOr<std::unique_ptr<ParsedJob>> Parse(const JobRequest& request,
                                                   const FamilyContext&) const override {
    return std::make_unique<ParsedVisibilityJob>(request.name, request.options);
  }
};

}  // namespace

const Family& VisibilityFamily() {
  static const VisibilityFamilyImpl family;
  return family;
}

}  // namespace azbench

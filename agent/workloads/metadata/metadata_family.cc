#include "agent/workloads/metadata/metadata_family.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "agent/workloads/metadata/metadata.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"
#include "common/workload_spec.h"

namespace azbench {

namespace {

class ParsedMetadataJob final : public ParsedJob {
 public:
  ParsedMetadataJob(MetadataSpec spec, int group_id) : spec_(std::move(spec)), group_id_(group_id) {
    paths_.directory = spec_.directory;
    // Paths beneath an export: the policy checks the server against allowed_nfs_servers, as
    // for ioengine=nfs (the spec was validated, so the URL parses).
    if (!spec_.nfs_url.empty()) {
      absl::StatusOr<NfsUrl> url = ParseNfsUrl(spec_.nfs_url);
      paths_.nfs_server = url.ok() ? url->server : spec_.nfs_url;
    }
  }

  const std::string& name() const override { return spec_.name; }

  absl::StatusOr<JobFootprint> Footprint() const override {
    const uint64_t numjobs = static_cast<uint64_t>(std::max(1, spec_.numjobs));
    ASSIGN_OR_RETURN(const uint64_t files,
                     CheckedProduct({{"files", spec_.files}, {"numjobs", numjobs}}));
    ASSIGN_OR_RETURN(const uint64_t bytes, CheckedProduct({{"files", spec_.files},
                                                           {"write_bytes", spec_.write_bytes},
                                                           {"numjobs", numjobs}}));
    return JobFootprint{
        .clones = numjobs,
        .files = files,
        .bytes = bytes,
        .files_formula = absl::StrCat("files ", spec_.files, " x numjobs ", numjobs)};
  }

  // No agent subdirectory: the stride needs every agent's paths (they carry the agent index
  // instead).
  std::vector<JobPathSet> Paths() override { return {JobPathSet::Main(&paths_, false)}; }

  absl::StatusOr<std::unique_ptr<Workload>> Prepare(const FamilyContext&) override {
    spec_.directory = paths_.directory;
    ASSIGN_OR_RETURN(std::unique_ptr<MetadataJob> job, MetadataJob::Prepare(spec_, group_id_));
    return std::unique_ptr<Workload>(std::move(job));
  }

 private:
  MetadataSpec spec_;
  int group_id_;
  JobPaths paths_;
};

class MetadataFamilyImpl final : public Family {
 public:
  std::string_view name() const override { return "metadata"; }
  absl::StatusOr<std::unique_ptr<ParsedJob>> Parse(const JobRequest& request,
                                                   const FamilyContext& context) const override {
    MetadataSpec spec;
    spec.name = request.name;
    for (const auto& [key, value] : request.options) {
      RETURN_IF_ERROR(WithJobName(request.name, ApplyMetadataOption(spec, key, value)));
    }
    spec.name = request.name;
    spec.agent_index = context.placement.agent_index;
    spec.agent_count = std::max(1, context.placement.agent_count);
    RETURN_IF_ERROR(WithJobName(request.name, ValidateMetadataSpec(spec)));
    return std::make_unique<ParsedMetadataJob>(std::move(spec), request.group_id);
  }
};

}  // namespace

const Family& MetadataFamily() {
  static const MetadataFamilyImpl family;
  return family;
}

}  // namespace azbench

#include "agent/workloads/large_stream/large_stream_family.h"

#include "agent/confinement/sandbox.h"
#include "agent/workloads/large_stream/large_stream.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"
#include "common/workload_spec.h"

namespace azbench {

namespace {

class ParsedLargeStreamJob final : public ParsedJob {
 public:
  ParsedLargeStreamJob(LargeStreamSpec spec, int group_id)
      : spec_(std::move(spec)),
        group_id_(group_id),
        own_dir_(spec_.filename.empty() || spec_.filename.front() != '/') {
    paths_.directory = spec_.directory;
    // Paths beneath an export: the policy checks the server against allowed_nfs_servers, as
    // for ioengine=nfs (the spec was validated, so the URL parses).
    if (!spec_.nfs_url.empty()) {
      absl::StatusOr<NfsUrl> url = ParseNfsUrl(spec_.nfs_url);
      paths_.nfs_server = url.ok() ? url->server : spec_.nfs_url;
    }
    if (!own_dir_) {
      // An absolute filename is the job's one file, wherever it is.
      paths_.filename = spec_.filename;
      paths_.file_paths = [this](const std::string&) {
        return std::vector<std::string>{spec_.filename};
      };
    }
  }

  const std::string& name() const override { return spec_.name; }

  absl::StatusOr<JobFootprint> Footprint() const override {
    // A relative filename names a file in the confined directory: one plain name, or it could
    // lead out of it ("../../x").
    if (own_dir_ && !spec_.filename.empty()) {
      RETURN_IF_ERROR(CheckFileName(spec_.filename, "filename"));
    }
    JobFootprint footprint;
    footprint.bytes = spec_.size_bytes;
    return footprint;
  }

  // The job's own directory (no absolute filename) takes the per-agent subdirectory.
  std::vector<JobPathSet> Paths() override { return {JobPathSet::Main(&paths_, own_dir_)}; }

  absl::StatusOr<std::unique_ptr<Workload>> Prepare(const FamilyContext&) override {
    spec_.directory = paths_.directory;
    if (!own_dir_) spec_.filename = paths_.filename;
    ASSIGN_OR_RETURN(std::unique_ptr<LargeStreamJob> job,
                     LargeStreamJob::Prepare(spec_, group_id_));
    return std::unique_ptr<Workload>(std::move(job));
  }

 private:
  LargeStreamSpec spec_;
  int group_id_;
  bool own_dir_;
  JobPaths paths_;
};

class LargeStreamFamilyImpl final : public Family {
 public:
  std::string_view name() const override { return "large_stream"; }
  absl::StatusOr<std::unique_ptr<ParsedJob>> Parse(const JobRequest& request,
                                                   const FamilyContext&) const override {
    LargeStreamSpec spec;
    spec.name = request.name;
    for (const auto& [key, value] : request.options) {
      RETURN_IF_ERROR(WithJobName(request.name, ApplyLargeStreamOption(spec, key, value)));
    }
    spec.name = request.name;
    RETURN_IF_ERROR(WithJobName(request.name, ValidateLargeStreamSpec(spec)));
    return std::make_unique<ParsedLargeStreamJob>(std::move(spec), request.group_id);
  }
};

}  // namespace

const Family& LargeStreamFamily() {
  static const LargeStreamFamilyImpl family;
  return family;
}

}  // namespace azbench

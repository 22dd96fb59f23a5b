#include "agent/workloads/small_files/small_files_family.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "agent/workloads/small_files/small_files.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"
#include "common/workload_spec.h"

namespace azbench {

namespace {

class ParsedSmallFilesJob final : public ParsedJob {
 public:
  ParsedSmallFilesJob(SmallFilesSpec spec, int group_id)
      : spec_(std::move(spec)), group_id_(group_id) {
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
    const uint64_t clones = static_cast<uint64_t>(std::max(1, spec_.numjobs));
    uint64_t bytes = 0;
    for (uint64_t size : spec_.file_sizes_bytes) {
      ASSIGN_OR_RETURN(
          const uint64_t of_size,
          CheckedProduct({{"filesize", size}, {"files", spec_.files}, {"numjobs", clones}}));
      if (__builtin_add_overflow(bytes, of_size, &bytes)) {
        return absl::InvalidArgumentError(
            "the bytes of all filesizes x files x numjobs do not fit in 64 bits; make them "
            "smaller");
      }
    }
    ASSIGN_OR_RETURN(const uint64_t files,
                     CheckedProduct({{"files", spec_.files},
                                     {"the number of filesizes", spec_.file_sizes_bytes.size()},
                                     {"numjobs", clones}}));
    return JobFootprint{
        .clones = clones,
        .files = files,
        .bytes = bytes,
        .files_formula = absl::StrCat("files ", spec_.files, " x filesizes ",
                                      spec_.file_sizes_bytes.size(), " x numjobs ", clones)};
  }

  std::vector<JobPathSet> Paths() override { return {JobPathSet::Main(&paths_, true)}; }

  absl::StatusOr<std::unique_ptr<Workload>> Prepare(const FamilyContext&) override {
    spec_.directory = paths_.directory;
    ASSIGN_OR_RETURN(std::unique_ptr<SmallFilesJob> job, SmallFilesJob::Prepare(spec_, group_id_));
    return std::unique_ptr<Workload>(std::move(job));
  }

 private:
  SmallFilesSpec spec_;
  int group_id_;
  JobPaths paths_;
};

class SmallFilesFamilyImpl final : public Family {
 public:
  std::string_view name() const override { return "small_files"; }
  absl::StatusOr<std::unique_ptr<ParsedJob>> Parse(const JobRequest& request,
                                                   const FamilyContext&) const override {
    SmallFilesSpec spec;
    spec.name = request.name;
    for (const auto& [key, value] : request.options) {
      RETURN_IF_ERROR(WithJobName(request.name, ApplySmallFilesOption(spec, key, value)));
    }
    spec.name = request.name;
    RETURN_IF_ERROR(WithJobName(request.name, ValidateSmallFilesSpec(spec)));
    return std::make_unique<ParsedSmallFilesJob>(std::move(spec), request.group_id);
  }
};

}  // namespace

const Family& SmallFilesFamily() {
  static const SmallFilesFamilyImpl family;
  return family;
}

}  // namespace azbench

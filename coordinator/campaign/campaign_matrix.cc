#include "coordinator/campaign/campaign_matrix.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "common/job_spec.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"
#include "common/units.h"
#include "common/workload_spec.h"
#include "coordinator/campaign/campaign_workloads.h"

namespace azbench {
namespace campaign_internal {
namespace {

constexpr int64_t kMaxNodes = 1'000'000;

class MatrixParser : public CampaignYaml {
 public:
  explicit MatrixParser(const CampaignYaml& yaml) : CampaignYaml(yaml) {}

  absl::StatusOr<std::vector<MatrixAxis>> ParseMatrix(const YAML::Node& node) const {
    if (!node.IsMap()) {
      return Error(node, "matrix",
                   absl::StrCat("must be a map of axis -> list of values, e.g. {iodepth: [1, 16], "
                                "nodes: [1, all]}; got ",
                                NodeTypeName(node)));
    }
    std::vector<MatrixAxis> axes;
    for (const auto& entry : node) {
      ASSIGN_OR_RETURN(std::string key, Scalar(entry.first, "matrix", "an axis name"));
      for (const MatrixAxis& seen : axes) {
        if (seen.key == key) {
          return Error(entry.first, "matrix", absl::StrCat("axis '", key, "' is given twice"));
        }
      }
      if (key == "directory" || key == "name") {
        return Error(entry.first, "matrix",
                     absl::StrCat("'", key, "' cannot be a matrix axis: ",
                                  key == "name" ? "jobs are named after their workload"
                                                : "list the directories as targets instead"));
      }
      const bool is_nodes = key == kNodesAxis || key == kNodesPerAzAxis;
      const bool is_placement = key == kPlacementAxis;
      // A family's own option (metadata's `files`, small_files' `filesizes`, ...) is an axis too.
      std::optional<WorkloadFamily> axis_family;
      if (!is_nodes && !is_placement && !IsSupportedJobOption(key)) {
        for (WorkloadFamily f : {WorkloadFamily::kMetadata, WorkloadFamily::kSmallFiles,
                                 WorkloadFamily::kLargeStream, WorkloadFamily::kVisibility}) {
          if (!axis_family && IsWorkloadOption(f, key)) axis_family = f;
        }
      }
      if (!is_nodes && !is_placement && !IsSupportedJobOption(key) && !axis_family) {
        return Error(entry.first, "matrix",
                     absl::StrCat("unknown axis '", key,
                                  "'; allowed: nodes, nodes_per_az, placement, a job option (",
                                  absl::StrJoin(SupportedJobOptionNames(), ", "),
                                  ") or a workload family's option (see README)"));
      }
      const std::string field = absl::StrCat("matrix.", key);
      MatrixAxis axis;
      axis.key = key;
      axis.location = Location(entry.first);
      ASSIGN_OR_RETURN(std::vector<YAML::Node> items,
                       List(entry.second, field, is_nodes ? "[1, 2, all]" : "[1, 16]"));
      absl::flat_hash_set<std::string> seen_values;  // a long axis must not cost its square
      for (const YAML::Node& item : items) {
        ASSIGN_OR_RETURN(std::string value, Scalar(item, field, "a value"));
        if (is_placement) {
          if (value != kPlacementSameAz && value != kPlacementCrossAz) {
            return Error(item, field,
                         absl::StrCat("'", value, "' is not allowed; allowed: ", kPlacementSameAz,
                                      ", ", kPlacementCrossAz));
          }
        } else if (is_nodes) {
          if (value != kNodesAll) {
            absl::StatusOr<int64_t> n = ParseInt(value, 1, kMaxNodes);
            if (!n.ok()) {
              return Error(item, field,
                           absl::StrCat("'", value, "' is not allowed; allowed: a count >= 1 or ",
                                        kNodesAll));
            }
          }
        } else if (axis_family) {
          if (absl::Status st = ValidateSingleFamilyOption(*axis_family, key, value); !st.ok()) {
            return Error(item, field, st.message());
          }
        } else {
          JobSpec scratch;
          RETURN_IF_ERROR(CheckJobOption(*this, scratch, entry.first, item, field, key, value));
        }
        if (!seen_values.insert(value).second) {
          return Error(item, field, absl::StrCat("value '", value, "' is listed twice"));
        }
        axis.values.push_back(value);
      }
      axes.push_back(std::move(axis));
    }
    return axes;
  }
};

}  // namespace

absl::StatusOr<std::vector<MatrixAxis>> ParseMatrixSection(const CampaignYaml& yaml,
                                                           const YAML::Node& node) {
  return MatrixParser(yaml).ParseMatrix(node);
}

absl::Status CheckScenarioCount(const Campaign& campaign) {
  // Saturating arithmetic: a count past 64 bits stays at kOverflow (reported as such), never wraps.
  constexpr uint64_t kOverflow = std::numeric_limits<uint64_t>::max();
  auto times = [](uint64_t a, uint64_t b) {
    uint64_t product = 0;
    return __builtin_mul_overflow(a, b, &product) ? kOverflow : product;
  };
  auto plus = [](uint64_t a, uint64_t b) {
    uint64_t sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? kOverflow : sum;
  };
  auto count_text = [](uint64_t n) {
    return n == kOverflow ? std::string("more than 2^64") : absl::StrCat(n);
  };
  const uint64_t runs_per_cell =
      static_cast<uint64_t>(campaign.repeats) + (campaign.warmup > absl::ZeroDuration() ? 1 : 0);
  uint64_t total = 0;
  std::string largest;  // the biggest workload's factors, for the error
  uint64_t largest_count = 0;
  for (size_t w = 0; w < campaign.workloads.size(); ++w) {
    const Workload& workload = campaign.workloads[w];
    uint64_t count = times(campaign.targets.size(), runs_per_cell);
    std::vector<std::string> factors = {
        absl::StrCat(campaign.targets.size(), " targets"),
        absl::StrCat(runs_per_cell, " runs per cell (repeats ", campaign.repeats,
                     runs_per_cell > static_cast<uint64_t>(campaign.repeats) ? " + warmup" : "",
                     ")")};
    for (const MatrixAxis& axis : WorkloadAxes(workload, campaign.matrix)) {
      count = times(count, axis.values.size());
      factors.push_back(absl::StrCat(axis.key, " (", axis.values.size(), " values)"));
    }
    if (largest.empty() || count > largest_count) {
      largest_count = count;
      largest = absl::StrCat("workloads[", w, "] '", workload.name,
                             "': ", absl::StrJoin(factors, " x "), " = ", count_text(count));
    }
    total = plus(total, count);
  }
  if (total <= static_cast<uint64_t>(kMaxScenarios)) return absl::OkStatus();
  const std::string where = !campaign.matrix.empty() ? campaign.matrix.front().location.ToString()
                            : !campaign.workloads.empty()
                                ? campaign.workloads.front().location.ToString()
                                : campaign.file;
  return absl::InvalidArgumentError(absl::StrCat(
      where, !campaign.matrix.empty() ? ": matrix" : "", ": the campaign expands to ",
      count_text(total), " scenarios; at most ", kMaxScenarios, " are allowed (largest: ", largest,
      "); use fewer axis values, targets or repeats, or split the campaign"));
}

namespace {

std::vector<std::pair<std::string, std::vector<std::string>>> JobAxesOf(
    const std::vector<MatrixAxis>& matrix) {
  std::vector<std::pair<std::string, std::vector<std::string>>> axes;
  for (const MatrixAxis& axis : matrix) {
    if (axis.key != kNodesAxis && axis.key != kNodesPerAzAxis && axis.key != kPlacementAxis) {
      axes.emplace_back(axis.key, axis.values);
    }
  }
  return axes;
}

// A job on an nfs:// target: the target gives nfs_url; a block_io job's engine must be nfs, a
// visibility job's probe client_to_client (the one probe with no S3 side, which needs a mount);
// metadata, small_files and large_stream run through libnfs as they are; and the job as it runs
// on that target passes the agent's rules (NFSv4 write sizes, no direct=1).
absl::Status CheckNfsTargetJob(const Workload& workload, const WorkloadJob& job,
                               const MatrixCell& cell, const CampaignTarget& target) {
  const JobOptions options = CellJobOptions(job, cell, target, workload.family);
  for (const auto& [key, value] : job.options) {
    if (absl::StripAsciiWhitespace(key) == "nfs_url") {
      return absl::InvalidArgumentError(absl::StrCat("nfs_url is given by target '", target.name,
                                                     "' (its path ", target.path,
                                                     "); leave it out of the workload"));
    }
  }
  for (const auto& [key, value] : options) {
    if (workload.family == "visibility" && absl::StripAsciiWhitespace(key) == "probe" &&
        absl::StripAsciiWhitespace(value) != "client_to_client") {
      return absl::InvalidArgumentError(absl::StrCat(
          "probe ", value, " cannot run on target '", target.name,
          "', an nfs:// URL: only probe client_to_client reaches one (through libnfs); the S3 "
          "probes need a mounted path"));
    }
    if (absl::StripAsciiWhitespace(key) == "ioengine" &&
        absl::StripAsciiWhitespace(value) != "nfs") {
      return absl::InvalidArgumentError(
          absl::StrCat("ioengine=", value, " cannot reach target '", target.name,
                       "', an nfs:// URL: use ioengine=nfs (the default on such a target)"));
    }
  }
  return ValidateWorkloadJobOptions(workload, options, job.name);
}

CheckedJobs WhatIsChecked(const Campaign& campaign) {
  CheckedJobs checked;
  checked.job_axes = JobAxesOf(campaign.matrix);
  for (const Workload& workload : campaign.workloads) {
    checked.families.push_back(workload.family);
    std::vector<JobOptions>& options = checked.options.emplace_back();
    for (const WorkloadJob& job : workload.jobs) options.push_back(job.options);
  }
  return checked;
}

}  // namespace

absl::Status ValidateCampaignCells(Campaign& campaign) {
  std::vector<MatrixAxis> job_axes;
  for (const MatrixAxis& axis : campaign.matrix) {
    if (axis.key != kNodesAxis && axis.key != kNodesPerAzAxis && axis.key != kPlacementAxis) {
      job_axes.push_back(axis);
    }
  }
  for (const MatrixAxis& axis : job_axes) {
    bool used = false;
    for (const Workload& workload : campaign.workloads) {
      const absl::StatusOr<WorkloadFamily> family = ParseWorkloadFamily(workload.family);
      used = used || (family.ok() && IsWorkloadOption(*family, axis.key));
    }
    if (!used) {
      return absl::InvalidArgumentError(
          absl::StrCat(axis.location.ToString(), ": matrix: axis '", axis.key,
                       "' is an option of no workload in this campaign"));
    }
  }
  // metadata's stride reads other agents' files: it needs a target every agent sees.
  for (size_t w = 0; w < campaign.workloads.size(); ++w) {
    const Workload& workload = campaign.workloads[w];
    if (workload.family != "metadata") continue;
    bool strided = false;
    for (const WorkloadJob& job : workload.jobs) {
      for (const auto& [key, value] : job.options)
        strided = strided || (key == "stride" && value != "0");
    }
    for (const MatrixAxis& axis : campaign.matrix) {
      for (const std::string& v : axis.values)
        strided = strided || (axis.key == "stride" && v != "0");
    }
    for (const CampaignTarget& target : campaign.targets) {
      // An nfs:// target is one export that every agent reaches alike.
      if (strided && !IsNfsUrl(target.path) && !std::filesystem::path(target.path).is_absolute()) {
        return absl::InvalidArgumentError(absl::StrCat(
            workload.location.ToString(), ": workloads[", w, "] '", workload.name,
            "': stride makes agents read each other's files, but target '", target.name,
            "' has a relative path, which is each local agent's own directory; give an "
            "absolute path that every agent shares"));
      }
    }
  }
  for (size_t w = 0; w < campaign.workloads.size(); ++w) {
    const Workload& workload = campaign.workloads[w];
    std::vector<MatrixAxis> axes;
    for (const MatrixAxis& axis : WorkloadAxes(workload, job_axes)) {
      if (axis.key != kNodesAxis && axis.key != kNodesPerAzAxis) axes.push_back(axis);
    }
    const std::vector<MatrixCell> cells = MatrixCells(axes);
    for (const MatrixCell& cell : cells) {
      for (const WorkloadJob& job : workload.jobs) {
        // An nfs:// target's jobs are checked with it below (its own errors first).
        const CampaignTarget& first = campaign.targets.front();
        absl::Status status =
            IsNfsUrl(first.path)
                ? absl::OkStatus()
                : ValidateWorkloadJobOptions(workload, CellJobOptions(job, cell, first), job.name);
        // Every file a job names lies beneath every target it runs on.
        for (size_t t = 0; status.ok() && t < campaign.targets.size(); ++t) {
          const CampaignTarget& target = campaign.targets[t];
          if (IsNfsUrl(target.path)) {
            status = CheckNfsTargetJob(workload, job, cell, target);
            continue;
          }
          status = CheckJobPathsInTarget(
              workload.family, CellJobOptions(job, cell, target), target.path,
              absl::StrCat("target '", target.name, "' (path ", target.path, ")"));
        }
        if (status.ok()) continue;
        std::vector<std::string> parts;
        for (const auto& [key, value] : cell) parts.push_back(absl::StrCat(key, "=", value));
        const std::string job_name =
            workload.fio_job_path.empty() ? "" : absl::StrCat(" job '", job.name, "'");
        const std::string in_cell =
            cell.empty() ? "" : absl::StrCat(" with ", absl::StrJoin(parts, ", "));
        return absl::InvalidArgumentError(absl::StrCat(workload.location.ToString(), ": workloads[",
                                                       w, "] '", workload.name, "'", job_name,
                                                       in_cell, ": ", status.message()));
      }
    }
  }
  campaign.checked_jobs = WhatIsChecked(campaign);
  return absl::OkStatus();
}

}  // namespace campaign_internal

namespace {

// The components of `path` after lexical normalisation, without "." and empty ones.
std::vector<std::string> NormalParts(const std::string& path) {
  std::vector<std::string> parts;
  for (const auto& part : std::filesystem::path(path).lexically_normal()) {
    if (part.empty() || part == ".") continue;
    parts.push_back(part.string());
  }
  return parts;
}

// Whether `path` is `root` or lies beneath it, lexically: both absolute or both relative, the
// root's components a prefix of the path's, and no ".." left after normalising.
bool IsBeneath(const std::string& path, const std::string& root) {
  if (std::filesystem::path(path).is_absolute() != std::filesystem::path(root).is_absolute()) {
    return false;
  }
  const std::vector<std::string> p = NormalParts(path);
  const std::vector<std::string> r = NormalParts(root);
  if (std::find(p.begin(), p.end(), "..") != p.end()) return false;
  if (std::find(r.begin(), r.end(), "..") != r.end()) return false;
  return p.size() >= r.size() && std::equal(r.begin(), r.end(), p.begin());
}

}  // namespace

absl::Status CheckJobPathsInTarget(std::string_view family, const JobOptions& options,
                                   const std::string& target_path,
                                   std::string_view target_description) {
  // Keys and values as the agent reads them (ApplyJobOption and the family parsers strip both).
  std::string directory = target_path;
  for (const auto& [key, value] : options) {
    if (absl::StripAsciiWhitespace(key) == "directory") {
      directory = std::string(absl::StripAsciiWhitespace(value));
    }
  }
  if (!IsBeneath(directory, target_path)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "directory '", directory, "' is outside ", std::string(target_description),
        "; a job's directory must stay beneath its target (a relative directory without '..')"));
  }
  std::vector<std::string> names;
  for (const auto& [raw_key, raw_value] : options) {
    if (absl::StripAsciiWhitespace(raw_key) != "filename") continue;
    const std::string value(absl::StripAsciiWhitespace(raw_value));
    names.clear();
    if (family == "block_io") {
      // fio's ':'-separated list, split as the agent splits it.
      JobSpec scratch;
      if (ApplyJobOption(scratch, "filename", value).ok()) names = scratch.FilePaths(0);
    } else if (!value.empty()) {
      names.push_back(value);  // large_stream: one file
    }
  }
  for (const std::string& name : names) {
    const bool absolute = std::filesystem::path(name).is_absolute();
    const std::string resolved =
        absolute ? name : (std::filesystem::path(directory) / name).string();
    if (IsBeneath(resolved, target_path)) continue;
    const std::string relative_hint =
        std::filesystem::path(name).lexically_normal().filename().string();
    const bool relative_target = !std::filesystem::path(target_path).is_absolute();
    return absl::InvalidArgumentError(absl::StrCat(
        "filename '", name, "' is outside ", std::string(target_description),
        absolute && relative_target
            ? ", a directory inside each agent's own work directory that no absolute path can "
              "name"
            : "",
        "; every file a job names must lie beneath its target: write a name relative to the "
        "target (e.g. '",
        relative_hint.empty() ? std::string("data") : relative_hint, "', without '..'), which ",
        "resolves inside ", target_path));
  }
  return absl::OkStatus();
}

std::vector<MatrixCell> MatrixCells(const std::vector<MatrixAxis>& matrix) {
  std::vector<MatrixCell> cells = {MatrixCell{}};
  for (const MatrixAxis& axis : matrix) {
    std::vector<MatrixCell> next;
    next.reserve(cells.size() * axis.values.size());
    for (const MatrixCell& cell : cells) {
      for (const std::string& value : axis.values) {
        MatrixCell extended = cell;
        extended.emplace_back(axis.key, value);
        next.push_back(std::move(extended));
      }
    }
    cells = std::move(next);
  }
  return cells;
}

JobOptions CellJobOptions(const WorkloadJob& job, const MatrixCell& cell,
                          const CampaignTarget& target, std::string_view family) {
  JobOptions options;
  std::string subdirectory;
  for (const auto& [key, value] : job.options) {
    const absl::string_view bare_key = absl::StripAsciiWhitespace(key);
    if (bare_key == "directory") {
      const std::string bare_value(absl::StripAsciiWhitespace(value));
      subdirectory = std::filesystem::path(bare_value).is_absolute() ? "" : bare_value;
      continue;
    }
    bool overridden = false;
    for (const auto& [axis, unused] : cell) overridden = overridden || axis == bare_key;
    if (!overridden) options.emplace_back(key, value);
  }
  for (const auto& [axis, value] : cell) {
    if (axis != kNodesAxis && axis != kNodesPerAzAxis && axis != kPlacementAxis) {
      options.emplace_back(axis, value);
    }
  }
  if (IsNfsUrl(target.path)) {
    // libnfs mounts the URL's export: files lie beneath its root (common/nfs_url.h).
    const bool has_engine = std::any_of(options.begin(), options.end(), [](const auto& option) {
      return absl::StripAsciiWhitespace(option.first) == "ioengine";
    });
    if (!has_engine && family == "block_io") options.emplace_back("ioengine", "nfs");
    options.emplace_back("nfs_url", target.path);
    options.emplace_back("directory", absl::StrCat("/", subdirectory));
    return options;
  }
  std::string directory = target.path;
  if (!subdirectory.empty()) {
    directory = (std::filesystem::path(target.path) / subdirectory).string();
  }
  options.emplace_back("directory", std::move(directory));
  return options;
}

std::vector<MatrixAxis> WorkloadAxes(const Workload& workload,
                                     const std::vector<MatrixAxis>& matrix) {
  const absl::StatusOr<WorkloadFamily> family = ParseWorkloadFamily(workload.family);
  std::vector<MatrixAxis> axes;
  bool has_sizes_axis = false;
  for (const MatrixAxis& axis : matrix) {
    if (axis.key == kNodesAxis || axis.key == kNodesPerAzAxis || axis.key == kPlacementAxis ||
        (family.ok() && IsWorkloadOption(*family, axis.key))) {
      axes.push_back(axis);
      has_sizes_axis = has_sizes_axis || axis.key == "filesizes";
    }
  }
  if (family.ok() && *family == WorkloadFamily::kSmallFiles && !has_sizes_axis) {
    MatrixAxis sizes;
    sizes.key = "filesizes";
    sizes.location = workload.location;
    std::string list = "4k:64k:128k:256k:1m";
    if (!workload.jobs.empty()) {
      for (const auto& [key, value] : workload.jobs.front().options) {
        if (key == "filesizes") list = value;
      }
    }
    sizes.values = SplitSizeList(list);
    axes.push_back(std::move(sizes));
  }
  return axes;
}

bool JobsCheckedAtParse(const Campaign& campaign) {
  if (!campaign.checked_jobs.has_value()) return false;
  const CheckedJobs now = campaign_internal::WhatIsChecked(campaign);
  const CheckedJobs& then = *campaign.checked_jobs;
  return now.job_axes == then.job_axes && now.families == then.families &&
         now.options == then.options;
}

}  // namespace azbench

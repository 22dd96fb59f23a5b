#include "coordinator/campaign/campaign_workloads.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "common/file_util.h"
#include "common/fio_jobfile.h"
#include "common/status_macros.h"

namespace azbench {
namespace campaign_internal {
namespace {

constexpr absl::string_view kWorkloadKeys[] = {"name", "workload", "options", "fio_job"};

class WorkloadsParser : public CampaignYaml {
 public:
  explicit WorkloadsParser(const CampaignYaml& yaml) : CampaignYaml(yaml) {}

  absl::StatusOr<std::vector<Workload>> ParseWorkloads(const YAML::Node& node) const {
    ASSIGN_OR_RETURN(
        std::vector<YAML::Node> items,
        List(node, "workloads", "[{name: randread, options: {rw: randread, bs: 4k, size: 1g}}]"));
    std::vector<Workload> workloads;
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string field = absl::StrCat("workloads[", i, "]");
      ASSIGN_OR_RETURN(MapFields map, ReadMap(items[i], field, kWorkloadKeys));
      Workload workload;
      workload.location = Location(items[i]);
      ASSIGN_OR_RETURN(const Field* name, Require(map, "name", field));
      ASSIGN_OR_RETURN(workload.name, Name(name->value, field + ".name"));
      RETURN_IF_ERROR(
          CheckUniqueName(workloads, workload.name, name->value, field + ".name", "workload"));
      if (const Field* family = map.Find("workload")) {
        ASSIGN_OR_RETURN(workload.family,
                         Scalar(family->value, field + ".workload", "a workload family"));
        if (absl::Status s = ParseWorkloadFamily(workload.family).status(); !s.ok()) {
          return Error(family->value, field + ".workload", s.message());
        }
      }
      const Field* options = map.Find("options");
      const Field* fio_job = map.Find("fio_job");
      if (workload.family != "block_io" && fio_job != nullptr) {
        return Error(fio_job->value, field + ".fio_job",
                     absl::StrCat("fio_job is only for workload block_io; give ", workload.family,
                                  "'s options as a map"));
      }
      if (workload.family != "block_io") {
        if (options == nullptr) {
          return Error(
              items[i], field,
              absl::StrCat("workload ", workload.family, " needs options (a map, may be {})"));
        }
        ASSIGN_OR_RETURN(JobOptions job_options,
                         ParseFamilyOptions(options->value, field + ".options", workload.family));
        workload.jobs.push_back(WorkloadJob{workload.name, std::move(job_options), 0});
        workloads.push_back(std::move(workload));
        continue;
      }
      if ((options == nullptr) == (fio_job == nullptr)) {
        return Error(items[i], field,
                     "give exactly one of options (fio options as a map) or fio_job (a fio job "
                     "file)");
      }
      if (options != nullptr) {
        ASSIGN_OR_RETURN(JobOptions job_options, ParseOptions(options->value, field + ".options"));
        workload.jobs.push_back(WorkloadJob{workload.name, std::move(job_options), 0});
      } else {
        ASSIGN_OR_RETURN(std::string path,
                         Scalar(fio_job->value, field + ".fio_job", "a fio job file path"));
        workload.fio_job_path = ResolveRelativeTo(file_, path);
        absl::StatusOr<std::vector<WorkloadJob>> jobs =
            LoadFioJob(workload.fio_job_path, workload.warnings);
        if (!jobs.ok()) {
          return absl::Status(jobs.status().code(),
                              absl::StrCat(Where(fio_job->value), ": ", field,
                                           ".fio_job: ", jobs.status().message()));
        }
        workload.jobs = *std::move(jobs);
      }
      workloads.push_back(std::move(workload));
    }
    return workloads;
  }

  // Errors: the file's read error code, or InvalidArgument for its contents.
  static absl::StatusOr<std::vector<WorkloadJob>> LoadFioJob(const std::string& path,
                                                             std::vector<std::string>& warnings) {
    ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path, "fio job file"));
    absl::StatusOr<std::vector<FioJob>> parsed = ParseFioJobFile(text, path);
    if (!parsed.ok()) {
      // Every problem inside the file is a bad campaign input (the parser's NotFound for an
      // unknown option included), worded like the campaign's own option errors.
      return absl::InvalidArgumentError(absl::StrReplaceAll(
          parsed.status().message(), {{"unknown option '", "unknown job option '"}}));
    }
    warnings = FioJobWarnings(*parsed);
    return WorkloadJobsFromFioJobs(*parsed);
  }

  // A map of options as a workload writes them: each key a word given once (`name` is not one:
  // the job is named after the workload), each value a scalar or nothing (`time_based:` alone is
  // fio's bare flag), and each (key, value) accepted by `check` (key node, value node, key, value).
  // `a_map` describes the map for the error when `node` is not one.
  template <typename Check>
  absl::StatusOr<JobOptions> ReadOptionMap(const YAML::Node& node, const std::string& field,
                                           const std::string& a_map, Check check) const {
    if (!node.IsMap()) {
      return Error(node, field, absl::StrCat("must be ", a_map, "; got ", NodeTypeName(node)));
    }
    JobOptions options;
    for (const auto& entry : node) {
      ASSIGN_OR_RETURN(std::string key, Scalar(entry.first, field, "an option name"));
      for (const auto& [seen, unused] : options) {
        if (seen == key) {
          return Error(entry.first, field, absl::StrCat("option '", key, "' is given twice"));
        }
      }
      if (key == "name") {
        return Error(entry.first, field,
                     "option 'name' is not allowed here: the job is named after the workload");
      }
      std::string value;
      if (!entry.second.IsNull()) {
        ASSIGN_OR_RETURN(value, Scalar(entry.second, absl::StrCat(field, ".", key), "a value"));
      }
      RETURN_IF_ERROR(check(entry.first, entry.second, key, value));
      options.emplace_back(std::move(key), std::move(value));
    }
    return options;
  }

  // A non-block_io family's options: each key must be one of the family's, each value valid.
  absl::StatusOr<JobOptions> ParseFamilyOptions(const YAML::Node& node, const std::string& field,
                                                const std::string& family_name) const {
    const WorkloadFamily family = *ParseWorkloadFamily(family_name);
    return ReadOptionMap(
        node, field, absl::StrCat("a map of ", family_name, " options"),
        [&](const YAML::Node& key_node, const YAML::Node& value_node, const std::string& key,
            const std::string& value) -> absl::Status {
          if (!IsWorkloadOption(family, key)) {
            return Error(
                key_node, field,
                absl::StrCat("option '", key, "' is not supported by workload ", family_name,
                             "; supported: ", absl::StrJoin(WorkloadOptionNames(family), ", ")));
          }
          absl::Status status = ValidateSingleFamilyOption(family, key, value);
          if (!status.ok()) {
            return Error(value.empty() ? key_node : value_node, field + "." + key,
                         status.message());
          }
          return absl::OkStatus();
        });
  }

  // block_io's fio options, each applied as an agent applies it.
  absl::StatusOr<JobOptions> ParseOptions(const YAML::Node& node, const std::string& field) const {
    JobSpec scratch;
    return ReadOptionMap(node, field, "a map of fio options, e.g. {rw: randread, bs: 4k, size: 1g}",
                         [&](const YAML::Node& key_node, const YAML::Node& value_node,
                             const std::string& key, const std::string& value) {
                           return CheckJobOption(*this, scratch, key_node, value_node, field, key,
                                                 value);
                         });
  }
};

}  // namespace

absl::StatusOr<std::vector<Workload>> ParseWorkloadsSection(const CampaignYaml& yaml,
                                                            const YAML::Node& node) {
  return WorkloadsParser(yaml).ParseWorkloads(node);
}

// Applies one option to `scratch`: unknown options point at the key, bad values at the value.
absl::Status CheckJobOption(const CampaignYaml& yaml, JobSpec& scratch, const YAML::Node& key_node,
                            const YAML::Node& value_node, const std::string& field,
                            const std::string& key, const std::string& value) {
  absl::Status status = ApplyJobOption(scratch, key, value);
  if (absl::IsUnimplemented(status)) return yaml.Error(key_node, field, status.message());
  if (absl::IsNotFound(status)) {
    return yaml.Error(key_node, field,
                      absl::StrCat("unknown job option '", key, "'; supported: ",
                                   absl::StrJoin(SupportedJobOptionNames(), ", ")));
  }
  if (!status.ok()) {
    return yaml.Error(value_node.IsNull() ? key_node : value_node, field + "." + key,
                      status.message());
  }
  return absl::OkStatus();
}

absl::Status ValidateSingleFamilyOption(WorkloadFamily family, const std::string& key,
                                        const std::string& value) {
  MetadataSpec md;
  SmallFilesSpec sf;
  LargeStreamSpec ls;
  switch (family) {
    case WorkloadFamily::kMetadata:
      return ApplyMetadataOption(md, key, value);
    case WorkloadFamily::kSmallFiles:
      return ApplySmallFilesOption(sf, key, value);
    case WorkloadFamily::kLargeStream:
      return ApplyLargeStreamOption(ls, key, value);
    case WorkloadFamily::kBlockIo: {
      JobSpec spec;
      return ApplyJobOption(spec, key, value);
    }
    case WorkloadFamily::kVisibility:  // this value alone; the whole set is checked later
      return ValidateVisibilityOptionValue(key, value);
  }
  return absl::OkStatus();
}

}  // namespace campaign_internal

namespace {

// Applies options to `spec` as an agent does: kb_base first (fio parses it before the other
// options of a section), then the others in order. Unknown options become InvalidArgument.
absl::Status ApplyOptions(JobSpec& spec, const JobOptions& options) {
  for (const bool kb_base_pass : {true, false}) {
    for (const auto& [key, value] : options) {
      if ((key == "kb_base") != kb_base_pass) continue;
      absl::Status status = ApplyJobOption(spec, key, value);
      if (absl::IsNotFound(status)) {
        return absl::InvalidArgumentError(
            absl::StrCat("unknown job option '", key,
                         "'; supported: ", absl::StrJoin(SupportedJobOptionNames(), ", ")));
      }
      if (!status.ok()) return absl::InvalidArgumentError(status.message());
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<JobSpec> SpecFromOptions(const JobOptions& options, absl::string_view job_name) {
  JobSpec spec;
  spec.name = std::string(job_name);
  RETURN_IF_ERROR(ApplyOptions(spec, options));
  // The coordinator writes a campaign's fio log files beside the database, one directory per
  // scenario: a prefix names files there, not a path.
  const FioLogOptions& logs = spec.fio_logs;
  for (const auto& [option, prefix] :
       {std::pair{"write_bw_log", &logs.bw_prefix}, std::pair{"write_lat_log", &logs.lat_prefix},
        std::pair{"write_iops_log", &logs.iops_prefix},
        std::pair{"write_hist_log", &logs.hist_prefix}}) {
    if (prefix->has_value() && (*prefix)->find('/') != std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat(
          option, "=", **prefix,
          ": in a campaign the log files go beside the database "
          "(<database>.oplog/<scenario>/<agent>.<prefix>_bw.<N>.log); the prefix names the "
          "files there and cannot contain '/'"));
    }
  }
  if (spec.verify_dump) {
    // Agents would have to return the files; the result names the failed offsets.
    return absl::InvalidArgumentError(
        "verify_dump=1 is written by `azbench-agent run` only; a campaign's results name the "
        "offsets that failed verify");
  }
  RETURN_IF_ERROR(ValidateJobSpec(spec));
  return spec;
}

}  // namespace

absl::StatusOr<std::vector<WorkloadJob>> WorkloadJobsFromFioJobs(
    const std::vector<FioJob>& parsed) {
  std::vector<WorkloadJob> jobs;
  for (const FioJob& fio : parsed) {
    // Agents apply one flat option list (kb_base first); fio applies kb_base per section. They only
    // differ when a job section sets kb_base while [global] set sizes: refuse that case.
    if (!FlatOptionsMatchSpec(fio)) {
      return absl::InvalidArgumentError(
          absl::StrCat(fio.file, ":", fio.line, ": job '", fio.spec.name,
                       "': its sizes depend on kb_base set in a job section after [global] sizes, "
                       "which agents cannot reproduce from one option list; set kb_base in "
                       "[global] only"));
    }
    WorkloadJob job;
    job.name = fio.spec.name;
    job.group_id = fio.group_id;
    for (const FioOption& o : fio.options) job.options.emplace_back(o.key, o.value);
    jobs.push_back(std::move(job));
  }
  return jobs;
}

absl::Status ValidateJobOptions(const JobOptions& options, std::string_view job_name) {
  return SpecFromOptions(options, campaign_internal::Av(job_name)).status();
}

absl::Status ValidateWorkloadJobOptions(const Workload& workload, const JobOptions& options,
                                        std::string_view job_name) {
  ASSIGN_OR_RETURN(WorkloadFamily family, ParseWorkloadFamily(workload.family));
  if (family == WorkloadFamily::kBlockIo) return ValidateJobOptions(options, job_name);
  return ValidateWorkloadOptions(family, options, job_name);
}

}  // namespace azbench

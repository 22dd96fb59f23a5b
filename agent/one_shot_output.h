// What `azbench-agent run` prints: fio's output formats (docs/fio-compatibility.md) for the
// one-shot results, and the fio context they need (options as given, disk utilization).
//
//   ASSIGN_OR_RETURN(OutputFormats formats, ParseOutputFormats("json,normal"));
//   std::string text = RenderOneShotOutput(formats, results, context, interrupted);
#ifndef AZBENCH_AGENT_ONE_SHOT_OUTPUT_H_
#define AZBENCH_AGENT_ONE_SHOT_OUTPUT_H_

#include <string>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "common/fio_jobfile.h"
#include "common/job_result.h"
#include "common/result_json.h"

namespace azbench {

// The formats asked for by --output-format (fio's names, comma-separated).
struct OutputFormats {
  bool normal = false;
  bool json = false;
  bool json_plus = false;  // json with clat_ns "bins"; with json too, one document (as fio)
  bool terse = false;
  int terse_version = 3;  // one of kFioTerseVersions (common/result_terse.h)
  bool operator==(const OutputFormats&) const = default;
};

// Parses --output-format's value (fio's --minimal is "terse"). Errors: InvalidArgument naming the
// unknown format and the allowed ones.
absl::StatusOr<OutputFormats> ParseOutputFormats(absl::string_view value);

// The paths whose disks a run of `jobs` uses (each disk_util=1 job's filenames, else its
// directories, else the working directory, as fio lays files out).
std::vector<std::string> DiskUtilPaths(const std::vector<FioJob>& jobs);

// The fio context of `results` (each matched to the job of its name, in order): global options,
// each job's own options as given, and `disks`. A command line's job options start with its name,
// as fio writes them; a job file's name is its section header, not an option.
FioRunContext OneShotFioContext(const std::vector<FioJob>& jobs,
                                const std::vector<JobResult>& results, std::vector<DiskUtil> disks);

// --terse-version's value. Errors: InvalidArgument unless it is one of kFioTerseVersions.
absl::StatusOr<int> ParseTerseVersion(absl::string_view value);

// The text of every format asked for, in fio's order (terse, json or json+, normal);
// `interrupted` marks results cut short by a signal (the JSON's "azbench_interrupted", a first
// line of the normal output; terse lines have no place for it).
std::string RenderOneShotOutput(const OutputFormats& formats, const std::vector<JobResult>& results,
                                const FioRunContext& context, bool interrupted);

}  // namespace azbench

#endif  // AZBENCH_AGENT_ONE_SHOT_OUTPUT_H_

#include "agent/one_shot_output.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/result_terse.h"
#include "common/result_text.h"

namespace azbench {

absl::StatusOr<OutputFormats> ParseOutputFormats(absl::string_view value) {
  OutputFormats formats;
  for (absl::string_view name : absl::StrSplit(value, ',')) {
    if (name == "normal") {
      formats.normal = true;
    } else if (name == "json") {
      formats.json = true;
    } else if (name == "json+") {
      formats.json_plus = true;
    } else if (name == "terse") {
      formats.terse = true;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "--output-format='", value, "': '", name,
          "' is not a format; give one or more of normal, json, json+, terse, comma-separated"));
    }
  }
  return formats;
}

absl::StatusOr<int> ParseTerseVersion(absl::string_view value) {
  int version = 0;
  if (absl::SimpleAtoi(value, &version) && IsFioTerseVersion(version)) return version;
  return absl::InvalidArgumentError(
      absl::StrCat("--terse-version='", value, "': give 2, 3, 4 or 5 (fio's terse versions)"));
}

std::vector<std::string> DiskUtilPaths(const std::vector<FioJob>& jobs) {
  std::vector<std::string> paths;
  for (const FioJob& job : jobs) {
    if (!job.spec.disk_util) continue;
    const std::string& where = !job.spec.filename.empty() ? job.spec.filename : job.spec.directory;
    if (where.empty()) {
      paths.push_back(".");
      continue;
    }
    for (absl::string_view p : absl::StrSplit(where, ':', absl::SkipEmpty())) {
      paths.emplace_back(p);
    }
  }
  return paths;
}

FioRunContext OneShotFioContext(const std::vector<FioJob>& jobs,
                                const std::vector<JobResult>& results,
                                std::vector<DiskUtil> disks) {
  FioRunContext context;
  context.disks = std::move(disks);
  if (jobs.empty()) return context;
  // fio writes the globals once; every job of a file shares the same [global] options before it,
  // so the first job's are the document's.
  for (const FioOption& o : jobs.front().options) {
    if (o.global) context.global_options.emplace_back(o.key, o.value);
  }
  std::vector<bool> used(jobs.size(), false);
  for (const JobResult& result : results) {
    FioOptionList own;
    for (size_t j = 0; j < jobs.size(); ++j) {
      if (used[j] || jobs[j].spec.name != result.name) continue;
      used[j] = true;
      if (jobs[j].file == "command line") own.emplace_back("name", jobs[j].spec.name);
      for (const FioOption& o : jobs[j].options) {
        if (!o.global) own.emplace_back(o.key, o.value);
      }
      break;
    }
    context.job_options.push_back(std::move(own));
  }
  return context;
}

namespace {

// large_stream's one-shot summary: MiB/s of every pass and their mean (dd-style).
std::string PassSummary(const std::vector<JobResult>& results) {
  std::string out;
  double sum = 0;
  int passes = 0;
  for (const JobResult& r : results) {
    if (r.name.find(".pass") == std::string::npos || r.runtime_ns == 0) continue;
    uint64_t bytes = 0;
    for (OpKind kind : {OpKind::kRead, OpKind::kWrite}) {
      if (const OpStats* s = r.Find(kind)) bytes += s->bytes;
    }
    const double mib_s =
        static_cast<double>(bytes) / (1 << 20) / (static_cast<double>(r.runtime_ns) / 1e9);
    absl::StrAppend(&out, r.name, ": ", absl::SixDigits(mib_s), " MiB/s\n");
    sum += mib_s;
    ++passes;
  }
  if (passes > 0) {
    absl::StrAppend(&out, "mean of ", passes, " passes: ", absl::SixDigits(sum / passes),
                    " MiB/s\n");
  }
  return out;
}

}  // namespace

std::string RenderOneShotOutput(const OutputFormats& formats, const std::vector<JobResult>& results,
                                const FioRunContext& context, bool interrupted) {
  std::string text;
  const std::vector<ReportChoice> percentiles = FioReportChoices(context);
  if (formats.terse) {
    text += FioTerseLines(ResultsToFioJson(results, false, context), formats.terse_version,
                          percentiles);
  }
  if (formats.json || formats.json_plus) {
    FioRunContext with_bins = context;
    with_bins.with_bins = formats.json_plus;
    nlohmann::json doc = ResultsToFioJson(results, /*with_azbench_extras=*/true, with_bins);
    if (interrupted) doc["azbench_interrupted"] = true;
    text += doc.dump(2) + "\n";
  }
  if (formats.normal) {
    if (interrupted) text += "interrupted: results cover the time until the signal\n";
    const nlohmann::json doc = ResultsToFioJson(results, /*with_azbench_extras=*/false, context);
    const nlohmann::json& jobs = doc.at("jobs");
    for (size_t i = 0; i < results.size(); ++i) {
      text += FormatJobResultText(results[i], ChoiceOfJob(percentiles, i),
                                  i < jobs.size() ? jobs[i] : nlohmann::json());
    }
    text += FioGroupStatusText(doc, percentiles);
    text += PassSummary(results);
  }
  return text;
}

}  // namespace azbench

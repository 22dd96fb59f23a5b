// fio-json report: stored results in the layout of `fio --output-format=json` in client/server
// mode, so tooling written for fio reads azbench results. One fio document per scenario:
//
//   {"fio version": "azbench-<v>", "timestamp", "timestamp_ms", "time" (when the scenario ended),
//    "global options": {} (every option is inlined in each job's "job options"),
//    "jobs": [ one object per job of the scenario, merged over every agent ],
//    "client_stats": [ one object per agent and job (with "hostname" and "port"),
//                      then {"jobname": "All clients", ...}: every job of every agent merged ],
//    "disk_util": [ one object per agent and block device under its job directories, over its
//                   run (common/disk_util.h), with "hostname" and "port" as fio's client adds;
//                   [] where there is none (tmpfs, NFS), as fio's client writes it ],
//    "azbench": {"campaign", "scenario" (key), "index", "target", "workload", "parameters",
//                "repeat", "repeats", "status", "status_detail", "agents": [agent ids],
//                "passes" (large_stream scenarios only), "warnings" (the distinct warnings of
//                the scenario's jobs, [] when none: fio's layout has no field for them)}}
//
// Each job object is common/result_json's JobResultToFioJson (the agent one-shot writes the same
// layout) plus "job options" (the options the job ran with, as written; the last value of a
// repeated option wins; AddFioJobOptions, which also sets latency_depth from them). "elapsed" is
// the scenario's span (first start to last end) in every entry. "error" is fio's errno-like code:
// the job's own errno when it failed; in a scenario that did not complete (status partial:
// interrupted, an agent lost), EINTR (4) for every job entry (jobs[], client_stats[], "All
// clients") without one of its own, since fio tooling reads jobs[] and never azbench.status.
// Merging (jobs[] and "All clients") is JobResult::Merge: counts, bytes and latency histograms are
// summed exactly, so percentiles are those of the merged histogram; runtime is the longest one, so
// bw and iops are total / longest runtime (fio sums clients the same way). job_runtime is, as fio's
// (sum_thread_stats), the sum over the entry's threads: every clone of every result merged into it,
// each counted at its result's runtime (a result keeps only its longest clone's), so two 2 s clones
// give 4000. Unlike fio 3.33, the "All clients" entry has percentiles (azbench's histograms merge
// exactly). bw_agg (fio's share of the group's aggregate bandwidth) is over the jobs of the same
// groupid: among jobs[] for jobs[], among that agent's entries for a client's; "All clients" is its
// own.
//
// large_stream's passes: fio has no such concept (each pass is a result "<job>.pass<N>", so jobs[]
// and client_stats[] already hold one fio job per pass, merged over agents by the rule above). The
// dd-like MiB/s per pass (stream_passes.h: per agent, all agents over the pass's window, and the
// means) is azbench's own and goes in "azbench"."passes", in the JSON report's "passes" layout
// (scenario_json.h), where fio tooling does not look; absent for other workloads.
//
// Which scenarios: per workload, matrix cell and target, the repeats the campaign's `keep`
// selects (report_input.h), in plan order; failed and skipped scenarios have no document.
//
// Example:
//   for (size_t i : FioJsonScenarioIndices(input)) Write(FioJsonFileName(input, i),
//                                                        FioJsonDocument(input, i).dump(2));
#ifndef AZBENCH_COORDINATOR_REPORT_FIO_JSON_REPORT_H_
#define AZBENCH_COORDINATOR_REPORT_FIO_JSON_REPORT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "coordinator/report/report_input.h"
#include "nlohmann/json.hpp"

namespace azbench {

// Indices into input.scenarios of the scenarios that get a document, in plan order.
std::vector<size_t> FioJsonScenarioIndices(const ReportInput& input);

// The fio document of input.scenarios[index]; `with_bins`: fio's json+ (every entry's clat_ns
// "bins", AddFioLatencyBins, over its merged histograms).
nlohmann::json FioJsonDocument(const ReportInput& input, size_t index, bool with_bins = false);

// "<scenario index>-<key>.json" with '/', '=' and ' ' in the key written '_': the file name of
// scenario `index` when several documents are written into a directory.
std::string FioJsonFileName(const ReportInput& input, size_t index);

// The document as text (dump(2), invalid UTF-8 replaced) with a final newline.
std::string RenderFioJson(const nlohmann::json& document);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_FIO_JSON_REPORT_H_

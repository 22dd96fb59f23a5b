// JSON report: everything a later analysis needs, exactly. Object keys are sorted on output;
// arrays keep their order. Layout:
//
//   {"azbench_report": 1, "campaign": name, "keep": "all|last|median",
//    "agents": [{"agent_id", "address", "hostname", "region", "availability_zone",
//                "availability_zone_id", "instance_type", "version", "clock_offset_ns",
//                "clock_rtt_ns"}],
//    "scenarios": [{
//      "index", "key", "target", "workload", "parameters": [[axis, value], ...], "repeat",
//      "repeats", "status", "status_detail", "agent_ids", "skip_reason",
//      "lost": [{"agent_id", "lost_at_ns", "reason"}],
//      "clock_offsets": [{"agent_id", "clock_offset_ns", "clock_rtt_ns", "measured_at_ns"}]
//          (the offsets the scenario used, ScenarioResult::clock_offsets; the top-level
//          "agents" carry the ones measured at connect),
//      "placements": [{"agent_id", "target", "placement", "agent_az", "agent_az_id", "az_source",
//        "server_address", "address_source", "subnet", "subnet_source", "server_az",
//        "server_az_source", "reason", "mount"}]   (coordinator/placement_evidence.h),
//      "times": {"planned_start_ns", "first_start_ns", "last_start_ns", "first_end_ns",
//                "last_end_ns", "start_skew_ns", "full_window_ns", "stonewall_window_ns",
//                "stonewall_valid"},
//      "agents": n, "interval_ns",
//      "total_err", "first_error" (merge.h rule 9; only when a job set continue_on_error, as fio),
//      "ops": {"read": {
//          "ops", "bytes", "errors", "short_ios",
//          "full": {"iops", "bytes_per_s"},
//          "stonewall": {"ops", "bytes", "iops", "bytes_per_s"},
//          "lat" | "slat" | "clat": {"count", "min_ns", "max_ns", "mean_ns", "stddev_ns",
//              "percentiles": {"50.000000": ns, ...} (fio's list),
//              "histogram": the merged sparse histogram (HistogramToJson)},
//          "per_agent": [{"agent_id", "ops", "bytes", "runtime_ns", "iops", "bytes_per_s"}],
//          "fairness": {"bytes_per_s": {"min", "max", "mean", "cv"}, "iops": {...}},
//          "visibility" (op "probe" only): {"visible", "timed_out", "timeout_ns" (null when the
//              results stated none), "mean" | "p50" | "p90" | "p99" | "p99.9" | "max":
//              {"ns", "lower_bound"}}: over every trial that ended (probe_percentiles.h); with
//              "lower_bound": true the figure is at least "ns" (the timeout for a percentile the
//              timed-out trials reach; the mean with them counted at the timeout), "ns" null
//              when not even that is known. The probe's "lat" is its visible trials only.
//          }, ...},
//      "intervals": [{"index", "ops": {"read": {"ops", "bytes", "errors", "lat": sparse}}}]
//          (the merged series, merge.h rule 6),
//      "results": [{"agent_id", "job": fio-style job object with its "azbench" extras
//          (common/result_json.h)}],
//      "passes": [{"job", "passes": n,          (large_stream scenarios only; stream_passes.h)
//          "agents": [{"agent_id", "passes": [{"pass", "bytes", "runtime_ns", "errors", "mib_s"}
//                      or null when the agent did not report that pass], "mean_mib_s"}],
//          "all_agents": {"mib_s": [per pass, null when missing], "mean_mib_s"}}]}],
//    "scaling": [{"workload", "where", "target", "nodes", "agents", "partial",
//                 "full": {"mib_s", "iops"}, "stonewall": {"valid", "mib_s", "iops"}, "op",
//                 "latency_ns": {"p50", "p99", "p99.9"}, "fairness": {"unit", "min", "max",
//                 "mean", "cv"}, "start_skew_ns", "efficiency", "stonewall_efficiency"}]
//        (coordinator/report/scaling_rows.h; efficiencies are fractions, null without N=1)}
//
// slat/clat objects appear only when non-empty. Every scenario is there: keep does not filter.
#ifndef AZBENCH_COORDINATOR_REPORT_JSON_REPORT_H_
#define AZBENCH_COORDINATOR_REPORT_JSON_REPORT_H_

#include <string>

#include "coordinator/report/report_input.h"
#include "nlohmann/json.hpp"

namespace azbench {

nlohmann::json JsonReport(const ReportInput& input);
// JsonReport(input).dump(2) with a final newline.
std::string RenderJsonReport(const ReportInput& input);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_JSON_REPORT_H_

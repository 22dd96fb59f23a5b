#include "coordinator/report/json_report.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/result_json.h"
#include "common/stats.h"
#include "coordinator/report/probe_percentiles.h"
#include "coordinator/report/scaling_rows.h"
#include "coordinator/report/scenario_json.h"
#include "coordinator/report/verify_rows.h"

namespace azbench {

namespace {

using nlohmann::json;

json LatencyJson(const Histogram& h) {
  json percentiles = json::object();
  if (h.count() > 0) {
    for (double p : kReportPercentiles) percentiles[absl::StrFormat("%.6f", p)] = h.Percentile(p);
  }
  return {{"count", h.count()},
          {"min_ns", h.min_ns()},
          {"max_ns", h.max_ns()},
          {"mean_ns", h.mean_ns()},
          {"stddev_ns", h.stddev_ns()},
          {"percentiles", percentiles},
          {"histogram", HistogramToJson(h.ToSparse())}};
}

json SpreadJson(const Spread& s) {
  return {{"min", s.min}, {"max", s.max}, {"mean", s.mean}, {"cv", s.cv}};
}

// A visibility probe's figures over every trial that ended (probe_percentiles.h).
json ProbeJson(const Histogram& visible, const ProbeTrials& trials) {
  auto figure = [](const ProbeFigure& f) {
    return json{{"ns", f.ns ? json(*f.ns) : json()}, {"lower_bound", f.lower_bound}};
  };
  json out = {{"visible", visible.count()},
              {"timed_out", trials.timed_out},
              {"timeout_ns", trials.timeout_ns > 0 ? json(trials.timeout_ns) : json()},
              {"mean", figure(ProbeMeanFigure(visible, trials))}};
  for (const auto& [name, p] : {std::pair<const char*, double>{"p50", 50},
                                {"p90", 90},
                                {"p99", 99},
                                {"p99.9", 99.9},
                                {"max", 100}}) {
    out[name] = figure(ProbePercentileFigure(visible, trials, p));
  }
  return out;
}

json OpJson(const OpFigures& op) {
  json out = {{"ops", op.ops},
              {"bytes", op.bytes},
              {"errors", op.errors},
              {"short_ios", op.short_ios},
              {"full", {{"iops", op.full_iops}, {"bytes_per_s", op.full_bytes_per_s}}},
              {"stonewall",
               {{"valid", op.stonewall_valid},
                {"ops", op.stonewall_ops},
                {"bytes", op.stonewall_bytes},
                {"iops", op.stonewall_iops},
                {"bytes_per_s", op.stonewall_bytes_per_s}}},
              {"lat", LatencyJson(op.lat)}};
  if (op.slat.count() > 0) out["slat"] = LatencyJson(op.slat);
  if (op.clat.count() > 0) out["clat"] = LatencyJson(op.clat);
  json agents = json::array();
  for (const AgentThroughput& a : op.per_agent) {
    agents.push_back({{"agent_id", a.agent_id},
                      {"ops", a.ops},
                      {"bytes", a.bytes},
                      {"runtime_ns", a.runtime_ns},
                      {"iops", a.iops},
                      {"bytes_per_s", a.bytes_per_s}});
  }
  out["per_agent"] = agents;
  out["fairness"] = {{"bytes_per_s", SpreadJson(op.agent_bytes_per_s)},
                     {"iops", SpreadJson(op.agent_iops)}};
  return out;
}

// input.scenarios[index] with its figures.
json ScenarioJson(const ReportInput& input, size_t index, const ScenarioFigures& f) {
  const ScenarioResult& r = input.scenarios[index];
  const Scenario& s = r.scenario;
  json parameters = json::array();
  for (const auto& [axis, value] : s.parameters) parameters.push_back(json::array({axis, value}));
  json lost = json::array();
  for (const LostAgent& l : r.lost) {
    lost.push_back(
        {{"agent_id", l.agent_id}, {"lost_at_ns", l.lost_at_realtime_ns}, {"reason", l.reason}});
  }
  json placements = json::array();
  for (const PlacementEvidence& e : s.placements) {
    placements.push_back({{"agent_id", e.agent_id},
                          {"target", e.target},
                          {"placement", std::string(PlacementName(e.placement))},
                          {"agent_az", e.agent_az},
                          {"agent_az_id", e.agent_az_id},
                          {"az_source", e.az_source},
                          {"server_address", e.server_address},
                          {"address_source", e.address_source},
                          {"subnet", e.subnet},
                          {"subnet_source", e.subnet_source},
                          {"server_az", e.server_az},
                          {"server_az_source", e.server_az_source},
                          {"reason", e.reason},
                          {"mount", e.mount}});
  }
  json clock_offsets = json::array();
  for (const AgentClockOffset& c : r.clock_offsets) {
    clock_offsets.push_back({{"agent_id", c.agent_id},
                             {"clock_offset_ns", c.clock_offset_ns},
                             {"clock_rtt_ns", c.clock_rtt_ns},
                             {"measured_at_ns", c.measured_at_ns}});
  }
  json ops = json::object();
  for (const OpFigures& op : f.ops) {
    json& entry = ops[std::string(OpKindName(op.kind))] = OpJson(op);
    if (op.kind == OpKind::kProbe) {
      entry["visibility"] = ProbeJson(op.lat, ProbeTrialsOf(input, {index}, ""));
    }
  }
  json intervals = json::array();
  for (const IntervalStats& interval : f.intervals) {
    json by_kind = json::object();
    for (int k = 0; k < kOpKindCount; ++k) {
      const IntervalOpStats& stats = interval.by_kind[k];
      if (stats.ops == 0 && stats.errors == 0 && stats.lat.count == 0) continue;
      by_kind[std::string(OpKindName(static_cast<OpKind>(k)))] = {
          {"ops", stats.ops},
          {"bytes", stats.bytes},
          {"errors", stats.errors},
          {"lat", HistogramToJson(stats.lat)}};
    }
    intervals.push_back({{"index", interval.index}, {"ops", by_kind}});
  }
  json results = json::array();
  std::map<std::string, std::vector<const JobResult*>> by_agent;  // bw_agg: groups per agent
  for (const AgentJobResult& result : r.results) {
    by_agent[result.agent_id].push_back(&result.result);
  }
  std::map<std::string, std::map<int, FioGroupBandwidth>> agent_groups;
  for (const auto& [agent, jobs] : by_agent) agent_groups[agent] = FioGroupAggregates(jobs);
  for (const AgentJobResult& result : r.results) {
    const FioGroupBandwidth& group = agent_groups[result.agent_id].at(result.result.group_id);
    results.push_back(
        {{"agent_id", result.agent_id}, {"job", JobResultToFioJson(result.result, true, &group)}});
  }
  json scenario = ScenarioIdentityJson(r);
  scenario.update(json{{"key", s.key},
                       {"parameters", parameters},
                       {"agent_ids", s.agent_ids},
                       {"skip_reason", s.skip_reason},
                       {"lost", lost},
                       {"clock_offsets", clock_offsets},
                       {"placements", placements},
                       {"times",
                        {{"planned_start_ns", r.planned_start_realtime_ns},
                         {"first_start_ns", f.first_start_ns},
                         {"last_start_ns", f.last_start_ns},
                         {"first_end_ns", f.first_end_ns},
                         {"last_end_ns", f.last_end_ns},
                         {"start_skew_ns", f.start_skew_ns},
                         {"full_window_ns", f.full_window_ns},
                         {"stonewall_window_ns", f.stonewall_window_ns},
                         {"stonewall_valid", f.stonewall_valid}}},
                       {"agents", f.agents},
                       {"interval_ns", f.interval_ns},
                       {"ops", ops},
                       {"intervals", intervals},
                       {"results", results}});
  if (json passes = StreamPassesJson(r); !passes.empty()) scenario["passes"] = std::move(passes);
  if (f.continue_on_error) {
    scenario["total_err"] = f.total_err;
    scenario["first_error"] = f.first_error;
  }
  return scenario;
}

// The scaling table (scaling_rows.h): efficiencies as fractions, null without an N=1 run.
json ScalingJson(const std::vector<ScalingRow>& rows) {
  json out = json::array();
  auto opt = [](const std::optional<double>& v) { return v.has_value() ? json(*v) : json(); };
  for (const ScalingRow& row : rows) {
    json r = {{"workload", row.workload},
              {"where", row.where},
              {"target", row.target},
              {"nodes", row.nodes},
              {"agents", row.agents},
              {"partial", row.partial},
              {"full", {{"mib_s", row.full_mib_s}, {"iops", row.full_iops}}},
              {"stonewall",
               {{"valid", row.stonewall_valid},
                {"mib_s", row.stonewall_mib_s},
                {"iops", row.stonewall_iops}}},
              {"op", std::string(OpKindName(row.op))},
              {"fairness",
               {{"unit", row.moves_bytes ? "MiB/s" : "IOPS"},
                {"min", row.fairness.min},
                {"max", row.fairness.max},
                {"mean", row.fairness.mean},
                {"cv", row.fairness.cv}}},
              {"start_skew_ns", row.start_skew_ns},
              {"efficiency", opt(row.efficiency)},
              {"stonewall_efficiency", opt(row.stonewall_efficiency)}};
    if (row.has_latency) {
      r["latency_ns"] = {{"p50", row.p50_ns}, {"p99", row.p99_ns}, {"p99.9", row.p999_ns}};
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

json JsonReport(const ReportInput& input) {
  std::vector<ScenarioFigures> storage;
  const std::vector<ScenarioFigures>& figures = FiguresOf(input, storage);
  json agents = json::array();
  for (const AgentInfo& a : input.agents) {
    agents.push_back({{"agent_id", a.agent_id},
                      {"address", a.address},
                      {"hostname", a.hostname},
                      {"region", a.region},
                      {"availability_zone", a.availability_zone},
                      {"availability_zone_id", a.availability_zone_id},
                      {"instance_type", a.instance_type},
                      {"version", a.version},
                      {"clock_offset_ns", a.clock_offset_ns},
                      {"clock_rtt_ns", a.clock_rtt_ns}});
  }
  json scenarios = json::array();
  for (size_t i = 0; i < input.scenarios.size(); ++i) {
    scenarios.push_back(ScenarioJson(input, i, figures[i]));
  }
  // Data verification (verify_rows.h): per agent, on the scenarios that verify.
  for (const VerifyRow& row : BuildVerifyRows(input)) {
    scenarios[row.scenario]["verify"].push_back({{"job", row.job},
                                                 {"agent_id", row.agent_id},
                                                 {"availability_zone", row.az},
                                                 {"role", row.role},
                                                 {"blocks_verified", row.blocks_verified},
                                                 {"mismatches", row.mismatches},
                                                 {"first_offsets", row.first_offsets}});
  }
  return {{"azbench_report", 1},
          {"campaign", input.campaign_name},
          {"keep", std::string(KeepPolicyName(input.keep))},
          {"agents", agents},
          {"scenarios", scenarios},
          {"scaling", ScalingJson(BuildScalingRows(input, BuildCells(input, figures)))}};
}

std::string RenderJsonReport(const ReportInput& input) {
  // Replace invalid UTF-8 (agent-supplied strings) rather than throw.
  return JsonReport(input).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace azbench

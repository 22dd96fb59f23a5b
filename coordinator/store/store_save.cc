// Store::SaveScenario: one scenario and everything under it in one transaction; an attempt whose
// intervals were streamed in becomes the stored scenario, its interval rows as they are (store.h).
#include "coordinator/store/store.h"

#include <sqlite3.h>

#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/histogram.h"
#include "common/op_kind.h"
#include "common/status_macros.h"
#include "coordinator/store/store_rows.h"

namespace azbench {

using store_rows::DepthToText;
using store_rows::ForEachIntervalRow;
using store_rows::JobsToJson;
using store_rows::kLatKinds;
using store_rows::PairsToJson;
using store_rows::StringsToJson;

absl::Status Store::SaveScenario(const ScenarioResult& result) {
  ASSIGN_OR_RETURN(int64_t campaign_id, CampaignId());
  if (result.scenario.key.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(path_, ": scenario ", result.scenario.index,
                                                   " has an empty key; cannot store it"));
  }
  if (result.staged_stream_id != 0 && result.staged.size() != result.results.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path_, ": scenario '", result.scenario.key, "' has ", result.results.size(),
                     " results but ", result.staged.size(), " staged series; give one per result"));
  }
  RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
  absl::Status status = SaveScenarioRows(campaign_id, result);
  if (status.ok()) status = Exec("COMMIT");
  if (!status.ok()) {
    Exec("ROLLBACK").IgnoreError();
    return absl::Status(status.code(), absl::StrCat("saving scenario '", result.scenario.key,
                                                    "': ", status.message()));
  }
  return absl::OkStatus();
}

absl::Status Store::SaveScenarioRows(int64_t campaign_id, const ScenarioResult& result) {
  const Scenario& s = result.scenario;
  const int64_t attempt_id = result.staged_stream_id;
  // The attempt's series rows (StageIntervals), by (agent, job index, result name).
  std::map<std::tuple<std::string, int, std::string>, int64_t> series_rows;
  if (attempt_id != 0) {
    Statement attempt(*this), rows(*this);
    RETURN_IF_ERROR(attempt.Prepare(
        "SELECT count(*) FROM scenario WHERE id = ? AND campaign_id = ? AND attempt_of = ?"));
    attempt.Int(1, attempt_id).Int(2, campaign_id).Text(3, s.key);
    ASSIGN_OR_RETURN(bool found, attempt.Step());
    if (!found || attempt.Int(0) == 0) {
      return absl::NotFoundError(absl::StrCat(path_, ": no unfinished attempt ", attempt_id,
                                              " of scenario '", s.key,
                                              "' (saved or discarded already?)"));
    }
    RETURN_IF_ERROR(rows.Prepare(
        "SELECT id, agent_id, group_id, job_name FROM agent_result WHERE scenario_id = ? AND "
        "idx < 0"));
    rows.Int(1, attempt_id);
    while (true) {
      ASSIGN_OR_RETURN(bool row, rows.Step());
      if (!row) break;
      series_rows[{rows.Text(1), static_cast<int>(rows.Int(2)), rows.Text(3)}] = rows.Int(0);
    }
  }
  // The stored scenario of this key and its other attempts (cut short by a crash) go.
  Statement remove(*this);
  RETURN_IF_ERROR(
      remove.Prepare("DELETE FROM scenario WHERE campaign_id = ?1 AND (key = ?2 OR attempt_of = "
                     "?2) AND id != ?3"));
  remove.Int(1, campaign_id).Text(2, s.key).Int(3, attempt_id);
  RETURN_IF_ERROR(remove.Run());

  constexpr char kScenarioColumns[] =
      "campaign_id = ?1, idx = ?2, key = ?3, target = ?4, workload = ?5, parameters = ?6, repeat "
      "= ?7, repeats = ?8, status = ?9, status_detail = ?10, agent_ids = ?11, jobs = ?12, "
      "cooldown_s = ?13, skipped = ?14, skip_reason = ?15, planned_start_ns = ?16, first_start_ns "
      "= ?17, last_start_ns = ?18, first_end_ns = ?19, last_end_ns = ?20, run_id = ?21";
  Statement scenario(*this);
  RETURN_IF_ERROR(scenario.Prepare(
      attempt_id != 0
          ? absl::StrCat("UPDATE scenario SET ", kScenarioColumns,
                         ", attempt_of = NULL WHERE id = ?22")
          : std::string("INSERT INTO scenario (campaign_id, idx, key, target, workload, "
                        "parameters, repeat, repeats, status, status_detail, agent_ids, jobs, "
                        "cooldown_s, skipped, skip_reason, planned_start_ns, first_start_ns, "
                        "last_start_ns, first_end_ns, last_end_ns, run_id) VALUES (?, ?, ?, ?, "
                        "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")));
  scenario.Int(1, campaign_id)
      .Int(2, s.index)
      .Text(3, s.key)
      .Text(4, s.target)
      .Text(5, s.workload)
      .Text(6, PairsToJson(s.parameters).dump())
      .Int(7, s.repeat)
      .Int(8, s.repeats)
      .Text(9, ScenarioStatusName(result.status))
      .Text(10, result.status_detail)
      .Text(11, StringsToJson(s.agent_ids).dump())
      .Text(12, JobsToJson(s.jobs).dump())
      .Real(13, s.cooldown_s)
      .Int(14, s.skipped ? 1 : 0)
      .Text(15, s.skip_reason)
      .Int(16, result.planned_start_realtime_ns)
      .Int(17, result.first_start_realtime_ns)
      .Int(18, result.last_start_realtime_ns)
      .Int(19, result.first_end_realtime_ns)
      .Int(20, result.last_end_realtime_ns);
  if (run_id_ != 0) {
    scenario.Int(21, run_id_);
  } else {
    scenario.Null(21);
  }
  if (attempt_id != 0) scenario.Int(22, attempt_id);
  RETURN_IF_ERROR(scenario.Run());
  const int64_t scenario_id = attempt_id != 0 ? attempt_id : sqlite3_last_insert_rowid(db_);

  Statement agent_result(*this), fill_result(*this), histogram(*this), interval(*this),
      event(*this);
  constexpr char kResultColumns[] =
      "scenario_id, idx, agent_id, job_name, group_id, clones, interval_ns, runtime_ns, start_ns, "
      "end_ns, error_errno, error_message, warnings, cpu_threads, cpu_wall_ns, cpu_user_ns, "
      "cpu_system_ns, cpu_voluntary_switches, cpu_involuntary_switches, cpu_minor_faults, "
      "cpu_major_faults, io_depths, fold_source_id, fold_shift, verify_failures, "
      "verify_failure_offsets, continue_on_error, total_err, first_error, latency_depth, "
      "steadystate";
  RETURN_IF_ERROR(agent_result.Prepare(absl::StrCat(
      "INSERT INTO agent_result (", kResultColumns,
      ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
      "?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31)")));
  // A streamed series' row (made by StageIntervals) gets its result's fields.
  RETURN_IF_ERROR(fill_result.Prepare(
      absl::StrCat("UPDATE agent_result SET (", kResultColumns,
                   ") = (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
                   "?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31) "
                   "WHERE id = ?32")));
  RETURN_IF_ERROR(histogram.Prepare(
      "INSERT INTO histogram (agent_result_id, op_kind, lat_kind, ops, bytes, errors, short_ios, "
      "count, min_ns, max_ns, sum_ns, sum_ns_hi, sum_sq_hi, sum_sq_lo, sum_sq_top, buckets) VALUES "
      "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  RETURN_IF_ERROR(interval.Prepare(
      "INSERT INTO interval (agent_result_id, idx, op_kind, ops, bytes, errors, count, min_ns, "
      "max_ns, sum_ns, sum_ns_hi, sum_sq_hi, sum_sq_lo, sum_sq_top, lat_buckets) VALUES (?, ?, ?, "
      "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  RETURN_IF_ERROR(event.Prepare(
      "INSERT INTO event (scenario_id, at_ns, agent_id, kind, message) VALUES (?, ?, ?, ?, ?)"));

  std::map<int64_t, bool> fold_sources;  // series row -> some result took it
  for (const auto& [key, row] : series_rows) {
    if (std::get<1>(key) == kFoldedLatency) fold_sources[row] = false;
  }
  for (size_t i = 0; i < result.results.size(); ++i) {
    const AgentJobResult& r = result.results[i];
    const JobResult& job = r.result;
    const StagedSeries& series =
        attempt_id != 0 && i < result.staged.size() ? result.staged[i] : StagedSeries{};
    if (series.job_index >= 0 && !job.intervals.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("agent ", r.agent_id, " job ", job.name,
                       ": holds intervals and a streamed series; a result has one or the other"));
    }
    int64_t series_row = 0, fold_source = 0;
    if (series.job_index >= 0) {
      auto found = series_rows.find({r.agent_id, series.job_index, job.name});
      if (found != series_rows.end()) {
        series_row = found->second;
        series_rows.erase(found);
      }
    }
    if (series.fold_carrier) {
      auto found = series_rows.find({r.agent_id, kFoldedLatency, std::string()});
      if (found != series_rows.end()) {
        fold_source = found->second;
        fold_sources[fold_source] = true;
      }
    }
    Statement& write_result = series_row != 0 ? fill_result : agent_result;
    write_result.Int(1, scenario_id)
        .Int(2, static_cast<int64_t>(i))
        .Text(3, r.agent_id)
        .Text(4, job.name)
        .Int(5, job.group_id)
        .Int(6, job.clones)
        .U64(7, job.interval_ns)
        .U64(8, job.runtime_ns)
        .Int(9, job.start_realtime_ns)
        .Int(10, job.end_realtime_ns)
        .Int(11, job.error_errno)
        .Text(12, job.error_message)
        .Text(13, StringsToJson(job.warnings).dump())
        .Int(14, job.cpu.threads)
        .U64(15, job.cpu.wall_ns)
        .U64(16, job.cpu.user_ns)
        .U64(17, job.cpu.system_ns)
        .U64(18, job.cpu.voluntary_switches)
        .U64(19, job.cpu.involuntary_switches)
        .U64(20, job.cpu.minor_faults)
        .U64(21, job.cpu.major_faults)
        .Text(22, DepthToText(job.depth))
        .Int(23, fold_source)
        .Int(24, fold_source != 0 ? series.fold_shift : 0)
        .U64(25, job.verify_failures)
        .Text(26, absl::StrJoin(job.verify_failure_offsets, " "))
        .Int(27, job.continue_on_error ? 1 : 0)
        .U64(28, job.total_err_count)
        .Int(29, job.first_error)
        .Int(30, job.latency_depth)
        .Text(31, store_rows::SteadyStateToText(job.steadystate));
    if (series_row != 0) write_result.Int(32, series_row);
    RETURN_IF_ERROR(write_result.Run());
    const int64_t result_id = series_row != 0 ? series_row : sqlite3_last_insert_rowid(db_);

    int first_kind = -1;
    for (int k = 0; k < kOpKindCount; ++k) {
      const OpStats* stats = job.by_kind[k].get();
      if (stats == nullptr) continue;
      if (first_kind < 0) first_kind = k;
      const std::string kind_name(OpKindName(static_cast<OpKind>(k)));
      const Histogram* lat_histograms[3] = {&stats->lat, &stats->slat, &stats->clat};
      for (int l = 0; l < 3; ++l) {
        if (l > 0 && lat_histograms[l]->count() == 0) continue;
        histogram.Int(1, result_id)
            .Text(2, kind_name)
            .Text(3, kLatKinds[l])
            .U64(4, stats->ops)
            .U64(5, stats->bytes)
            .U64(6, stats->errors)
            .U64(7, stats->short_ios)
            .Sparse(8, lat_histograms[l]->ToSparse());
        RETURN_IF_ERROR(histogram.Run());
      }
    }

    // An interval with nothing keeps one all-zero row, of the job's first op kind.
    const OpKind stall_kind = first_kind < 0 ? OpKind::kRead : static_cast<OpKind>(first_kind);
    for (const IntervalStats& stats : job.intervals) {
      RETURN_IF_ERROR(
          ForEachIntervalRow(stats, stall_kind, [&](OpKind kind, const IntervalOpStats& row) {
            interval.Int(1, result_id)
                .Int(2, stats.index)
                .Text(3, std::string(OpKindName(kind)))
                .U64(4, row.ops)
                .U64(5, row.bytes)
                .U64(6, row.errors)
                .Sparse(7, row.lat);
            return interval.Run();
          }));
    }

    for (const std::string& warning : job.warnings) {
      event.Int(1, scenario_id)
          .Int(2, job.end_realtime_ns)
          .Text(3, r.agent_id)
          .Text(4, "warning")
          .Text(5, warning);
      RETURN_IF_ERROR(event.Run());
    }
  }

  for (const LostAgent& lost : result.lost) {
    event.Int(1, scenario_id)
        .Int(2, lost.lost_at_realtime_ns)
        .Text(3, lost.agent_id)
        .Text(4, "lost")
        .Text(5, lost.reason);
    RETURN_IF_ERROR(event.Run());
  }

  if (!s.placements.empty()) {
    Statement placement(*this);
    RETURN_IF_ERROR(placement.Prepare(
        "INSERT INTO placement (scenario_id, agent_id, target, placement, agent_az, agent_az_id, "
        "az_source, server_address, address_source, subnet, subnet_source, server_az, "
        "server_az_source, reason, mount) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const PlacementEvidence& e : s.placements) {
      placement.Int(1, scenario_id)
          .Text(2, e.agent_id)
          .Text(3, e.target)
          .Text(4, PlacementName(e.placement))
          .Text(5, e.agent_az)
          .Text(6, e.agent_az_id)
          .Text(7, e.az_source)
          .Text(8, e.server_address)
          .Text(9, e.address_source)
          .Text(10, e.subnet)
          .Text(11, e.subnet_source)
          .Text(12, e.server_az)
          .Text(13, e.server_az_source)
          .Text(14, e.reason)
          .Text(15, e.mount);
      RETURN_IF_ERROR(placement.Run());
    }
  }
  if (!result.clock_offsets.empty()) {
    Statement clock(*this);
    RETURN_IF_ERROR(clock.Prepare(
        "INSERT INTO scenario_clock (scenario_id, agent_id, clock_offset_ns, clock_rtt_ns, "
        "measured_at_ns) VALUES (?, ?, ?, ?, ?) ON CONFLICT (scenario_id, agent_id) DO UPDATE SET "
        "clock_offset_ns = excluded.clock_offset_ns, clock_rtt_ns = excluded.clock_rtt_ns, "
        "measured_at_ns = excluded.measured_at_ns"));
    for (const AgentClockOffset& c : result.clock_offsets) {
      clock.Int(1, scenario_id)
          .Text(2, c.agent_id)
          .Int(3, c.clock_offset_ns)
          .Int(4, c.clock_rtt_ns)
          .Int(5, c.measured_at_ns);
      RETURN_IF_ERROR(clock.Run());
    }
  }
  Statement clear_disks(*this), disk(*this);
  RETURN_IF_ERROR(clear_disks.Prepare("DELETE FROM scenario_disk_util WHERE scenario_id = ?"));
  clear_disks.Int(1, scenario_id);
  RETURN_IF_ERROR(clear_disks.Run());
  RETURN_IF_ERROR(disk.Prepare(
      "INSERT INTO scenario_disk_util (scenario_id, idx, agent_id, name, read_ios, write_ios, "
      "read_merges, write_merges, read_ticks, write_ticks, in_queue, util) VALUES (?, ?, ?, ?, ?, "
      "?, ?, ?, ?, ?, ?, ?)"));
  for (size_t i = 0; i < result.disk_util.size(); ++i) {
    const AgentDiskUtil& d = result.disk_util[i];
    disk.Int(1, scenario_id)
        .Int(2, static_cast<int64_t>(i))
        .Text(3, d.agent_id)
        .Text(4, d.disk.name)
        .U64(5, d.disk.read_ios)
        .U64(6, d.disk.write_ios)
        .U64(7, d.disk.read_merges)
        .U64(8, d.disk.write_merges)
        .U64(9, d.disk.read_ticks)
        .U64(10, d.disk.write_ticks)
        .U64(11, d.disk.in_queue)
        .Real(12, d.disk.util);
    RETURN_IF_ERROR(disk.Run());
  }
  // Series rows no result took (a result the run dropped, folded latency without a carrier)
  // go, as their staged rows went before.
  Statement drop_row(*this);
  RETURN_IF_ERROR(drop_row.Prepare("DELETE FROM agent_result WHERE id = ?"));
  for (const auto& [key, row] : series_rows) {
    if (std::get<1>(key) == kFoldedLatency && fold_sources[row]) continue;
    drop_row.Int(1, row);
    RETURN_IF_ERROR(drop_row.Run());
  }
  return absl::OkStatus();
}

}  // namespace azbench

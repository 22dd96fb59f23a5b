// Store::SaveScenario: one scenario and everything under it in one transaction, its staged
// intervals attached (store.h).
#include "coordinator/store/store.h"

#include <sqlite3.h>

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
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
  Statement remove(*this);
  RETURN_IF_ERROR(remove.Prepare("DELETE FROM scenario WHERE campaign_id = ? AND key = ?"));
  remove.Int(1, campaign_id).Text(2, s.key);
  RETURN_IF_ERROR(remove.Run());

  Statement scenario(*this);
  RETURN_IF_ERROR(scenario.Prepare(
      "INSERT INTO scenario (campaign_id, idx, key, target, workload, parameters, repeat, repeats, "
      "status, status_detail, agent_ids, jobs, cooldown_s, skipped, skip_reason, planned_start_ns, "
      "first_start_ns, last_start_ns, first_end_ns, last_end_ns, run_id) VALUES (?, ?, ?, ?, ?, ?, "
      "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
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
  RETURN_IF_ERROR(scenario.Run());
  const int64_t scenario_id = sqlite3_last_insert_rowid(db_);

  Statement agent_result(*this), histogram(*this), interval(*this), event(*this);
  std::optional<Statement> staged, staged_carrier, sum_counts, stall_rows;  // on first use
  RETURN_IF_ERROR(agent_result.Prepare(
      "INSERT INTO agent_result (scenario_id, idx, agent_id, job_name, group_id, clones, "
      "interval_ns, runtime_ns, start_ns, end_ns, error_errno, error_message, warnings, "
      "cpu_threads, cpu_wall_ns, cpu_user_ns, cpu_system_ns, cpu_voluntary_switches, "
      "cpu_involuntary_switches, cpu_minor_faults, cpu_major_faults, io_depths) VALUES (?, ?, ?, "
      "?, "
      "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
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

  // Binds the moments and buckets of `sparse` from column `first` on (count .. buckets).
  for (size_t i = 0; i < result.results.size(); ++i) {
    const AgentJobResult& r = result.results[i];
    const JobResult& job = r.result;
    agent_result.Int(1, scenario_id)
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
        .Text(22, DepthToText(job.depth));
    RETURN_IF_ERROR(agent_result.Run());
    const int64_t result_id = sqlite3_last_insert_rowid(db_);

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
    auto write_interval = [&](const IntervalStats& stats) -> absl::Status {
      return ForEachIntervalRow(stats, stall_kind, [&](OpKind kind, const IntervalOpStats& row) {
        interval.Int(1, result_id)
            .Int(2, stats.index)
            .Text(3, std::string(OpKindName(kind)))
            .U64(4, row.ops)
            .U64(5, row.bytes)
            .U64(6, row.errors)
            .Sparse(7, row.lat);
        return interval.Run();
      });
    };
    const StagedSeries& series = result.staged_stream_id != 0 && i < result.staged.size()
                                     ? result.staged[i]
                                     : StagedSeries{};
    if (series.job_index < 0) {
      for (const IntervalStats& stats : job.intervals) RETURN_IF_ERROR(write_interval(stats));
    } else if (!series.fold_carrier && !series.latency_staged && job.intervals.empty()) {
      // Counts only (its latency was folded onto the carrier): summed by SQLite, the same rows
      // as below, without a round trip through this process.
      if (!sum_counts.has_value()) {
        sum_counts.emplace(*this);
        stall_rows.emplace(*this);
        constexpr char kInsert[] =
            "INSERT INTO interval (agent_result_id, idx, op_kind, ops, bytes, errors, count, "
            "min_ns, max_ns, sum_ns, sum_ns_hi, sum_sq_hi, sum_sq_lo, sum_sq_top, lat_buckets) ";
        constexpr char kWhere[] =
            " FROM staged_interval WHERE stream_id = ?1 AND agent_id = ?2 AND job_index = ?3 AND "
            "result_name = ?4 GROUP BY ";
        RETURN_IF_ERROR(sum_counts->Prepare(absl::StrCat(
            kInsert,
            "SELECT ?5, idx, op_kind, sum(ops), sum(bytes), sum(errors), 0, 0, 0, 0, 0, 0, 0, 0, "
            "X''",
            kWhere, "idx, op_kind HAVING sum(ops) != 0 OR sum(bytes) != 0 OR sum(errors) != 0")));
        RETURN_IF_ERROR(stall_rows->Prepare(absl::StrCat(
            kInsert, "SELECT ?5, idx, ?6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, X''", kWhere,
            "idx HAVING sum(ops) = 0 AND sum(bytes) = 0 AND sum(errors) = 0")));
      }
      for (Statement* insert : {&*sum_counts, &*stall_rows}) {
        insert->Int(1, result.staged_stream_id)
            .Text(2, r.agent_id)
            .Int(3, series.job_index)
            .Text(4, job.name)
            .Int(5, result_id);
        if (insert == &*stall_rows) insert->Text(6, std::string(OpKindName(stall_kind)));
        RETURN_IF_ERROR(insert->Run());
      }
    } else {
      // The staged series (and, on the carrier, the agent's folded latency), in index order,
      // summed one interval at a time: memory holds one interval, not the series.
      if (!job.intervals.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("agent ", r.agent_id, " job ", job.name,
                         ": holds intervals and a staged series; a result has one or the other"));
      }
      // Its own rows come in index order from staged_interval_series; only the carrier's union
      // with the folded latency needs a sort.
      std::optional<Statement>& query = series.fold_carrier ? staged_carrier : staged;
      if (!query.has_value()) {
        query.emplace(*this);
        constexpr char kColumns[] =
            "op_kind, ops, bytes, errors, count, min_ns, max_ns, sum_ns, sum_ns_hi, sum_sq_hi, "
            "sum_sq_lo, sum_sq_top, lat_buckets FROM staged_interval WHERE stream_id = ?1 AND "
            "agent_id = ?2 AND ";
        RETURN_IF_ERROR(query->Prepare(
            series.fold_carrier
                ? absl::StrCat("SELECT idx, ", kColumns,
                               "job_index = ?3 AND result_name = ?4 UNION ALL SELECT max(0, idx - "
                               "?5), ",
                               kColumns, "job_index = -1 ORDER BY 1")
                : absl::StrCat("SELECT idx, ", kColumns,
                               "job_index = ?3 AND result_name = ?4 ORDER BY idx")));
      }
      Statement* staged_rows = &*query;
      staged_rows->Int(1, result.staged_stream_id)
          .Text(2, r.agent_id)
          .Int(3, series.job_index)
          .Text(4, job.name);
      if (series.fold_carrier) staged_rows->Int(5, series.fold_shift);
      IntervalStats current;
      bool have = false;
      while (true) {
        absl::StatusOr<bool> more = staged_rows->Step();
        if (!more.ok()) {
          staged_rows->Reset();
          return more.status();
        }
        if (!*more) break;
        const int64_t index = staged_rows->Int(0);
        if (have && index != current.index) {
          RETURN_IF_ERROR(write_interval(current));
          current = IntervalStats();
          have = false;
        }
        current.index = index;
        have = true;
        const std::optional<OpKind> kind = OpKindFromName(staged_rows->Text(1));
        Histogram::Sparse lat;
        if (!kind.has_value() || !staged_rows->ReadSparse(5, lat)) {
          staged_rows->Reset();
          return absl::DataLossError(absl::StrCat(path_, ": staged interval ", index, " of agent ",
                                                  r.agent_id, " job ", job.name,
                                                  " is malformed (op kind or buckets)"));
        }
        IntervalOpStats& sum = current.by_kind[static_cast<int>(*kind)];
        sum.ops += staged_rows->U64(2);
        sum.bytes += staged_rows->U64(3);
        sum.errors += staged_rows->U64(4);
        sum.lat = Histogram::AddSparse(sum.lat, lat);
      }
      staged_rows->Reset();
      if (have) RETURN_IF_ERROR(write_interval(current));
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
  // The staged rows are now interval rows; earlier attempts of this key (cut short by a crash)
  // go too.
  Statement unstage(*this);
  RETURN_IF_ERROR(unstage.Prepare(
      "DELETE FROM staged_stream WHERE (campaign_id = ? AND scenario_key = ?) OR id = ?"));
  unstage.Int(1, campaign_id).Text(2, s.key).Int(3, result.staged_stream_id);
  RETURN_IF_ERROR(unstage.Run());
  return absl::OkStatus();
}

}  // namespace azbench

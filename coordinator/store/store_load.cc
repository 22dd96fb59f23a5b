// Store::LoadScenarios and the stored scenario keys (resume): rows back into ScenarioResults.
#include "coordinator/store/store.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/histogram.h"
#include "common/op_kind.h"
#include "common/status_macros.h"
#include "coordinator/store/store_rows.h"

namespace azbench {

using store_rows::DepthFromText;
using store_rows::JobsFromJson;
using store_rows::json;
using store_rows::PairsFromJson;
using store_rows::StatusFromName;
using store_rows::StringsFromJson;

namespace {

// What defines a scenario, in the order ScenarioDefinitionFromRow reads them.
constexpr char kScenarioDefinitionColumns[] =
    "idx, key, target, workload, parameters, repeat, repeats, agent_ids, jobs, cooldown_s, "
    "skipped, skip_reason";

// The longest agent_result.runtime_ns / interval_ns loading accepts: one year.
constexpr int64_t kMaxStoredDurationNs = int64_t{365} * 24 * 3600 * 1'000'000'000;

// |a - b| for any two int64_t: their distance is below 2^64, so the unsigned difference is exact.
uint64_t DistanceNs(int64_t a, int64_t b) {
  return a >= b ? static_cast<uint64_t>(a) - static_cast<uint64_t>(b)
                : static_cast<uint64_t>(b) - static_cast<uint64_t>(a);
}

bool WithinAYear(int64_t a_ns, int64_t b_ns) {
  return DistanceNs(a_ns, b_ns) <= static_cast<uint64_t>(kMaxStoredDurationNs);
}

// A stored instant (realtime ns, coordinator clock) within a year of 0 is "none": an agent sends
// 0 for a job that never reached its measured phase, and the coordinator subtracts the agent's
// clock offset from it, so it is stored as a value near 0 (of either sign), not 0.
bool IsUnsetInstant(int64_t instant_ns) { return WithinAYear(instant_ns, 0); }

}  // namespace

absl::StatusOr<std::map<std::string, ScenarioStatus>> Store::StoredScenarioKeys() {
  std::map<std::string, ScenarioStatus> keys;
  if (campaign_id_ == 0) return keys;
  Statement select(*this);
  RETURN_IF_ERROR(select.Prepare(
      "SELECT key, status FROM scenario WHERE campaign_id = ? AND attempt_of IS NULL"));
  select.Int(1, campaign_id_);
  while (true) {
    ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const std::optional<ScenarioStatus> status = StatusFromName(select.Text(1));
    if (!status) {
      return absl::DataLossError(absl::StrCat(path_, ": scenario '", select.Text(0),
                                              "' has an unknown status '", select.Text(1), "'"));
    }
    keys.emplace(select.Text(0), *status);
  }
  return keys;
}

absl::StatusOr<std::set<std::string>> Store::CompletedScenarioKeys() {
  ASSIGN_OR_RETURN(auto stored, StoredScenarioKeys());
  std::set<std::string> keys;
  for (const auto& [key, status] : stored) {
    if (status == ScenarioStatus::kComplete) keys.insert(key);
  }
  return keys;
}

absl::StatusOr<std::vector<ScenarioResult>> Store::LoadScenarios() {
  std::vector<ScenarioResult> scenarios;
  if (campaign_id_ == 0) return scenarios;
  Statement select(*this);
  RETURN_IF_ERROR(select.Prepare(absl::StrCat(
      "SELECT id, ", kScenarioDefinitionColumns,
      ", status, status_detail, planned_start_ns, first_start_ns, last_start_ns, "
      "first_end_ns, last_end_ns FROM scenario WHERE campaign_id = ? AND attempt_of IS NULL "
      "ORDER BY idx, "
      "key")));
  select.Int(1, campaign_id_);
  while (true) {
    ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    ASSIGN_OR_RETURN(ScenarioResult scenario, LoadScenarioRow(select));
    scenarios.push_back(std::move(scenario));
  }
  return scenarios;
}

absl::StatusOr<Scenario> Store::ScenarioDefinitionFromRow(Statement& row, int first) {
  Scenario s;
  s.index = static_cast<int>(row.Int(first));
  s.key = row.Text(first + 1);
  s.target = row.Text(first + 2);
  s.workload = row.Text(first + 3);
  auto corrupt = [&](std::string_view what) {
    return absl::DataLossError(
        absl::StrCat(path_, ": scenario '", s.key, "': ", std::string(what)));
  };
  const json parameters = json::parse(row.Text(first + 4), nullptr, /*allow_exceptions=*/false);
  if (!PairsFromJson(parameters, s.parameters)) return corrupt("malformed parameters JSON");
  s.repeat = static_cast<int>(row.Int(first + 5));
  s.repeats = static_cast<int>(row.Int(first + 6));
  const json agent_ids = json::parse(row.Text(first + 7), nullptr, false);
  if (!StringsFromJson(agent_ids, s.agent_ids)) return corrupt("malformed agent_ids JSON");
  const json jobs = json::parse(row.Text(first + 8), nullptr, false);
  if (!JobsFromJson(jobs, s.jobs)) return corrupt("malformed jobs JSON");
  s.cooldown_s = row.Real(first + 9);
  s.skipped = row.Int(first + 10) != 0;
  s.skip_reason = row.Text(first + 11);
  return s;
}

absl::StatusOr<std::vector<Scenario>> Store::CompletedScenarioDefinitions() {
  std::vector<Scenario> scenarios;
  if (campaign_id_ == 0) return scenarios;
  Statement select(*this);
  RETURN_IF_ERROR(select.Prepare(
      absl::StrCat("SELECT ", kScenarioDefinitionColumns,
                   " FROM scenario WHERE campaign_id = ? AND status = 'complete' AND attempt_of IS "
                   "NULL ORDER BY idx, "
                   "key")));
  select.Int(1, campaign_id_);
  while (true) {
    ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    ASSIGN_OR_RETURN(Scenario scenario, ScenarioDefinitionFromRow(select, 0));
    scenarios.push_back(std::move(scenario));
  }
  return scenarios;
}

absl::StatusOr<ScenarioResult> Store::LoadScenarioRow(Statement& row) {
  ScenarioResult result;
  const int64_t scenario_id = row.Int(0);
  ASSIGN_OR_RETURN(result.scenario, ScenarioDefinitionFromRow(row, 1));
  const Scenario& s = result.scenario;
  auto corrupt = [&](std::string_view what) {
    return absl::DataLossError(
        absl::StrCat(path_, ": scenario '", s.key, "': ", std::string(what)));
  };
  const std::optional<ScenarioStatus> status = StatusFromName(row.Text(13));
  if (!status) return corrupt(absl::StrCat("unknown status '", row.Text(13), "'"));
  result.status = *status;
  result.status_detail = row.Text(14);
  result.planned_start_realtime_ns = row.Int(15);
  result.first_start_realtime_ns = row.Int(16);
  result.last_start_realtime_ns = row.Int(17);
  result.first_end_realtime_ns = row.Int(18);
  result.last_end_realtime_ns = row.Int(19);
  // What the jobs' instants are checked against: the planned start, else the first measured one
  // (none: only a job's own order is checked).
  const char* anchor_field = "planned_start_ns";
  int64_t anchor_ns = result.planned_start_realtime_ns;
  if (IsUnsetInstant(anchor_ns)) {
    anchor_field = "first_start_ns";
    anchor_ns = result.first_start_realtime_ns;
  }
  const bool anchored = !IsUnsetInstant(anchor_ns);

  Statement results(*this), histograms(*this), intervals(*this), events(*this);
  RETURN_IF_ERROR(results.Prepare(
      "SELECT id, agent_id, job_name, group_id, clones, interval_ns, runtime_ns, start_ns, end_ns, "
      "error_errno, error_message, warnings, cpu_threads, cpu_wall_ns, cpu_user_ns, cpu_system_ns, "
      "cpu_voluntary_switches, cpu_involuntary_switches, cpu_minor_faults, cpu_major_faults, "
      "io_depths, fold_source_id, fold_shift, verify_failures, verify_failure_offsets, "
      "continue_on_error, total_err, first_error, latency_depth, steadystate FROM "
      "agent_result WHERE scenario_id = ? AND idx >= 0 "
      "ORDER BY idx"));
  RETURN_IF_ERROR(histograms.Prepare(
      "SELECT op_kind, lat_kind, ops, bytes, errors, short_ios, count, min_ns, max_ns, sum_ns, "
      "sum_ns_hi, sum_sq_hi, sum_sq_lo, sum_sq_top, buckets FROM histogram WHERE agent_result_id "
      "= ?"));
  RETURN_IF_ERROR(intervals.Prepare(
      "SELECT idx, op_kind, ops, bytes, errors, count, min_ns, max_ns, sum_ns, sum_ns_hi, "
      "sum_sq_hi, sum_sq_lo, sum_sq_top, lat_buckets FROM interval WHERE agent_result_id = ? "
      "ORDER BY idx"));
  RETURN_IF_ERROR(events.Prepare(
      "SELECT at_ns, agent_id, message FROM event WHERE scenario_id = ? AND kind = 'lost' ORDER "
      "BY id"));

  results.Int(1, scenario_id);
  while (true) {
    ASSIGN_OR_RETURN(bool more, results.Step());
    if (!more) break;
    AgentJobResult& r = result.results.emplace_back();
    JobResult& job = r.result;
    const int64_t result_id = results.Int(0);
    r.agent_id = results.Text(1);
    job.name = results.Text(2);
    job.group_id = static_cast<int>(results.Int(3));
    job.clones = static_cast<int>(results.Int(4));
    const std::string where = absl::StrCat("agent ", r.agent_id, " job ", job.name);
    // Durations the reports divide by and count intervals over: a value no run can have (negative,
    // or beyond a year) is a corrupt row, not a figure.
    auto duration = [&](int column, const char* field, uint64_t& out) {
      const int64_t value = results.Int(column);
      if (value < 0 || value > kMaxStoredDurationNs) {
        return corrupt(absl::StrCat(where, ": ", field, " ", value, " out of range (allowed 0 to ",
                                    kMaxStoredDurationNs, " ns, one year)"));
      }
      out = static_cast<uint64_t>(value);
      return absl::OkStatus();
    };
    RETURN_IF_ERROR(duration(5, "interval_ns", job.interval_ns));
    RETURN_IF_ERROR(duration(6, "runtime_ns", job.runtime_ns));
    // Instants the reports place windows and intervals by: each is none (near 0, see
    // IsUnsetInstant, loaded as 0) or within a year of the scenario's start. Anything else (a
    // negative or absurd value) is a corrupt row, not a figure.
    auto instant = [&](int column, const char* field, int64_t& out) {
      const int64_t value = results.Int(column);
      if (anchored && !IsUnsetInstant(value) && !WithinAYear(value, anchor_ns)) {
        return corrupt(absl::StrCat(where, ": ", field, " ", value,
                                    " out of range (allowed within one year of the scenario's ",
                                    anchor_field, " ", anchor_ns, ", or of 0 for none)"));
      }
      if (!anchored && value < -kMaxStoredDurationNs) {
        return corrupt(absl::StrCat(where, ": ", field, " ", value, " out of range (allowed ",
                                    -kMaxStoredDurationNs,
                                    " or more; within one year of 0 is none)"));
      }
      out = IsUnsetInstant(value) ? 0 : value;  // merge takes any other value for an instant
      return absl::OkStatus();
    };
    RETURN_IF_ERROR(instant(7, "start_ns", job.start_realtime_ns));
    RETURN_IF_ERROR(instant(8, "end_ns", job.end_realtime_ns));
    // An end before the start is a job cancelled or failed before its measured phase began (its
    // start is the phase's planned start, its end when it stopped), or a realtime clock stepped
    // back: no end, so merge takes start + runtime; never a reason to refuse the whole file.
    if (job.start_realtime_ns != 0 && job.end_realtime_ns != 0 &&
        job.end_realtime_ns < job.start_realtime_ns) {
      job.end_realtime_ns = 0;
    }
    job.error_errno = static_cast<int>(results.Int(9));
    job.error_message = results.Text(10);
    const json warnings = json::parse(results.Text(11), nullptr, false);
    if (!StringsFromJson(warnings, job.warnings)) return corrupt("malformed warnings JSON");
    job.cpu.threads = static_cast<uint32_t>(results.Int(12));
    job.cpu.wall_ns = results.U64(13);
    job.cpu.user_ns = results.U64(14);
    job.cpu.system_ns = results.U64(15);
    job.cpu.voluntary_switches = results.U64(16);
    job.cpu.involuntary_switches = results.U64(17);
    job.cpu.minor_faults = results.U64(18);
    job.cpu.major_faults = results.U64(19);
    if (!DepthFromText(results.Text(20), job.depth)) return corrupt("malformed io_depths JSON");
    job.verify_failures = results.U64(23);
    for (absl::string_view offset : absl::StrSplit(results.Text(24), ' ', absl::SkipEmpty())) {
      uint64_t value = 0;
      if (!absl::SimpleAtoi(offset, &value)) return corrupt("malformed verify_failure_offsets");
      job.verify_failure_offsets.push_back(value);
    }
    job.continue_on_error = results.Int(25) != 0;
    job.total_err_count = results.U64(26);
    job.first_error = static_cast<int>(results.Int(27));
    job.latency_depth = static_cast<int>(results.Int(28));
    if (!store_rows::SteadyStateFromText(results.Text(29), job.steadystate)) {
      return corrupt("malformed steadystate JSON");
    }

    histograms.Int(1, result_id);
    while (true) {
      ASSIGN_OR_RETURN(bool more_histograms, histograms.Step());
      if (!more_histograms) break;
      const std::string kind_name = histograms.Text(0), lat_kind = histograms.Text(1);
      const std::optional<OpKind> kind = OpKindFromName(kind_name);
      if (!kind) return corrupt(absl::StrCat(where, ": unknown op kind '", kind_name, "'"));
      Histogram::Sparse sparse;
      if (!histograms.ReadSparse(6, sparse)) {
        return corrupt(absl::StrCat(where, " ", kind_name, " ", lat_kind, ": malformed buckets"));
      }
      absl::StatusOr<Histogram> histogram = Histogram::FromSparse(sparse);
      if (!histogram.ok()) {
        return corrupt(
            absl::StrCat(where, " ", kind_name, " ", lat_kind, ": ", histogram.status().message()));
      }
      OpStats& stats = job.Stats(*kind);
      stats.ops = histograms.U64(2);
      stats.bytes = histograms.U64(3);
      stats.errors = histograms.U64(4);
      stats.short_ios = histograms.U64(5);
      if (lat_kind == "lat") {
        stats.lat = *std::move(histogram);
      } else if (lat_kind == "slat") {
        stats.slat = *std::move(histogram);
      } else {
        stats.clat = *std::move(histogram);
      }
    }
    histograms.Reset();

    // Its own rows, then (a carrier, store.h) its agent's folded latency by slot, at
    // max(0, slot - fold_shift): merged into the series in index order.
    const int64_t fold_source_id = results.Int(21), fold_shift = results.Int(22);
    std::map<int64_t, IntervalStats> folded;
    for (const int64_t rows_id : {result_id, fold_source_id}) {
      if (rows_id == 0) continue;
      const bool fold_rows = rows_id != result_id;
      intervals.Int(1, rows_id);
      while (true) {
        ASSIGN_OR_RETURN(bool more_intervals, intervals.Step());
        if (!more_intervals) break;
        int64_t index = intervals.Int(0);
        // An interval begins within the job's first year (the longest duration loading accepts):
        // the agent numbers them from 0 at the job's start, and a carrier's slots
        // (interval_fold.h) are its agent's other jobs' intervals shifted by when those started,
        // never earlier. The reports multiply the index by interval_ns, so a job without an
        // interval length has none.
        if (job.interval_ns == 0) {
          return corrupt(
              absl::StrCat(where, ": interval ", index,
                           " stored for a job without an interval length (interval_ns 0)"));
        }
        if (fold_rows) index = std::max<int64_t>(0, index - fold_shift);
        const int64_t max_index = kMaxStoredDurationNs / static_cast<int64_t>(job.interval_ns);
        if (index < 0 || index > max_index) {
          return corrupt(absl::StrCat(where, ": interval index ", index,
                                      " out of range (allowed 0 to ", max_index, ", intervals of ",
                                      job.interval_ns, " ns beginning within one year)"));
        }
        const std::string kind_name = intervals.Text(1);
        const std::optional<OpKind> kind = OpKindFromName(kind_name);
        if (!kind) return corrupt(absl::StrCat(where, ": unknown op kind '", kind_name, "'"));
        IntervalOpStats s;
        s.ops = intervals.U64(2);
        s.bytes = intervals.U64(3);
        s.errors = intervals.U64(4);
        if (!intervals.ReadSparse(5, s.lat)) {
          intervals.Reset();
          return corrupt(absl::StrCat(where, " interval ", index, ": malformed buckets"));
        }
        if (fold_rows) {
          IntervalStats& slot = folded[index];
          slot.index = index;
          IntervalOpStats& sum = slot.by_kind[static_cast<int>(*kind)];
          sum.ops += s.ops;
          sum.bytes += s.bytes;
          sum.errors += s.errors;
          sum.lat = Histogram::AddSparse(sum.lat, s.lat);
          continue;
        }
        if (job.intervals.empty() || job.intervals.back().index != index) {
          job.intervals.emplace_back().index = index;
        }
        job.intervals.back().by_kind[static_cast<int>(*kind)] = std::move(s);
      }
      intervals.Reset();
    }
    if (!folded.empty()) {
      std::vector<IntervalStats> own = std::move(job.intervals);
      job.intervals.clear();
      job.intervals.reserve(own.size() + folded.size());
      auto next = folded.begin();
      for (IntervalStats& in : own) {
        for (; next != folded.end() && next->first < in.index; ++next) {
          job.intervals.push_back(std::move(next->second));
        }
        if (next != folded.end() && next->first == in.index) {
          in.Merge(next->second);
          ++next;
        }
        job.intervals.push_back(std::move(in));
      }
      for (; next != folded.end(); ++next) job.intervals.push_back(std::move(next->second));
    }
  }

  events.Int(1, scenario_id);
  while (true) {
    ASSIGN_OR_RETURN(bool more, events.Step());
    if (!more) break;
    LostAgent& lost = result.lost.emplace_back();
    lost.lost_at_realtime_ns = events.Int(0);
    lost.agent_id = events.Text(1);
    lost.reason = events.Text(2);
  }

  Statement placements(*this);
  RETURN_IF_ERROR(placements.Prepare(
      "SELECT agent_id, target, placement, agent_az, agent_az_id, az_source, server_address, "
      "address_source, subnet, subnet_source, server_az, server_az_source, reason, mount FROM "
      "placement "
      "WHERE scenario_id = ?"));
  placements.Int(1, scenario_id);
  std::vector<PlacementEvidence> loaded;
  while (true) {
    ASSIGN_OR_RETURN(bool more, placements.Step());
    if (!more) break;
    PlacementEvidence& e = loaded.emplace_back();
    e.agent_id = placements.Text(0);
    e.target = placements.Text(1);
    const std::optional<Placement> p = ParsePlacement(placements.Text(2));
    if (!p) return corrupt(absl::StrCat("placement '", placements.Text(2), "'"));
    e.placement = *p;
    e.agent_az = placements.Text(3);
    e.agent_az_id = placements.Text(4);
    e.az_source = placements.Text(5);
    e.server_address = placements.Text(6);
    e.address_source = placements.Text(7);
    e.subnet = placements.Text(8);
    e.subnet_source = placements.Text(9);
    e.server_az = placements.Text(10);
    e.server_az_source = placements.Text(11);
    e.reason = placements.Text(12);
    e.mount = placements.Text(13);
  }
  // In agent_ids order, as planned.
  for (const std::string& id : result.scenario.agent_ids) {
    for (PlacementEvidence& e : loaded) {
      if (e.agent_id == id) result.scenario.placements.push_back(std::move(e));
    }
  }

  Statement clocks(*this);
  RETURN_IF_ERROR(clocks.Prepare(
      "SELECT agent_id, clock_offset_ns, clock_rtt_ns, measured_at_ns FROM scenario_clock WHERE "
      "scenario_id = ? ORDER BY agent_id"));
  clocks.Int(1, scenario_id);
  std::vector<AgentClockOffset> offsets;
  while (true) {
    ASSIGN_OR_RETURN(bool more, clocks.Step());
    if (!more) break;
    offsets.push_back({clocks.Text(0), clocks.Int(1), clocks.Int(2), clocks.Int(3)});
  }
  // In agent_ids order, then any other agent's (as saved, by agent id).
  const std::vector<std::string>& ids = result.scenario.agent_ids;
  for (const std::string& id : ids) {
    for (const AgentClockOffset& c : offsets) {
      if (c.agent_id == id) result.clock_offsets.push_back(c);
    }
  }
  for (const AgentClockOffset& c : offsets) {
    if (std::find(ids.begin(), ids.end(), c.agent_id) == ids.end()) {
      result.clock_offsets.push_back(c);
    }
  }

  Statement disks(*this);
  RETURN_IF_ERROR(disks.Prepare(
      "SELECT agent_id, name, read_ios, write_ios, read_merges, write_merges, read_ticks, "
      "write_ticks, in_queue, util FROM scenario_disk_util WHERE scenario_id = ? ORDER BY idx"));
  disks.Int(1, scenario_id);
  while (true) {
    ASSIGN_OR_RETURN(bool more, disks.Step());
    if (!more) break;
    result.disk_util.push_back({disks.Text(0), DiskUtil{.name = disks.Text(1),
                                                        .read_ios = disks.U64(2),
                                                        .write_ios = disks.U64(3),
                                                        .read_merges = disks.U64(4),
                                                        .write_merges = disks.U64(5),
                                                        .read_ticks = disks.U64(6),
                                                        .write_ticks = disks.U64(7),
                                                        .in_queue = disks.U64(8),
                                                        .util = disks.Real(9)}});
  }
  return result;
}

}  // namespace azbench

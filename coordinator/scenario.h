// The coordinator's domain model of what runs and what comes back: a Scenario (one cell of a
// campaign's expanded matrix, one repeat) and its ScenarioResult (every agent's per-job results,
// who was lost, timing). plan produces Scenarios, run fills ScenarioResults, merge derives figures,
// store persists them, report renders them. No gRPC, YAML or SQLite types here.
#ifndef AZBENCH_COORDINATOR_SCENARIO_H_
#define AZBENCH_COORDINATOR_SCENARIO_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "common/disk_util.h"
#include "common/job_result.h"
#include "coordinator/placement_evidence.h"
#include "coordinator/staged_interval.h"

namespace azbench {

// What the coordinator knows of an agent after Hello and Describe.
struct AgentInfo {
  std::string agent_id;  // unique in the fleet: the address "host:port" unless configured
  std::string address;   // host:port the coordinator dials
  std::string version;
  std::string hostname;
  std::string region;
  std::string availability_zone;
  std::string availability_zone_id;
  std::string instance_type;
  int64_t clock_offset_ns = 0;  // agent clock - coordinator clock, from the lowest-RTT sample
  int64_t clock_rtt_ns = 0;     // round trip of that sample (the offset's uncertainty is rtt/2)
  // When that sample was sent (coordinator clock); 0 when not known (agents loaded from a store).
  int64_t clock_measured_at_ns = 0;
  // How long the agent keeps a run whose stream broke for an Attach (Hello; not stored).
  absl::Duration reattach_grace = absl::ZeroDuration();
};

// The clock offset a scenario used for one agent (its times, and a client_to_client join, are
// moved to the coordinator's clock by it): measured at connect or again just before the scenario
// (coordinator/fleet/fleet.h RemeasureClockOffsets).
struct AgentClockOffset {
  std::string agent_id;
  int64_t clock_offset_ns = 0;  // agent clock - coordinator clock
  int64_t clock_rtt_ns = 0;     // the measurement's round trip (uncertainty rtt / 2)
  int64_t measured_at_ns = 0;   // when it was measured (coordinator clock); 0 when not known
  bool operator==(const AgentClockOffset&) const = default;
};

// One block device's disk_util as one agent reported it for its run of a scenario (fio's disk_util
// entry, common/disk_util.h).
struct AgentDiskUtil {
  std::string agent_id;
  DiskUtil disk;
};

// A job option by fio name, as written in the campaign or fio job file (values keep their units).
using JobOptions = std::vector<std::pair<std::string, std::string>>;

// One job of a scenario, as sent to an agent.
struct ScenarioJob {
  std::string name;
  std::string workload = "block_io";
  JobOptions options;  // includes directory/filename resolved for the target
  int group_id = 0;
};

struct Scenario {
  int index = 0;  // position in the expanded plan, 0-based
  // Stable identity across runs of the same campaign, used by --resume: built from the target,
  // workload, matrix values and repeat number, e.g.
  // "target=efs/workload=randread/iodepth=16/repeat=1".
  std::string key;
  std::string target;    // target name from the campaign
  std::string workload;  // workload name from the campaign
  // The matrix values of this cell, in the campaign's axis order ("iodepth" -> "16", "nodes" ->
  // "2").
  std::vector<std::pair<std::string, std::string>> parameters;
  int repeat = 1;  // 1-based; 0 for a warmup run
  int repeats = 1;
  // A discarded run before the measured repeats of its cell (campaign `warmup`): it runs like
  // the others, but its results are no part of any figure.
  bool warmup = false;
  std::vector<std::string> agent_ids;  // the agents that run it
  std::vector<ScenarioJob> jobs;       // the same jobs on every chosen agent
  // Seconds to wait before the scenario (campaign cooldown) and warmup run to discard before it.
  double cooldown_s = 0;
  bool skipped = false;  // plan could not satisfy it (e.g. not enough agents)
  std::string skip_reason;
  // The placement of each chosen agent to `target`, in agent_ids order, when plan was given the
  // fleet's placements (coordinator/plan/placement.h); stored with the results.
  std::vector<PlacementEvidence> placements;
};

// True when a job of `scenario` sets `sharing` to `mode` (the last value of the option wins),
// e.g. "shared-file" or "write-verify".
bool ScenarioUsesSharing(const Scenario& scenario, std::string_view mode);

// The name of a file or directory made for one scenario: "<index>-<key>" with '/', '=' and ' '
// replaced by '_', e.g. "3-target_efs_workload_rr_iodepth_16_repeat_1" (op_log directories,
// fio-json files).
std::string ScenarioFileStem(const Scenario& scenario);

// One agent's result for one job of a scenario.
struct AgentJobResult {
  std::string agent_id;
  JobResult result;
};

struct LostAgent {
  std::string agent_id;
  int64_t lost_at_realtime_ns = 0;  // coordinator clock
  std::string reason;
};

enum class ScenarioStatus { kComplete, kPartial, kFailed, kSkipped };
const char* ScenarioStatusName(
    ScenarioStatus status);  // "complete", "partial", "failed", "skipped"

struct ScenarioResult {
  Scenario scenario;
  ScenarioStatus status = ScenarioStatus::kComplete;
  std::string status_detail;  // why partial / failed / skipped
  std::vector<AgentJobResult> results;
  std::vector<LostAgent> lost;
  // Coordinator clock (agent times corrected by their offsets).
  int64_t planned_start_realtime_ns = 0;
  int64_t first_start_realtime_ns = 0;
  int64_t last_start_realtime_ns = 0;
  int64_t first_end_realtime_ns = 0;  // stonewall: the first agent to finish
  int64_t last_end_realtime_ns = 0;
  // Non-zero when RunScenario streamed the intervals into the results database as they arrived
  // (RunOptions::stage_db_path, coordinator/run/interval_spool.h): `results` then carry no
  // intervals (only totals) and SaveScenario completes the rows they were written to; load the
  // scenario back (Store::LoadScenarios) for figures that need them (merge rules 4 and 6).
  int64_t staged_stream_id = 0;
  // With staged_stream_id: where each entry of `results` has its series staged, in order.
  std::vector<StagedSeries> staged;
  // The clock offset used for each agent of the scenario (in agent_ids order; empty when not
  // recorded: skipped scenarios, files written before it was stored).
  std::vector<AgentClockOffset> clock_offsets;
  // The disks under each agent's job directories, in agent order (none where no agent's
  // directories are on a block device: tmpfs, NFS).
  std::vector<AgentDiskUtil> disk_util;
  int64_t start_skew_ns() const { return last_start_realtime_ns - first_start_realtime_ns; }
};

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_SCENARIO_H_

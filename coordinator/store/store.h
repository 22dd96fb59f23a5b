// Results database: one SQLite file per campaign, written one scenario at a time.
//
// Guarantees:
//   - Every scenario is written in ONE transaction (BEGIN IMMEDIATE ... COMMIT), committed
//     before SaveScenario returns, with journal_mode=WAL and synchronous=FULL: a crash or kill of
//     the coordinator, or a power loss, loses at most the scenario in flight, never half of one.
//     The intervals of the scenario in flight are written to their final interval rows in
//     batches as they arrive (StageIntervals), under an attempt: a scenario row with attempt_of
//     set, which SaveScenario turns into the stored scenario. A crash leaves the attempt in the
//     file, ignored by every reader and by `run --resume`.
//   - LoadScenarios returns exactly what was saved: every field of every ScenarioResult (with its
//     streamed series attached: the intervals, not staged_stream_id),
//     histograms equal bucket for bucket (Histogram::operator==), intervals index for index.
//   - A file holds one campaign (by name); opening it for another campaign is refused.
//   - The schema version is PRAGMA user_version (kStoreSchemaVersion). A file written by a newer
//     azbench is refused with both versions named. PRAGMA application_id is 0x617a6265 ("azbe");
//     a SQLite file of another application is refused and left untouched.
//
// Resume: CompletedScenarioKeys() are the keys stored with status "complete"; `run --resume`
// skips exactly those. Partial, failed and skipped scenarios run again, and saving a key that is
// already stored replaces its rows (in the same transaction): the file holds the latest attempt.
//
// Schema (version 3). Times are CLOCK_REALTIME ns on the coordinator's clock. Columns holding a
// uint64 store the int64 with the same bits (values >= 2^63 read back negative in plain SQL; the
// sum_* words of the wide moments are for azbench, not for SQL arithmetic).
//
//   campaign(id INTEGER PK, name TEXT UNIQUE, file, started_at_ns, finished_at_ns (NULL until
//       FinishCampaign), azbench_version, campaign_yaml)
//   run(id PK, campaign_id FK, started_at_ns, finished_at_ns (NULL while running or after a crash),
//       resumed (0|1), outcome ('running'|'finished'|'incomplete'|'interrupted')): one row per
//       `azbench run` invocation; scenario.run_id names the run that stored the scenario.
//   agent(id PK, campaign_id FK, agent_id, address, hostname, region, az, az_id, instance_type,
//       version, clock_offset_ns, clock_rtt_ns; UNIQUE(campaign_id, agent_id)): the clock offset
//       as measured when the fleet was connected (each scenario's own in scenario_clock)
//   scenario(id PK, campaign_id FK, idx, key, target, workload,
//       parameters (JSON [[axis, value], ...] in the campaign's axis order), repeat, repeats,
//       status ('complete'|'partial'|'failed'|'skipped'), status_detail,
//       agent_ids (JSON ["agent", ...]),
//       jobs (JSON [{"name", "workload", "group_id", "options": [[key, value], ...]}, ...]),
//       cooldown_s REAL, skipped, skip_reason, planned_start_ns, first_start_ns, last_start_ns,
//       first_end_ns, last_end_ns, run_id FK run (NULL when saved outside a run),
//       attempt_of (NULL for a stored scenario; else the key of the scenario this row is an
//       unfinished attempt of, whose intervals are streaming in: its own key is then that key
//       with a suffix, its status 'failed'; every reader skips it, SaveScenario of the key makes it
//       the stored scenario, and deletes the key's other attempts: those a crash cut short);
//       UNIQUE(campaign_id, key))
//   agent_result(id PK, scenario_id FK ON DELETE CASCADE, idx (position in
//       ScenarioResult::results), agent_id (agent.agent_id, deliberately not a foreign key:
//       results of an agent whose Describe was not saved are still kept), job_name, group_id,
//       clones, interval_ns, runtime_ns, start_ns, end_ns, error_errno, error_message,
//       warnings (JSON array), cpu_threads, cpu_wall_ns, cpu_user_ns, cpu_system_ns,
//       cpu_voluntary_switches, cpu_involuntary_switches, cpu_minor_faults, cpu_major_faults
//       (JobResult::cpu; all 0 when not measured), io_depths (JobResult::depth as JSON
//       {"level": [7], "submit": [7], "complete": [7]}, '' when not measured), verify_failures,
//       verify_failure_offsets (space-separated), continue_on_error (0|1), total_err,
//       first_error (JobResult's; 0, 0, 0 when the job did not set continue_on_error),
//       latency_depth (the depth a latency_target search ended at; 0: no search), steadystate
//       (JobResult::steadystate as JSON, store_rows.h; '' without ss_dur). These
//       came later within version 2, like placement.mount: a file without them gains them when
//       opened.),
//       fold_source_id, fold_shift (version 3; 0, 0: none): the row whose interval rows hold
//       this result's agent's folded interval latency (interval_fold.h) by slot; loading adds
//       slot s to this result's interval max(0, s - fold_shift). Such a source row has idx < 0
//       and is not a result of its own (LoadScenarios skips rows with idx < 0).
//   histogram(agent_result_id FK ON DELETE CASCADE, op_kind ('read', 'write', ... as
//       OpKindName), lat_kind ('lat'|'slat'|'clat'), ops, bytes, errors, short_ios, count,
//       min_ns, max_ns, sum_ns, sum_ns_hi, sum_sq_hi, sum_sq_lo, sum_sq_top, buckets BLOB;
//       PK(agent_result_id, op_kind, lat_kind))
//       One 'lat' row for every op kind the job reports; 'slat'/'clat' rows only when non-empty.
//       ops/bytes/errors/short_ios are the op kind's counts, repeated on each of its rows: sum
//       them over lat_kind = 'lat'. The sum is the 128-bit sum_ns_hi:sum_ns, the sum of squares
//       the 192-bit sum_sq_top:sum_sq_hi:sum_sq_lo (as Histogram::Sparse).
//   interval(agent_result_id FK ON DELETE CASCADE, idx, op_kind, ops, bytes, errors, count,
//       min_ns, max_ns, sum_ns, sum_ns_hi, sum_sq_hi, sum_sq_lo, sum_sq_top, lat_buckets BLOB;
//       PK(agent_result_id, idx, op_kind))
//       One row per interval and op kind with anything in it; an interval in which nothing
//       happened keeps one all-zero row (the job's first op kind; for a streamed series the first
//       kind it had streamed by then, else 'read') so a stall stays visible. A streamed series'
//       rows are written while the scenario runs (clones of one job summed into one row), so
//       storing the scenario copies none of them. A rowid table with the primary key as its
//       index (files created before version 3: WITHOUT ROWID; both read the same): rows arrive
//       interleaved across every series, and appending them beats inserting ~1.5 KiB rows into
//       the middle of a key-ordered b-tree.
//   placement(scenario_id FK ON DELETE CASCADE, agent_id, target, placement ('same-az' |
//       'cross-az' | 'unknown'), agent_az, agent_az_id, az_source, server_address,
//       address_source, subnet, subnet_source, server_az, server_az_source, reason;
//       PK(scenario_id, agent_id)): Scenario::placements, the evidence each agent was placed on
//       when the scenario was planned (schema version 2; a version 1 file gains the empty table
//       when opened). Column `mount` (PlacementEvidence::mount, TEXT NOT NULL DEFAULT '') came
//       later within version 2: a file without it gains it when opened, and an azbench that does
//       not know it reads and writes the table as before.
//   (Version 2 had staged_stream and staged_interval, where streamed intervals waited to be
//       copied into interval rows; opening a version 2 file for writing drops them, with the rows
//       of any attempt a crash cut short, which no reader ever showed.)
//   scenario_clock(scenario_id FK ON DELETE CASCADE, agent_id, clock_offset_ns, clock_rtt_ns,
//       measured_at_ns; PK(scenario_id, agent_id)): ScenarioResult::clock_offsets, the clock offset
//       (agent clock - coordinator clock) the scenario used for each agent, with the round trip
//       of its measurement and when it was made (0: not known). The agent table keeps the offset
//       measured at connect; a client_to_client scenario measures them again just before it runs,
//       and this is the one its times and joins used. Came within version 2: a file without it
//       gains it when opened (its scenarios load with no clock_offsets).
//   scenario_disk_util(scenario_id FK ON DELETE CASCADE, idx, agent_id, name, read_ios,
//       write_ios, read_merges, write_merges, read_ticks, write_ticks, in_queue, util REAL;
//       PK(scenario_id, idx)): ScenarioResult::disk_util in order, each agent's block devices
//       under its job directories over its run (fio's disk_util, common/disk_util.h). Came within
//       version 2: a file without it gains it when opened (its scenarios load with none).
//   event(id PK, scenario_id FK ON DELETE CASCADE, at_ns, agent_id, kind, message)
//       kind 'lost' (ScenarioResult::lost: at_ns = lost_at, message = reason) and 'warning' (a
//       job's warning, at_ns = the job's end; the warnings are also in agent_result.warnings).
//
//   Bucket BLOB: for each non-zero bucket in increasing index order, two unsigned LEB128
//   varints: the index minus the previous bucket's index (the first bucket: minus 0), then the
//   count. An empty histogram is an empty BLOB. Typically 2-4 bytes per non-zero bucket.
//
// Example:
//   ASSIGN_OR_RETURN(std::unique_ptr<Store> store, Store::Open("results.db"));
//   RETURN_IF_ERROR(store->BeginCampaign("study-b", "study-b.yaml", yaml_text).status());
//   RETURN_IF_ERROR(store->SaveScenario(result));
//
// Not thread-safe: one Store per thread. Every error is an absl::Status naming the file and
// carrying SQLite's message.
#ifndef AZBENCH_COORDINATOR_STORE_STORE_H_
#define AZBENCH_COORDINATOR_STORE_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "coordinator/scenario.h"
#include "coordinator/staged_interval.h"

struct sqlite3;
struct sqlite3_stmt;

namespace azbench {

inline constexpr int kStoreSchemaVersion = 3;
inline constexpr int32_t kStoreApplicationId = 0x617a6265;  // "azbe"

struct CampaignRecord {
  int64_t id = 0;
  std::string name;
  std::string file;
  int64_t started_at_ns = 0;
  int64_t finished_at_ns = 0;  // 0 while unfinished
  std::string azbench_version;
  std::string campaign_yaml;
};

class Store {
 public:
  // Opens `path`, creating the file and schema when missing. Errors: InvalidArgument when `path`
  // is a directory or its directory does not exist (or is not one); FailedPrecondition when the
  // file has a newer schema version or is not an azbench database; Internal (SQLite's message,
  // with "permission denied" when that is why) when SQLite cannot open or read it.
  static absl::StatusOr<std::unique_ptr<Store>> Open(const std::string& path);
  // Opens an existing results database read-only (`azbench report`, `compare`): nothing is ever
  // written to the file, not even the schema additions Open makes (a file that lacks some is read
  // through an in-memory copy that has them). The directory is left as it was: the -wal/-shm
  // files SQLite creates to read a WAL database (every run writes one) and, read-only, cannot
  // remove are removed when the Store closes, unless another connection (a run) has the database
  // open then, or this user cannot write the file. Errors: NotFound when the file does not exist;
  // InvalidArgument when `path` is a directory; FailedPrecondition when the file is empty (0
  // bytes, or an SQLite database with no tables) or is not an azbench database; as Open otherwise.
  // Writing through the returned Store fails (SQLite's "attempt to write a readonly database").
  static absl::StatusOr<std::unique_ptr<Store>> OpenExisting(const std::string& path);

  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const { return path_; }

  // Starts the campaign `name`, or continues it when the file already holds it (--resume: the
  // stored file, yaml and start time are kept, finished_at is cleared). Returns the campaign id.
  // FailedPrecondition when the file holds another campaign.
  absl::StatusOr<int64_t> BeginCampaign(const std::string& name, const std::string& file,
                                        const std::string& campaign_yaml,
                                        const std::string& azbench_version = "");
  // The campaign this file holds (after BeginCampaign, or the stored one). NotFound when none.
  absl::StatusOr<CampaignRecord> LoadCampaign();
  // One invocation of `azbench run` (a resume is another run). Scenarios saved afterwards carry its
  // id. FailedPrecondition before BeginCampaign.
  absl::StatusOr<int64_t> BeginRun(bool resumed);
  // outcome: finished | incomplete | interrupted. FailedPrecondition before BeginRun.
  absl::Status FinishRun(const std::string& outcome);
  // Sets finished_at to now. FailedPrecondition before BeginCampaign.
  absl::Status FinishCampaign();

  // Inserts or updates (by agent_id) each agent, in one transaction.
  absl::Status SaveAgents(const std::vector<AgentInfo>& agents);
  absl::StatusOr<std::vector<AgentInfo>> LoadAgents();

  // Writes every row of `result` in one transaction, replacing a stored scenario of the same key.
  // With result.staged_stream_id (an attempt, BeginStaging), the attempt becomes the stored
  // scenario: each result takes over the interval rows streamed for its series (ScenarioResult::
  // staged), nothing is copied, and the key's other attempts are deleted.
  // On error nothing of this scenario is written (and a replaced one stays as it was).
  // InvalidArgument when the result cannot be stored as it is (duplicate interval indices, an empty
  // key); NotFound when staged_stream_id is no attempt of this key; FailedPrecondition before
  // BeginCampaign.
  absl::Status SaveScenario(const ScenarioResult& result);

  // Streaming (RunScenario with RunOptions::stage_db_path, coordinator/run/interval_spool.h).
  // Opens one attempt of scenario `scenario_key` (a scenario row that no reader sees until
  // SaveScenario): returns its id. FailedPrecondition before BeginCampaign (or on a file with no
  // campaign).
  absl::StatusOr<int64_t> BeginStaging(const std::string& scenario_key);
  // Writes `batch` into the final interval rows of attempt `stream_id` in one transaction. Keeps
  // which result row each series has: call it for one attempt from one Store.
  absl::Status StageIntervals(int64_t stream_id, const std::vector<StagedInterval>& batch);
  // Drops an attempt and its rows (a warmup, whose result is discarded).
  absl::Status DiscardStaged(int64_t stream_id);
  // Interval rows of the unfinished attempt `stream_id` (0 once saved or discarded), for tests.
  absl::StatusOr<int64_t> StagedRowCount(int64_t stream_id);

  // Stored keys with their status.
  absl::StatusOr<std::map<std::string, ScenarioStatus>> StoredScenarioKeys();
  // The keys `run --resume` skips: status complete.
  absl::StatusOr<std::set<std::string>> CompletedScenarioKeys();
  // What defines each of those scenarios as it was run (key, target, workload, parameters,
  // repeat, agent_ids, jobs, warmup/skip fields; no results), in plan order: `run --resume`
  // compares them with the plan before skipping them (coordinator/run/resume_check.h). DataLoss
  // when a row's JSON is malformed.
  absl::StatusOr<std::vector<Scenario>> CompletedScenarioDefinitions();

  // Every stored scenario of the campaign, in plan order (Scenario::index, then key).
  absl::StatusOr<std::vector<ScenarioResult>> LoadScenarios();

 private:
  class Statement;

  Store(std::string path, sqlite3* db) : path_(std::move(path)), db_(db) {}
  static absl::StatusOr<std::unique_ptr<Store>> OpenImpl(const std::string& path, bool create);
  absl::Status Initialize(bool read_only);
  absl::StatusOr<bool> NeedsSchemaAdditions(int64_t version);
  absl::Status CopyToMemory();
  absl::Status AddPlacementMountColumn();
  absl::Status AddAgentResultColumns();
  absl::Status AddStreamingColumns();
  absl::Status DropStagingTables();
  absl::Status AddScenarioClockTable();
  absl::Status AddScenarioDiskUtilTable();
  absl::Status Exec(std::string_view sql);
  absl::Status Error(std::string_view what) const;
  absl::StatusOr<int64_t> CampaignId();
  absl::Status ReadCampaignId();  // campaign_id_ from the file's campaign row, if any
  // A scenario's definition from kScenarioDefinitionColumns (store_load.cc) at column `first`.
  absl::StatusOr<Scenario> ScenarioDefinitionFromRow(Statement& row, int first);
  absl::StatusOr<ScenarioResult> LoadScenarioRow(Statement& row);
  absl::Status SaveScenarioRows(int64_t campaign_id, const ScenarioResult& result);

  // StageIntervals' attempt: the result row of each streamed series (agent, job index, result
  // name; job index kFoldedLatency: the agent's folded latency) and the kinds it streamed.
  struct StreamedSeriesRow {
    int64_t result_id = 0;
    uint32_t kinds_seen = 0;  // bit k: OpKind k
  };
  absl::StatusOr<StreamedSeriesRow*> StreamedSeries(int64_t stream_id, const StagedInterval& in);
  int64_t streaming_id_ = 0;
  std::map<std::tuple<std::string, int, std::string>, StreamedSeriesRow> streamed_series_;

  std::string path_;
  sqlite3* db_ = nullptr;
  // OpenExisting found neither "-wal" nor "-shm" beside the file: the ones SQLite creates to read
  // a WAL database are removed again when this Store closes (RemoveReadSidecars).
  bool remove_read_sidecars_ = false;
  int64_t campaign_id_ = 0;  // 0 until BeginCampaign or a stored campaign is found
  int64_t run_id_ = 0;       // 0 until BeginRun
};

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_STORE_STORE_H_

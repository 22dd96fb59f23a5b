// The additions within schema version 2 (store.h), applied to every file when it is opened:
// columns with defaults and new tables, so older and newer azbench read and write the same file.
#include <sqlite3.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "coordinator/store/store.h"
#include "coordinator/store/store_rows.h"

namespace azbench {

namespace {

// Within version 2 (store.h): streamed intervals waiting for their scenario to be saved.
constexpr char kStagingSchema[] = R"sql(
CREATE TABLE IF NOT EXISTS staged_stream (
  id INTEGER PRIMARY KEY,
  campaign_id INTEGER NOT NULL REFERENCES campaign(id) ON DELETE CASCADE,
  scenario_key TEXT NOT NULL,
  started_at_ns INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS staged_stream_key ON staged_stream (campaign_id, scenario_key);
CREATE TABLE IF NOT EXISTS staged_interval (
  stream_id INTEGER NOT NULL REFERENCES staged_stream(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL,
  job_index INTEGER NOT NULL,
  result_name TEXT NOT NULL,
  idx INTEGER NOT NULL,
  op_kind TEXT NOT NULL,
  ops INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  errors INTEGER NOT NULL,
  count INTEGER NOT NULL,
  min_ns INTEGER NOT NULL,
  max_ns INTEGER NOT NULL,
  sum_ns INTEGER NOT NULL,
  sum_ns_hi INTEGER NOT NULL,
  sum_sq_hi INTEGER NOT NULL,
  sum_sq_lo INTEGER NOT NULL,
  sum_sq_top INTEGER NOT NULL,
  lat_buckets BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS staged_interval_series
  ON staged_interval (stream_id, agent_id, job_index, result_name, idx);
)sql";

// Within version 2 (store.h): the clock offset each scenario used for each of its agents.
constexpr char kScenarioClockSchema[] = R"sql(
CREATE TABLE IF NOT EXISTS scenario_clock (
  scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL,
  clock_offset_ns INTEGER NOT NULL,
  clock_rtt_ns INTEGER NOT NULL,
  measured_at_ns INTEGER NOT NULL,
  PRIMARY KEY (scenario_id, agent_id)
) WITHOUT ROWID;
)sql";

}  // namespace

// Whether the file lacks any of what Initialize adds to a file it opens for writing (version 1's
// placement table, the additions below): a read-only Store then reads an in-memory copy with them.
// Keep in step with the Add* functions.
absl::StatusOr<bool> Store::NeedsSchemaAdditions(int64_t version) {
  if (version < kStoreSchemaVersion) return true;
  Statement count(*this);
  RETURN_IF_ERROR(count.Prepare(
      "SELECT (SELECT count(*) FROM pragma_table_info('placement') WHERE name = 'mount') + "
      "(SELECT count(*) FROM pragma_table_info('agent_result') WHERE name IN ('cpu_threads', "
      "'cpu_wall_ns', 'cpu_user_ns', 'cpu_system_ns', 'cpu_voluntary_switches', "
      "'cpu_involuntary_switches', 'cpu_minor_faults', 'cpu_major_faults', 'io_depths')) + "
      "(SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = "
      "'staged_interval_series') + (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND "
      "name IN ('staged_stream', 'staged_interval', 'scenario_clock'))"));
  ASSIGN_OR_RETURN(bool row, count.Step());
  return !row || count.Int(0) != 1 + 9 + 1 + 3;
}

// placement.mount, added within schema version 2 (store.h): additive, with a default, so older
// and newer azbench read and write the same file.
absl::Status Store::AddPlacementMountColumn() {
  Statement columns(*this);
  RETURN_IF_ERROR(
      columns.Prepare("SELECT count(*) FROM pragma_table_info('placement') "
                      "WHERE name = 'mount'"));
  ASSIGN_OR_RETURN(bool row, columns.Step());
  if (row && columns.Int(0) > 0) return absl::OkStatus();
  return Exec("ALTER TABLE placement ADD COLUMN mount TEXT NOT NULL DEFAULT ''");
}

// agent_result.cpu_* and io_depths, added within schema version 2 (store.h): additive, with
// defaults that read as "not measured" (0, ''), so older and newer azbench read and write the same
// file. The missing ones are added in one transaction.
absl::Status Store::AddAgentResultColumns() {
  static constexpr std::pair<const char*, const char*> kColumns[] = {
      {"cpu_threads", "INTEGER NOT NULL DEFAULT 0"},
      {"cpu_wall_ns", "INTEGER NOT NULL DEFAULT 0"},
      {"cpu_user_ns", "INTEGER NOT NULL DEFAULT 0"},
      {"cpu_system_ns", "INTEGER NOT NULL DEFAULT 0"},
      {"cpu_voluntary_switches", "INTEGER NOT NULL DEFAULT 0"},
      {"cpu_involuntary_switches", "INTEGER NOT NULL DEFAULT 0"},
      {"cpu_minor_faults", "INTEGER NOT NULL DEFAULT 0"},
      {"cpu_major_faults", "INTEGER NOT NULL DEFAULT 0"},
      {"io_depths", "TEXT NOT NULL DEFAULT ''"}};
  std::vector<std::string> missing;
  for (const auto& [name, declaration] : kColumns) {
    Statement columns(*this);
    RETURN_IF_ERROR(
        columns.Prepare("SELECT count(*) FROM pragma_table_info('agent_result') WHERE name = ?"));
    columns.Text(1, name);
    ASSIGN_OR_RETURN(bool row, columns.Step());
    if (!row || columns.Int(0) == 0) {
      missing.push_back(
          absl::StrCat("ALTER TABLE agent_result ADD COLUMN ", name, " ", declaration));
    }
  }
  if (missing.empty()) return absl::OkStatus();
  RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
  absl::Status added = absl::OkStatus();
  for (const std::string& statement : missing) {
    added = Exec(statement);
    if (!added.ok()) break;
  }
  if (added.ok()) added = Exec("COMMIT");
  if (!added.ok()) {
    Exec("ROLLBACK").IgnoreError();
    return absl::Status(added.code(),
                        absl::StrCat("adding columns to agent_result: ", added.message()));
  }
  return absl::OkStatus();
}

// staged_stream / staged_interval, added within schema version 2 (store.h): new tables only, so
// older azbench ignore them.
absl::Status Store::AddStagingTables() {
  Statement tables(*this);
  RETURN_IF_ERROR(
      tables.Prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND "
                     "name = 'staged_interval_series'"));
  ASSIGN_OR_RETURN(bool row, tables.Step());
  if (row && tables.Int(0) > 0) return absl::OkStatus();
  return Exec(kStagingSchema);
}

// scenario_clock, added within schema version 2 (store.h): a new table only, so older azbench
// ignore it (and, replacing a scenario, drop its rows with it: ON DELETE CASCADE).
absl::Status Store::AddScenarioClockTable() { return Exec(kScenarioClockSchema); }

}  // namespace azbench

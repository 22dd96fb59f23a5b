// The additions within schema versions 2 and 3 (store.h), applied to every file when it is opened:
// columns with defaults and new tables. Within version 2 they let older and newer azbench read and
// write the same file; version 3's columns change what a scenario's rows mean (attempts, folded
// latency rows), so an older azbench refuses a version 3 file.
#include <sqlite3.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "coordinator/store/store.h"
#include "coordinator/store/store_rows.h"

namespace azbench {

namespace {

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

// Within version 2 (store.h): the disk_util each agent reported for its run of a scenario.
constexpr char kScenarioDiskUtilSchema[] = R"sql(
CREATE TABLE IF NOT EXISTS scenario_disk_util (
  scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  agent_id TEXT NOT NULL,
  name TEXT NOT NULL,
  read_ios INTEGER NOT NULL,
  write_ios INTEGER NOT NULL,
  read_merges INTEGER NOT NULL,
  write_merges INTEGER NOT NULL,
  read_ticks INTEGER NOT NULL,
  write_ticks INTEGER NOT NULL,
  in_queue INTEGER NOT NULL,
  util REAL NOT NULL,
  PRIMARY KEY (scenario_id, idx)
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
      "'cpu_involuntary_switches', 'cpu_minor_faults', 'cpu_major_faults', 'io_depths', "
      "'fold_source_id', 'fold_shift', 'verify_failures', 'verify_failure_offsets', "
      "'continue_on_error', 'total_err', 'first_error', 'latency_depth', 'steadystate')) + "
      "(SELECT count(*) FROM pragma_table_info('scenario') WHERE name = 'attempt_of') + "
      "(SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN ('scenario_clock', "
      "'scenario_disk_util'))"));
  ASSIGN_OR_RETURN(bool row, count.Step());
  return !row || count.Int(0) != 1 + 18 + 1 + 2;
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

// agent_result.cpu_*, io_depths, verify_*, the continue_on_error columns and latency_depth, added
// within schema
// version 2 (store.h): additive, with defaults that read as "not measured" (0, ''), so older and
// newer azbench read and write the same file. The missing ones are added in one transaction.
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
      {"io_depths", "TEXT NOT NULL DEFAULT ''"},
      // verify (sharing=write-verify's verifiers): failed intervals and the first offsets, as
      // space-separated decimals.
      {"verify_failures", "INTEGER NOT NULL DEFAULT 0"},
      {"verify_failure_offsets", "TEXT NOT NULL DEFAULT ''"},
      // continue_on_error (JobResult): whether the job set it, the errors it counted and the
      // first of them (an errno, 0 for none).
      {"continue_on_error", "INTEGER NOT NULL DEFAULT 0"},
      {"total_err", "INTEGER NOT NULL DEFAULT 0"},
      {"first_error", "INTEGER NOT NULL DEFAULT 0"},
      // The depth a latency_target search ended at (JobResult::latency_depth; 0: no search).
      {"latency_depth", "INTEGER NOT NULL DEFAULT 0"},
      // fio's steady state (JobResult::steadystate as JSON, store_rows.h; '': none).
      {"steadystate", "TEXT NOT NULL DEFAULT ''"}};
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

// Version 3 (store.h): scenario.attempt_of and agent_result.fold_source_id, fold_shift, added to
// a version 2 file in the transaction that sets the version.
absl::Status Store::AddStreamingColumns() {
  static constexpr std::pair<const char*, const char*> kColumns[] = {
      {"scenario", "attempt_of TEXT"},
      {"agent_result", "fold_source_id INTEGER NOT NULL DEFAULT 0"},
      {"agent_result", "fold_shift INTEGER NOT NULL DEFAULT 0"}};
  for (const auto& [table, declaration] : kColumns) {
    const std::string_view column(declaration, std::string_view(declaration).find(' '));
    Statement columns(*this);
    RETURN_IF_ERROR(columns.Prepare(absl::StrCat("SELECT count(*) FROM pragma_table_info('", table,
                                                 "') WHERE name = '", std::string(column), "'")));
    ASSIGN_OR_RETURN(bool row, columns.Step());
    if (row && columns.Int(0) > 0) continue;
    RETURN_IF_ERROR(Exec(absl::StrCat("ALTER TABLE ", table, " ADD COLUMN ", declaration)));
  }
  return absl::OkStatus();
}

// Version 2's staging tables: what they held was never shown by any reader (an attempt a crash
// cut short), and version 3 writes streamed intervals to their final rows instead.
absl::Status Store::DropStagingTables() {
  return Exec("DROP TABLE IF EXISTS staged_interval; DROP TABLE IF EXISTS staged_stream");
}

// scenario_clock, added within schema version 2 (store.h): a new table only, so older azbench
// ignore it (and, replacing a scenario, drop its rows with it: ON DELETE CASCADE).
absl::Status Store::AddScenarioClockTable() { return Exec(kScenarioClockSchema); }

// scenario_disk_util, added within schema version 2 (store.h): a new table only, as
// scenario_clock.
absl::Status Store::AddScenarioDiskUtilTable() { return Exec(kScenarioDiskUtilSchema); }

}  // namespace azbench

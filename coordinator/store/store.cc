#include "coordinator/store/store.h"

#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/histogram.h"
#include "common/op_kind.h"
#include "common/status_macros.h"
#include "coordinator/store/results_file.h"
#include "coordinator/store/store_rows.h"

namespace azbench {

using store_rows::ForEachIntervalRow;

namespace {

constexpr char kSchema[] = R"sql(
CREATE TABLE campaign (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  file TEXT NOT NULL,
  started_at_ns INTEGER NOT NULL,
  finished_at_ns INTEGER,
  azbench_version TEXT NOT NULL,
  campaign_yaml TEXT NOT NULL
);
CREATE TABLE run (
  id INTEGER PRIMARY KEY,
  campaign_id INTEGER NOT NULL REFERENCES campaign(id) ON DELETE CASCADE,
  started_at_ns INTEGER NOT NULL,
  finished_at_ns INTEGER,
  resumed INTEGER NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('running', 'finished', 'incomplete', 'interrupted'))
);
CREATE TABLE agent (
  id INTEGER PRIMARY KEY,
  campaign_id INTEGER NOT NULL REFERENCES campaign(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL,
  address TEXT NOT NULL,
  hostname TEXT NOT NULL,
  region TEXT NOT NULL,
  az TEXT NOT NULL,
  az_id TEXT NOT NULL,
  instance_type TEXT NOT NULL,
  version TEXT NOT NULL,
  clock_offset_ns INTEGER NOT NULL,
  clock_rtt_ns INTEGER NOT NULL,
  UNIQUE (campaign_id, agent_id)
);
CREATE TABLE scenario (
  id INTEGER PRIMARY KEY,
  campaign_id INTEGER NOT NULL REFERENCES campaign(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  key TEXT NOT NULL,
  target TEXT NOT NULL,
  workload TEXT NOT NULL,
  parameters TEXT NOT NULL,
  repeat INTEGER NOT NULL,
  repeats INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('complete', 'partial', 'failed', 'skipped')),
  status_detail TEXT NOT NULL,
  agent_ids TEXT NOT NULL,
  jobs TEXT NOT NULL,
  cooldown_s REAL NOT NULL,
  skipped INTEGER NOT NULL,
  skip_reason TEXT NOT NULL,
  planned_start_ns INTEGER NOT NULL,
  first_start_ns INTEGER NOT NULL,
  last_start_ns INTEGER NOT NULL,
  first_end_ns INTEGER NOT NULL,
  last_end_ns INTEGER NOT NULL,
  run_id INTEGER REFERENCES run(id),
  UNIQUE (campaign_id, key)
);
CREATE TABLE agent_result (
  id INTEGER PRIMARY KEY,
  scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  agent_id TEXT NOT NULL,
  job_name TEXT NOT NULL,
  group_id INTEGER NOT NULL,
  clones INTEGER NOT NULL,
  interval_ns INTEGER NOT NULL,
  runtime_ns INTEGER NOT NULL,
  start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL,
  error_errno INTEGER NOT NULL,
  error_message TEXT NOT NULL,
  warnings TEXT NOT NULL,
  UNIQUE (scenario_id, idx)
);
CREATE TABLE histogram (
  agent_result_id INTEGER NOT NULL REFERENCES agent_result(id) ON DELETE CASCADE,
  op_kind TEXT NOT NULL,
  lat_kind TEXT NOT NULL CHECK (lat_kind IN ('lat', 'slat', 'clat')),
  ops INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  errors INTEGER NOT NULL,
  short_ios INTEGER NOT NULL,
  count INTEGER NOT NULL,
  min_ns INTEGER NOT NULL,
  max_ns INTEGER NOT NULL,
  sum_ns INTEGER NOT NULL,
  sum_ns_hi INTEGER NOT NULL,
  sum_sq_hi INTEGER NOT NULL,
  sum_sq_lo INTEGER NOT NULL,
  sum_sq_top INTEGER NOT NULL,
  buckets BLOB NOT NULL,
  PRIMARY KEY (agent_result_id, op_kind, lat_kind)
) WITHOUT ROWID;
CREATE TABLE interval (
  agent_result_id INTEGER NOT NULL REFERENCES agent_result(id) ON DELETE CASCADE,
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
  lat_buckets BLOB NOT NULL,
  PRIMARY KEY (agent_result_id, idx, op_kind)
);
CREATE TABLE event (
  id INTEGER PRIMARY KEY,
  scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
  at_ns INTEGER NOT NULL,
  agent_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  message TEXT NOT NULL
);
CREATE INDEX agent_result_by_scenario ON agent_result (scenario_id);
CREATE INDEX event_by_scenario ON event (scenario_id);
)sql";

// Version 2 adds the placement evidence; applied to new files after kSchema and to version 1 files
// when they are opened (additive: nothing else changes).
constexpr char kSchemaV2[] = R"sql(
CREATE TABLE placement (
  scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL,
  target TEXT NOT NULL,
  placement TEXT NOT NULL CHECK (placement IN ('same-az', 'cross-az', 'unknown')),
  agent_az TEXT NOT NULL,
  agent_az_id TEXT NOT NULL,
  az_source TEXT NOT NULL,
  server_address TEXT NOT NULL,
  address_source TEXT NOT NULL,
  subnet TEXT NOT NULL,
  subnet_source TEXT NOT NULL,
  server_az TEXT NOT NULL,
  server_az_source TEXT NOT NULL,
  reason TEXT NOT NULL,
  PRIMARY KEY (scenario_id, agent_id)
) WITHOUT ROWID;
)sql";

// A read-only connection to a WAL database creates "-wal" and "-shm" beside it when they are
// missing and cannot remove them when it closes (only a connection that may write checkpoints and
// removes them, when it is the last one). So a read-write connection that reads nothing but the
// schema is opened and closed: SQLite removes them when no other connection has the database open
// (it takes its EXCLUSIVE lock first), and writes nothing to the file, the WAL being empty. A WAL
// that is not (a run came and went while this Store read) or a file this user cannot write is
// left as it is.
void RemoveReadSidecars(const std::string& path) {
  std::error_code ec;
  const std::string wal = path + "-wal";
  if (!std::filesystem::exists(wal, ec) && !std::filesystem::exists(path + "-shm", ec)) return;
  if (std::filesystem::exists(wal, ec) && std::filesystem::file_size(wal, ec) != 0) return;
  if (ec || std::filesystem::exists(path + "-journal", ec)) return;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK &&
      sqlite3_db_readonly(db, "main") == 0) {
    sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", nullptr, nullptr, nullptr);
  }
  sqlite3_close(db);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Store>> Store::Open(const std::string& path) {
  return OpenImpl(path, /*create=*/true);
}

absl::StatusOr<std::unique_ptr<Store>> Store::OpenExisting(const std::string& path) {
  return OpenImpl(path, /*create=*/false);
}

absl::StatusOr<std::unique_ptr<Store>> Store::OpenImpl(const std::string& path, bool create) {
  // What SQLite would only call "unable to open database file" is named before it is asked.
  RETURN_IF_ERROR(CheckResultsLocation(path));
  std::error_code ec;
  const bool exists = std::filesystem::exists(path, ec);
  if (!create && !exists) {
    return absl::NotFoundError(absl::StrCat(path, ": no such results database"));
  }
  if (!create && std::filesystem::file_size(path, ec) == 0 && !ec &&
      !std::filesystem::exists(path + "-wal", ec)) {
    return absl::FailedPreconditionError(
        absl::StrCat(path,
                     ": empty file (0 bytes), not a results database (`azbench run` writes "
                     "one); it was left as it is"));
  }
  const bool sidecars = std::filesystem::exists(path + "-wal", ec) ||
                        std::filesystem::exists(path + "-shm", ec) ||
                        std::filesystem::exists(path + "-journal", ec);
  sqlite3* db = nullptr;
  const int flags = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    const int mode = create ? R_OK | W_OK : R_OK;
    if (exists && access(path.c_str(), mode) != 0 && errno == EACCES) {
      absl::StrAppend(&message, " (permission denied: ", create ? "reading and writing" : "reading",
                      " the file)");
    }
    return absl::InternalError(absl::StrCat(path, ": cannot open the results database: ", message));
  }
  std::unique_ptr<Store> store(new Store(path, db));
  store->remove_read_sidecars_ = !create && !sidecars;
  RETURN_IF_ERROR(store->Initialize(/*read_only=*/!create));
  return store;
}

Store::~Store() {
  sqlite3_close(db_);
  if (remove_read_sidecars_) RemoveReadSidecars(path_);
}

absl::Status Store::Error(std::string_view what) const {
  return absl::InternalError(
      absl::StrCat(path_, ": ", std::string(what), ": ", sqlite3_errmsg(db_)));
}

absl::Status Store::Exec(std::string_view sql) {
  const std::string text(sql);
  char* message = nullptr;
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string error = message != nullptr ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    return absl::InternalError(absl::StrCat(path_, ": ", error));
  }
  return absl::OkStatus();
}

absl::Status Store::Initialize(bool read_only) {
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, 5000);  // a report reading while a run writes
  RETURN_IF_ERROR(Exec("PRAGMA foreign_keys = ON"));

  auto pragma_int = [&](const char* name) -> absl::StatusOr<int64_t> {
    Statement statement(*this);
    RETURN_IF_ERROR(statement.Prepare(absl::StrCat("PRAGMA ", name)));
    ASSIGN_OR_RETURN(bool row, statement.Step());
    return row ? statement.Int(0) : 0;
  };
  ASSIGN_OR_RETURN(int64_t version, pragma_int("user_version"));
  ASSIGN_OR_RETURN(int64_t application_id, pragma_int("application_id"));
  if (application_id != 0 && application_id != kStoreApplicationId) {
    return absl::FailedPreconditionError(
        absl::StrCat(path_, ": not an azbench results database (SQLite application_id ",
                     application_id, ", azbench writes ", kStoreApplicationId, ")"));
  }
  if (version > kStoreSchemaVersion) {
    return absl::FailedPreconditionError(absl::StrCat(
        path_, ": results database schema version ", version, " is newer than this azbench reads (",
        kStoreSchemaVersion, "): use a newer azbench"));
  }
  if (version == 0) {
    Statement tables(*this);
    RETURN_IF_ERROR(tables.Prepare("SELECT count(*) FROM sqlite_schema"));
    ASSIGN_OR_RETURN(bool row, tables.Step());
    if (row && tables.Int(0) > 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          path_,
          ": not an azbench results database (it has tables but no azbench schema version)"));
    }
    if (read_only) {
      return absl::FailedPreconditionError(
          absl::StrCat(path_,
                       ": an empty SQLite database (no tables), not a results database "
                       "(`azbench run` writes one); it was left as it is"));
    }
    RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
    absl::Status created = Exec(kSchema);
    if (created.ok()) created = Exec(kSchemaV2);
    if (created.ok()) {
      created = Exec(absl::StrCat("PRAGMA application_id = ", kStoreApplicationId,
                                  "; PRAGMA user_version = ", kStoreSchemaVersion));
    }
    if (created.ok()) created = Exec("COMMIT");
    if (!created.ok()) {
      Exec("ROLLBACK").IgnoreError();
      return created;
    }
  }
  if (read_only) {
    // The file is never written: a file that lacks some of the additions below is read through
    // an in-memory copy that gets them (an older azbench's file; rare, and the copy is its size).
    ASSIGN_OR_RETURN(bool additions, NeedsSchemaAdditions(version));
    if (!additions) return ReadCampaignId();
    RETURN_IF_ERROR(CopyToMemory());
  }
  if (version == 1) {
    RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
    absl::Status migrated = Exec(kSchemaV2);
    if (migrated.ok()) migrated = Exec("PRAGMA user_version = 2");
    if (migrated.ok()) migrated = Exec("COMMIT");
    if (!migrated.ok()) {
      Exec("ROLLBACK").IgnoreError();
      return absl::Status(migrated.code(), absl::StrCat("upgrading the results database from "
                                                        "schema version 1 to 2: ",
                                                        migrated.message()));
    }
    version = 2;
  }
  RETURN_IF_ERROR(AddPlacementMountColumn());
  RETURN_IF_ERROR(AddAgentResultColumns());
  RETURN_IF_ERROR(AddScenarioClockTable());
  RETURN_IF_ERROR(AddScenarioDiskUtilTable());
  if (version == 2) {
    RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
    absl::Status migrated = AddStreamingColumns();
    if (migrated.ok()) migrated = DropStagingTables();
    if (migrated.ok()) migrated = Exec("PRAGMA user_version = 3");
    if (migrated.ok()) migrated = Exec("COMMIT");
    if (!migrated.ok()) {
      Exec("ROLLBACK").IgnoreError();
      return absl::Status(migrated.code(), absl::StrCat("upgrading the results database from "
                                                        "schema version 2 to 3: ",
                                                        migrated.message()));
    }
  }
  RETURN_IF_ERROR(AddStreamingColumns());
  // WAL: a report can read while a run writes. FULL: a commit survives a power loss.
  if (!read_only) {
    RETURN_IF_ERROR(Exec("PRAGMA journal_mode = WAL"));
    RETURN_IF_ERROR(Exec("PRAGMA synchronous = FULL"));
  }
  return ReadCampaignId();
}

absl::Status Store::ReadCampaignId() {
  Statement campaign(*this);
  RETURN_IF_ERROR(campaign.Prepare("SELECT id FROM campaign ORDER BY id LIMIT 1"));
  ASSIGN_OR_RETURN(bool found, campaign.Step());
  if (found) campaign_id_ = campaign.Int(0);
  return absl::OkStatus();
}

absl::Status Store::CopyToMemory() {
  sqlite3* memory = nullptr;
  if (sqlite3_open_v2(":memory:", &memory, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    sqlite3_close(memory);
    return absl::InternalError(absl::StrCat(path_, ": cannot open an in-memory copy to read it"));
  }
  sqlite3_backup* backup = sqlite3_backup_init(memory, "main", db_, "main");
  int rc = backup == nullptr ? sqlite3_errcode(memory) : sqlite3_backup_step(backup, -1);
  if (backup != nullptr) {
    const int finished = sqlite3_backup_finish(backup);
    if (rc == SQLITE_DONE) rc = finished;
  }
  if (rc != SQLITE_OK && rc != SQLITE_DONE) {
    const std::string message = sqlite3_errstr(rc);
    sqlite3_close(memory);
    return absl::InternalError(
        absl::StrCat(path_, ": cannot copy it into memory to read it: ", message));
  }
  sqlite3_close(db_);
  db_ = memory;
  sqlite3_extended_result_codes(db_, 1);
  return Exec("PRAGMA foreign_keys = ON");
}

absl::StatusOr<int64_t> Store::BeginStaging(const std::string& scenario_key) {
  ASSIGN_OR_RETURN(int64_t campaign_id, CampaignId());
  // Every series appends to its own run of interval rows, so each batch touches one leaf page
  // per series: with SQLite's default 2 MiB page cache, a fleet of hundreds of agents re-reads
  // them from the file on every batch.
  RETURN_IF_ERROR(Exec("PRAGMA cache_size = -32768"));  // KiB
  // Its own key only has to differ from every other (UNIQUE): the stored key gets it when saved.
  const int64_t now_ns = RealtimeNanos();
  Statement insert(*this);
  RETURN_IF_ERROR(insert.Prepare(
      "INSERT INTO scenario (campaign_id, idx, key, target, workload, parameters, repeat, repeats, "
      "status, status_detail, agent_ids, jobs, cooldown_s, skipped, skip_reason, planned_start_ns, "
      "first_start_ns, last_start_ns, first_end_ns, last_end_ns, attempt_of) VALUES (?1, -1, ?2, "
      "'', '', '[]', 0, 0, 'failed', 'running: not stored yet', '[]', '[]', 0, 0, '', ?3, 0, 0, "
      "0, 0, ?4)"));
  insert.Int(1, campaign_id)
      .Text(2,
            absl::StrCat(scenario_key, " (attempt started at ", now_ns, " ns, pid ", getpid(), ")"))
      .Int(3, now_ns)
      .Text(4, scenario_key);
  RETURN_IF_ERROR(insert.Run());
  return sqlite3_last_insert_rowid(db_);
}

absl::StatusOr<Store::StreamedSeriesRow*> Store::StreamedSeries(int64_t stream_id,
                                                                const StagedInterval& in) {
  if (streaming_id_ != stream_id) {
    streaming_id_ = stream_id;
    streamed_series_.clear();
  }
  auto [it, inserted] =
      streamed_series_.try_emplace(std::make_tuple(in.agent_id, in.job_index, in.result_name));
  if (!inserted) return &it->second;
  // A result row to hang the series on until SaveScenario fills it in (idx < 0: no result yet;
  // group_id holds the job index meanwhile).
  Statement insert(*this);
  RETURN_IF_ERROR(insert.Prepare(
      "INSERT INTO agent_result (scenario_id, idx, agent_id, job_name, group_id, clones, "
      "interval_ns, runtime_ns, start_ns, end_ns, error_errno, error_message, warnings) VALUES "
      "(?, ?, ?, ?, ?, 0, 0, 0, 0, 0, 0, '', '[]')"));
  insert.Int(1, stream_id)
      .Int(2, -static_cast<int64_t>(streamed_series_.size()))
      .Text(3, in.agent_id)
      .Text(4, in.result_name)
      .Int(5, in.job_index);
  absl::Status status = insert.Run();
  if (!status.ok()) {
    streamed_series_.erase(it);
    return status;
  }
  it->second.result_id = sqlite3_last_insert_rowid(db_);
  return &it->second;
}

absl::Status Store::StageIntervals(int64_t stream_id, const std::vector<StagedInterval>& batch) {
  const int64_t series_before = streaming_id_ == stream_id ? streamed_series_.size() : 0;
  RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
  auto write_all = [&]() -> absl::Status {
    // A row is usually new; one already there (another clone of the job, a folded slot spilled
    // again) is read, summed with this one and written back.
    Statement insert(*this), read(*this), update(*this);
    RETURN_IF_ERROR(insert.Prepare(
        "INSERT INTO interval (agent_result_id, idx, op_kind, ops, bytes, errors, count, min_ns, "
        "max_ns, sum_ns, sum_ns_hi, sum_sq_hi, sum_sq_lo, sum_sq_top, lat_buckets) VALUES (?, ?, "
        "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"));
    for (const StagedInterval& staged : batch) {
      ASSIGN_OR_RETURN(StreamedSeriesRow * series, StreamedSeries(stream_id, staged));
      OpKind stall_kind = OpKind::kRead;
      for (int k = 0; k < kOpKindCount; ++k) {
        const IntervalOpStats& s = staged.interval.by_kind[k];
        if (!store_rows::IntervalKindEmpty(s)) series->kinds_seen |= 1u << k;
      }
      for (int k = 0; k < kOpKindCount; ++k) {
        if (series->kinds_seen & (1u << k)) {
          stall_kind = static_cast<OpKind>(k);
          break;
        }
      }
      RETURN_IF_ERROR(ForEachIntervalRow(
          staged.interval, stall_kind, [&](OpKind kind, const IntervalOpStats& row) {
            const std::string kind_name(OpKindName(kind));
            insert.Int(1, series->result_id)
                .Int(2, staged.interval.index)
                .Text(3, kind_name)
                .U64(4, row.ops)
                .U64(5, row.bytes)
                .U64(6, row.errors)
                .Sparse(7, row.lat);
            RETURN_IF_ERROR(insert.Run());
            if (sqlite3_changes(db_) > 0) return absl::OkStatus();
            if (!read.prepared()) {
              RETURN_IF_ERROR(read.Prepare(
                  "SELECT ops, bytes, errors, count, min_ns, max_ns, sum_ns, sum_ns_hi, sum_sq_hi, "
                  "sum_sq_lo, sum_sq_top, lat_buckets FROM interval WHERE agent_result_id = ? AND "
                  "idx = ? AND op_kind = ?"));
              RETURN_IF_ERROR(update.Prepare(
                  "UPDATE interval SET ops = ?4, bytes = ?5, errors = ?6, count = ?7, min_ns = ?8, "
                  "max_ns = ?9, sum_ns = ?10, sum_ns_hi = ?11, sum_sq_hi = ?12, sum_sq_lo = ?13, "
                  "sum_sq_top = ?14, lat_buckets = ?15 WHERE agent_result_id = ?1 AND idx = ?2 "
                  "AND op_kind = ?3"));
            }
            read.Int(1, series->result_id).Int(2, staged.interval.index).Text(3, kind_name);
            absl::StatusOr<bool> found = read.Step();
            IntervalOpStats sum = row;
            Histogram::Sparse stored;
            const bool readable = found.ok() && *found && read.ReadSparse(3, stored);
            if (readable) {
              sum.ops += read.U64(0);
              sum.bytes += read.U64(1);
              sum.errors += read.U64(2);
              sum.lat = Histogram::AddSparse(stored, row.lat);
            }
            read.Reset();
            if (!found.ok()) return found.status();
            if (!readable) {
              return absl::DataLossError(absl::StrCat(path_, ": interval ", staged.interval.index,
                                                      " of agent ", staged.agent_id, " job ",
                                                      staged.result_name, " is malformed"));
            }
            update.Int(1, series->result_id)
                .Int(2, staged.interval.index)
                .Text(3, kind_name)
                .U64(4, sum.ops)
                .U64(5, sum.bytes)
                .U64(6, sum.errors)
                .Sparse(7, sum.lat);
            return update.Run();
          }));
    }
    return absl::OkStatus();
  };
  absl::Status status = write_all();
  if (status.ok()) status = Exec("COMMIT");
  if (!status.ok()) {
    Exec("ROLLBACK").IgnoreError();
    // The result rows made in this transaction are gone with it.
    if (streaming_id_ == stream_id &&
        static_cast<int64_t>(streamed_series_.size()) != series_before) {
      streamed_series_.clear();
      streaming_id_ = 0;
    }
    return absl::Status(status.code(), absl::StrCat("writing ", batch.size(),
                                                    " streamed intervals: ", status.message()));
  }
  return absl::OkStatus();
}

absl::Status Store::DiscardStaged(int64_t stream_id) {
  Statement remove(*this);
  RETURN_IF_ERROR(remove.Prepare("DELETE FROM scenario WHERE id = ? AND attempt_of IS NOT NULL"));
  remove.Int(1, stream_id);
  return remove.Run();
}

absl::StatusOr<int64_t> Store::StagedRowCount(int64_t stream_id) {
  Statement count(*this);
  RETURN_IF_ERROR(count.Prepare(
      "SELECT count(*) FROM interval WHERE agent_result_id IN (SELECT r.id FROM agent_result r "
      "JOIN scenario s ON s.id = r.scenario_id WHERE s.id = ? AND s.attempt_of IS NOT NULL)"));
  count.Int(1, stream_id);
  ASSIGN_OR_RETURN(bool row, count.Step());
  return row ? count.Int(0) : 0;
}

absl::StatusOr<int64_t> Store::BeginCampaign(const std::string& name, const std::string& file,
                                             const std::string& campaign_yaml,
                                             const std::string& azbench_version) {
  Statement existing(*this);
  RETURN_IF_ERROR(existing.Prepare("SELECT id, name FROM campaign ORDER BY id LIMIT 1"));
  ASSIGN_OR_RETURN(bool found, existing.Step());
  if (found) {
    const std::string stored_name = existing.Text(1);
    if (stored_name != name) {
      return absl::FailedPreconditionError(
          absl::StrCat(path_, " holds campaign '", stored_name, "', not '", name,
                       "': one results database per campaign; choose another results path"));
    }
    campaign_id_ = existing.Int(0);
    Statement reopen(*this);
    RETURN_IF_ERROR(reopen.Prepare("UPDATE campaign SET finished_at_ns = NULL WHERE id = ?"));
    reopen.Int(1, campaign_id_);
    RETURN_IF_ERROR(reopen.Run());
    return campaign_id_;
  }
  Statement insert(*this);
  RETURN_IF_ERROR(
      insert.Prepare("INSERT INTO campaign (name, file, started_at_ns, finished_at_ns, "
                     "azbench_version, campaign_yaml) VALUES (?, ?, ?, NULL, ?, ?)"));
  insert.Text(1, name)
      .Text(2, file)
      .Int(3, RealtimeNanos())
      .Text(4, azbench_version)
      .Text(5, campaign_yaml);
  RETURN_IF_ERROR(insert.Run());
  campaign_id_ = sqlite3_last_insert_rowid(db_);
  return campaign_id_;
}

absl::StatusOr<int64_t> Store::CampaignId() {
  if (campaign_id_ == 0) {
    return absl::FailedPreconditionError(
        absl::StrCat(path_, ": no campaign begun (call BeginCampaign first)"));
  }
  return campaign_id_;
}

absl::StatusOr<CampaignRecord> Store::LoadCampaign() {
  if (campaign_id_ == 0) return absl::NotFoundError(absl::StrCat(path_, ": holds no campaign"));
  Statement select(*this);
  RETURN_IF_ERROR(
      select.Prepare("SELECT id, name, file, started_at_ns, finished_at_ns, azbench_version, "
                     "campaign_yaml FROM campaign WHERE id = ?"));
  select.Int(1, campaign_id_);
  ASSIGN_OR_RETURN(bool found, select.Step());
  if (!found) return absl::NotFoundError(absl::StrCat(path_, ": holds no campaign"));
  CampaignRecord record;
  record.id = select.Int(0);
  record.name = select.Text(1);
  record.file = select.Text(2);
  record.started_at_ns = select.Int(3);
  record.finished_at_ns = select.IsNull(4) ? 0 : select.Int(4);
  record.azbench_version = select.Text(5);
  record.campaign_yaml = select.Text(6);
  return record;
}

absl::StatusOr<int64_t> Store::BeginRun(bool resumed) {
  ASSIGN_OR_RETURN(int64_t campaign_id, CampaignId());
  Statement insert(*this);
  RETURN_IF_ERROR(insert.Prepare(
      "INSERT INTO run (campaign_id, started_at_ns, finished_at_ns, resumed, outcome) "
      "VALUES (?, ?, NULL, ?, 'running')"));
  insert.Int(1, campaign_id).Int(2, RealtimeNanos()).Int(3, resumed ? 1 : 0);
  RETURN_IF_ERROR(insert.Run());
  run_id_ = sqlite3_last_insert_rowid(db_);
  return run_id_;
}

absl::Status Store::FinishRun(const std::string& outcome) {
  if (run_id_ == 0) return absl::FailedPreconditionError(absl::StrCat(path_, ": no run begun"));
  Statement update(*this);
  RETURN_IF_ERROR(update.Prepare("UPDATE run SET finished_at_ns = ?, outcome = ? WHERE id = ?"));
  update.Int(1, RealtimeNanos()).Text(2, outcome).Int(3, run_id_);
  return update.Run();
}

absl::Status Store::FinishCampaign() {
  ASSIGN_OR_RETURN(int64_t campaign_id, CampaignId());
  Statement update(*this);
  RETURN_IF_ERROR(update.Prepare("UPDATE campaign SET finished_at_ns = ? WHERE id = ?"));
  update.Int(1, RealtimeNanos()).Int(2, campaign_id);
  return update.Run();
}

absl::Status Store::SaveAgents(const std::vector<AgentInfo>& agents) {
  ASSIGN_OR_RETURN(int64_t campaign_id, CampaignId());
  RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
  absl::Status status = [&]() -> absl::Status {
    Statement upsert(*this);
    RETURN_IF_ERROR(upsert.Prepare(
        "INSERT INTO agent (campaign_id, agent_id, address, hostname, region, az, az_id, "
        "instance_type, version, clock_offset_ns, clock_rtt_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "?, ?) ON CONFLICT (campaign_id, agent_id) DO UPDATE SET address = excluded.address, "
        "hostname = excluded.hostname, region = excluded.region, az = excluded.az, az_id = "
        "excluded.az_id, instance_type = excluded.instance_type, version = excluded.version, "
        "clock_offset_ns = excluded.clock_offset_ns, clock_rtt_ns = excluded.clock_rtt_ns"));
    for (const AgentInfo& a : agents) {
      upsert.Int(1, campaign_id)
          .Text(2, a.agent_id)
          .Text(3, a.address)
          .Text(4, a.hostname)
          .Text(5, a.region)
          .Text(6, a.availability_zone)
          .Text(7, a.availability_zone_id)
          .Text(8, a.instance_type)
          .Text(9, a.version)
          .Int(10, a.clock_offset_ns)
          .Int(11, a.clock_rtt_ns);
      RETURN_IF_ERROR(upsert.Run());
    }
    return absl::OkStatus();
  }();
  if (status.ok()) status = Exec("COMMIT");
  if (!status.ok()) Exec("ROLLBACK").IgnoreError();
  return status;
}

absl::StatusOr<std::vector<AgentInfo>> Store::LoadAgents() {
  std::vector<AgentInfo> agents;
  if (campaign_id_ == 0) return agents;
  Statement select(*this);
  RETURN_IF_ERROR(
      select.Prepare("SELECT agent_id, address, hostname, region, az, az_id, instance_type, "
                     "version, clock_offset_ns, clock_rtt_ns FROM agent WHERE campaign_id = ? "
                     "ORDER BY id"));
  select.Int(1, campaign_id_);
  while (true) {
    ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    AgentInfo& a = agents.emplace_back();
    a.agent_id = select.Text(0);
    a.address = select.Text(1);
    a.hostname = select.Text(2);
    a.region = select.Text(3);
    a.availability_zone = select.Text(4);
    a.availability_zone_id = select.Text(5);
    a.instance_type = select.Text(6);
    a.version = select.Text(7);
    a.clock_offset_ns = select.Int(8);
    a.clock_rtt_ns = select.Int(9);
  }
  return agents;
}

}  // namespace azbench

#include "coordinator/store.h"

#include <sqlite3.h>

#include <cstring>
#include <filesystem>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/histogram.h"
#include "common/op_kind.h"
#include "common/status_macros.h"
#include "nlohmann/json.hpp"

namespace azbench {

namespace {

using nlohmann::json;

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
) WITHOUT ROWID;
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

constexpr char kLatKinds[3][5] = {"lat", "slat", "clat"};

int64_t ToInt64(uint64_t v) { return static_cast<int64_t>(v); }
uint64_t ToUint64(int64_t v) { return static_cast<uint64_t>(v); }

// Unsigned LEB128.
void PutVarint(uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

bool GetVarint(std::string_view in, size_t& pos, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && pos < in.size(); shift += 7) {
    const uint8_t byte = static_cast<uint8_t>(in[pos++]);
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

std::string EncodeBuckets(const std::vector<Histogram::Bucket>& buckets) {
  std::string out;
  out.reserve(buckets.size() * 3);
  int32_t previous = 0;
  for (const auto& b : buckets) {
    PutVarint(static_cast<uint64_t>(b.index - previous), out);
    PutVarint(b.count, out);
    previous = b.index;
  }
  return out;
}

// Fails on truncation, an index past the histogram, or a zero count / zero delta after the first.
bool DecodeBuckets(std::string_view blob, std::vector<Histogram::Bucket>& buckets) {
  size_t pos = 0;
  uint64_t index = 0;
  while (pos < blob.size()) {
    uint64_t delta, count;
    if (!GetVarint(blob, pos, delta) || !GetVarint(blob, pos, count)) return false;
    if (count == 0 || (!buckets.empty() && delta == 0)) return false;
    index += delta;
    if (index >= static_cast<uint64_t>(Histogram::kBucketCount)) return false;
    buckets.push_back({static_cast<int32_t>(index), count});
  }
  return true;
}

json PairsToJson(const std::vector<std::pair<std::string, std::string>>& pairs) {
  json out = json::array();
  for (const auto& [k, v] : pairs) out.push_back(json::array({k, v}));
  return out;
}

bool PairsFromJson(const json& j, std::vector<std::pair<std::string, std::string>>& out) {
  if (!j.is_array()) return false;
  for (const auto& item : j) {
    if (!item.is_array() || item.size() != 2 || !item[0].is_string() || !item[1].is_string()) {
      return false;
    }
    out.emplace_back(item[0].get<std::string>(), item[1].get<std::string>());
  }
  return true;
}

json StringsToJson(const std::vector<std::string>& strings) {
  json out = json::array();
  for (const auto& s : strings) out.push_back(s);
  return out;
}

bool StringsFromJson(const json& j, std::vector<std::string>& out) {
  if (!j.is_array()) return false;
  for (const auto& item : j) {
    if (!item.is_string()) return false;
    out.push_back(item.get<std::string>());
  }
  return true;
}

json JobsToJson(const std::vector<ScenarioJob>& jobs) {
  json out = json::array();
  for (const auto& job : jobs) {
    out.push_back({{"name", job.name},
                   {"workload", job.workload},
                   {"group_id", job.group_id},
                   {"options", PairsToJson(job.options)}});
  }
  return out;
}

bool JobsFromJson(const json& j, std::vector<ScenarioJob>& out) {
  if (!j.is_array()) return false;
  for (const auto& item : j) {
    if (!item.is_object()) return false;
    auto name = item.find("name"), workload = item.find("workload"), group = item.find("group_id"),
         options = item.find("options");
    if (name == item.end() || !name->is_string() || workload == item.end() ||
        !workload->is_string() || group == item.end() || !group->is_number_integer() ||
        options == item.end()) {
      return false;
    }
    ScenarioJob job;
    job.name = name->get<std::string>();
    job.workload = workload->get<std::string>();
    job.group_id = group->get<int>();
    if (!PairsFromJson(*options, job.options)) return false;
    out.push_back(std::move(job));
  }
  return true;
}

std::optional<ScenarioStatus> StatusFromName(std::string_view name) {
  for (ScenarioStatus s : {ScenarioStatus::kComplete, ScenarioStatus::kPartial,
                           ScenarioStatus::kFailed, ScenarioStatus::kSkipped}) {
    if (name == ScenarioStatusName(s)) return s;
  }
  return std::nullopt;
}

bool IntervalKindEmpty(const IntervalOpStats& s) {
  return s.ops == 0 && s.bytes == 0 && s.errors == 0 && s.lat.count == 0 && s.lat.buckets.empty();
}

// Calls `write(kind, row)` for each op kind with anything in `interval`; an interval with nothing
// still gets one all-zero row, of `stall_kind`, so that a stall stays visible (store.h).
template <typename Write>
absl::Status ForEachIntervalRow(const IntervalStats& interval, OpKind stall_kind, Write write) {
  bool wrote = false;
  for (int k = 0; k < kOpKindCount; ++k) {
    if (IntervalKindEmpty(interval.by_kind[k])) continue;
    RETURN_IF_ERROR(write(static_cast<OpKind>(k), interval.by_kind[k]));
    wrote = true;
  }
  if (!wrote) RETURN_IF_ERROR(write(stall_kind, interval.by_kind[static_cast<int>(stall_kind)]));
  return absl::OkStatus();
}

}  // namespace

// A prepared statement bound to this store's connection; finalized on destruction. Bind errors are
// kept and reported by the next Step.
class Store::Statement {
 public:
  explicit Statement(const Store& store) : store_(store) {}
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  absl::Status Prepare(std::string_view sql) {
    sql_ = sql;
    if (sqlite3_prepare_v2(store_.db_, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
        SQLITE_OK) {
      return store_.Error(absl::StrCat("preparing \"", std::string(sql), "\""));
    }
    return absl::OkStatus();
  }

  Statement& Int(int i, int64_t v) { return Check(sqlite3_bind_int64(stmt_, i, v)); }
  Statement& U64(int i, uint64_t v) { return Int(i, ToInt64(v)); }
  Statement& Real(int i, double v) { return Check(sqlite3_bind_double(stmt_, i, v)); }
  Statement& Null(int i) { return Check(sqlite3_bind_null(stmt_, i)); }
  Statement& Text(int i, std::string_view v) {
    return Check(
        sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
  }
  Statement& Blob(int i, std::string_view v) {
    // A zero-length BLOB (not NULL) for an empty histogram: the data pointer must be non-null.
    return Check(sqlite3_bind_blob(stmt_, i, v.empty() ? "" : v.data(), static_cast<int>(v.size()),
                                   SQLITE_TRANSIENT));
  }
  // A histogram's columns count, min_ns, max_ns, sum_ns, sum_ns_hi, sum_sq_hi, sum_sq_lo,
  // sum_sq_top, buckets, from parameter `first` on.
  Statement& Sparse(int first, const Histogram::Sparse& sparse) {
    return U64(first, sparse.count)
        .U64(first + 1, sparse.min_ns)
        .U64(first + 2, sparse.max_ns)
        .U64(first + 3, sparse.sum_ns)
        .U64(first + 4, sparse.sum_ns_hi)
        .U64(first + 5, sparse.sum_sq_hi)
        .U64(first + 6, sparse.sum_sq_lo)
        .U64(first + 7, sparse.sum_sq_top)
        .Blob(first + 8, EncodeBuckets(sparse.buckets));
  }

  // True when a row is ready, false when done.
  absl::StatusOr<bool> Step() {
    if (bind_rc_ != SQLITE_OK) {
      return store_.Error(absl::StrCat("binding \"", sql_, "\": ", sqlite3_errstr(bind_rc_)));
    }
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    absl::Status status = store_.Error(absl::StrCat("running \"", Abbreviated(), "\""));
    if ((rc & 0xff) == SQLITE_CONSTRAINT) return absl::InvalidArgumentError(status.message());
    return status;
  }
  // Runs a statement that returns no rows, then resets it for the next bindings.
  absl::Status Run() {
    absl::StatusOr<bool> row = Step();
    Reset();
    if (!row.ok()) return row.status();
    return absl::OkStatus();
  }
  void Reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    bind_rc_ = SQLITE_OK;
  }

  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  uint64_t U64(int col) const { return ToUint64(Int(col)); }
  double Real(int col) const { return sqlite3_column_double(stmt_, col); }
  bool IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  std::string Text(int col) const {
    const unsigned char* text = sqlite3_column_text(stmt_, col);
    return text == nullptr
               ? std::string()
               : std::string(reinterpret_cast<const char*>(text), sqlite3_column_bytes(stmt_, col));
  }
  std::string Blob(int col) const {
    const void* blob = sqlite3_column_blob(stmt_, col);
    return blob == nullptr ? std::string()
                           : std::string(static_cast<const char*>(blob),
                                         static_cast<size_t>(sqlite3_column_bytes(stmt_, col)));
  }
  // The histogram columns Sparse() binds, from column `first` on; false when the buckets are
  // malformed.
  bool ReadSparse(int first, Histogram::Sparse& sparse) const {
    sparse.count = U64(first);
    sparse.min_ns = U64(first + 1);
    sparse.max_ns = U64(first + 2);
    sparse.sum_ns = U64(first + 3);
    sparse.sum_ns_hi = U64(first + 4);
    sparse.sum_sq_hi = U64(first + 5);
    sparse.sum_sq_lo = U64(first + 6);
    sparse.sum_sq_top = U64(first + 7);
    return DecodeBuckets(Blob(first + 8), sparse.buckets);
  }

 private:
  Statement& Check(int rc) {
    if (rc != SQLITE_OK && bind_rc_ == SQLITE_OK) bind_rc_ = rc;
    return *this;
  }
  std::string Abbreviated() const {
    std::string text(sql_.substr(0, sql_.find('(')));
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
  }

  const Store& store_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string sql_;
  int bind_rc_ = SQLITE_OK;
};

absl::StatusOr<std::unique_ptr<Store>> Store::Open(const std::string& path) {
  return OpenImpl(path, /*create=*/true);
}

absl::StatusOr<std::unique_ptr<Store>> Store::OpenExisting(const std::string& path) {
  return OpenImpl(path, /*create=*/false);
}

absl::StatusOr<std::unique_ptr<Store>> Store::OpenImpl(const std::string& path, bool create) {
  std::error_code ec;
  if (!create && !std::filesystem::exists(path, ec)) {
    return absl::NotFoundError(absl::StrCat(path, ": no such results database"));
  }
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return absl::InternalError(absl::StrCat(path, ": cannot open the results database: ", message));
  }
  std::unique_ptr<Store> store(new Store(path, db));
  RETURN_IF_ERROR(store->Initialize());
  return store;
}

Store::~Store() { sqlite3_close(db_); }

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

absl::Status Store::Initialize() {
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
  } else if (version == 1) {
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
  }
  RETURN_IF_ERROR(AddPlacementMountColumn());
  RETURN_IF_ERROR(AddStagingTables());
  // WAL: a report can read while a run writes. FULL: a commit survives a power loss.
  RETURN_IF_ERROR(Exec("PRAGMA journal_mode = WAL"));
  RETURN_IF_ERROR(Exec("PRAGMA synchronous = FULL"));

  Statement campaign(*this);
  RETURN_IF_ERROR(campaign.Prepare("SELECT id FROM campaign ORDER BY id LIMIT 1"));
  ASSIGN_OR_RETURN(bool found, campaign.Step());
  if (found) campaign_id_ = campaign.Int(0);
  return absl::OkStatus();
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

absl::StatusOr<int64_t> Store::BeginStaging(const std::string& scenario_key) {
  ASSIGN_OR_RETURN(int64_t campaign_id, CampaignId());
  Statement insert(*this);
  RETURN_IF_ERROR(insert.Prepare(
      "INSERT INTO staged_stream (campaign_id, scenario_key, started_at_ns) VALUES (?, ?, ?)"));
  insert.Int(1, campaign_id).Text(2, scenario_key).Int(3, RealtimeNanos());
  RETURN_IF_ERROR(insert.Run());
  return sqlite3_last_insert_rowid(db_);
}

absl::Status Store::StageIntervals(int64_t stream_id, const std::vector<StagedInterval>& batch) {
  RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
  auto write_all = [&]() -> absl::Status {
    Statement insert(*this);
    RETURN_IF_ERROR(insert.Prepare(
        "INSERT INTO staged_interval (stream_id, agent_id, job_index, result_name, idx, op_kind, "
        "ops, bytes, errors, count, min_ns, max_ns, sum_ns, sum_ns_hi, sum_sq_hi, sum_sq_lo, "
        "sum_sq_top, lat_buckets) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const StagedInterval& staged : batch) {
      RETURN_IF_ERROR(ForEachIntervalRow(staged.interval, OpKind::kRead,
                                         [&](OpKind kind, const IntervalOpStats& row) {
                                           insert.Int(1, stream_id)
                                               .Text(2, staged.agent_id)
                                               .Int(3, staged.job_index)
                                               .Text(4, staged.result_name)
                                               .Int(5, staged.interval.index)
                                               .Text(6, std::string(OpKindName(kind)))
                                               .U64(7, row.ops)
                                               .U64(8, row.bytes)
                                               .U64(9, row.errors)
                                               .Sparse(10, row.lat);
                                           return insert.Run();
                                         }));
    }
    return absl::OkStatus();
  };
  absl::Status status = write_all();
  if (status.ok()) status = Exec("COMMIT");
  if (!status.ok()) {
    Exec("ROLLBACK").IgnoreError();
    return absl::Status(status.code(),
                        absl::StrCat("staging ", batch.size(), " intervals: ", status.message()));
  }
  return absl::OkStatus();
}

absl::Status Store::DiscardStaged(int64_t stream_id) {
  Statement remove(*this);
  RETURN_IF_ERROR(remove.Prepare("DELETE FROM staged_stream WHERE id = ?"));
  remove.Int(1, stream_id);
  return remove.Run();
}

absl::StatusOr<int64_t> Store::StagedRowCount(int64_t stream_id) {
  Statement count(*this);
  RETURN_IF_ERROR(count.Prepare("SELECT count(*) FROM staged_interval WHERE stream_id = ?"));
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
      "interval_ns, runtime_ns, start_ns, end_ns, error_errno, error_message, warnings) VALUES (?, "
      "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
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
        .Text(13, StringsToJson(job.warnings).dump());
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
  // The staged rows are now interval rows; earlier attempts of this key (cut short by a crash)
  // go too.
  Statement unstage(*this);
  RETURN_IF_ERROR(unstage.Prepare(
      "DELETE FROM staged_stream WHERE (campaign_id = ? AND scenario_key = ?) OR id = ?"));
  unstage.Int(1, campaign_id).Text(2, s.key).Int(3, result.staged_stream_id);
  RETURN_IF_ERROR(unstage.Run());
  return absl::OkStatus();
}

absl::StatusOr<std::map<std::string, ScenarioStatus>> Store::StoredScenarioKeys() {
  std::map<std::string, ScenarioStatus> keys;
  if (campaign_id_ == 0) return keys;
  Statement select(*this);
  RETURN_IF_ERROR(select.Prepare("SELECT key, status FROM scenario WHERE campaign_id = ?"));
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
  RETURN_IF_ERROR(select.Prepare(
      "SELECT id, idx, key, target, workload, parameters, repeat, repeats, status, status_detail, "
      "agent_ids, jobs, cooldown_s, skipped, skip_reason, planned_start_ns, first_start_ns, "
      "last_start_ns, first_end_ns, last_end_ns FROM scenario WHERE campaign_id = ? ORDER BY idx, "
      "key"));
  select.Int(1, campaign_id_);
  while (true) {
    ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    ASSIGN_OR_RETURN(ScenarioResult scenario, LoadScenarioRow(select));
    scenarios.push_back(std::move(scenario));
  }
  return scenarios;
}

absl::StatusOr<ScenarioResult> Store::LoadScenarioRow(Statement& row) {
  ScenarioResult result;
  Scenario& s = result.scenario;
  const int64_t scenario_id = row.Int(0);
  s.index = static_cast<int>(row.Int(1));
  s.key = row.Text(2);
  s.target = row.Text(3);
  s.workload = row.Text(4);
  auto corrupt = [&](std::string_view what) {
    return absl::DataLossError(
        absl::StrCat(path_, ": scenario '", s.key, "': ", std::string(what)));
  };
  const json parameters = json::parse(row.Text(5), nullptr, /*allow_exceptions=*/false);
  if (!PairsFromJson(parameters, s.parameters)) return corrupt("malformed parameters JSON");
  s.repeat = static_cast<int>(row.Int(6));
  s.repeats = static_cast<int>(row.Int(7));
  const std::optional<ScenarioStatus> status = StatusFromName(row.Text(8));
  if (!status) return corrupt(absl::StrCat("unknown status '", row.Text(8), "'"));
  result.status = *status;
  result.status_detail = row.Text(9);
  const json agent_ids = json::parse(row.Text(10), nullptr, false);
  if (!StringsFromJson(agent_ids, s.agent_ids)) return corrupt("malformed agent_ids JSON");
  const json jobs = json::parse(row.Text(11), nullptr, false);
  if (!JobsFromJson(jobs, s.jobs)) return corrupt("malformed jobs JSON");
  s.cooldown_s = row.Real(12);
  s.skipped = row.Int(13) != 0;
  s.skip_reason = row.Text(14);
  result.planned_start_realtime_ns = row.Int(15);
  result.first_start_realtime_ns = row.Int(16);
  result.last_start_realtime_ns = row.Int(17);
  result.first_end_realtime_ns = row.Int(18);
  result.last_end_realtime_ns = row.Int(19);

  Statement results(*this), histograms(*this), intervals(*this), events(*this);
  RETURN_IF_ERROR(results.Prepare(
      "SELECT id, agent_id, job_name, group_id, clones, interval_ns, runtime_ns, start_ns, end_ns, "
      "error_errno, error_message, warnings FROM agent_result WHERE scenario_id = ? ORDER BY idx"));
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
    job.interval_ns = results.U64(5);
    job.runtime_ns = results.U64(6);
    job.start_realtime_ns = results.Int(7);
    job.end_realtime_ns = results.Int(8);
    job.error_errno = static_cast<int>(results.Int(9));
    job.error_message = results.Text(10);
    const json warnings = json::parse(results.Text(11), nullptr, false);
    if (!StringsFromJson(warnings, job.warnings)) return corrupt("malformed warnings JSON");
    const std::string where = absl::StrCat("agent ", r.agent_id, " job ", job.name);

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

    intervals.Int(1, result_id);
    while (true) {
      ASSIGN_OR_RETURN(bool more_intervals, intervals.Step());
      if (!more_intervals) break;
      const int64_t index = intervals.Int(0);
      if (job.intervals.empty() || job.intervals.back().index != index) {
        job.intervals.emplace_back().index = index;
      }
      const std::string kind_name = intervals.Text(1);
      const std::optional<OpKind> kind = OpKindFromName(kind_name);
      if (!kind) return corrupt(absl::StrCat(where, ": unknown op kind '", kind_name, "'"));
      IntervalOpStats& s = job.intervals.back().by_kind[static_cast<int>(*kind)];
      s.ops = intervals.U64(2);
      s.bytes = intervals.U64(3);
      s.errors = intervals.U64(4);
      if (!intervals.ReadSparse(5, s.lat)) {
        return corrupt(absl::StrCat(where, " interval ", index, ": malformed buckets"));
      }
    }
    intervals.Reset();
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
  return result;
}

}  // namespace azbench

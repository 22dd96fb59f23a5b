// Internal to the results database (store.cc, store_save.cc, store_load.cc): how rows are
// encoded (histogram buckets, JSON columns), the rule for interval rows, and the prepared-statement
// wrapper. Not part of the store's interface.
#ifndef AZBENCH_COORDINATOR_STORE_STORE_ROWS_H_
#define AZBENCH_COORDINATOR_STORE_STORE_ROWS_H_

#include <sqlite3.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/histogram.h"
#include "common/op_kind.h"
#include "common/status_macros.h"
#include "coordinator/store/store.h"
#include "nlohmann/json.hpp"

namespace azbench {
namespace store_rows {

using nlohmann::json;

inline constexpr char kLatKinds[3][5] = {"lat", "slat", "clat"};

inline int64_t ToInt64(uint64_t v) { return static_cast<int64_t>(v); }
inline uint64_t ToUint64(int64_t v) { return static_cast<uint64_t>(v); }

// Histogram buckets as (index delta, count) pairs of unsigned LEB128.
std::string EncodeBuckets(const std::vector<Histogram::Bucket>& buckets);
// Fails on truncation, an index past the histogram, or a zero count / zero delta after the first.
bool DecodeBuckets(std::string_view blob, std::vector<Histogram::Bucket>& buckets);

json PairsToJson(const std::vector<std::pair<std::string, std::string>>& pairs);
bool PairsFromJson(const json& j, std::vector<std::pair<std::string, std::string>>& out);
json StringsToJson(const std::vector<std::string>& strings);
bool StringsFromJson(const json& j, std::vector<std::string>& out);
// agent_result.io_depths: "" when not measured, else {"level": [7], "submit": [7], "complete":
// [7]}.
std::string DepthToText(const DepthStats& depth);
bool DepthFromText(const std::string& text, DepthStats& out);

// agent_result.steadystate: JobResult::steadystate as JSON {"iops", "slope", "percent" (bools),
// "limit", "duration_ns", "ramp_ns", "attained", "criterion", "max_deviation", "slope_value",
// "iops_samples", "bw_samples"}; '' without one. False (out unset) on malformed text.
std::string SteadyStateToText(const std::optional<SteadyStateResult>& steadystate);
bool SteadyStateFromText(const std::string& text, std::optional<SteadyStateResult>& out);
json JobsToJson(const std::vector<ScenarioJob>& jobs);
bool JobsFromJson(const json& j, std::vector<ScenarioJob>& out);
std::optional<ScenarioStatus> StatusFromName(std::string_view name);

inline bool IntervalKindEmpty(const IntervalOpStats& s) {
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

}  // namespace store_rows

// A prepared statement bound to this store's connection; finalized on destruction. Bind errors are
// kept and reported by the next Step.
class Store::Statement {
 public:
  explicit Statement(const Store& store) : store_(store) {}
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  bool prepared() const { return stmt_ != nullptr; }
  absl::Status Prepare(std::string_view sql) {
    sql_ = sql;
    if (sqlite3_prepare_v2(store_.db_, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
        SQLITE_OK) {
      return store_.Error(absl::StrCat("preparing \"", std::string(sql), "\""));
    }
    return absl::OkStatus();
  }

  Statement& Int(int i, int64_t v) { return Check(sqlite3_bind_int64(stmt_, i, v)); }
  Statement& U64(int i, uint64_t v) { return Int(i, store_rows::ToInt64(v)); }
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
        .Blob(first + 8, store_rows::EncodeBuckets(sparse.buckets));
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
  uint64_t U64(int col) const { return store_rows::ToUint64(Int(col)); }
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
    return store_rows::DecodeBuckets(Blob(first + 8), sparse.buckets);
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

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_STORE_STORE_ROWS_H_

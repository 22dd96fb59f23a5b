// Tests of the results database (coordinator/store/store.h) in a real SQLite file: a fixture with a
// fresh file in a temporary directory, and raw SQL on that file with a connection of its own (what
// another process, or an older azbench, would see or have written).
//
//   class StoreTest : public testing::StoreFileTest {};
//   TEST_F(StoreTest, ...) {
//     std::unique_ptr<Store> store = OpenStore();
//     ASSERT_NE(store, nullptr);
//     EXPECT_EQ(testing::RawQuery(path_, "SELECT count(*) FROM scenario"), 1);
//   }
#ifndef AZBENCH_TESTS_TESTING_STORE_FILE_H_
#define AZBENCH_TESTS_TESTING_STORE_FILE_H_

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "coordinator/store/store.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench::testing {

// Runs one SQL statement on the file with a separate connection; returns the first column of the
// first row as text ("" when none).
inline std::string RawText(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  std::string value;
  if (sqlite3_open(path.c_str(), &db) == SQLITE_OK) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0) != nullptr) {
      value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return value;
}

// As RawText, the value read as a whole number (0 when none).
inline int64_t RawQuery(const std::string& path, const std::string& sql) {
  const std::string text = RawText(path, sql);
  return text.empty() ? 0 : std::stoll(text);
}

// A results file `path_` (not created yet) in a temporary directory `dir_` removed after the test.
class StoreFileTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.ok()); }

  // Store::Open on path_; nullptr (and the test failed) when it cannot be opened.
  std::unique_ptr<Store> OpenStore() {
    absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(path_);
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? *std::move(store) : nullptr;
  }

  TempDir dir_;
  std::string path_ = dir_.File("results.db");
};

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_STORE_FILE_H_

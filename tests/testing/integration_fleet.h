// Integration-test helpers (tests/integration only: CMake defines AZBENCH_AGENT_BIN there): a
// local fleet of real agent processes on loopback, the head of a campaign that names their
// addresses, the scenarios a run stored, the agents whose intervals a running scenario has
// streamed in, and counts of what a run left in a directory.
//
// Example:
//   std::unique_ptr<LocalFleet> fleet = StartLoopbackAgents(2, dir.File("agents"), {shm.path()});
//   std::ofstream(path) << CampaignHead("itest", fleet->addresses()) << "targets: ...";
//   ASSERT_TRUE(WaitForStagedIntervals(dir.File("results.db"), "/repeat=1", {"local-1"},
//                                      std::chrono::seconds(60)));  // it is running: kill now
//   std::vector<ScenarioResult> stored = StoredScenarios(dir.File("results.db"));
#ifndef AZBENCH_TESTS_TESTING_INTEGRATION_FLEET_H_
#define AZBENCH_TESTS_TESTING_INTEGRATION_FLEET_H_

#ifndef AZBENCH_AGENT_BIN
#error "integration_fleet.h is for tests/integration, whose targets define AZBENCH_AGENT_BIN"
#endif

#include <sqlite3.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "coordinator/fleet/local_fleet.h"
#include "coordinator/scenario.h"
#include "coordinator/store/store.h"
#include "gtest/gtest.h"

namespace azbench::testing {

// `n` azbench-agent processes labelled with `azs` in turn, working under `work_root` and allowed
// the `allowed_roots` (the campaigns' targets); agent i gets `agent_env[i]` added to its
// environment. Their reattach grace is 2 s (not 30): a test that kills the coordinator sees the
// agents cancel and remove their files within seconds. Null, with a test failure, when they do not
// start.
inline std::unique_ptr<LocalFleet> StartLoopbackAgents(
    int n, const std::string& work_root, std::vector<std::string> allowed_roots,
    std::vector<std::string> azs = {"az-a", "az-b"},
    std::vector<std::vector<std::string>> agent_env = {}) {
  LocalFleetOptions options;
  options.agents = n;
  options.azs = std::move(azs);
  options.agent_env = std::move(agent_env);
  options.agent_binary = AZBENCH_AGENT_BIN;
  options.work_root = work_root;
  options.allowed_roots = std::move(allowed_roots);
  options.reattach_grace = absl::Seconds(2);
  absl::StatusOr<std::unique_ptr<LocalFleet>> fleet = LocalFleet::Start(options);
  EXPECT_TRUE(fleet.ok()) << fleet.status();
  return fleet.ok() ? std::move(*fleet) : nullptr;
}

// "name: <name>\nfleet:\n  hosts: [a, b]\nresults: results.db\n": a campaign's first lines.
inline std::string CampaignHead(const std::string& name, const std::vector<std::string>& hosts) {
  return absl::StrCat("name: ", name, "\nfleet:\n  hosts: [", absl::StrJoin(hosts, ", "),
                      "]\nresults: results.db\n");
}

// The scenarios stored in the results database `db_path`; empty, with a test failure, when it
// cannot be read.
inline std::vector<ScenarioResult> StoredScenarios(const std::string& db_path) {
  auto store = Store::OpenExisting(db_path);
  EXPECT_TRUE(store.ok()) << store.status();
  if (!store.ok()) return {};
  auto scenarios = (*store)->LoadScenarios();
  EXPECT_TRUE(scenarios.ok()) << scenarios.status();
  return scenarios.ok() ? std::move(*scenarios) : std::vector<ScenarioResult>{};
}

// The agents that have streamed at least one interval of the running scenario whose key ends with
// `key_suffix` (e.g. "/repeat=2") into the results database `db_path`: the coordinator stores
// intervals as they arrive (staged_interval, coordinator/run/interval_spool.h), so an agent listed
// here has its Run stream open and has measured for an interval. Read through a read-only
// connection beside the running coordinator. Empty while the database or that scenario's attempt
// does not exist yet, and again once the scenario is saved (its staged rows become its result's).
inline std::set<std::string> AgentsWithStagedIntervals(const std::string& db_path,
                                                       const std::string& key_suffix) {
  std::set<std::string> agents;
  std::error_code ec;
  if (!std::filesystem::exists(db_path, ec)) return agents;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_busy_timeout(db, 2000);
    sqlite3_stmt* stmt = nullptr;
    const char* sql =
        "SELECT DISTINCT r.agent_id FROM agent_result r JOIN scenario s ON s.id = r.scenario_id "
        "WHERE s.attempt_of IS NOT NULL AND substr(s.attempt_of, -length(?1)) = ?1 AND "
        "EXISTS (SELECT 1 FROM interval i WHERE i.agent_result_id = r.id)";
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK) {
      sqlite3_bind_text(stmt, 1, key_suffix.c_str(), -1, SQLITE_TRANSIENT);
      while (sqlite3_step(stmt) == SQLITE_ROW) {
        if (const unsigned char* id = sqlite3_column_text(stmt, 0)) {
          agents.insert(reinterpret_cast<const char*>(id));
        }
      }
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return agents;
}

// Polls AgentsWithStagedIntervals until every one of `agent_ids` is there (true) or `timeout`
// passes (false, with a test failure naming the agents that were there).
inline bool WaitForStagedIntervals(const std::string& db_path, const std::string& key_suffix,
                                   const std::set<std::string>& agent_ids,
                                   std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::set<std::string> seen;
  while (true) {
    seen = AgentsWithStagedIntervals(db_path, key_suffix);
    bool all = true;
    for (const std::string& id : agent_ids) all = all && seen.count(id) > 0;
    if (all) return true;
    if (std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ADD_FAILURE() << "no staged interval of the scenario '..." << key_suffix
                << "' from every one of [" << absl::StrJoin(agent_ids, ", ") << "] within "
                << timeout.count() << " ms (those with one: [" << absl::StrJoin(seen, ", ") << "])";
  return false;
}

// Everything under `dir` (files and directories), recursively; 0 when it does not exist.
inline size_t CountEntries(const std::string& dir) {
  size_t n = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    ++n;
  }
  return n;
}

// The regular files under `dir`, recursively; 0 when it does not exist.
inline size_t CountFiles(const std::string& dir) {
  size_t n = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file()) ++n;
  }
  return n;
}

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_INTEGRATION_FLEET_H_

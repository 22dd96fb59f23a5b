// Integration-test helpers (tests/integration only: CMake defines AZBENCH_AGENT_BIN there): a
// local fleet of real agent processes on loopback, the head of a campaign that names their
// addresses, the scenarios a run stored, and counts of what a run left in a directory.
//
// Example:
//   std::unique_ptr<LocalFleet> fleet = StartLoopbackAgents(2, dir.File("agents"), {shm.path()});
//   std::ofstream(path) << CampaignHead("itest", fleet->addresses()) << "targets: ...";
//   std::vector<ScenarioResult> stored = StoredScenarios(dir.File("results.db"));
#ifndef AZBENCH_TESTS_TESTING_INTEGRATION_FLEET_H_
#define AZBENCH_TESTS_TESTING_INTEGRATION_FLEET_H_

#ifndef AZBENCH_AGENT_BIN
#error "integration_fleet.h is for tests/integration, whose targets define AZBENCH_AGENT_BIN"
#endif

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "coordinator/local_fleet.h"
#include "coordinator/scenario.h"
#include "coordinator/store.h"
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
  options.reattach_grace_ms = 2000;
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

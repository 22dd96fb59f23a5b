// The prepare barrier of a scenario's run (coordinator/run/run.h): every agent lays out its files
// (with sharing=shared-file the first agent alone, then the others) while the prepared ones are
// kept alive with Renew; and the cleanup that removes what they laid out. Internal to running a
// scenario (run_internal.h).
#include <atomic>
#include <chrono>
#include <thread>

#include "absl/time/clock.h"
#include "common/proto_convert.h"
#include "coordinator/run/run_internal.h"

namespace azbench::run_internal {

namespace {}  // namespace

std::vector<std::string> PrepareEverywhere(std::vector<AgentRun>& runs, const Scenario& scenario,
                                           const std::string& run_id, const RunOptions& options) {
  v1::PrepareRequest prepare;
  prepare.set_run_id(run_id);
  prepare.set_interval_ms(options.interval_ms);
  for (const ScenarioJob& job : scenario.jobs) {
    JobDefinitionToProto({job.name, job.workload, job.group_id, job.options}, prepare.add_jobs());
  }
  prepare.set_lease_ms(static_cast<uint32_t>(absl::ToInt64Milliseconds(options.prepared_lease)));
  // While the slowest agent still prepares, the others' prepared runs are kept alive with Renew
  // (a quarter of the lease apart); if this process dies here, they expire and remove their
  // files.
  std::vector<std::atomic<bool>> prepared(runs.size());
  std::atomic<bool> barrier_done{false};
  std::thread renewer([&] {
    const absl::Duration every = options.prepared_lease / 4;
    absl::Time next = absl::Now() + every;
    while (!barrier_done.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (absl::Now() < next) continue;
      next = absl::Now() + every;
      for (size_t i = 0; i < runs.size(); ++i) {
        if (!prepared[i].load() || runs[i].member == nullptr) continue;
        v1::RenewRequest renew;
        renew.set_run_id(run_id);
        renew.set_lease_ms(prepare.lease_ms());
        (void)runs[i].member->client->Renew(renew, absl::Seconds(5));
      }
    }
  });
  auto prepare_one = [&](size_t index) {
    AgentRun& r = runs[index];
    // Each agent learns its place among the scenario's agents (metadata's stride and shared
    // directories).
    v1::PrepareRequest mine = prepare;
    mine.set_agent_index(static_cast<int32_t>(index));
    mine.set_agent_count(static_cast<int32_t>(runs.size()));
    absl::StatusOr<v1::PrepareResponse> response =
        r.member->client->Prepare(mine, options.prepare_timeout);
    if (response.ok()) {
      r.prepared = true;
      prepared[index].store(true);
    } else {
      r.errors.push_back(std::string(response.status().message()));
    }
  };
  // sharing=shared-file (and write-verify, on the same layout): the first agent lays the shared
  // files out alone; the others then find them complete and skip the layout (file_layout.cc), so
  // no two agents ever write a layout.
  size_t layout_first = runs.size();
  if (ScenarioUsesSharing(scenario, "shared-file") ||
      ScenarioUsesSharing(scenario, "write-verify")) {
    for (size_t index = 0; index < runs.size(); ++index) {
      if (runs[index].member != nullptr) {
        layout_first = index;
        break;
      }
    }
    if (layout_first < runs.size()) prepare_one(layout_first);
  }
  std::vector<std::thread> threads;
  for (size_t index = 0; index < runs.size(); ++index) {
    if (runs[index].member == nullptr || index == layout_first) continue;
    threads.emplace_back([&, index] { prepare_one(index); });
  }
  for (auto& t : threads) t.join();
  barrier_done.store(true);
  renewer.join();
  std::vector<std::string> prepare_errors;
  for (const AgentRun& r : runs) {
    for (const auto& e : r.errors) prepare_errors.push_back(e);
  }
  return prepare_errors;
}

void CleanupEverywhere(std::vector<AgentRun>& runs, const std::string& run_id, bool remove_files) {
  v1::CleanupRequest cleanup;
  cleanup.set_run_id(run_id);
  cleanup.set_remove_files(remove_files);
  std::vector<std::thread> threads;  // in parallel: one slow agent must not hold the others
  for (AgentRun& r : runs) {
    if (r.member != nullptr && r.prepared && !r.lost) {
      threads.emplace_back([&] { (void)r.member->client->Cleanup(cleanup, absl::Seconds(30)); });
    }
  }
  for (auto& t : threads) t.join();
}

}  // namespace azbench::run_internal

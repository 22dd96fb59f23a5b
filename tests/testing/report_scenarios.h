// Test helper: scenario results with known figures, for report and compare tests.
#ifndef AZBENCH_TESTS_TESTING_REPORT_SCENARIOS_H_
#define AZBENCH_TESTS_TESTING_REPORT_SCENARIOS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "coordinator/scenario.h"

namespace azbench::testing {

inline constexpr int64_t kSecondNs = 1'000'000'000;
inline constexpr int64_t kT0Ns = 1'700'000'000 * kSecondNs;

struct FakeScenario {
  std::string target = "efs";
  std::string workload = "randread";
  std::vector<std::pair<std::string, std::string>> parameters;
  int repeat = 1;
  int agents = 1;
  uint64_t ops_per_agent = 1000;  // done in exactly 2 s, 2 one-second intervals
  uint64_t latency_ns = 1'000'000;
  uint64_t bytes_per_op = 4096;
  OpKind kind = OpKind::kRead;
  int64_t agent_skew_ns = 0;  // agent i starts i * agent_skew_ns late
  ScenarioStatus status = ScenarioStatus::kComplete;
};

// Agents "agent-1".."agent-N", each with one job of `ops_per_agent` ops of `latency_ns`, split
// over two intervals.
inline ScenarioResult MakeFakeScenario(const FakeScenario& f) {
  ScenarioResult result;
  Scenario& s = result.scenario;
  s.target = f.target;
  s.workload = f.workload;
  s.parameters = f.parameters;
  s.repeat = f.repeat;
  s.key = "workload=" + f.workload;
  for (const auto& [k, v] : f.parameters) s.key += "/" + k + "=" + v;
  s.key += "/target=" + f.target + "/repeat=" + std::to_string(f.repeat);
  result.status = f.status;
  for (int a = 0; a < f.agents; ++a) {
    const std::string agent = "agent-" + std::to_string(a + 1);
    s.agent_ids.push_back(agent);
    JobResult job;
    job.name = f.workload;
    job.start_realtime_ns = kT0Ns + a * f.agent_skew_ns;
    job.end_realtime_ns = job.start_realtime_ns + 2 * kSecondNs;
    job.runtime_ns = 2 * kSecondNs;
    job.interval_ns = kSecondNs;
    OpStats& stats = job.Stats(f.kind);
    for (uint64_t i = 0; i < f.ops_per_agent; ++i) stats.lat.Record(f.latency_ns);
    stats.ops = f.ops_per_agent;
    stats.bytes = f.ops_per_agent * f.bytes_per_op;
    for (int64_t i = 0; i < 2; ++i) {
      IntervalStats interval;
      interval.index = i;
      IntervalOpStats& in = interval.by_kind[static_cast<int>(f.kind)];
      in.ops = f.ops_per_agent / 2 + (i == 0 ? f.ops_per_agent % 2 : 0);
      in.bytes = in.ops * f.bytes_per_op;
      job.intervals.push_back(std::move(interval));
    }
    result.results.push_back(AgentJobResult{agent, std::move(job)});
  }
  result.planned_start_realtime_ns = kT0Ns;
  result.first_start_realtime_ns = kT0Ns;
  result.last_start_realtime_ns = kT0Ns + (f.agents - 1) * f.agent_skew_ns;
  result.first_end_realtime_ns = kT0Ns + 2 * kSecondNs;
  result.last_end_realtime_ns = result.last_start_realtime_ns + 2 * kSecondNs;
  return result;
}

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_REPORT_SCENARIOS_H_

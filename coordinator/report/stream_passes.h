// large_stream's passes as every report shows them (dd-like: MiB/s of each pass and their mean).
// The agent returns one result per pass, "<job>.pass<N>"
// (agent/workloads/large_stream/large_stream.h); the store keeps each as its own agent_result row
// with its runtime, so nothing is lost on the way.
//
// Figures, per large_stream job of a scenario:
//   - per agent and pass: the pass's bytes (read + write) / its runtime_ns (the pass's measured
//     time on the agent; a write pass includes its closing fsync, as dd conv=fsync), in MiB/s.
//   - agent mean: the arithmetic mean of that agent's pass figures (dd's "mean of N passes"). It is
//     not the scenario's MiB/s in the comparison table (total bytes / total time, merge.h rule 3),
//     which weighs slow passes more.
//   - all agents, per pass N: the bytes every agent moved in pass N / (latest end - earliest start
//     of pass N on the coordinator clock): merge rule 3 restricted to pass N, what the file system
//     delivered to all agents together during that pass. With one agent, that agent's figures.
//     Without start/end times it is the sum of the agents' figures (they run at once).
//   - all-agents mean: the mean of those per-pass aggregates.
// A pass an agent did not report (cancelled, agent lost) is missing, never 0; means are over the
// passes present.
//
// Example:
//   for (const StreamPasses& job : BuildStreamPasses(result)) print(job.aggregate_mean_mib_s);
#ifndef AZBENCH_COORDINATOR_REPORT_STREAM_PASSES_H_
#define AZBENCH_COORDINATOR_REPORT_STREAM_PASSES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "coordinator/report/report_input.h"
#include "coordinator/scenario.h"

namespace azbench {

struct StreamPass {
  uint64_t bytes = 0;
  uint64_t runtime_ns = 0;
  uint64_t errors = 0;
  double mib_s = 0;
};

struct AgentStreamPasses {
  std::string agent_id;
  std::vector<std::optional<StreamPass>> passes;  // index = pass number - 1
  std::optional<double> mean_mib_s;               // none when no pass is present
};

struct StreamPasses {
  std::string job;                                     // the job name, without ".pass<N>"
  int passes = 0;                                      // the highest pass number any agent reported
  std::vector<AgentStreamPasses> agents;               // in the order of the results
  std::vector<std::optional<double>> aggregate_mib_s;  // all agents, per pass
  std::optional<double> aggregate_mean_mib_s;
};

// One entry per large_stream job of the scenario (Scenario::jobs with workload "large_stream"),
// in job order; empty for other families.
std::vector<StreamPasses> BuildStreamPasses(const ScenarioResult& result);

// One row of the per-pass tables of the terminal, Markdown and HTML reports.
struct StreamPassRow {
  std::string target;
  int repeat = 1;
  std::string job;
  std::string who;  // an agent id, or "all agents"
  bool aggregate = false;
  std::vector<std::optional<double>> mib_s;  // per pass, `passes` long
  std::optional<double> mean_mib_s;
};

struct StreamPassTable {
  int passes = 0;  // the columns: pass 1 .. passes
  std::vector<StreamPassRow> rows;
};

// The rows of one report cell: for each target, each repeat `keep` shows (TargetColumn::kept), each
// large_stream job, one row per agent and, with two or more agents, an "all agents" row. Empty
// when the cell has no large_stream job.
StreamPassTable BuildStreamPassTable(const ReportInput& input, const ReportCell& cell);

// "512.3" / "-" for a missing pass.
std::string FormatPassMibPerSecond(const std::optional<double>& mib_s);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_STREAM_PASSES_H_

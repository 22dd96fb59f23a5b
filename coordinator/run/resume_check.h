// `azbench run --resume` skips the scenarios the results database already holds complete, by key.
// A key names a scenario (target, workload, matrix values, repeat: coordinator/plan/plan.h), not
// what it measures: a campaign edited under the same name (a workload's rw changed, a target moved,
// other agents) keeps its keys. Before skipping anything, the stored definition of every scenario
// the resume would skip is compared with the one the current plan gives it; any difference refuses
// the resume, so stored figures are never reported as a different workload's.
//
// Compared, as they define what a scenario measures: the target and workload names, the agents
// that ran it (as a set), and its jobs in order (name, workload family, group_id and every
// option as resolved for the target, e.g. directory). Option order across different options does
// not matter (the jobs are sent as options by name), the order of one option's repeated values
// does. Not compared: the campaign text (comments, whitespace, key order, quoting), cooldown,
// repeats (adding repeats adds scenarios), placement evidence, and scenarios that are not skipped
// (new keys, partial/failed ones run again; their stored rows are replaced).
//
//   RETURN_IF_ERROR(CheckResumable(db_path, *store->CompletedScenarioDefinitions(), plan));
#ifndef AZBENCH_COORDINATOR_RUN_RESUME_CHECK_H_
#define AZBENCH_COORDINATOR_RUN_RESUME_CHECK_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "coordinator/scenario.h"

namespace azbench {

// A stored scenario the plan defines differently, with each difference worded
// ("workload 'rr' option rw: stored randread, now read").
struct ResumeMismatch {
  std::string key;
  std::vector<std::string> changes;
};

// The differences between each `stored` scenario and the `plan` scenario of the same key, in
// stored order. Stored scenarios with no key in the plan are not compared (they are not skipped).
std::vector<ResumeMismatch> CompareStoredWithPlan(const std::vector<Scenario>& stored,
                                                  const std::vector<Scenario>& plan);

// OK when no mismatch; else FailedPrecondition naming `db_path`, each mismatching key with its
// changes (the first 10 keys, then how many more), and what to do instead.
absl::Status CheckResumable(const std::string& db_path, const std::vector<Scenario>& stored,
                            const std::vector<Scenario>& plan);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_RUN_RESUME_CHECK_H_

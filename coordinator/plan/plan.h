// Campaign -> ordered scenarios: the matrix expanded over workloads, targets and repeats, each
// scenario with the agents that run it and the jobs they run.
//
// Order (a contract: reports, --resume and people reading `azbench plan` rely on it):
//   for each workload (campaign order)
//     for each matrix cell (cross product, first axis outermost, values in written order)
//       [warmup > 0: for each target: one warmup scenario (repeat 0, warmup = true)]
//       for each repeat 1..repeats
//         for each target (campaign order)
// Targets are innermost so that the targets of one cell run back to back (side-by-side comparisons
// see the same conditions), and repeats enclose them so that a drift over time (burst credits, a
// warming cache) spreads over every target instead of favouring the one measured first.
//
// Keys: "workload=W/<axis>=<value>/.../target=T/repeat=R" (".../target=T/warmup" for warmups),
// matrix axes in campaign order. They depend only on the campaign's names and values, never on the
// fleet or the position, so they are stable across runs and unique within a campaign. In values,
// '%', '/', '=' and spaces are written %XX.
//
// Warmup scenarios run the cell's jobs with `runtime=<warmup>` and `time_based=1` appended (the
// last value of an option wins), so `warmup: 10s` warms each target for 10 s before measuring.
//
// Placement: with a `placement` axis, each target's scenario considers only the agents whose
// placement to that target (`placements`, coordinator/plan/placement.h) is exactly the cell's
// value, in the balanced order below; `nodes` then counts among them. No such agent (or placements
// not given) -> skipped with the reason, listing what the agents are instead.
//
// Agents: without a `nodes` axis every agent runs every scenario. `nodes: N` picks N agents
// balanced over AZs: AZs sorted by name (agents with no AZ last, as one group), agents inside an AZ
// sorted by agent_id, then one agent from each AZ in turn until N are taken; `all` takes every
// agent. With fewer agents than N the scenario is kept but skipped, with the reason. agent_ids are
// always in that balanced order. The order depends only on agent_ids and AZ names (never on the
// order agents were listed or answered), so the same fleet always gives the same selection.
// `nodes_per_az: M` takes the first M agents (by agent_id) of every AZ group, `all` every agent;
// an AZ with fewer than M agents skips the scenario. With both axes, `nodes: N` then takes the
// first N of the nodes_per_az selection in the balanced order.
//
// Example:
//   ASSIGN_OR_RETURN(std::vector<Scenario> plan, ExpandCampaign(campaign, fleet_agents));
//   std::cout << FormatPlan(plan);
#ifndef AZBENCH_COORDINATOR_PLAN_PLAN_H_
#define AZBENCH_COORDINATOR_PLAN_PLAN_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/plan/placement.h"
#include "coordinator/scenario.h"

namespace azbench {

// Expands `campaign` for `agents` (the fleet after Hello/Describe). Each job's options are
// CellJobOptions (campaign.h). cooldown_s is the campaign's cooldown on every scenario but the
// first. Errors: FailedPrecondition for an empty fleet; InvalidArgument for agents with duplicate
// or empty ids, and for a campaign (built by hand, not parsed) whose names collide, whose jobs
// fail ValidateJobOptions or that has more than kMaxScenarios scenarios (counted first).
absl::StatusOr<std::vector<Scenario>> ExpandCampaign(const Campaign& campaign,
                                                     const std::vector<AgentInfo>& agents,
                                                     const PlacementTable* placements = nullptr);

// `agents` in the balanced selection order described above.
std::vector<AgentInfo> BalancedAgentOrder(const std::vector<AgentInfo>& agents);

// The agents a campaign's fleet will have, as far as the campaign alone says: for `local`,
// "local-<i>" (i from 1) in AZ azs[(i - 1) % azs.size()] as LocalFleet names them, addresses
// unknown; for hosts, one agent per
// host with agent_id = address = "host:port" and no AZ (only Describe knows it). For previewing a
// plan without contacting the fleet; the real ids and AZs come from the fleet.
std::vector<AgentInfo> ExpectedAgents(const FleetSpec& fleet);

// What `azbench plan` prints: a header, one line per scenario (index, key, agents, and "warmup" or
// "skipped: <reason>"), and a summary line with the counts.
std::string FormatPlan(const std::vector<Scenario>& scenarios);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_PLAN_PLAN_H_

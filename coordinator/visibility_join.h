// Client-to-client visibility across agents, joined on the coordinator's clock. The writer agent
// and every reader agent run trial i at the scenario's common start + i x spacing
// (agent/workloads/visibility/visibility.h); each reports one raw record per trial (row i = trial
// i) whose start_ns counts from its job's start_realtime_ns, which run.cc has already moved to the
// coordinator's clock (agent clock - measured offset):
//   - writer (op kind `write`): start + latency = the instant its write (with fsync, close, rename
//     as asked) returned -- its completion instant;
//   - reader (op kind `probe`): start + latency = the first poll that saw the expected content
//     (a timed-out trial: the last poll that did not).
// The reader's visibility latency of trial i = reader seen - writer completion. Both instants are
// corrected by their agent's offset, each uncertain by that agent's clock RTT/2, so a sample is
// uncertain by (writer RTT + reader RTT) / 2, stated in a warning. A reader that saw the file
// before the writer's completion (through that clock error, or because the data reached it while
// the writer's fsync/close/rename call was still running) gets latency 0 and is counted ("seen
// before the write returned"), never a negative or wrapped value. A trial the writer failed is a
// failed trial for every reader. The latency also over-states the truth by at most one poll
// interval (the resolution the agent states).
//
// The join replaces the reader's `probe` counts and histogram by ones built from the joined
// samples (exact: one Record per sample, so merging readers and repeats stays exact) and rewrites
// its records: start_ns = the writer's completion since the reader's job start, latency_ns = the
// visibility latency (a timeout keeps errno ETIMEDOUT with the corrected last miss).
//
//   ClientToClientHalf writer{"a1", &writer_result, &writer_records, writer_rtt_ns};
//   std::vector<ClientToClientHalf> readers = {...};
//   JoinClientToClient(writer, readers);
#ifndef AZBENCH_COORDINATOR_VISIBILITY_JOIN_H_
#define AZBENCH_COORDINATOR_VISIBILITY_JOIN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/job_result.h"

namespace azbench {

struct ClientToClientHalf {
  std::string agent_id;
  JobResult* result = nullptr;  // start_realtime_ns on the coordinator clock
  std::vector<OpRecord>* records = nullptr;
  int64_t clock_rtt_ns = 0;  // of the agent's clock-offset measurement
};

// True when `records` are a client_to_client writer's (op kind write), false for a reader's.
bool IsClientToClientWriter(const std::vector<OpRecord>& records);

// Joins every reader with the writer (see above) and adds a warning to each reader's result saying
// what its latency means, its clock uncertainty and how many trials were clamped; the reader
// agent's own summary warning ("V of N trials visible, ...") is restated with the joined counts. A
// reader whose trial count differs from the writer's is left unjoined with a warning saying so.
void JoinClientToClient(const ClientToClientHalf& writer, std::vector<ClientToClientHalf>& readers);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_VISIBILITY_JOIN_H_

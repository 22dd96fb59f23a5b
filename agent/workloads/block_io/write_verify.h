// sharing=write-verify (common/job_spec.h FileSharing): one agent writes a job's files with fio's
// verify headers, the other agents of the scenario read them back and check them, so data written
// from one AZ is verified from another. This file decides each agent's part; the wait for the
// writer is the run's phase barrier (agent/runner/runner_phases.cc), and a verifier's check is
// fio's verify_only (agent/workloads/block_io/block_io_clone.cc).
//
//   ASSIGN_OR_RETURN(WriteVerifyRole role, ApplyWriteVerifyRole(spec, index, count));
//   if (role.waits_for_writer) ...  // the job arrives at the barrier before its first read
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_WRITE_VERIFY_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_WRITE_VERIFY_H_

#include "absl/status/statusor.h"
#include "common/job_spec.h"

namespace azbench {

struct WriteVerifyRole {
  bool writer = false;            // writes the files (verify headers, no read back)
  bool waits_for_writer = false;  // a verifier that starts once the writer's agent has finished
};

// For a job with sharing=write-verify, run by agent `agent_index` of `agent_count`: agent 0
// writes (do_verify=0), every other agent verifies (verify_only=1) after the barrier; with
// verify_only=1 in the job every agent verifies at once, nothing is written. Every agent replays
// agent 0's writes (shared stream 0 of 1: the same offsets, seeds and numbers), which is what a
// verifier checks the blocks against. InvalidArgument with fewer than 2 agents. Other sharing
// modes: the spec is left alone and the role is empty.
absl::StatusOr<WriteVerifyRole> ApplyWriteVerifyRole(JobSpec& spec, int agent_index,
                                                     int agent_count);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_WRITE_VERIFY_H_

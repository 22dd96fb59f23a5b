// The agent's own types as the wire carries them in Hello, Describe and Prepare answers: its
// identity, the mounts under the target paths and the files a Prepare laid out. The types shared
// with the coordinator (jobs, results, intervals, op logs) convert in common/proto_convert.h; these
// live here because only the agent knows them, and the coordinator reads them as messages.
#ifndef AZBENCH_AGENT_SERVER_AGENT_PROTO_H_
#define AZBENCH_AGENT_SERVER_AGENT_PROTO_H_

#include <string>
#include <vector>

#include "agent/host/identity.h"
#include "agent/host/target_mounts.h"
#include "agent/workloads/file_layout.h"
#include "azbench/v1/agent.pb.h"

namespace azbench {

void IdentityToProto(const AgentIdentity& identity, v1::Identity* out);

// `mount.found` must be true (a path no mount holds is left out of Describe).
void TargetMountToProto(const TargetMount& mount, v1::MountInfo* out);

void PreparedFileToProto(const LaidOutFile& file, v1::PreparedFile* out);

// What this agent build can run: "engine:<name>" for every engine, "workload:<name>" for every
// family, and the protocol features ("phase_barrier").
std::vector<std::string> AgentCapabilities();

}  // namespace azbench

#endif  // AZBENCH_AGENT_SERVER_AGENT_PROTO_H_

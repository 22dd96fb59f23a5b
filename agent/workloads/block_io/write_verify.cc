#include "agent/workloads/block_io/write_verify.h"

#include "absl/strings/str_cat.h"

namespace azbench {

absl::StatusOr<WriteVerifyRole> ApplyWriteVerifyRole(JobSpec& spec, int agent_index,
                                                     int agent_count) {
  WriteVerifyRole role;
  if (spec.sharing != FileSharing::kWriteVerify) return role;
  if (agent_count < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sharing=write-verify needs at least 2 agents in the scenario (agent 0 writes, the "
        "others verify); this scenario has ",
        agent_count));
  }
  if (agent_index < 0 || agent_index >= agent_count) {
    return absl::InvalidArgumentError(absl::StrCat("sharing=write-verify: agent index ",
                                                   agent_index, " is not in 0..", agent_count - 1));
  }
  spec.shared_stream_index = 0;
  spec.shared_stream_count = 1;
  if (spec.verify_only) return role;  // every agent verifies what is there
  if (agent_index == 0) {
    role.writer = true;
    spec.do_verify = false;  // the others read it back
  } else {
    role.waits_for_writer = true;
    spec.verify_only = true;
  }
  return role;
}

}  // namespace azbench

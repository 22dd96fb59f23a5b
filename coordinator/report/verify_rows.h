// Data verification as every report shows it: per scenario and agent, how many blocks the agent
// read back and checked, how many verify intervals failed and the first offsets (fio's verify;
// sharing=write-verify has one agent write and the others verify, common/job_spec.h).
//
// A scenario is shown when it uses sharing=write-verify or one of its results has a failed check.
// Blocks verified are the job's reads: a verifier (verify_only) reads only to check. Offsets are
// the first JobResult::kMaxVerifyFailureOffsets the agent reported, in the order found.
//
//   for (const VerifyRow& row : BuildVerifyRows(input)) print(row.agent_id, row.mismatches);
#ifndef AZBENCH_COORDINATOR_REPORT_VERIFY_ROWS_H_
#define AZBENCH_COORDINATOR_REPORT_VERIFY_ROWS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "coordinator/report/report_input.h"

namespace azbench {

struct VerifyRow {
  size_t scenario = 0;  // index in ReportInput::scenarios
  std::string job;
  std::string agent_id;
  std::string az;  // the agent's availability zone, empty when not known
  // "writer" (sharing=write-verify's agent 0, which writes and reads nothing back), "verifier"
  // (the others, or every agent with verify_only=1), "verify" (another job with verify).
  std::string role;
  uint64_t blocks_verified = 0;
  uint64_t mismatches = 0;
  std::vector<uint64_t> first_offsets;
  bool more_offsets = false;  // mismatches beyond first_offsets
};

// In scenario order, then the scenario's agent order.
std::vector<VerifyRow> BuildVerifyRows(const ReportInput& input);

// "40960, 81920, ..." ("-" when none).
std::string VerifyOffsetsText(const VerifyRow& row);

// `azbench report --format verify-csv`: a header, then one line per row. Columns: scenario_key,
// target, workload, repeat, status, job, agent_id, availability_zone, role, blocks_verified,
// mismatches, first_offsets (";"-separated, in the order found), more_offsets (true when
// mismatches go beyond them).
std::string RenderVerifyCsv(const ReportInput& input);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_VERIFY_ROWS_H_

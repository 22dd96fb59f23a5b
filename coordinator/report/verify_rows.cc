#include "coordinator/report/verify_rows.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "coordinator/report/csv_report.h"

namespace azbench {

namespace {

bool HasOption(const Scenario& s, const std::string& key, const std::string& value) {
  bool found = false;
  for (const ScenarioJob& job : s.jobs) {
    for (const auto& [k, v] : job.options) {
      if (k == key) found = v == value;
    }
  }
  return found;
}

}  // namespace

std::vector<VerifyRow> BuildVerifyRows(const ReportInput& input) {
  std::vector<VerifyRow> rows;
  for (size_t i = 0; i < input.scenarios.size(); ++i) {
    const ScenarioResult& r = input.scenarios[i];
    const bool write_verify = ScenarioUsesSharing(r.scenario, "write-verify");
    const bool failed = std::any_of(r.results.begin(), r.results.end(),
                                    [](const auto& a) { return a.result.verify_failures > 0; });
    if (!write_verify && !failed) continue;
    const bool verify_only = HasOption(r.scenario, "verify_only", "1");
    const std::string writer =
        r.scenario.agent_ids.empty() ? std::string() : r.scenario.agent_ids.front();
    for (const AgentJobResult& a : r.results) {
      VerifyRow row;
      row.scenario = i;
      row.job = a.result.name;
      row.agent_id = a.agent_id;
      for (const AgentInfo& agent : input.agents) {
        if (agent.agent_id == a.agent_id) row.az = agent.availability_zone;
      }
      if (!write_verify) {
        row.role = "verify";
      } else {
        row.role = !verify_only && a.agent_id == writer ? "writer" : "verifier";
      }
      if (const OpStats* reads = a.result.Find(OpKind::kRead)) row.blocks_verified = reads->ops;
      row.mismatches = a.result.verify_failures;
      row.first_offsets = a.result.verify_failure_offsets;
      row.more_offsets = row.mismatches > row.first_offsets.size();
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

std::string VerifyOffsetsText(const VerifyRow& row) {
  if (row.first_offsets.empty()) return "-";
  return absl::StrCat(absl::StrJoin(row.first_offsets, ", "), row.more_offsets ? ", ..." : "");
}

std::string RenderVerifyCsv(const ReportInput& input) {
  std::string out =
      "scenario_key,target,workload,repeat,status,job,agent_id,availability_zone,role,"
      "blocks_verified,mismatches,first_offsets,more_offsets\n";
  for (const VerifyRow& row : BuildVerifyRows(input)) {
    const ScenarioResult& r = input.scenarios[row.scenario];
    const std::vector<std::string> fields = {CsvField(r.scenario.key),
                                             CsvField(r.scenario.target),
                                             CsvField(r.scenario.workload),
                                             absl::StrCat(r.scenario.repeat),
                                             ScenarioStatusName(r.status),
                                             CsvField(row.job),
                                             CsvField(row.agent_id),
                                             CsvField(row.az),
                                             row.role,
                                             absl::StrCat(row.blocks_verified),
                                             absl::StrCat(row.mismatches),
                                             absl::StrJoin(row.first_offsets, ";"),
                                             row.more_offsets ? "true" : "false"};
    absl::StrAppend(&out, absl::StrJoin(fields, ","), "\n");
  }
  return out;
}

}  // namespace azbench

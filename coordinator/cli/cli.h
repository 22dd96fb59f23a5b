// The `azbench` command line: agents, plan, run, report. Each subcommand returns a process exit
// code: 0 success, 1 failure (or an incomplete campaign), 2 usage error, 130 interrupted.
//
//   azbench agents --hosts hosts.txt
//   azbench plan campaign.yaml
//   azbench run campaign.yaml [--resume] [--allow-missing] [--db results.db]
//   azbench report results.db --format md|csv|json|terminal [-o FILE]
#ifndef AZBENCH_COORDINATOR_CLI_CLI_H_
#define AZBENCH_COORDINATOR_CLI_CLI_H_

#include <string>
#include <vector>

namespace azbench {

int RunCli(const std::vector<std::string>& args);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_CLI_CLI_H_

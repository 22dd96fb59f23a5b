// The `azbench` subcommands (cli.h), each taking the arguments after its name and returning the
// exit status: agents (cli_agents.cc), plan and run (cli_run.cc), report and compare
// (cli_report.cc), lab (cli_lab.cc). Internal to the command line; `certs` is certs.h's
// CertsCommand.
#ifndef AZBENCH_COORDINATOR_CLI_CLI_COMMANDS_H_
#define AZBENCH_COORDINATOR_CLI_CLI_COMMANDS_H_

#include <string>
#include <vector>

namespace azbench::cli_internal {

int AgentsCommand(const std::vector<std::string>& raw);
int PlanCommand(const std::vector<std::string>& raw);
int RunCommand(const std::vector<std::string>& raw_all);
int ReportCommand(const std::vector<std::string>& raw);
int CompareCommand(const std::vector<std::string>& raw);
int LabCommand(const std::vector<std::string>& raw);

}  // namespace azbench::cli_internal

#endif  // AZBENCH_COORDINATOR_CLI_CLI_COMMANDS_H_

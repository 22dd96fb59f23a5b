// azbench-agent: the per-instance agent. `run` executes jobs once, locally; `serve` is the gRPC
// agent (a systemd service in deployments); `check-config` validates the config file.
#include <iostream>
#include <string>
#include <vector>

#include "agent/cmdhelp.h"
#include "agent/enghelp.h"
#include "agent/one_shot.h"
#include "agent/server/check_config.h"
#include "agent/server/serve.h"
#include "common/version.h"

namespace {

constexpr char kUsage[] =
    "usage: azbench-agent <command> [options]\n"
    "commands:\n"
    "  run JOBFILE | run --name=NAME --rw=... [fio options]   run jobs once, print results\n"
    "      --output-format=normal,json,json+,terse  --minimal  --output=FILE  --interval=1s  "
    "--unlink\n"
    "  serve [--config FILE] [--listen HOST:PORT] [--port-file F] [--agent-id ID] [--az AZ]\n"
    "        [--region R] [--az-id ID] [--log-level L]      run the gRPC agent (SIGTERM stops,\n"
    "                                                       SIGHUP reloads the config)\n"
    "  check-config [FILE]                                  validate an agent config\n"
    "                                                       (default /etc/azbench/agent.yaml)\n"
    "  version                                              print the version\n"
    "  --cmdhelp[=NAME|markdown]                            fio's options: all, one, or the\n"
    "                                                       docs page, with what azbench does\n"
    "  --enghelp[=ENGINE[,OPTION]]                          the I/O engines, an engine's options,\n"
    "                                                       or one of them, as fio's\n";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  if (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (azbench::IsCmdhelpArgument(args[0]))
    return azbench::RunCmdhelp(args[0], std::cout, std::cerr);
  if (azbench::IsEnghelpArgument(args[0])) {
    return azbench::RunEnghelp(args[0], std::cout, std::cerr);
  }
  const std::string command = args[0];
  args.erase(args.begin());
  const bool known = command == "run" || command == "serve" || command == "check-config";
  for (const std::string& arg : known ? args : std::vector<std::string>{}) {  // CMD --help
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    }
  }
  if (command == "run") {
    // fio's --enghelp is a command-line option like any other: `run --enghelp` answers it too.
    for (const std::string& arg : args) {
      if (azbench::IsEnghelpArgument(arg)) return azbench::RunEnghelp(arg, std::cout, std::cerr);
    }
    return azbench::RunOneShotCommand(args);
  }
  if (command == "serve") return azbench::RunServeCommand(args);
  if (command == "check-config") return azbench::RunCheckConfigCommand(args);
  if (command == "version" || command == "--version") {
    std::cout << "azbench-agent " << azbench::kAzbenchVersion << " (protocol "
              << azbench::kProtocolVersion << ")\n";
    return 0;
  }
  std::cerr << "azbench-agent: unknown command '" << command << "'\n" << kUsage;
  return 2;
}

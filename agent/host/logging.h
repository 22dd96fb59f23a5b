// The agent's logging: spdlog to stderr, one logger per component, each with its own level.
//
//   ConfigureAgentLogging({.level = "info", .component_levels = {{"grpc", "warn"}}, .tag = "a1"});
//   AgentLogger("rpc")->info("prepared run {}", id);
//
// Components: "agent" (the default logger: start, stop, reload, signals), "rpc" (the gRPC
// handlers' messages), "grpc" (the gRPC library's own messages, routed here from gpr_log; at the
// default level info it shows warnings and errors only).
// Under systemd (JOURNAL_STREAM set) lines carry a "<N>" syslog priority prefix and no timestamp,
// so journald records the level; elsewhere they carry an ISO timestamp.
// Calling ConfigureAgentLogging again (SIGHUP) changes the levels of the existing loggers.
#ifndef AZBENCH_AGENT_HOST_LOGGING_H_
#define AZBENCH_AGENT_HOST_LOGGING_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "spdlog/spdlog.h"

namespace azbench {

// trace, debug, info, warn, error, critical, off.
const std::vector<std::string>& LogLevelNames();
// agent, rpc, grpc.
const std::vector<std::string>& LogComponentNames();
// InvalidArgument "log level 'X' is not one of trace, debug, ...".
absl::Status ValidateLogLevel(const std::string& level);

struct LogSettings {
  std::string level = "info";                           // every component without its own
  std::map<std::string, std::string> component_levels;  // component -> level
  std::string tag;                                      // shown in each line (the agent id)
};

// Sets up (first call) or re-levels (later calls) every component logger. Levels must be valid
// (ValidateLogLevel); an invalid one falls back to info rather than silencing the logger.
void ConfigureAgentLogging(const LogSettings& settings);

// The logger of a known component; the default logger for an unknown name.
std::shared_ptr<spdlog::logger> AgentLogger(const std::string& component);

}  // namespace azbench

#endif  // AZBENCH_AGENT_HOST_LOGGING_H_

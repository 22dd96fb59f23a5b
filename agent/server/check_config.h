// `azbench-agent check-config [FILE]`: validates an agent config (default
// /etc/azbench/agent.yaml) the way `serve` would read it, plus the checks that need the file
// system (TLS and token files readable), and prints what each setting does today, including
// which ones are accepted but not enforced yet and which ones SIGHUP applies live.
//
// Exit code: 0 valid (warnings allowed), 1 invalid (errors on stderr as FILE:LINE:COL: KEY: ...),
// 2 usage.
#ifndef AZBENCH_AGENT_SERVER_CHECK_CONFIG_H_
#define AZBENCH_AGENT_SERVER_CHECK_CONFIG_H_

#include <string>
#include <vector>

namespace azbench {

inline constexpr char kDefaultAgentConfigPath[] = "/etc/azbench/agent.yaml";

int RunCheckConfigCommand(const std::vector<std::string>& args);

}  // namespace azbench

#endif  // AZBENCH_AGENT_SERVER_CHECK_CONFIG_H_

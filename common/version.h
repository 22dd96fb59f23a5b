// Versions. kProtocolVersion changes when an older peer could not read the wire contract; Hello
// refuses a mismatch naming both versions.
#ifndef AZBENCH_COMMON_VERSION_H_
#define AZBENCH_COMMON_VERSION_H_

#include <cstdint>

namespace azbench {

inline constexpr char kAzbenchVersion[] = "0.1.0";
// 2: results no longer repeat the interval series streamed before them (agent.proto, JobResult).
inline constexpr uint32_t kProtocolVersion = 2;
inline constexpr int kDefaultAgentPort = 7480;

}  // namespace azbench

#endif  // AZBENCH_COMMON_VERSION_H_

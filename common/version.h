// Versions. kProtocolVersion changes when an older peer could not read the wire contract; Hello
// refuses a mismatch naming both versions.
#ifndef AZBENCH_COMMON_VERSION_H_
#define AZBENCH_COMMON_VERSION_H_

#include <cstdint>

namespace azbench {

inline constexpr char kAzbenchVersion[] = "0.1.0";
// 2: results no longer repeat the interval series streamed before them (agent.proto, JobResult).
// 3: resumable run streams: RunEvent.seq, the Attach RPC and HelloResponse.reattach_grace_ms (an
//    older coordinator would not reattach, and an older agent would not answer Attach).
// RunFinished.outcome is no change of version: an older coordinator skips the field and still reads
// the outcome from the stream's status (kept); a RunFinished without it (an older agent) makes a
// newer coordinator read the stream's status, as before, never "OK".
inline constexpr uint32_t kProtocolVersion = 3;
inline constexpr int kDefaultAgentPort = 7480;

}  // namespace azbench

#endif  // AZBENCH_COMMON_VERSION_H_

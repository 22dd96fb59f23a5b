// Whether a "host:port" address stays on this machine: 127.0.0.0/8, ::1, localhost (and the
// gRPC spellings "ipv4:127.0.0.1:N", "[::1]:N", "localhost:N"). Used by the agent to refuse a
// plaintext listener that others could reach, and by the coordinator to allow plaintext only to
// loopback agents. A name other than "localhost" is never taken for loopback (no DNS lookup).
//
//   IsLoopbackAddress("127.0.0.1:7480")  // true
//   IsLoopbackAddress("0.0.0.0:7480")    // false: every interface
#ifndef AZBENCH_COMMON_LOOPBACK_H_
#define AZBENCH_COMMON_LOOPBACK_H_

#include <string>

namespace azbench {

// The host part of "host:port", "[v6]:port" or "host" (brackets removed).
std::string HostOfAddress(const std::string& address);

bool IsLoopbackAddress(const std::string& address);

}  // namespace azbench

#endif  // AZBENCH_COMMON_LOOPBACK_H_

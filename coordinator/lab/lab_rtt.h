// Round trips as a TCP client sees them: the time connect() takes (SYN to SYN-ACK) from inside a
// network namespace to an address, the median of several, so a scheduling hiccup does not count.
#ifndef AZBENCH_COORDINATOR_LAB_LAB_RTT_H_
#define AZBENCH_COORDINATOR_LAB_LAB_RTT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace azbench {

// Unavailable when a connect fails; Internal when the namespace cannot be entered.
absl::StatusOr<absl::Duration> MedianConnectRtt(const std::string& network_namespace,
                                                const std::string& address, int port,
                                                int samples = 21);

// Whether address:port accepts a TCP connection from this (the host's) namespace.
bool Connects(const std::string& address, int port);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_LAB_LAB_RTT_H_

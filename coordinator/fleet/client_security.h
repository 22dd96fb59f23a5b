// How the coordinator authenticates itself to agents and checks who they are: the campaign's
// `fleet.tls` / `fleet.token_file` and the CLI flags --tls-ca, --tls-cert, --tls-key,
// --token-file, --tls-server-name. No gRPC types here; coordinator/fleet/agent_client.cc builds the
// channel credentials from it.
//
//   ClientSecurity security{.ca_file = "certs/ca.crt", .cert_file = "certs/coordinator.crt",
//                           .key_file = "certs/coordinator.key"};
//   ASSIGN_OR_RETURN(auto client, MakeAgentClient("10.0.1.5:7480", security));
#ifndef AZBENCH_COORDINATOR_FLEET_CLIENT_SECURITY_H_
#define AZBENCH_COORDINATOR_FLEET_CLIENT_SECURITY_H_

#include <string>

#include "absl/status/status.h"

namespace azbench {

struct ClientSecurity {
  // The CA that signed the agents' certificates. Set: TLS, with each agent's certificate checked
  // against it and against the agent's host name or IP address (its SANs). Empty: plaintext,
  // which the coordinator only uses for loopback agents.
  std::string ca_file = {};
  std::string cert_file = {};  // the coordinator's certificate, for agents that require mutual TLS
  std::string key_file = {};
  std::string token_file = {};  // a bearer token sent with every call (needs TLS)
  // The name checked against every agent certificate instead of the address's host, e.g. when a
  // hosts file lists IP addresses that the certificates do not carry.
  std::string server_name = {};

  bool tls() const { return !ca_file.empty(); }
  bool empty() const {
    return ca_file.empty() && cert_file.empty() && key_file.empty() && token_file.empty() &&
           server_name.empty();
  }
};

// Consistency: cert_file and key_file together; cert, key, token and server_name need ca_file.
// InvalidArgument naming the settings (`where` prefixes the message, e.g. "fleet.tls" or "flags").
absl::Status ValidateClientSecurity(const ClientSecurity& security, const std::string& where);

// `override_with` wins field by field where set (flags over the campaign file).
ClientSecurity MergeClientSecurity(const ClientSecurity& base, const ClientSecurity& override_with);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_FLEET_CLIENT_SECURITY_H_

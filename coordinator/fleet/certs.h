// `azbench certs init`: a private CA and the certificates of a fleet, made with OpenSSL 3's library
// (EC P-256 keys, SHA-256 signatures; no hand-written crypto):
//
//   DIR/ca.crt, ca.key                       the CA (basicConstraints CA:TRUE, keyCertSign)
//   DIR/coordinator.crt, coordinator.key     client certificate (extendedKeyUsage clientAuth)
//   DIR/agents/NAME.crt, NAME.key            per agent: server certificate (serverAuth) whose SANs
//                                            are NAME (an IP SAN for an address, else a DNS SAN)
//                                            and any extra names given as NAME=ALT1,ALT2
//
// Keys are written with mode 0600, certificates 0644. Existing files are never overwritten: the
// command refuses and names them (use a new DIR, or --force to replace them).
//
//   CertsInitOptions options{.dir = "certs", .agents = {"10.0.1.5", "agent-b=10.0.2.7"}};
//   ASSIGN_OR_RETURN(CertsInitResult result, InitCertificates(options));
#ifndef AZBENCH_COORDINATOR_FLEET_CERTS_H_
#define AZBENCH_COORDINATOR_FLEET_CERTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace azbench {

struct CertsInitOptions {
  std::string dir = {};
  // "NAME" or "NAME=ALT1,ALT2": NAME names the files; every name becomes a SAN (IP or DNS).
  std::vector<std::string> agents = {};
  int days = 825;
  bool force = false;
};

struct CertsInitResult {
  std::vector<std::string> files;  // every file written
};

// Errors: InvalidArgument (no agents, a bad name, days outside 1..36500), AlreadyExists (a file
// exists and not force), Internal (an OpenSSL failure, with its error text; a write failure).
absl::StatusOr<CertsInitResult> InitCertificates(const CertsInitOptions& options);

// `azbench certs init --dir DIR --agent NAME[=ALT,...] ... [--days N] [--force]`.
int CertsCommand(const std::vector<std::string>& args);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_FLEET_CERTS_H_

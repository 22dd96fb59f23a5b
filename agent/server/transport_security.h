// How `azbench-agent serve` protects its gRPC port. Exactly one of three modes, chosen from the
// config (agent/server/agent_settings.h); an agent with none refuses to start and says what to set:
//
//   mutual TLS   tls: {cert_file, key_file, ca_file}: the agent presents its certificate and
//                requires a client certificate signed by ca_file
//                (GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY).
//   token        tls: {cert_file, key_file} + token_file: TLS without client certificates; every
//                request must carry "authorization: Bearer <token>" (constant-time compare).
//                With ca_file too, both are required.
//   plaintext    insecure_loopback_only: true: only when the listen address is loopback
//                (127.0.0.0/8, ::1, localhost); refused together with tls or token_file.
//
//   ASSIGN_OR_RETURN(ServerSecurity security, MakeServerSecurity(settings, "0.0.0.0:7480"));
//   builder.AddListeningPort(listen, security.credentials, &port);
#ifndef AZBENCH_AGENT_SERVER_TRANSPORT_SECURITY_H_
#define AZBENCH_AGENT_SERVER_TRANSPORT_SECURITY_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "agent/server/agent_settings.h"
#include "grpcpp/security/auth_metadata_processor.h"
#include "grpcpp/security/server_credentials.h"

namespace azbench {

struct ServerSecurity {
  std::shared_ptr<grpc::ServerCredentials> credentials;
  std::string description;  // for the log: "mutual TLS (client CA /etc/azbench/ca.crt)"
};

// Errors: FailedPrecondition when no mode is configured, or plaintext on a non-loopback address;
// InvalidArgument for contradicting settings (plaintext with tls, token without tls); NotFound /
// PermissionDenied when a certificate, key or token file cannot be read; InvalidArgument for an
// empty token. Messages name the setting (and the serve flag) to change.
absl::StatusOr<ServerSecurity> MakeServerSecurity(const AgentSettings& settings,
                                                  const std::string& listen);

// Parses the TLS files as OpenSSL would when the port is bound: the certificate, the key (and that
// they belong together), the CA. Without this a bad file only shows as "cannot listen". Errors:
// InvalidArgument naming the file and what is wrong; OK when tls is not configured.
absl::Status CheckTlsFiles(const TlsFiles& tls);

// True when `given` equals `expected`, comparing in time independent of where they differ (SHA-256
// of both, then CRYPTO_memcmp), so the token cannot be guessed byte by byte from response times.
bool TokensEqual(const std::string& given, const std::string& expected);

// Reads a token file: the first line, surrounding whitespace removed. Errors: NotFound /
// PermissionDenied naming the file; InvalidArgument when it is empty.
absl::StatusOr<std::string> ReadTokenFile(const std::string& path);

// Checks "authorization: Bearer <token>" on every call; a missing or wrong token ends the call
// with UNAUTHENTICATED before any handler runs.
class BearerTokenProcessor final : public grpc::AuthMetadataProcessor {
 public:
  explicit BearerTokenProcessor(std::string token) : token_(std::move(token)) {}
  bool IsBlocking() const override { return false; }
  grpc::Status Process(const InputMetadata& auth_metadata, grpc::AuthContext* context,
                       OutputMetadata* consumed_auth_metadata,
                       OutputMetadata* response_metadata) override;

 private:
  std::string token_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_SERVER_TRANSPORT_SECURITY_H_

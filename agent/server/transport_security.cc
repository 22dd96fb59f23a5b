#include "agent/server/transport_security.h"

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/x509.h>

#include <cstring>
#include <memory>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/file_util.h"
#include "common/loopback.h"
#include "common/status_macros.h"
#include "grpcpp/security/server_credentials.h"

namespace azbench {

namespace {

constexpr char kWhatToSet[] =
    "set tls {cert_file, key_file, ca_file} for mutual TLS (`azbench certs init` makes the "
    "files; flags --tls-cert, --tls-key, --tls-ca), or tls {cert_file, key_file} with "
    "token_file (--token-file), or, for an agent reachable only from this machine, "
    "insecure_loopback_only: true (--insecure-loopback-only) with a loopback listen address";

}  // namespace

absl::Status CheckTlsFiles(const TlsFiles& tls) {
  if (tls.cert_file.empty()) return absl::OkStatus();
  auto bio_of = [](const std::string& text) {
    return std::unique_ptr<BIO, decltype(&BIO_free)>(
        BIO_new_mem_buf(text.data(), static_cast<int>(text.size())), &BIO_free);
  };
  ASSIGN_OR_RETURN(std::string cert_pem, ReadWholeFile(tls.cert_file, "tls.cert_file"));
  ASSIGN_OR_RETURN(std::string key_pem, ReadWholeFile(tls.key_file, "tls.key_file"));
  auto cert_bio = bio_of(cert_pem);
  std::unique_ptr<X509, decltype(&X509_free)> cert(
      PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr), &X509_free);
  if (!cert) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tls.cert_file '", tls.cert_file, "' holds no PEM certificate (BEGIN CERTIFICATE)"));
  }
  auto key_bio = bio_of(key_pem);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
      PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr), &EVP_PKEY_free);
  if (!key) {
    return absl::InvalidArgumentError(
        absl::StrCat("tls.key_file '", tls.key_file, "' holds no unencrypted PEM private key"));
  }
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tls.key_file '", tls.key_file, "' is not the key of tls.cert_file '", tls.cert_file, "'"));
  }
  ERR_clear_error();
  if (!tls.ca_file.empty()) {
    ASSIGN_OR_RETURN(std::string ca_pem, ReadWholeFile(tls.ca_file, "tls.ca_file"));
    auto ca_bio = bio_of(ca_pem);
    std::unique_ptr<X509, decltype(&X509_free)> ca(
        PEM_read_bio_X509(ca_bio.get(), nullptr, nullptr, nullptr), &X509_free);
    if (!ca) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tls.ca_file '", tls.ca_file, "' holds no PEM certificate (BEGIN CERTIFICATE)"));
    }
  }
  return absl::OkStatus();
}

bool TokensEqual(const std::string& given, const std::string& expected) {
  unsigned char a[SHA256_DIGEST_LENGTH], b[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(given.data()), given.size(), a);
  SHA256(reinterpret_cast<const unsigned char*>(expected.data()), expected.size(), b);
  return CRYPTO_memcmp(a, b, sizeof(a)) == 0;
}

absl::StatusOr<std::string> ReadTokenFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path, "token_file"));
  const size_t newline = text.find('\n');
  std::string token(absl::StripAsciiWhitespace(text.substr(0, newline)));
  if (token.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("token_file '", path, "' is empty: put one line of random text in it"));
  }
  return token;
}

grpc::Status BearerTokenProcessor::Process(const InputMetadata& auth_metadata, grpc::AuthContext*,
                                           OutputMetadata* consumed, OutputMetadata*) {
  auto it = auth_metadata.find("authorization");
  if (it == auth_metadata.end()) {
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                        "this agent requires a bearer token: give the coordinator --token-file "
                        "(or fleet.token_file)");
  }
  const std::string value(it->second.data(), it->second.size());
  constexpr char kBearer[] = "Bearer ";
  const bool well_formed = absl::StartsWith(value, kBearer);
  const std::string given = well_formed ? value.substr(sizeof(kBearer) - 1) : std::string();
  if (!well_formed || !TokensEqual(given, token_)) {
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                        "bearer token refused: the coordinator's token_file does not match the "
                        "agent's");
  }
  consumed->insert(std::make_pair(std::string(it->first.data(), it->first.size()), value));
  return grpc::Status::OK;
}

absl::StatusOr<ServerSecurity> MakeServerSecurity(const AgentSettings& settings,
                                                  const std::string& listen) {
  const bool tls = !settings.tls.cert_file.empty();
  const bool token = !settings.token_file.empty();
  ServerSecurity security;
  if (settings.insecure_loopback_only) {
    if (tls || token) {
      return absl::InvalidArgumentError(
          "insecure_loopback_only cannot be combined with tls or token_file: choose plaintext on "
          "loopback or TLS");
    }
    if (!IsLoopbackAddress(listen)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "insecure_loopback_only: refusing to serve plaintext on '", listen,
          "', which is not a loopback address; listen on 127.0.0.1:PORT or [::1]:PORT, or "
          "configure TLS (tls {cert_file, key_file, ca_file})"));
    }
    security.credentials = grpc::InsecureServerCredentials();
    security.description = absl::StrCat("plaintext on loopback ", listen);
    return security;
  }
  if (!tls) {
    if (token) {
      return absl::InvalidArgumentError(
          "token_file needs TLS (a token sent in plaintext can be read on the way): set tls "
          "{cert_file, key_file} too");
    }
    return absl::FailedPreconditionError(
        absl::StrCat("no transport security configured: ", kWhatToSet));
  }
  if (settings.tls.ca_file.empty() && !token) {
    return absl::FailedPreconditionError(
        "tls without ca_file or token_file would let anyone who reaches the port run jobs: set "
        "tls.ca_file (mutual TLS) or token_file");
  }
  grpc::SslServerCredentialsOptions options;
  ASSIGN_OR_RETURN(std::string cert, ReadWholeFile(settings.tls.cert_file, "tls.cert_file"));
  ASSIGN_OR_RETURN(std::string key, ReadWholeFile(settings.tls.key_file, "tls.key_file"));
  options.pem_key_cert_pairs.push_back({key, cert});
  if (!settings.tls.ca_file.empty()) {
    ASSIGN_OR_RETURN(options.pem_root_certs, ReadWholeFile(settings.tls.ca_file, "tls.ca_file"));
    options.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
    security.description = absl::StrCat("mutual TLS (client CA ", settings.tls.ca_file, ")");
  } else {
    options.client_certificate_request = GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE;
    security.description = "TLS";
  }
  security.credentials = grpc::SslServerCredentials(options);
  if (token) {
    ASSIGN_OR_RETURN(std::string secret, ReadTokenFile(settings.token_file));
    security.credentials->SetAuthMetadataProcessor(
        std::make_shared<BearerTokenProcessor>(std::move(secret)));
    absl::StrAppend(&security.description, " + bearer token (", settings.token_file, ")");
  }
  return security;
}

}  // namespace azbench

#include "coordinator/fleet/client_security.h"

#include "absl/strings/str_cat.h"

namespace azbench {

absl::Status ValidateClientSecurity(const ClientSecurity& s, const std::string& where) {
  if (s.cert_file.empty() != s.key_file.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where,
                     ": the coordinator certificate and key go together: give both "
                     "cert_file and key_file (--tls-cert and --tls-key) or neither"));
  }
  if (!s.tls() && !s.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        where,
        ": a certificate, token or server name needs TLS: give the CA that signed the agents' "
        "certificates (ca_file / --tls-ca)"));
  }
  return absl::OkStatus();
}

ClientSecurity MergeClientSecurity(const ClientSecurity& base, const ClientSecurity& o) {
  ClientSecurity out = base;
  if (!o.ca_file.empty()) out.ca_file = o.ca_file;
  if (!o.cert_file.empty()) out.cert_file = o.cert_file;
  if (!o.key_file.empty()) out.key_file = o.key_file;
  if (!o.token_file.empty()) out.token_file = o.token_file;
  if (!o.server_name.empty()) out.server_name = o.server_name;
  return out;
}

}  // namespace azbench

// Instance-role credentials read from instance metadata (IMDSv2). The metadata transport (token,
// endpoint, retries) is behind MetadataSource so the real IMDS client plugs in and tests use a
// fake; this file only knows the credential paths, the JSON document and when to refresh.
//
//   InstanceRoleCredentialsProvider role(imds, {.refresh_before = absl::Minutes(5)});
//   ASSIGN_OR_RETURN(Credentials c, role.Get());  // refreshed once within 5 min of expiry
#ifndef AZBENCH_AGENT_S3_ROLE_CREDENTIALS_H_
#define AZBENCH_AGENT_S3_ROLE_CREDENTIALS_H_

#include <functional>
#include <optional>
#include <string>

#include "absl/synchronization/mutex.h"
#include "agent/s3/credentials.h"

namespace azbench::s3 {

// A GET of an instance-metadata path such as "/latest/meta-data/iam/security-credentials/".
class MetadataSource {
 public:
  virtual ~MetadataSource() = default;
  // The body of a 200 answer. Errors: NotFound for 404 (no role attached), Unavailable when the
  // metadata service cannot be reached, others as the implementation documents.
  virtual absl::StatusOr<std::string> Get(const std::string& path) = 0;
};

inline constexpr char kSecurityCredentialsPath[] = "/latest/meta-data/iam/security-credentials/";

struct RoleCredentialsOptions {
  // Role name; empty = the first one metadata lists.
  std::string role_name{};
  // Fetch new credentials once the cached ones expire within this much time.
  absl::Duration refresh_before = absl::Minutes(5);
  // Wall clock; tests pass a fake.
  std::function<absl::Time()> now = [] { return absl::Now(); };
};

// Parses the security-credentials JSON document. Errors: InvalidArgument naming the missing or
// malformed field, or the Code when it is not "Success".
absl::StatusOr<Credentials> ParseRoleCredentialsDocument(const std::string& json,
                                                         const std::string& role_name);

class InstanceRoleCredentialsProvider : public CredentialsProvider {
 public:
  // `metadata` must outlive this provider.
  InstanceRoleCredentialsProvider(MetadataSource* metadata, RoleCredentialsOptions options)
      : metadata_(metadata), options_(std::move(options)) {}
  // Cached credentials while they are further than refresh_before from expiry; otherwise fetches.
  // A failed refresh returns the cached credentials while they are still valid; once they have
  // expired the error (Unavailable / NotFound / InvalidArgument) is returned. Thread-safe.
  absl::StatusOr<Credentials> Get() override;
  std::string Name() const override { return "instance role (IMDSv2)"; }
  // Number of metadata fetches of the credential document (for tests and diagnostics).
  int fetch_count() const;

 private:
  absl::StatusOr<Credentials> Fetch();

  MetadataSource* metadata_;
  RoleCredentialsOptions options_;
  mutable absl::Mutex mu_;
  std::optional<Credentials> cached_;
  int fetch_count_ = 0;
};

}  // namespace azbench::s3

#endif  // AZBENCH_AGENT_S3_ROLE_CREDENTIALS_H_

// AWS credentials and where they came from. A CredentialsProvider answers Get(); the default chain
// tries, in order: environment variables, the shared credentials file (profile), then the instance
// role through instance metadata (IMDSv2, see role_credentials.h). The chain remembers the first
// provider that answered and names it in `Credentials::source`, so a 403 can say which credentials
// were used.
//
//   ASSIGN_OR_RETURN(auto chain, MakeDefaultCredentialsChain(DefaultChainOptions{}));
//   ASSIGN_OR_RETURN(Credentials c, chain->Get());
#ifndef AZBENCH_AGENT_S3_CREDENTIALS_H_
#define AZBENCH_AGENT_S3_CREDENTIALS_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace azbench::s3 {

struct Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty for long-term keys
  // Infinite future for keys that do not expire.
  absl::Time expiration = absl::InfiniteFuture();
  // Human-readable origin, e.g. "environment (AWS_ACCESS_KEY_ID)",
  // "shared credentials file /root/.aws/credentials [profile prod]", "instance role web-role".
  std::string source;
};

class CredentialsProvider {
 public:
  virtual ~CredentialsProvider() = default;
  // Errors: NotFound when this source has no credentials (the chain then tries the next one);
  // InvalidArgument when the source exists but is malformed (names the file/line or variable);
  // Unavailable when a remote source (instance metadata) cannot be reached.
  virtual absl::StatusOr<Credentials> Get() = 0;
  // Short name of the source for messages ("environment", "profile", "instance role").
  virtual std::string Name() const = 0;
};

// Looks an environment variable up; returns nullopt when unset. Tests pass a map-backed lookup.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;
EnvLookup ProcessEnvLookup();

// AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN). NotFound when the key id is
// unset; InvalidArgument when only one of the pair is set.
class EnvCredentialsProvider : public CredentialsProvider {
 public:
  explicit EnvCredentialsProvider(EnvLookup env) : env_(std::move(env)) {}
  absl::StatusOr<Credentials> Get() override;
  std::string Name() const override { return "environment"; }

 private:
  EnvLookup env_;
};

// Tries providers in order; the first that answers anything but NotFound wins and is remembered
// (later Get() calls go straight to it, so an instance role is refreshed by its own provider).
// NotFound from all gives NotFound listing every source tried and why. Thread-safe.
class ChainCredentialsProvider : public CredentialsProvider {
 public:
  explicit ChainCredentialsProvider(std::vector<std::unique_ptr<CredentialsProvider>> providers)
      : providers_(std::move(providers)) {}
  absl::StatusOr<Credentials> Get() override;
  std::string Name() const override { return "chain"; }

 private:
  std::vector<std::unique_ptr<CredentialsProvider>> providers_;
  absl::Mutex mu_;
  CredentialsProvider* chosen_ ABSL_GUARDED_BY(mu_) = nullptr;
};

}  // namespace azbench::s3

#endif  // AZBENCH_AGENT_S3_CREDENTIALS_H_

#include "agent/s3/credentials.h"

#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace azbench::s3 {

EnvLookup ProcessEnvLookup() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

absl::StatusOr<Credentials> EnvCredentialsProvider::Get() {
  const std::optional<std::string> key = env_("AWS_ACCESS_KEY_ID");
  const std::optional<std::string> secret = env_("AWS_SECRET_ACCESS_KEY");
  const bool have_key = key.has_value() && !key->empty();
  const bool have_secret = secret.has_value() && !secret->empty();
  if (!have_key && !have_secret) {
    return absl::NotFoundError("AWS_ACCESS_KEY_ID is not set");
  }
  if (have_key != have_secret) {
    return absl::InvalidArgumentError(
        absl::StrCat("environment credentials are incomplete: ",
                     have_key ? "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"
                              : "AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not"));
  }
  Credentials c;
  c.access_key_id = *key;
  c.secret_access_key = *secret;
  if (std::optional<std::string> token = env_("AWS_SESSION_TOKEN"); token.has_value()) {
    c.session_token = *token;
  }
  c.source = "environment (AWS_ACCESS_KEY_ID)";
  return c;
}

absl::StatusOr<Credentials> ChainCredentialsProvider::Get() {
  CredentialsProvider* chosen = nullptr;
  {
    absl::MutexLock lock(&mu_);
    chosen = chosen_;
  }
  // The chosen provider is asked outside the lock: the role provider has its own.
  if (chosen != nullptr) return chosen->Get();
  absl::MutexLock lock(&mu_);
  if (chosen_ != nullptr) return chosen_->Get();
  std::vector<std::string> tried;
  for (auto& provider : providers_) {
    absl::StatusOr<Credentials> c = provider->Get();
    if (c.ok()) {
      chosen_ = provider.get();
      return c;
    }
    if (!absl::IsNotFound(c.status())) {
      return absl::Status(c.status().code(),
                          absl::StrCat(provider->Name(), " credentials: ", c.status().message()));
    }
    tried.push_back(absl::StrCat(provider->Name(), ": ", c.status().message()));
  }
  return absl::NotFoundError(absl::StrCat("no AWS credentials found; tried ",
                                          tried.empty() ? "nothing" : absl::StrJoin(tried, "; ")));
}

}  // namespace azbench::s3

// Credentials from the shared credentials file (INI): the file is AWS_SHARED_CREDENTIALS_FILE or
// $HOME/.aws/credentials, the profile AWS_PROFILE or "default" (each overridable by a setting).
// Keys: aws_access_key_id, aws_secret_access_key, aws_session_token. Both "[name]" and
// "[profile name]" section headers are accepted; '#' and ';' start comment lines.
#ifndef AZBENCH_AGENT_S3_PROFILE_CREDENTIALS_H_
#define AZBENCH_AGENT_S3_PROFILE_CREDENTIALS_H_

#include <string>

#include "agent/s3/credentials.h"

namespace azbench::s3 {

// Parses credentials-file text for `profile`. Errors: NotFound when the profile is absent;
// InvalidArgument naming `file_name`:line for a malformed line or a profile missing a key.
absl::StatusOr<Credentials> ParseProfileCredentials(const std::string& text,
                                                    const std::string& file_name,
                                                    const std::string& profile);

class ProfileCredentialsProvider : public CredentialsProvider {
 public:
  // Empty `file` / `profile` mean: from the environment (see above).
  ProfileCredentialsProvider(EnvLookup env, std::string file = "", std::string profile = "")
      : env_(std::move(env)), file_(std::move(file)), profile_(std::move(profile)) {}
  // NotFound when the file does not exist or (for the implicit "default") lacks the profile;
  // InvalidArgument when an explicitly chosen profile is missing or the file is malformed.
  absl::StatusOr<Credentials> Get() override;
  std::string Name() const override { return "shared credentials file"; }

  std::string ResolvedFile() const;
  std::string ResolvedProfile() const;

 private:
  EnvLookup env_;
  std::string file_;
  std::string profile_;
};

}  // namespace azbench::s3

#endif  // AZBENCH_AGENT_S3_PROFILE_CREDENTIALS_H_

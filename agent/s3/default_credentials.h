// The default credential chain: environment, then the shared credentials file/profile, then the
// instance role (only when a MetadataSource is given). See credentials.h.
#ifndef AZBENCH_AGENT_S3_DEFAULT_CREDENTIALS_H_
#define AZBENCH_AGENT_S3_DEFAULT_CREDENTIALS_H_

#include <memory>
#include <string>

#include "agent/s3/credentials.h"
#include "agent/s3/role_credentials.h"

namespace azbench::s3 {

struct DefaultChainOptions {
  EnvLookup env = ProcessEnvLookup();
  std::string credentials_file{};      // empty: AWS_SHARED_CREDENTIALS_FILE or ~/.aws/credentials
  std::string profile{};               // empty: AWS_PROFILE or "default"
  MetadataSource* metadata = nullptr;  // nullptr: no instance-role step; must outlive the chain
  RoleCredentialsOptions role{};
};

std::unique_ptr<CredentialsProvider> MakeDefaultCredentialsChain(DefaultChainOptions options);

}  // namespace azbench::s3

#endif  // AZBENCH_AGENT_S3_DEFAULT_CREDENTIALS_H_

#include "agent/s3/default_credentials.h"

#include <vector>

#include "agent/s3/profile_credentials.h"

namespace azbench::s3 {

std::unique_ptr<CredentialsProvider> MakeDefaultCredentialsChain(DefaultChainOptions options) {
  std::vector<std::unique_ptr<CredentialsProvider>> providers;
  providers.push_back(std::make_unique<EnvCredentialsProvider>(options.env));
  providers.push_back(std::make_unique<ProfileCredentialsProvider>(
      options.env, options.credentials_file, options.profile));
  if (options.metadata != nullptr) {
    providers.push_back(std::make_unique<InstanceRoleCredentialsProvider>(options.metadata,
                                                                          std::move(options.role)));
  }
  return std::make_unique<ChainCredentialsProvider>(std::move(providers));
}

}  // namespace azbench::s3

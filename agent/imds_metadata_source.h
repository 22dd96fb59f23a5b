// The agent's IMDSv2 client (agent/imds_client.h) as the S3 client's metadata source
// (agent/s3/role_credentials.h), so the visibility probes can sign with the instance role.
// s3::MetadataSource paths start with "/latest/"; MetadataClient paths are relative to it. A
// disabled IMDS (FailedPrecondition) answers Unavailable, as when not on EC2.
//
//   ImdsMetadataSource source(imds.get());  // imds outlives source
//   ASSIGN_OR_RETURN(std::string roles, source.Get(s3::kSecurityCredentialsPath));
#ifndef AZBENCH_AGENT_IMDS_METADATA_SOURCE_H_
#define AZBENCH_AGENT_IMDS_METADATA_SOURCE_H_

#include <string>

#include "agent/imds_client.h"
#include "agent/s3/role_credentials.h"

namespace azbench {

class ImdsMetadataSource : public s3::MetadataSource {
 public:
  explicit ImdsMetadataSource(MetadataClient* client) : client_(client) {}
  absl::StatusOr<std::string> Get(const std::string& path) override;

 private:
  MetadataClient* client_;  // not owned; may be null (always Unavailable)
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_IMDS_METADATA_SOURCE_H_

// The agent's IMDSv2 client (agent/host/imds_client.h) as the S3 client's metadata source
// (agent/s3/role_credentials.h), so the visibility probes can sign with the instance role.
// s3::MetadataSource paths start with "/latest/"; MetadataClient paths are relative to it. A
// disabled IMDS (FailedPrecondition) answers Unavailable, as when not on EC2. Built from settings,
// the client is made on the first Get (nothing happens at agent start-up).
//
//   ImdsMetadataSource source(imds.get());  // imds outlives source; or source(settings)
//   ASSIGN_OR_RETURN(std::string roles, source.Get(s3::kSecurityCredentialsPath));
#ifndef AZBENCH_AGENT_HOST_IMDS_METADATA_SOURCE_H_
#define AZBENCH_AGENT_HOST_IMDS_METADATA_SOURCE_H_

#include <memory>
#include <string>
#include <utility>

#include "absl/synchronization/mutex.h"
#include "agent/host/imds_client.h"
#include "agent/s3/role_credentials.h"

namespace azbench {

class ImdsMetadataSource : public s3::MetadataSource {
 public:
  explicit ImdsMetadataSource(MetadataClient* client) : client_(client), made_(true) {}
  explicit ImdsMetadataSource(ImdsSettings settings) : settings_(std::move(settings)) {}
  absl::StatusOr<std::string> Get(const std::string& path) override;

 private:
  absl::Mutex mu_;
  MetadataClient* client_ = nullptr;  // may be null (always Unavailable)
  bool made_ = false;                 // client_ was given or made from settings_
  ImdsSettings settings_;
  std::unique_ptr<MetadataClient> owned_;
  std::string make_error_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_HOST_IMDS_METADATA_SOURCE_H_

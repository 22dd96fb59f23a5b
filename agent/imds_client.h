// The EC2 instance metadata service (IMDSv2): a session token from `PUT /latest/api/token`, then
// GETs carrying it. The endpoint follows the AWS SDK convention so the same settings work for
// azbench and the AWS CLI on one host:
//   - the agent config's `imds_endpoint` (or --imds-endpoint), else
//   - $AWS_EC2_METADATA_SERVICE_ENDPOINT, else
//   - http://169.254.169.254.
// `AWS_EC2_METADATA_DISABLED=true` (or the config's `imds: disabled`) turns it off: nothing is
// contacted. Every request has a short timeout (default 1 s, connect and total), so an agent that
// is not on EC2 learns it within about a second.
//
// MetadataClient is the interface the agent's identity code and the S3 credentials code (instance
// role credentials under iam/security-credentials/) use; tests implement it or point ImdsClient at
// a fake server (tests/testing/fake_http_server.h).
//
//   ASSIGN_OR_RETURN(std::unique_ptr<MetadataClient> imds,
//   MakeImdsClient(ImdsSettingsFromEnvironment())); ASSIGN_OR_RETURN(std::string az,
//   imds->Get("meta-data/placement/availability-zone"));
#ifndef AZBENCH_AGENT_IMDS_CLIENT_H_
#define AZBENCH_AGENT_IMDS_CLIENT_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace azbench {

inline constexpr char kDefaultImdsEndpoint[] = "http://169.254.169.254";

struct ImdsSettings {
  std::string endpoint = kDefaultImdsEndpoint;  // scheme://host[:port], no path
  bool disabled = false;
  int timeout_ms = 1000;          // per request: connect and total
  int token_ttl_seconds = 21600;  // the session token's lifetime (IMDS allows 1..21600)
};

// The settings from the environment, with `config_endpoint` (when not empty) taking precedence
// over $AWS_EC2_METADATA_SERVICE_ENDPOINT and `config_disabled` adding to
// $AWS_EC2_METADATA_DISABLED (true/1, case-insensitive).
ImdsSettings ImdsSettingsFromEnvironment(const std::string& config_endpoint = "",
                                         bool config_disabled = false);

class MetadataClient {
 public:
  virtual ~MetadataClient() = default;
  // The body of `GET /latest/<path>` (e.g. "meta-data/instance-id"). Errors:
  //   FailedPrecondition  the service is disabled (nothing was contacted);
  //   Unavailable         not on EC2 (or IMDS unreachable): no answer within the timeout,
  //   connection
  //                       refused, or the token PUT was refused; the message says so;
  //   NotFound            the path does not exist (404);
  //   Internal            any other HTTP status, naming it.
  virtual absl::StatusOr<std::string> Get(const std::string& path) = 0;
  // Where it asks ("http://169.254.169.254"), for messages.
  virtual std::string endpoint() const = 0;
};

// The libcurl client. The token is fetched on first use, reused until shortly before it expires,
// and fetched again once if a GET answers 401. Thread-safe.
// Errors: InvalidArgument when the endpoint is not an http(s) URL.
absl::StatusOr<std::unique_ptr<MetadataClient>> MakeImdsClient(const ImdsSettings& settings);

}  // namespace azbench

#endif  // AZBENCH_AGENT_IMDS_CLIENT_H_

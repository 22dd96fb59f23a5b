// The EC2 instance metadata service (IMDSv2): a session token from `PUT /latest/api/token`, then
// GETs carrying it. The endpoint follows the AWS SDK convention so the same settings work for
// azbench and the AWS CLI on one host:
//   - the agent config's `imds_endpoint` (or --imds-endpoint), else
//   - $AWS_EC2_METADATA_SERVICE_ENDPOINT, else
//   - http://169.254.169.254.
// `AWS_EC2_METADATA_DISABLED=true` (or the config's `imds: disabled`) turns it off: nothing is
// contacted. Every request has a short timeout (connect and total), so an agent that is not on EC2
// learns it within about a second; as in the AWS SDKs, $AWS_METADATA_SERVICE_TIMEOUT (seconds,
// default 1) sets it and $AWS_METADATA_SERVICE_NUM_ATTEMPTS (default 1) how often a request that
// got no answer is tried.
//
// MetadataClient is the interface the agent's identity code and the S3 credentials code (instance
// role credentials under iam/security-credentials/) use; tests implement it or point ImdsClient at
// a fake server (tests/testing/fake_http_server.h).
//
//   ASSIGN_OR_RETURN(ImdsSettings settings, LoadImdsSettings());
//   ASSIGN_OR_RETURN(std::unique_ptr<MetadataClient> imds, MakeImdsClient(settings));
//   ASSIGN_OR_RETURN(std::string az, imds->Get("meta-data/placement/availability-zone"));
#ifndef AZBENCH_AGENT_HOST_IMDS_CLIENT_H_
#define AZBENCH_AGENT_HOST_IMDS_CLIENT_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace azbench {

inline constexpr char kDefaultImdsEndpoint[] = "http://169.254.169.254";

struct ImdsSettings {
  std::string endpoint = kDefaultImdsEndpoint;  // scheme://host[:port], no path
  bool disabled = false;
  absl::Duration timeout = absl::Seconds(1);  // per request: connect and total
  int attempts = 1;  // tries of a request that got no answer (timeout, refused)
  // The session token's lifetime (IMDS allows 1 s .. 6 h, asked for in whole seconds).
  absl::Duration token_ttl = absl::Hours(6);
};

// The environment variables of the AWS SDKs that set the timeout and the attempts.
inline constexpr char kImdsTimeoutVariable[] = "AWS_METADATA_SERVICE_TIMEOUT";
inline constexpr char kImdsAttemptsVariable[] = "AWS_METADATA_SERVICE_NUM_ATTEMPTS";

// $AWS_METADATA_SERVICE_TIMEOUT's value: seconds, 0.001..3600, a whole or decimal number ("10",
// "2.5"); returns milliseconds. InvalidArgument naming the variable, the value and what is allowed.
absl::StatusOr<int> ParseImdsTimeoutMs(absl::string_view value);
// $AWS_METADATA_SERVICE_NUM_ATTEMPTS's value: a whole number 1..10. InvalidArgument as above.
absl::StatusOr<int> ParseImdsAttempts(absl::string_view value);

// The settings from the environment (the AWS SDKs' variables) and the agent's config:
//   endpoint  `config_endpoint` when not empty, else $AWS_EC2_METADATA_SERVICE_ENDPOINT, else
//             http://169.254.169.254;
//   disabled  `config_disabled`, or $AWS_EC2_METADATA_DISABLED (true/1, case-insensitive);
//   timeout   $AWS_METADATA_SERVICE_TIMEOUT (ParseImdsTimeoutMs), else 1 s;
//   attempts  $AWS_METADATA_SERVICE_NUM_ATTEMPTS (ParseImdsAttempts), else 1.
// An empty variable counts as unset. Errors: InvalidArgument for a malformed timeout or attempts
// (the agent refuses to start with one).
absl::StatusOr<ImdsSettings> LoadImdsSettings(const std::string& config_endpoint = "",
                                              bool config_disabled = false);

class MetadataClient {
 public:
  virtual ~MetadataClient() = default;
  // The body of `GET /latest/<path>` (e.g. "meta-data/instance-id"). Errors:
  //   FailedPrecondition  the service is disabled (nothing was contacted);
  //   Unavailable         not on EC2 (or IMDS unreachable): no answer within the timeout (on
  //                       any attempt), connection refused, or the token PUT was refused; the
  //                       message says so;
  //   NotFound            the path does not exist (404);
  //   Internal            any other HTTP status, naming it.
  virtual absl::StatusOr<std::string> Get(const std::string& path) = 0;
  // Where it asks ("http://169.254.169.254"), for messages.
  virtual std::string endpoint() const = 0;
};

// The libcurl client. The token is fetched on first use, reused until shortly before it expires,
// and fetched again once if a GET answers 401. Thread-safe.
// Errors: InvalidArgument when the endpoint is not an http(s) URL, or the timeout or attempts are
// below 1.
absl::StatusOr<std::unique_ptr<MetadataClient>> MakeImdsClient(const ImdsSettings& settings);

}  // namespace azbench

#endif  // AZBENCH_AGENT_HOST_IMDS_CLIENT_H_

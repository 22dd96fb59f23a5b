#include "agent/imds_metadata_source.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace azbench {

absl::StatusOr<std::string> ImdsMetadataSource::Get(const std::string& path) {
  if (client_ == nullptr) {
    return absl::UnavailableError("instance metadata is not available on this agent");
  }
  std::string relative = path;
  if (relative.rfind("/latest/", 0) == 0) relative = relative.substr(8);
  while (!relative.empty() && relative.front() == '/') relative.erase(0, 1);
  absl::StatusOr<std::string> body = client_->Get(relative);
  if (absl::IsFailedPrecondition(body.status())) {
    return absl::UnavailableError(
        absl::StrCat("instance metadata is disabled: ", body.status().message()));
  }
  return body;
}

}  // namespace azbench

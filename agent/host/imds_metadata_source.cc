#include "agent/host/imds_metadata_source.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace azbench {

absl::StatusOr<std::string> ImdsMetadataSource::Get(const std::string& path) {
  MetadataClient* client = nullptr;
  {
    absl::MutexLock lock(&mu_);
    if (!made_) {
      made_ = true;
      absl::StatusOr<std::unique_ptr<MetadataClient>> made = MakeImdsClient(settings_);
      if (made.ok()) {
        owned_ = std::move(*made);
        client_ = owned_.get();
      } else {
        make_error_ = std::string(made.status().message());
      }
    }
    client = client_;
  }
  if (client == nullptr) {
    return absl::UnavailableError(absl::StrCat("instance metadata is not available on this agent",
                                               make_error_.empty() ? "" : ": ", make_error_));
  }
  std::string relative = path;
  if (relative.rfind("/latest/", 0) == 0) relative = relative.substr(8);
  while (!relative.empty() && relative.front() == '/') relative.erase(0, 1);
  absl::StatusOr<std::string> body = client->Get(relative);
  if (absl::IsFailedPrecondition(body.status())) {
    return absl::UnavailableError(
        absl::StrCat("instance metadata is disabled: ", body.status().message()));
  }
  return body;
}

}  // namespace azbench

#include "agent/s3/role_credentials.h"

#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/status_macros.h"

namespace azbench::s3 {

absl::StatusOr<Credentials> ParseRoleCredentialsDocument(const std::string& json,
                                                         const std::string& role_name) {
  const nlohmann::json doc = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat("instance role ", role_name, ": credentials document is not a JSON object"));
  }
  auto field = [&](const char* name) -> absl::StatusOr<std::string> {
    auto it = doc.find(name);
    if (it == doc.end() || !it->is_string()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "instance role ", role_name, ": credentials document lacks string field ", name));
    }
    return it->get<std::string>();
  };
  if (auto code = doc.find("Code"); code != doc.end() && code->is_string() && *code != "Success") {
    return absl::InvalidArgumentError(absl::StrCat(
        "instance role ", role_name, ": metadata answered Code=", code->get<std::string>()));
  }
  Credentials c;
  ASSIGN_OR_RETURN(c.access_key_id, field("AccessKeyId"));
  ASSIGN_OR_RETURN(c.secret_access_key, field("SecretAccessKey"));
  ASSIGN_OR_RETURN(c.session_token, field("Token"));
  ASSIGN_OR_RETURN(std::string expiration, field("Expiration"));
  std::string error;
  if (!absl::ParseTime(absl::RFC3339_full, expiration, &c.expiration, &error)) {
    return absl::InvalidArgumentError(absl::StrCat("instance role ", role_name, ": Expiration '",
                                                   expiration, "' is not RFC 3339: ", error));
  }
  c.source = absl::StrCat("instance role ", role_name, " (IMDSv2)");
  return c;
}

int InstanceRoleCredentialsProvider::fetch_count() const {
  absl::MutexLock lock(&mu_);
  return fetch_count_;
}

absl::StatusOr<Credentials> InstanceRoleCredentialsProvider::Fetch() {
  std::string role = options_.role_name;
  if (role.empty()) {
    ASSIGN_OR_RETURN(std::string listing, metadata_->Get(kSecurityCredentialsPath));
    for (absl::string_view line : absl::StrSplit(listing, '\n')) {
      line = absl::StripAsciiWhitespace(line);
      if (!line.empty()) {
        role = std::string(line);
        break;
      }
    }
    if (role.empty()) return absl::NotFoundError("no instance role is attached (empty listing)");
  }
  ++fetch_count_;
  ASSIGN_OR_RETURN(std::string doc, metadata_->Get(absl::StrCat(kSecurityCredentialsPath, role)));
  return ParseRoleCredentialsDocument(doc, role);
}

absl::StatusOr<Credentials> InstanceRoleCredentialsProvider::Get() {
  absl::MutexLock lock(&mu_);
  const absl::Time now = options_.now();
  if (cached_.has_value() && now < cached_->expiration - options_.refresh_before) {
    return *cached_;
  }
  absl::StatusOr<Credentials> fresh = Fetch();
  if (fresh.ok()) {
    cached_ = *fresh;
    return fresh;
  }
  if (cached_.has_value() && now < cached_->expiration) return *cached_;
  return fresh.status();
}

}  // namespace azbench::s3

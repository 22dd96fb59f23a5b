#include "agent/s3/s3_error.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace azbench::s3 {

std::string XmlTagText(const std::string& xml, const std::string& tag) {
  const std::string open = absl::StrCat("<", tag, ">");
  const std::string close = absl::StrCat("</", tag, ">");
  const size_t start = xml.find(open);
  if (start == std::string::npos) return "";
  const size_t end = xml.find(close, start + open.size());
  if (end == std::string::npos) return "";
  return absl::StrReplaceAll(xml.substr(start + open.size(), end - start - open.size()),
                             {{"&lt;", "<"},
                              {"&gt;", ">"},
                              {"&quot;", "\""},
                              {"&apos;", "'"},
                              {"&#34;", "\""},
                              {"&amp;", "&"}});
}

namespace {

std::string Target(const S3RequestContext& c) {
  return c.key.empty() ? absl::StrCat("bucket '", c.bucket, "'")
                       : absl::StrCat("bucket '", c.bucket, "' key '", c.key, "'");
}

}  // namespace

absl::Status MapS3Error(long http_status, const std::map<std::string, std::string>& headers,
                        const std::string& body, const S3RequestContext& c) {
  const std::string code = XmlTagText(body, "Code");
  const std::string message = XmlTagText(body, "Message");
  std::string detail = code.empty() ? "" : absl::StrCat(" (", code);
  if (!detail.empty()) detail += message.empty() ? ")" : absl::StrCat(": ", message, ")");
  const std::string prefix =
      absl::StrCat(c.operation, " ", Target(c), " at ", c.endpoint, ": HTTP ", http_status);

  std::string right_region;
  if (auto it = headers.find("x-amz-bucket-region"); it != headers.end()) right_region = it->second;
  if (right_region.empty()) right_region = XmlTagText(body, "Region");
  const bool wrong_region = http_status == 301 || http_status == 307 ||
                            code == "PermanentRedirect" || code == "AuthorizationHeaderMalformed" ||
                            code == "IllegalLocationConstraintException";
  if (wrong_region && (!right_region.empty() || http_status == 301)) {
    std::string where = right_region.empty()
                            ? absl::StrCat(
                                  "another region (the answer did not say which; endpoint "
                                  "hint: ",
                                  XmlTagText(body, "Endpoint"), ")")
                            : absl::StrCat("region ", right_region);
    return absl::FailedPreconditionError(absl::StrCat(
        prefix, detail, ": bucket '", c.bucket, "' is in ", where,
        ", but the client is configured for region ", c.region, "; set the S3 region to ",
        right_region.empty() ? "the bucket's region" : right_region));
  }
  switch (http_status) {
    case 403:
      return absl::PermissionDeniedError(
          absl::StrCat(prefix, detail, ": access denied for credentials from ",
                       c.credential_source.empty() ? "(no source)" : c.credential_source,
                       " (access key ", c.access_key_id, ")"));
    case 404: {
      std::string what;
      if (code == "NoSuchBucket") {
        what = absl::StrCat("bucket '", c.bucket, "' does not exist");
      } else if (code == "NoSuchKey") {
        what = absl::StrCat("key '", c.key, "' does not exist in bucket '", c.bucket, "'");
      } else {
        what = absl::StrCat(Target(c), " not found (no such key, or no such bucket)");
      }
      return absl::NotFoundError(absl::StrCat(prefix, detail, ": ", what));
    }
    case 400:
      return absl::InvalidArgumentError(absl::StrCat(prefix, detail));
    case 409:
    case 412:
      return absl::FailedPreconditionError(absl::StrCat(prefix, detail));
    case 501:
      return absl::UnimplementedError(absl::StrCat(prefix, detail));
    default:
      break;
  }
  if (http_status >= 500) return absl::UnavailableError(absl::StrCat(prefix, detail));
  if (code == "NotImplemented") return absl::UnimplementedError(absl::StrCat(prefix, detail));
  return absl::UnknownError(absl::StrCat(prefix, detail));
}

}  // namespace azbench::s3

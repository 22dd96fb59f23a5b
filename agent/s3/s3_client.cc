#include "agent/s3/s3_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "agent/s3/payload_hash.h"
#include "common/status_macros.h"

namespace azbench::s3 {
namespace {

void GlobalInitOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Upload {
  const std::string* body;
  size_t offset = 0;
};

size_t ReadBody(char* buffer, size_t size, size_t count, void* user) {
  auto* upload = static_cast<Upload*>(user);
  const size_t n = std::min(size * count, upload->body->size() - upload->offset);
  std::memcpy(buffer, upload->body->data() + upload->offset, n);
  upload->offset += n;
  return n;
}

size_t WriteBody(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

size_t WriteHeader(char* data, size_t size, size_t count, void* user) {
  auto* headers = static_cast<std::map<std::string, std::string>*>(user);
  const std::string line(data, size * count);
  if (absl::StartsWith(line, "HTTP/")) {
    headers->clear();  // a new response (after 100-continue or a redirect) starts
    return size * count;
  }
  const size_t colon = line.find(':');
  if (colon != std::string::npos) {
    (*headers)[absl::AsciiStrToLower(line.substr(0, colon))] =
        std::string(absl::StripAsciiWhitespace(line.substr(colon + 1)));
  }
  return size * count;
}

std::string Unquote(std::string etag) {
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') {
    return etag.substr(1, etag.size() - 2);
  }
  return etag;
}

uint64_t ParseSize(const std::string& text) {
  uint64_t value = 0;
  return absl::SimpleAtoi(text, &value) ? value : 0;
}

// Calls `fn` on the inner text of each <tag>...</tag> block in document order.
template <typename Fn>
void ForEachBlock(const std::string& xml, const std::string& tag, Fn fn) {
  const std::string open = absl::StrCat("<", tag, ">");
  const std::string close = absl::StrCat("</", tag, ">");
  size_t pos = 0;
  while ((pos = xml.find(open, pos)) != std::string::npos) {
    const size_t end = xml.find(close, pos);
    if (end == std::string::npos) return;
    fn(pos, xml.substr(pos + open.size(), end - pos - open.size()));
    pos = end + close.size();
  }
}

}  // namespace

std::string UriEncode(const std::string& text, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (absl::ascii_isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' ||
        (keep_slash && c == '/')) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xf]);
    }
  }
  return out;
}

std::vector<ObjectSummary> ParseListObjectsV2(const std::string& xml, std::string* next_token) {
  std::vector<ObjectSummary> objects;
  ForEachBlock(xml, "Contents", [&](size_t, const std::string& block) {
    ObjectSummary o;
    o.key = XmlTagText(block, "Key");
    o.size_bytes = ParseSize(XmlTagText(block, "Size"));
    o.etag = Unquote(XmlTagText(block, "ETag"));
    o.last_modified = XmlTagText(block, "LastModified");
    objects.push_back(std::move(o));
  });
  *next_token =
      XmlTagText(xml, "IsTruncated") == "true" ? XmlTagText(xml, "NextContinuationToken") : "";
  return objects;
}

std::vector<ObjectVersion> ParseListObjectVersions(const std::string& xml,
                                                   std::string* next_key_marker,
                                                   std::string* next_version_marker) {
  std::vector<std::pair<size_t, ObjectVersion>> found;
  auto parse = [&](bool delete_marker) {
    return [&, delete_marker](size_t pos, const std::string& block) {
      ObjectVersion v;
      v.key = XmlTagText(block, "Key");
      v.version_id = XmlTagText(block, "VersionId");
      v.is_latest = XmlTagText(block, "IsLatest") == "true";
      v.is_delete_marker = delete_marker;
      v.size_bytes = ParseSize(XmlTagText(block, "Size"));
      v.etag = Unquote(XmlTagText(block, "ETag"));
      v.last_modified = XmlTagText(block, "LastModified");
      found.emplace_back(pos, std::move(v));
    };
  };
  ForEachBlock(xml, "Version", parse(false));
  ForEachBlock(xml, "DeleteMarker", parse(true));
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<ObjectVersion> versions;
  for (auto& [pos, v] : found) versions.push_back(std::move(v));
  const bool truncated = XmlTagText(xml, "IsTruncated") == "true";
  *next_key_marker = truncated ? XmlTagText(xml, "NextKeyMarker") : "";
  *next_version_marker = truncated ? XmlTagText(xml, "NextVersionIdMarker") : "";
  return versions;
}

S3Client::S3Client(S3ClientOptions options, std::shared_ptr<CredentialsProvider> credentials)
    : options_(std::move(options)), credentials_(std::move(credentials)) {
  GlobalInitOnce();
  if (options_.endpoint.empty()) {
    options_.endpoint = absl::StrCat("https://s3.", options_.region, ".amazonaws.com");
  }
  while (absl::EndsWith(options_.endpoint, "/")) options_.endpoint.pop_back();
}

std::string S3Client::UrlFor(const std::string& bucket, const std::string& key,
                             const std::string& query) const {
  std::string url;
  const std::string encoded_key = UriEncode(key, /*keep_slash=*/true);
  if (options_.path_style || bucket.empty()) {
    url = absl::StrCat(options_.endpoint, "/", bucket);
    if (!key.empty()) absl::StrAppend(&url, "/", encoded_key);
  } else {
    const size_t scheme_end = options_.endpoint.find("://");
    const size_t host_start = scheme_end == std::string::npos ? 0 : scheme_end + 3;
    url = absl::StrCat(options_.endpoint.substr(0, host_start), bucket, ".",
                       options_.endpoint.substr(host_start), "/", encoded_key);
  }
  if (!query.empty()) absl::StrAppend(&url, "?", query);
  return url;
}

absl::StatusOr<S3Client::Answer> S3Client::Send(const std::string& method,
                                                const std::string& operation,
                                                const std::string& bucket, const std::string& key,
                                                const std::string& query, const std::string& body) {
  S3RequestContext context{operation, bucket, key, options_.region, options_.endpoint, "", ""};
  ASSIGN_OR_RETURN(Credentials creds, credentials_->Get());
  context.credential_source = creds.source;
  context.access_key_id = creds.access_key_id;

  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (curl == nullptr) return absl::InternalError("curl_easy_init failed");
  CURL* h = curl.get();
  const std::string url = UrlFor(bucket, key, query);
  const std::string sigv4 = absl::StrCat("aws:amz:", options_.region, ":s3");
  Answer answer;
  Upload upload{&body};

  curl_slist* raw_headers = nullptr;
  auto add_header = [&](const std::string& header) {
    raw_headers = curl_slist_append(raw_headers, header.c_str());
  };
  add_header(absl::StrCat("x-amz-content-sha256: ", Sha256Hex(body)));
  if (!creds.session_token.empty()) {
    add_header(absl::StrCat("x-amz-security-token: ", creds.session_token));
  }
  // No "Expect:" override here: libcurl would sign the empty header it then leaves out, and S3
  // would reject the signature. curl adds "Expect: 100-continue" (unsigned) only to large uploads.
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(raw_headers,
                                                                      curl_slist_free_all);

  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_AWS_SIGV4, sigv4.c_str());
  curl_easy_setopt(h, CURLOPT_USERNAME, creds.access_key_id.c_str());
  curl_easy_setopt(h, CURLOPT_PASSWORD, creds.secret_access_key.c_str());
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(absl::ToInt64Milliseconds(options_.connect_timeout)));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS,
                   static_cast<long>(absl::ToInt64Milliseconds(options_.request_timeout)));
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, WriteBody);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &answer.body);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, WriteHeader);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &answer.headers);
  if (method == "PUT") {
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(h, CURLOPT_READFUNCTION, ReadBody);
    curl_easy_setopt(h, CURLOPT_READDATA, &upload);
    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(body.size()));
  } else if (method == "HEAD") {
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else if (method != "GET") {
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method.c_str());
  }
  const CURLcode rc = curl_easy_perform(h);
  if (rc != CURLE_OK) {
    return absl::UnavailableError(absl::StrCat(
        operation, " bucket '", bucket, "'", key.empty() ? "" : absl::StrCat(" key '", key, "'"),
        ": cannot reach ", options_.endpoint, ": ", curl_easy_strerror(rc)));
  }
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &answer.status);
  if (answer.status < 200 || answer.status >= 300) {
    return MapS3Error(answer.status, answer.headers, answer.body, context);
  }
  return answer;
}

absl::Status S3Client::CreateBucket(const std::string& bucket) {
  std::string body;
  if (options_.region != "us-east-1") {
    body = absl::StrCat(
        "<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        "<LocationConstraint>",
        options_.region, "</LocationConstraint></CreateBucketConfiguration>");
  }
  return Send("PUT", "CreateBucket", bucket, "", "", body).status();
}

absl::StatusOr<std::string> S3Client::PutObject(const std::string& bucket, const std::string& key,
                                                const std::string& body) {
  ASSIGN_OR_RETURN(Answer a, Send("PUT", "PutObject", bucket, key, "", body));
  return Unquote(a.headers["etag"]);
}

absl::StatusOr<ObjectInfo> S3Client::HeadObject(const std::string& bucket, const std::string& key) {
  ASSIGN_OR_RETURN(Answer a, Send("HEAD", "HeadObject", bucket, key, "", ""));
  ObjectInfo info;
  info.size_bytes = ParseSize(a.headers["content-length"]);
  info.etag = Unquote(a.headers["etag"]);
  info.last_modified = a.headers["last-modified"];
  info.version_id = a.headers["x-amz-version-id"];
  return info;
}

absl::StatusOr<std::string> S3Client::GetObject(const std::string& bucket, const std::string& key) {
  ASSIGN_OR_RETURN(Answer a, Send("GET", "GetObject", bucket, key, "", ""));
  return std::move(a.body);
}

absl::Status S3Client::DeleteObject(const std::string& bucket, const std::string& key) {
  return Send("DELETE", "DeleteObject", bucket, key, "", "").status();
}

absl::Status S3Client::DeleteObjectVersion(const std::string& bucket, const std::string& key,
                                           const std::string& version_id) {
  return Send("DELETE", "DeleteObject", bucket, key,
              absl::StrCat("versionId=", UriEncode(version_id, false)), "")
      .status();
}

absl::StatusOr<std::vector<ObjectSummary>> S3Client::ListObjectsV2(const std::string& bucket,
                                                                   const std::string& prefix) {
  std::vector<ObjectSummary> all;
  std::string token;
  do {
    // Query parameters in SigV4 canonical (sorted) order.
    std::string query =
        token.empty() ? "" : absl::StrCat("continuation-token=", UriEncode(token, false), "&");
    absl::StrAppend(&query, "list-type=2&prefix=", UriEncode(prefix, false));
    ASSIGN_OR_RETURN(Answer a, Send("GET", "ListObjectsV2", bucket, "", query, ""));
    std::vector<ObjectSummary> page = ParseListObjectsV2(a.body, &token);
    all.insert(all.end(), page.begin(), page.end());
  } while (!token.empty());
  return all;
}

absl::StatusOr<std::vector<ObjectVersion>> S3Client::ListObjectVersions(const std::string& bucket,
                                                                        const std::string& prefix) {
  std::vector<ObjectVersion> all;
  std::string key_marker, version_marker;
  do {
    std::string query;
    if (!key_marker.empty())
      absl::StrAppend(&query, "key-marker=", UriEncode(key_marker, false), "&");
    absl::StrAppend(&query, "prefix=", UriEncode(prefix, false));
    if (!version_marker.empty()) {
      absl::StrAppend(&query, "&version-id-marker=", UriEncode(version_marker, false));
    }
    absl::StrAppend(&query, "&versions=");
    ASSIGN_OR_RETURN(Answer a, Send("GET", "ListObjectVersions", bucket, "", query, ""));
    std::vector<ObjectVersion> page = ParseListObjectVersions(a.body, &key_marker, &version_marker);
    all.insert(all.end(), page.begin(), page.end());
  } while (!key_marker.empty());
  return all;
}

}  // namespace azbench::s3

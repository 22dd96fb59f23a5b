// s3rver does not check SigV4 signatures, so this test checks libcurl's signing as the S3 client
// drives it: a one-shot capture server on loopback records the raw request, and the test recomputes
// the AWS Signature Version 4 from the captured method, path, query, signed headers and
// x-amz-content-sha256 with OpenSSL's HMAC-SHA256 (the published algorithm, done independently),
// then compares it with the Authorization header curl sent.
#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/hmac.h>
#include <sys/socket.h>
#include <unistd.h>

#include <map>
#include <string>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "agent/s3/payload_hash.h"
#include "agent/s3/s3_client.h"
#include "tests/testing/s3rver_fixture.h"

namespace azbench::s3 {
namespace {

using ::testing::HasSubstr;

struct CapturedRequest {
  std::string method, target;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

// Accepts one connection, captures the request and answers 200 with `response_body`.
class CaptureServer {
 public:
  explicit CaptureServer(std::string response_body) : response_body_(std::move(response_body)) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    socklen_t len = sizeof(addr);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    listen(fd_, 1);
    thread_ = std::thread([this] { Serve(); });
  }
  ~CaptureServer() {
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    thread_.join();
  }
  std::string endpoint() const { return absl::StrCat("http://127.0.0.1:", port_); }
  CapturedRequest Request() {
    thread_.join();
    thread_ = std::thread([] {});
    return request_;
  }

 private:
  void Serve() {
    const int c = accept(fd_, nullptr, nullptr);
    if (c < 0) return;
    std::string data;
    char buf[4096];
    size_t header_end = std::string::npos;
    size_t content_length = 0;
    while (true) {
      const ssize_t n = read(c, buf, sizeof(buf));
      if (n <= 0) break;
      data.append(buf, static_cast<size_t>(n));
      if (header_end == std::string::npos &&
          (header_end = data.find("\r\n\r\n")) != std::string::npos) {
        std::vector<std::string> lines = absl::StrSplit(data.substr(0, header_end), "\r\n");
        std::vector<std::string> first = absl::StrSplit(lines[0], ' ');
        request_.method = first[0];
        request_.target = first[1];
        for (size_t i = 1; i < lines.size(); ++i) {
          const size_t colon = lines[i].find(':');
          request_.headers[absl::AsciiStrToLower(lines[i].substr(0, colon))] =
              std::string(absl::StripAsciiWhitespace(lines[i].substr(colon + 1)));
        }
        if (auto it = request_.headers.find("content-length"); it != request_.headers.end()) {
          EXPECT_TRUE(absl::SimpleAtoi(it->second, &content_length));
        }
      }
      if (header_end != std::string::npos && data.size() >= header_end + 4 + content_length) break;
    }
    if (header_end != std::string::npos) request_.body = data.substr(header_end + 4);
    const std::string response =
        absl::StrCat("HTTP/1.1 200 OK\r\nETag: \"0123\"\r\nContent-Length: ", response_body_.size(),
                     "\r\nConnection: close\r\n\r\n", response_body_);
    (void)!write(c, response.data(), response.size());
    close(c);
  }

  std::string response_body_;
  int fd_ = -1;
  int port_ = 0;
  CapturedRequest request_;
  std::thread thread_;
};

std::string Hmac(const std::string& key, const std::string& data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &len);
  return std::string(reinterpret_cast<char*>(out), len);
}

std::string Hex(const std::string& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (unsigned char c : bytes) {
    s.push_back(kHex[c >> 4]);
    s.push_back(kHex[c & 0xf]);
  }
  return s;
}

// Recomputes the signature of a captured request; returns "" if the header is not SigV4.
std::string ExpectedSignature(const CapturedRequest& r, const std::string& secret,
                              std::string* signed_headers_out) {
  const std::string auth = r.headers.at("authorization");
  // AWS4-HMAC-SHA256 Credential=KEY/DATE/REGION/s3/aws4_request, SignedHeaders=a;b, Signature=hex
  const size_t cred = auth.find("Credential=");
  const size_t sh = auth.find("SignedHeaders=");
  if (cred == std::string::npos || sh == std::string::npos) return "";
  const std::string credential = auth.substr(cred + 11, auth.find(',', cred) - cred - 11);
  const std::string signed_headers = auth.substr(sh + 14, auth.find(',', sh) - sh - 14);
  *signed_headers_out = signed_headers;
  std::vector<std::string> scope_parts = absl::StrSplit(credential, '/');
  const std::string scope = absl::StrJoin(scope_parts.begin() + 1, scope_parts.end(), "/");
  const size_t q = r.target.find('?');
  const std::string path = r.target.substr(0, q);
  std::string query = q == std::string::npos ? "" : r.target.substr(q + 1);
  std::vector<std::string> params = absl::StrSplit(query, '&', absl::SkipEmpty());
  for (std::string& p : params) {
    if (p.find('=') == std::string::npos) p += "=";
  }
  std::sort(params.begin(), params.end());
  std::string canonical_headers;
  for (absl::string_view name : absl::StrSplit(signed_headers, ';')) {
    // A signed header the request does not carry would make S3 reject the signature.
    auto it = r.headers.find(std::string(name));
    EXPECT_NE(it, r.headers.end()) << "signed header '" << name << "' was not sent";
    if (it == r.headers.end()) return "";
    absl::StrAppend(&canonical_headers, name, ":", it->second, "\n");
  }
  const std::string canonical_request =
      absl::StrCat(r.method, "\n", path, "\n", absl::StrJoin(params, "&"), "\n", canonical_headers,
                   "\n", signed_headers, "\n", r.headers.at("x-amz-content-sha256"));
  const std::string string_to_sign = absl::StrCat("AWS4-HMAC-SHA256\n", r.headers.at("x-amz-date"),
                                                  "\n", scope, "\n", Sha256Hex(canonical_request));
  std::string key = Hmac("AWS4" + secret, scope_parts[1]);
  key = Hmac(key, scope_parts[2]);
  key = Hmac(key, scope_parts[3]);
  key = Hmac(key, "aws4_request");
  return Hex(Hmac(key, string_to_sign));
}

TEST(SigV4Test, PutObjectWithSessionTokenIsSignedOverPayloadHashAndToken) {
  CaptureServer server("");
  auto creds =
      std::make_shared<testing::StaticCredentialsProvider>("AKIDEXAMPLE", "wJalrXUtnFEMI", "test");
  struct WithToken : CredentialsProvider {
    absl::StatusOr<Credentials> Get() override {
      Credentials c;
      c.access_key_id = "ASIAEXAMPLE";
      c.secret_access_key = "wJalrXUtnFEMI";
      c.session_token = "FQoGZXIvYXdzEXAMPLETOKEN";
      c.source = "test role";
      return c;
    }
    std::string Name() const override { return "test"; }
  };
  S3Client s3({.region = "eu-west-1", .endpoint = server.endpoint(), .path_style = true},
              std::make_shared<WithToken>());
  const std::string body = "hello visibility";
  ASSERT_TRUE(s3.PutObject("bucket", "dir/a b.txt", body).ok());
  CapturedRequest r = server.Request();
  EXPECT_EQ(r.method, "PUT");
  EXPECT_EQ(r.target, "/bucket/dir/a%20b.txt");
  EXPECT_EQ(r.body, body);
  EXPECT_EQ(r.headers["x-amz-content-sha256"], Sha256Hex(body));
  EXPECT_EQ(r.headers["x-amz-security-token"], "FQoGZXIvYXdzEXAMPLETOKEN");
  EXPECT_THAT(r.headers["authorization"], HasSubstr("Credential=ASIAEXAMPLE/"));
  EXPECT_THAT(r.headers["authorization"], HasSubstr("/eu-west-1/s3/aws4_request"));
  std::string signed_headers;
  const std::string expected = ExpectedSignature(r, "wJalrXUtnFEMI", &signed_headers);
  EXPECT_THAT(signed_headers, HasSubstr("x-amz-content-sha256"));
  EXPECT_THAT(signed_headers, HasSubstr("x-amz-security-token"));
  EXPECT_THAT(signed_headers, HasSubstr("host"));
  ASSERT_EQ(expected.size(), 64u);
  EXPECT_THAT(r.headers["authorization"], HasSubstr("Signature=" + expected));
}

TEST(SigV4Test, ListObjectsV2QueryIsSignedInCanonicalOrder) {
  CaptureServer server(
      "<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>p/x</Key><Size>3</Size>"
      "<ETag>\"e\"</ETag></Contents></ListBucketResult>");
  S3Client s3({.endpoint = server.endpoint(), .path_style = true}, testing::S3rverCredentials());
  absl::StatusOr<std::vector<ObjectSummary>> list = s3.ListObjectsV2("bucket", "p/");
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].key, "p/x");
  CapturedRequest r = server.Request();
  EXPECT_EQ(r.target, "/bucket?list-type=2&prefix=p%2F");
  EXPECT_EQ(r.headers["x-amz-content-sha256"], Sha256Hex(""));
  std::string signed_headers;
  const std::string expected = ExpectedSignature(r, "S3RVER", &signed_headers);
  ASSERT_EQ(expected.size(), 64u);
  EXPECT_THAT(r.headers["authorization"], HasSubstr("Signature=" + expected));
}

}  // namespace
}  // namespace azbench::s3

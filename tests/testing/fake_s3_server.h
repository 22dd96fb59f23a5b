// TEST FIXTURE ONLY: an in-memory, path-style S3 bucket behind FakeHttpServer, for what the real
// test server (s3rver 3.7.1) cannot do: a versioned bucket (every PUT a new version with an
// x-amz-version-id; DELETE without a version id adds a delete marker, with ?versionId= removes that
// version; GET ?versions lists them) and ETags that are not the content's MD5 (as with SSE-KMS).
// Signatures are not checked. Enough of S3 for S3Client: PUT, HEAD, GET and DELETE of an object,
// ListObjectsV2 and ListObjectVersions (one page each).
//
//   FakeS3Server s3({.versioned = true});
//   S3Client client({.endpoint = s3.url(), .path_style = true}, S3rverCredentials());
#ifndef AZBENCH_TESTS_TESTING_FAKE_S3_SERVER_H_
#define AZBENCH_TESTS_TESTING_FAKE_S3_SERVER_H_

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "agent/s3/payload_hash.h"
#include "tests/testing/fake_http_server.h"

namespace azbench::testing {

struct FakeS3Options {
  std::string bucket = "fake-bucket";
  bool versioned = true;
  // false: GET ?versions answers a plain listing, as a server that ignores the parameter does.
  bool lists_versions = true;
  // The ETag the server gives an object's content; default its MD5 (a single-part PUT without
  // SSE-KMS).
  std::function<std::string(const std::string&)> etag = [](const std::string& body) {
    return s3::Md5Hex(body);
  };
};

class FakeS3Server {
 public:
  struct Version {
    std::string id;
    std::string body;
    std::string etag;
    bool delete_marker = false;
  };

  explicit FakeS3Server(FakeS3Options options = {})
      : options_(std::move(options)),
        http_("127.0.0.1", [this](const HttpRequest& r) { return Handle(r); }) {}

  bool ok() const { return http_.ok(); }
  std::string url() const { return http_.url(); }
  const std::string& bucket() const { return options_.bucket; }

  // Every version (delete markers included) of `key`, oldest first.
  std::vector<Version> versions(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = objects_.find(key);
    return it == objects_.end() ? std::vector<Version>{} : it->second;
  }
  // Stores `body` as a new version of `key`, as a PutObject would.
  void Put(const std::string& key, const std::string& body) {
    std::lock_guard<std::mutex> lock(mu_);
    PutLocked(key, body);
  }

 private:
  static std::string Decode(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '%' && i + 2 < s.size()) {
        out.push_back(static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)));
        i += 2;
      } else {
        out.push_back(s[i]);
      }
    }
    return out;
  }
  static std::map<std::string, std::string> Query(const std::string& q) {
    std::map<std::string, std::string> out;
    size_t pos = 0;
    while (pos <= q.size() && !q.empty()) {
      size_t amp = q.find('&', pos);
      if (amp == std::string::npos) amp = q.size();
      const std::string part = q.substr(pos, amp - pos);
      const size_t eq = part.find('=');
      out[Decode(part.substr(0, eq))] = eq == std::string::npos ? "" : Decode(part.substr(eq + 1));
      pos = amp + 1;
    }
    return out;
  }
  void PutLocked(const std::string& key, const std::string& body) {
    std::vector<Version>& versions = objects_[key];
    if (!options_.versioned) versions.clear();
    versions.push_back({options_.versioned ? "v" + std::to_string(++next_version_) : "null", body,
                        options_.etag(body)});
  }
  const Version* LatestLocked(const std::string& key) const {
    auto it = objects_.find(key);
    if (it == objects_.end() || it->second.empty() || it->second.back().delete_marker) {
      return nullptr;
    }
    return &it->second.back();
  }

  HttpResponse Handle(const HttpRequest& r) {
    std::lock_guard<std::mutex> lock(mu_);
    const size_t qmark = r.path.find('?');
    const std::string path = Decode(r.path.substr(0, qmark));
    const std::map<std::string, std::string> query =
        Query(qmark == std::string::npos ? "" : r.path.substr(qmark + 1));
    const std::string root = "/" + options_.bucket;
    if (path.rfind(root, 0) != 0)
      return HttpResponse{404, "<Error><Code>NoSuchBucket</Code></Error>"};
    std::string key = path.substr(root.size());
    if (!key.empty() && key[0] == '/') key.erase(0, 1);
    if (key.empty() && r.method == "GET") return List(query);
    if (r.method == "PUT") {
      PutLocked(key, r.body);
      HttpResponse out{200};
      out.headers["ETag"] = "\"" + objects_[key].back().etag + "\"";
      if (options_.versioned) out.headers["x-amz-version-id"] = objects_[key].back().id;
      return out;
    }
    if (r.method == "DELETE") {
      auto id = query.find("versionId");
      std::vector<Version>& versions = objects_[key];
      if (id != query.end()) {
        std::erase_if(versions, [&](const Version& v) { return v.id == id->second; });
      } else if (options_.versioned) {
        versions.push_back({"v" + std::to_string(++next_version_), "", "", true});
      } else {
        versions.clear();
      }
      if (versions.empty()) objects_.erase(key);
      return HttpResponse{204};
    }
    const Version* v = LatestLocked(key);
    if (v == nullptr) return HttpResponse{404, "<Error><Code>NoSuchKey</Code></Error>"};
    // HEAD too answers the body, so Content-Length is the object's size; the client reads none.
    HttpResponse out{200, v->body};
    out.headers["ETag"] = "\"" + v->etag + "\"";
    if (options_.versioned) out.headers["x-amz-version-id"] = v->id;
    return out;
  }

  HttpResponse List(const std::map<std::string, std::string>& query) {
    auto prefix_it = query.find("prefix");
    const std::string prefix = prefix_it == query.end() ? "" : prefix_it->second;
    std::string xml;
    if (query.count("versions") > 0 && options_.lists_versions) {
      xml = "<ListVersionsResult><IsTruncated>false</IsTruncated>";
      for (const auto& [key, versions] : objects_) {
        if (key.rfind(prefix, 0) != 0) continue;
        for (size_t i = 0; i < versions.size(); ++i) {
          const Version& v = versions[i];
          const char* tag = v.delete_marker ? "DeleteMarker" : "Version";
          xml += std::string("<") + tag + "><Key>" + key + "</Key><VersionId>" + v.id +
                 "</VersionId><IsLatest>" + (i + 1 == versions.size() ? "true" : "false") +
                 "</IsLatest><Size>" + std::to_string(v.body.size()) + "</Size><ETag>\"" + v.etag +
                 "\"</ETag></" + tag + ">";
        }
      }
      return HttpResponse{200, xml + "</ListVersionsResult>"};
    }
    xml = "<ListBucketResult><IsTruncated>false</IsTruncated>";
    for (const auto& [key, versions] : objects_) {
      const Version* v = LatestLocked(key);
      if (key.rfind(prefix, 0) != 0 || v == nullptr) continue;
      xml += "<Contents><Key>" + key + "</Key><Size>" + std::to_string(v->body.size()) +
             "</Size><ETag>\"" + v->etag + "\"</ETag></Contents>";
    }
    return HttpResponse{200, xml + "</ListBucketResult>"};
  }

  FakeS3Options options_;
  mutable std::mutex mu_;
  std::map<std::string, std::vector<Version>> objects_;
  int next_version_ = 0;
  FakeHttpServer http_;  // last: serves only once every other member exists
};

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_FAKE_S3_SERVER_H_

// Test fixture: a real S3-protocol server (npm's s3rver, installed by scripts/setup.sh under
// tests/s3server/) started as a child process on a free loopback port with its data in a temporary
// directory, and killed (process and data) when the object goes away. s3rver accepts SigV4 headers
// without checking the signature, but rejects unknown access keys (403 InvalidAccessKeyId); its one
// account is S3RVER / S3RVER.
//
//   S3rverProcess server("probe-bucket");
//   if (!server.installed()) GTEST_SKIP() << server.error();
//   ASSERT_TRUE(server.ok()) << server.error();
//   S3Client s3({.endpoint = server.endpoint(), .path_style = true}, S3rverCredentials());
#ifndef AZBENCH_TESTS_TESTING_S3RVER_FIXTURE_H_
#define AZBENCH_TESTS_TESTING_S3RVER_FIXTURE_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>

#include "agent/s3/credentials.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench::testing {

inline constexpr char kS3rverAccessKey[] = "S3RVER";

// Static credentials for the fixture server.
class StaticCredentialsProvider : public s3::CredentialsProvider {
 public:
  StaticCredentialsProvider(std::string key, std::string secret, std::string source)
      : key_(std::move(key)), secret_(std::move(secret)), source_(std::move(source)) {}
  absl::StatusOr<s3::Credentials> Get() override {
    s3::Credentials c;
    c.access_key_id = key_;
    c.secret_access_key = secret_;
    c.source = source_;
    return c;
  }
  std::string Name() const override { return "static"; }

 private:
  std::string key_, secret_, source_;
};

inline std::shared_ptr<s3::CredentialsProvider> S3rverCredentials() {
  return std::make_shared<StaticCredentialsProvider>(kS3rverAccessKey, "S3RVER",
                                                     "test fixture (static S3RVER key)");
}

// The s3rver launcher: $AZBENCH_S3RVER, else the source tree's
// tests/s3server/node_modules/.bin/s3rver as CMake recorded it (wherever the build tree is).
inline std::string S3rverPath() {
  if (const char* env = std::getenv("AZBENCH_S3RVER"); env != nullptr && *env != '\0') {
    return std::string(env);
  }
  return kS3rverBinary;
}

class S3rverProcess {
 public:
  explicit S3rverProcess(const std::string& bucket) {
    const std::string launcher = S3rverPath();
    if (std::string missing = MissingDependency("s3rver", launcher); !missing.empty()) {
      installed_ = false;
      error_ = std::move(missing);
      return;
    }
    if (!data_.ok()) {
      error_ = "cannot create a temporary directory for s3rver";
      return;
    }
    // A port free a moment ago may be taken by the time s3rver binds it: try a few.
    for (int attempt = 0; attempt < 3; ++attempt) {
      port_ = UnusedLoopbackPort();
      process_ = std::make_unique<Subprocess>(
          std::vector<std::string>{launcher, "-d", data_.File("data"), "-a", "127.0.0.1", "-p",
                                   std::to_string(port_), "--silent", "--configure-bucket", bucket},
          data_.File("s3rver.log"));
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (std::chrono::steady_clock::now() < deadline) {
        if (Listening()) {
          error_.clear();
          return;
        }
        if (Exited(process_->pid())) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      error_ = "s3rver did not start listening on port " + std::to_string(port_) + ": " +
               process_->Output();
      process_.reset();
    }
  }

  // Tests skip when s3rver is not installed (error() then says "missing dependency: s3rver ...",
  // which scripts/test.sh refuses) and fail when it is but does not start.
  bool installed() const { return installed_; }
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }

 private:
  // True once `pid` has exited (a zombie until Subprocess reaps it), without reaping it.
  static bool Exited(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const size_t paren = text.rfind(')');
    return paren == std::string::npos || paren + 2 >= text.size() || text[paren + 2] == 'Z';
  }
  bool Listening() const {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port_));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
    close(fd);
    return ok;
  }

  TempDir data_{kDiskBase};
  int port_ = 0;
  std::unique_ptr<Subprocess> process_;
  std::string error_;
  bool installed_ = true;
};

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_S3RVER_FIXTURE_H_

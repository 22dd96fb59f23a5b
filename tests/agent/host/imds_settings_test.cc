// The instance metadata settings from the AWS SDKs' environment variables and the agent's config
// (agent/host/imds_client.h, LoadImdsSettings): the request timeout and attempts
// (AWS_METADATA_SERVICE_TIMEOUT, AWS_METADATA_SERVICE_NUM_ATTEMPTS), the endpoint and the off
// switch.
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "agent/host/imds_client.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/fake_http_server.h"
#include "tests/testing/scoped_env.h"

namespace azbench {
namespace {

using testing::FakeHttpServer;
using testing::FakeImdsHandler;
using ::testing::HasSubstr;
using testing::HttpRequest;
using testing::HttpResponse;

using testing::ScopedEnv;

TEST(ImdsSettingsTest, TheTimeoutIsInSecondsWholeOrDecimal) {
  EXPECT_EQ(ParseImdsTimeoutMs("1").value(), 1000);
  EXPECT_EQ(ParseImdsTimeoutMs("10").value(), 10'000);
  EXPECT_EQ(ParseImdsTimeoutMs("2.5").value(), 2500);
  EXPECT_EQ(ParseImdsTimeoutMs("0.25").value(), 250);
  EXPECT_EQ(ParseImdsTimeoutMs(".5").value(), 500);
  EXPECT_EQ(ParseImdsTimeoutMs("0.001").value(), 1);
  EXPECT_EQ(ParseImdsTimeoutMs("3600").value(), 3'600'000);
  for (const char* bad : {"", "0", "0.0", "0.0004", "3601", "-1", "+1", "1s", "1000ms", " 1", "1 ",
                          "1e3", "inf", "nan", "1.2.3", ".", "1,5", "99999999999999999999"}) {
    absl::StatusOr<int> ms = ParseImdsTimeoutMs(bad);
    ASSERT_FALSE(ms.ok()) << "'" << bad << "' -> " << *ms;
    EXPECT_TRUE(absl::IsInvalidArgument(ms.status()));
    EXPECT_EQ(ms.status().message(),
              absl::StrCat("AWS_METADATA_SERVICE_TIMEOUT='", bad,
                           "': give the instance metadata request timeout in seconds, from 0.001 "
                           "to 3600 (e.g. 1 or 2.5)"));
  }
}

TEST(ImdsSettingsTest, TheAttemptsAreAWholeNumberFromOneToTen) {
  EXPECT_EQ(ParseImdsAttempts("1").value(), 1);
  EXPECT_EQ(ParseImdsAttempts("3").value(), 3);
  EXPECT_EQ(ParseImdsAttempts("10").value(), 10);
  for (const char* bad : {"", "0", "11", "-1", "+2", "2.0", "two", " 2", "010", "4294967297"}) {
    absl::StatusOr<int> n = ParseImdsAttempts(bad);
    ASSERT_FALSE(n.ok()) << "'" << bad << "' -> " << *n;
    EXPECT_TRUE(absl::IsInvalidArgument(n.status()));
    EXPECT_EQ(n.status().message(),
              absl::StrCat("AWS_METADATA_SERVICE_NUM_ATTEMPTS='", bad,
                           "': give how many times an instance metadata request that got no "
                           "answer is tried, a whole number from 1 to 10"));
  }
}

TEST(ImdsSettingsTest, TheEnvironmentSetsTimeoutAndAttemptsAndABadValueIsAnError) {
  {
    ScopedEnv timeout("AWS_METADATA_SERVICE_TIMEOUT", nullptr);
    ScopedEnv attempts("AWS_METADATA_SERVICE_NUM_ATTEMPTS", nullptr);
    absl::StatusOr<ImdsSettings> s = LoadImdsSettings();
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(s->timeout, absl::Seconds(1)) << "the AWS SDKs' default";
    EXPECT_EQ(s->attempts, 1);
  }
  {
    ScopedEnv timeout("AWS_METADATA_SERVICE_TIMEOUT", "");
    ScopedEnv attempts("AWS_METADATA_SERVICE_NUM_ATTEMPTS", "");
    absl::StatusOr<ImdsSettings> s = LoadImdsSettings();
    ASSERT_TRUE(s.ok()) << "empty counts as unset: " << s.status();
    EXPECT_EQ(s->timeout, absl::Seconds(1));
    EXPECT_EQ(s->attempts, 1);
  }
  {
    ScopedEnv endpoint("AWS_EC2_METADATA_SERVICE_ENDPOINT", "http://127.0.0.1:9");
    ScopedEnv timeout("AWS_METADATA_SERVICE_TIMEOUT", "10");
    ScopedEnv attempts("AWS_METADATA_SERVICE_NUM_ATTEMPTS", "3");
    absl::StatusOr<ImdsSettings> s = LoadImdsSettings("http://127.0.0.1:10", true);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(s->timeout, absl::Seconds(10));
    EXPECT_EQ(s->attempts, 3);
    EXPECT_EQ(s->endpoint, "http://127.0.0.1:10") << "the config's endpoint still wins";
    EXPECT_TRUE(s->disabled);
  }
  {
    ScopedEnv timeout("AWS_METADATA_SERVICE_TIMEOUT", "10s");
    absl::StatusOr<ImdsSettings> s = LoadImdsSettings();
    ASSERT_FALSE(s.ok());
    EXPECT_TRUE(absl::IsInvalidArgument(s.status()));
    EXPECT_THAT(std::string(s.status().message()),
                HasSubstr("AWS_METADATA_SERVICE_TIMEOUT='10s': give the instance metadata request "
                          "timeout in seconds"));
  }
  {
    ScopedEnv attempts("AWS_METADATA_SERVICE_NUM_ATTEMPTS", "0");
    absl::StatusOr<ImdsSettings> s = LoadImdsSettings();
    ASSERT_FALSE(s.ok());
    EXPECT_TRUE(absl::IsInvalidArgument(s.status()));
    EXPECT_THAT(std::string(s.status().message()),
                HasSubstr("AWS_METADATA_SERVICE_NUM_ATTEMPTS='0'"));
  }
}

TEST(ImdsSettingsTest, EndpointAndOffSwitchFollowTheAwsSdkAndTheConfigWins) {
  ScopedEnv timeout("AWS_METADATA_SERVICE_TIMEOUT", nullptr);
  ScopedEnv attempts("AWS_METADATA_SERVICE_NUM_ATTEMPTS", nullptr);
  {
    ScopedEnv endpoint("AWS_EC2_METADATA_SERVICE_ENDPOINT", nullptr);
    ScopedEnv disabled("AWS_EC2_METADATA_DISABLED", nullptr);
    absl::StatusOr<ImdsSettings> s = LoadImdsSettings();
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(s->endpoint, "http://169.254.169.254");
    EXPECT_FALSE(s->disabled);
    EXPECT_EQ(s->timeout, absl::Seconds(1));
  }
  {
    ScopedEnv endpoint("AWS_EC2_METADATA_SERVICE_ENDPOINT", "http://127.0.0.1:9");
    ScopedEnv disabled("AWS_EC2_METADATA_DISABLED", "TRUE");
    absl::StatusOr<ImdsSettings> s = LoadImdsSettings();
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(s->endpoint, "http://127.0.0.1:9");
    EXPECT_TRUE(s->disabled);
    absl::StatusOr<ImdsSettings> configured = LoadImdsSettings("http://127.0.0.1:10");
    ASSERT_TRUE(configured.ok()) << configured.status();
    EXPECT_EQ(configured->endpoint, "http://127.0.0.1:10");
  }
  {
    ScopedEnv disabled("AWS_EC2_METADATA_DISABLED", "false");
    absl::StatusOr<ImdsSettings> s = LoadImdsSettings();
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_FALSE(s->disabled);
    absl::StatusOr<ImdsSettings> configured = LoadImdsSettings("", /*config_disabled=*/true);
    ASSERT_TRUE(configured.ok()) << configured.status();
    EXPECT_TRUE(configured->disabled);
  }
}

TEST(ImdsSettingsTest, AnAnswerSlowerThanTheDefaultSecondArrivesWithinALongerTimeout) {
  // An IMDS that answers each request after 1.5 s (a loaded machine): with the timeout from
  // AWS_METADATA_SERVICE_TIMEOUT=10 the answer is taken, not "not on EC2".
  FakeHttpServer server(
      "127.0.0.1", [imds = FakeImdsHandler({{"instance-id", "i-slow"}})](const HttpRequest& r) {
        HttpResponse response = imds(r);
        response.delay = std::chrono::milliseconds(1500);
        return response;
      });
  ASSERT_TRUE(server.ok()) << server.error();
  ScopedEnv timeout("AWS_METADATA_SERVICE_TIMEOUT", "10");
  absl::StatusOr<ImdsSettings> settings = LoadImdsSettings(server.url());
  ASSERT_TRUE(settings.ok()) << settings.status();
  auto imds = MakeImdsClient(*settings);
  ASSERT_TRUE(imds.ok()) << imds.status();
  absl::StatusOr<std::string> id = (*imds)->Get("meta-data/instance-id");
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(*id, "i-slow");
}

// A listener that accepts connections and closes each at once (no HTTP answer), counting them.
class ClosingListener {
 public:
  ClosingListener() {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    if (fd_ < 0 || bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
        listen(fd_, 16) != 0 || getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      return;
    }
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] {
      while (!stop_.load()) {
        pollfd p{fd_, POLLIN, 0};
        if (poll(&p, 1, 20) <= 0) continue;
        const int conn = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (conn < 0) continue;
        accepted_.fetch_add(1);  // before the close the client sees
        close(conn);
      }
    });
  }
  ~ClosingListener() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) close(fd_);
  }
  bool ok() const { return port_ != 0; }
  std::string url() const { return absl::StrCat("http://127.0.0.1:", port_); }
  int accepted() const { return accepted_.load(); }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::thread thread_;
};

TEST(ImdsSettingsTest, ARequestThatGetsNoAnswerIsTriedTheConfiguredNumberOfTimes) {
  ClosingListener listener;
  ASSERT_TRUE(listener.ok());
  ScopedEnv attempts("AWS_METADATA_SERVICE_NUM_ATTEMPTS", "3");
  absl::StatusOr<ImdsSettings> settings = LoadImdsSettings(listener.url());
  ASSERT_TRUE(settings.ok()) << settings.status();
  auto imds = MakeImdsClient(*settings);
  ASSERT_TRUE(imds.ok()) << imds.status();
  absl::StatusOr<std::string> id = (*imds)->Get("meta-data/instance-id");
  EXPECT_TRUE(absl::IsUnavailable(id.status())) << id.status();
  EXPECT_THAT(std::string(id.status().message()), HasSubstr("3 attempts"));
  EXPECT_EQ(listener.accepted(), 3) << "the token PUT, three times";
}

}  // namespace
}  // namespace azbench

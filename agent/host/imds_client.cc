#include "agent/host/imds_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "common/status_macros.h"

namespace azbench {
namespace {

size_t AppendToString(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

struct HttpAnswer {
  long status = 0;
  std::string body;
};

class CurlImdsClient final : public MetadataClient {
 public:
  explicit CurlImdsClient(ImdsSettings settings) : settings_(std::move(settings)) {
    while (!settings_.endpoint.empty() && settings_.endpoint.back() == '/') {
      settings_.endpoint.pop_back();
    }
  }

  std::string endpoint() const override { return settings_.endpoint; }

  absl::StatusOr<std::string> Get(const std::string& raw_path) override {
    if (settings_.disabled) {
      return absl::FailedPreconditionError(
          "instance metadata is disabled (AWS_EC2_METADATA_DISABLED or the agent config)");
    }
    std::string path = raw_path;
    while (!path.empty() && path.front() == '/') path.erase(0, 1);
    if (absl::StartsWith(path, "latest/")) path = path.substr(7);
    for (int attempt = 0; attempt < 2; ++attempt) {
      ASSIGN_OR_RETURN(std::string token, Token(/*refresh=*/attempt > 0));
      ASSIGN_OR_RETURN(HttpAnswer answer,
                       Request("GET", absl::StrCat("/latest/", path),
                               absl::StrCat("X-aws-ec2-metadata-token: ", token)));
      if (answer.status == 200) return answer.body;
      if (answer.status == 404) {
        return absl::NotFoundError(absl::StrCat("instance metadata ", settings_.endpoint,
                                                "/latest/", path, ": not found"));
      }
      if (answer.status != 401) {
        return absl::InternalError(absl::StrCat("instance metadata ", settings_.endpoint,
                                                "/latest/", path, ": HTTP ", answer.status));
      }
    }
    return absl::UnavailableError(absl::StrCat("instance metadata at ", settings_.endpoint,
                                               " refuses its own session token (HTTP 401)"));
  }

 private:
  // curl takes whole milliseconds.
  int64_t TimeoutMs() const { return absl::ToInt64Milliseconds(settings_.timeout); }

  absl::StatusOr<std::string> Token(bool refresh) {
    absl::MutexLock lock(&mu_);
    // Renewed a minute before it expires, so a token never dies between PUT and GET.
    if (!refresh && !token_.empty() && absl::Now() < token_expiry_) return token_;
    const absl::Time asked = absl::Now();
    ASSIGN_OR_RETURN(HttpAnswer answer,
                     Request("PUT", "/latest/api/token",
                             absl::StrCat("X-aws-ec2-metadata-token-ttl-seconds: ",
                                          absl::ToInt64Seconds(settings_.token_ttl))));
    if (answer.status != 200 || answer.body.empty()) {
      return absl::UnavailableError(absl::StrCat("not on EC2: ", settings_.endpoint,
                                                 " answered the IMDSv2 token request with HTTP ",
                                                 answer.status));
    }
    token_ = answer.body;
    token_expiry_ = asked + std::max(absl::Seconds(1), settings_.token_ttl - absl::Minutes(1));
    return token_;
  }

  // One request, tried again (up to settings_.attempts in all) while nothing answers.
  absl::StatusOr<HttpAnswer> Request(const std::string& method, const std::string& path,
                                     const std::string& header) {
    absl::StatusOr<HttpAnswer> answer = RequestOnce(method, path, header);
    for (int attempt = 1; attempt < settings_.attempts && absl::IsUnavailable(answer.status());
         ++attempt) {
      answer = RequestOnce(method, path, header);
    }
    return answer;
  }

  absl::StatusOr<HttpAnswer> RequestOnce(const std::string& method, const std::string& path,
                                         const std::string& header) {
    CURL* curl = curl_easy_init();
    if (curl == nullptr) return absl::InternalError("curl_easy_init failed");
    HttpAnswer answer;
    const std::string url = settings_.endpoint + path;
    curl_slist* headers = curl_slist_append(nullptr, header.c_str());
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.c_str());
    if (method == "PUT") {
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "");
      curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, 0L);
    }
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(TimeoutMs()));
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(TimeoutMs()));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");  // IMDS is link-local: never via a proxy
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, AppendToString);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer.body);
    const CURLcode code = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &answer.status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    if (code != CURLE_OK) {
      return absl::UnavailableError(
          absl::StrCat("not on EC2: no instance metadata service answered at ", settings_.endpoint,
                       " (", curl_easy_strerror(code), ", timeout ", TimeoutMs(), " ms",
                       settings_.attempts > 1 ? absl::StrCat(", ", settings_.attempts, " attempts")
                                              : std::string(),
                       ")"));
    }
    return answer;
  }

  ImdsSettings settings_;
  absl::Mutex mu_;
  std::string token_ ABSL_GUARDED_BY(mu_);
  absl::Time token_expiry_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
};

bool Truthy(const char* value) {
  if (value == nullptr) return false;
  const std::string v = absl::AsciiStrToLower(std::string(value));
  return v == "true" || v == "1";
}

// The variable's value; nullopt when it is unset or empty.
std::optional<std::string> Variable(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

// The endpoint and the off switch.
ImdsSettings BaseSettings(const std::string& config_endpoint, bool config_disabled) {
  ImdsSettings settings;
  if (std::optional<std::string> env = Variable("AWS_EC2_METADATA_SERVICE_ENDPOINT")) {
    settings.endpoint = *env;
  }
  if (!config_endpoint.empty()) settings.endpoint = config_endpoint;
  settings.disabled = config_disabled || Truthy(std::getenv("AWS_EC2_METADATA_DISABLED"));
  return settings;
}

}  // namespace

absl::StatusOr<int> ParseImdsTimeoutMs(absl::string_view value) {
  // Digits with at most one decimal point (no sign, exponent, spaces, inf or nan).
  const size_t point = value.find('.');
  const bool well_formed =
      value.find_first_not_of("0123456789.") == absl::string_view::npos &&
      value.find_first_of("0123456789") != absl::string_view::npos &&
      (point == absl::string_view::npos || value.find('.', point + 1) == absl::string_view::npos);
  double seconds = 0;
  const bool in_range =
      well_formed && absl::SimpleAtod(value, &seconds) && seconds >= 0.001 && seconds <= 3600;
  if (!in_range) {
    return absl::InvalidArgumentError(
        absl::StrCat(kImdsTimeoutVariable, "='", value,
                     "': give the instance metadata request timeout in seconds, from 0.001 to "
                     "3600 (e.g. 1 or 2.5)"));
  }
  return static_cast<int>(std::lround(seconds * 1000));
}

absl::StatusOr<int> ParseImdsAttempts(absl::string_view value) {
  int attempts = 0;
  if (value.empty() || value.size() > 2 ||
      value.find_first_not_of("0123456789") != absl::string_view::npos ||
      !absl::SimpleAtoi(value, &attempts) || attempts < 1 || attempts > 10) {
    return absl::InvalidArgumentError(
        absl::StrCat(kImdsAttemptsVariable, "='", value,
                     "': give how many times an instance metadata request that got no answer is "
                     "tried, a whole number from 1 to 10"));
  }
  return attempts;
}

absl::StatusOr<ImdsSettings> LoadImdsSettings(const std::string& config_endpoint,
                                              bool config_disabled) {
  ImdsSettings settings = BaseSettings(config_endpoint, config_disabled);
  if (std::optional<std::string> timeout = Variable(kImdsTimeoutVariable)) {
    ASSIGN_OR_RETURN(const int timeout_ms, ParseImdsTimeoutMs(*timeout));
    settings.timeout = absl::Milliseconds(timeout_ms);
  }
  if (std::optional<std::string> attempts = Variable(kImdsAttemptsVariable)) {
    ASSIGN_OR_RETURN(settings.attempts, ParseImdsAttempts(*attempts));
  }
  return settings;
}

absl::StatusOr<std::unique_ptr<MetadataClient>> MakeImdsClient(const ImdsSettings& settings) {
  if (!absl::StartsWith(settings.endpoint, "http://") &&
      !absl::StartsWith(settings.endpoint, "https://")) {
    return absl::InvalidArgumentError(
        absl::StrCat("IMDS endpoint '", settings.endpoint, "' must be an http:// or https:// URL"));
  }
  if (settings.timeout < absl::Milliseconds(1)) {
    return absl::InvalidArgumentError("IMDS timeout must be at least 1 ms");
  }
  if (settings.attempts < 1) {
    return absl::InvalidArgumentError("IMDS attempts must be at least 1");
  }
  // Once per process; a function-local static's initialisation is thread-safe.
  [[maybe_unused]] static const CURLcode curl_init = curl_global_init(CURL_GLOBAL_DEFAULT);
  return std::unique_ptr<MetadataClient>(new CurlImdsClient(settings));
}

}  // namespace azbench

#include "common/steady_state.h"

#include <numeric>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/units.h"

namespace azbench {
namespace {

constexpr char kAllowed[] =
    "allowed: iops, iops_slope, bw or bw_slope, then ':' and a limit (e.g. iops:10%, "
    "bw_slope:1%, iops:50, bw:10m)";

absl::string_view Av(std::string_view s) { return absl::string_view(s.data(), s.size()); }

uint64_t Mean(const std::vector<uint64_t>& samples) {
  if (samples.empty()) return 0;
  return std::accumulate(samples.begin(), samples.end(), uint64_t{0}) / samples.size();
}

}  // namespace

absl::Status ParseSteadyStateCriterion(std::string_view value, int kb_base, SteadyStateSpec& spec) {
  const size_t colon = value.find(':');
  const std::string name(absl::StripAsciiWhitespace(Av(value.substr(0, colon))));
  SteadyStateSpec parsed = spec;
  if (name == "iops" || name == "iops_slope" || name == "bw" || name == "bw_slope") {
    parsed.iops = name.starts_with("iops");
    parsed.slope = name.ends_with("_slope");
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("'", Av(value), "': unknown criterion; ", kAllowed));
  }
  if (colon == std::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", Av(value), "': the criterion needs a limit; ", kAllowed));
  }
  std::string limit(absl::StripAsciiWhitespace(Av(value.substr(colon + 1))));
  parsed.percent = !limit.empty() && limit.back() == '%';
  if (parsed.percent || parsed.iops) {
    if (parsed.percent)
      limit = std::string(absl::StripAsciiWhitespace(limit.substr(0, limit.size() - 1)));
    double number = 0;
    if (!absl::SimpleAtod(limit, &number) || number < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", Av(value), "': the limit must be a number of 0 or more; ", kAllowed));
    }
    parsed.limit = number;
  } else {
    absl::StatusOr<uint64_t> bytes = ParseSize(limit, kb_base);
    if (!bytes.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", Av(value), "': the bandwidth limit must be bytes/s with an optional size suffix (",
          bytes.status().message(), "); ", kAllowed));
    }
    parsed.limit = static_cast<double>(*bytes);
  }
  spec = parsed;
  return absl::OkStatus();
}

bool SameSteadyState(const SteadyStateSpec& a, const SteadyStateSpec& b) {
  if (!a.enabled() || !b.enabled()) return a.enabled() == b.enabled();
  return a.iops == b.iops && a.slope == b.slope && a.percent == b.percent && a.limit == b.limit &&
         a.window_seconds() == b.window_seconds() &&
         absl::ToInt64Microseconds(a.ramp) == absl::ToInt64Microseconds(b.ramp);
}

std::string_view SteadyStateCriterionName(const SteadyStateSpec& spec) {
  if (spec.iops) return spec.slope ? "iops_slope" : "iops";
  return spec.slope ? "bw_slope" : "bw";
}

uint64_t SteadyStateResult::IopsMean() const { return Mean(iops); }
uint64_t SteadyStateResult::BwMean() const { return Mean(bw); }

}  // namespace azbench

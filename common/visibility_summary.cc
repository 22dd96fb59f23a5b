#include "common/visibility_summary.h"

#include <charconv>

#include "absl/strings/str_cat.h"

namespace azbench {

namespace {

constexpr char kPrefix[] = "visibility ";
constexpr char kVisible[] = " trials visible, ";
constexpr char kTimedOut[] = " timed out, ";
constexpr char kFailed[] = " failed; latency resolution ";
constexpr char kSuffix[] = " (the poll interval)";
constexpr char kGapLead[] =
    " (the longest gap from a trial's last miss to its first sighting; poll interval ";
constexpr char kGapTail[] = ")";
constexpr char kTimeoutLead[] = ": a trial not visible within ";
constexpr char kTimeoutTail[] = " is timed out";
constexpr char kEarly[] = " trial(s) seen before the write returned, latency clamped to 0";

// Reads the decimal number at the front of `text` and the `literal` after it.
bool Take(std::string_view& text, uint64_t& number, std::string_view literal) {
  const size_t end = text.find(literal);
  if (end == std::string_view::npos || end == 0) return false;
  const char* first = text.data();
  const char* last = text.data() + end;
  const auto [ptr, ec] = std::from_chars(first, last, number);
  if (ec != std::errc() || ptr != last) return false;
  text.remove_prefix(end + literal.size());
  return true;
}

}  // namespace

std::string FormatVisibilityCounts(const VisibilityCounts& c) {
  return absl::StrCat(
      kPrefix, c.probe, ": ", c.visible, " of ", c.trials, kVisible, c.timed_out, kTimedOut,
      c.failed, kFailed, c.resolution,
      c.poll_interval.empty() ? kSuffix : absl::StrCat(kGapLead, c.poll_interval, kGapTail));
}

std::optional<VisibilityCounts> ParseVisibilityCounts(std::string_view line) {
  if (!line.starts_with(kPrefix)) return std::nullopt;
  VisibilityCounts c;
  if (line.ends_with(kSuffix)) {
    line.remove_suffix(sizeof(kSuffix) - 1);
  } else if (const size_t lead = line.rfind(kGapLead);
             lead != std::string_view::npos && line.ends_with(kGapTail)) {
    const size_t from = lead + sizeof(kGapLead) - 1;
    c.poll_interval = std::string(line.substr(from, line.size() - from - (sizeof(kGapTail) - 1)));
    if (c.poll_interval.empty()) return std::nullopt;
    line = line.substr(0, lead);
  } else {
    return std::nullopt;
  }
  line.remove_prefix(sizeof(kPrefix) - 1);
  const size_t colon = line.find(": ");
  if (colon == std::string_view::npos) return std::nullopt;
  c.probe = std::string(line.substr(0, colon));
  line.remove_prefix(colon + 2);
  if (!Take(line, c.visible, " of ") || !Take(line, c.trials, kVisible) ||
      !Take(line, c.timed_out, kTimedOut) || !Take(line, c.failed, kFailed) || line.empty()) {
    return std::nullopt;
  }
  c.resolution = std::string(line);
  return c;
}

std::string FormatVisibilityTimeout(std::string_view probe, std::string_view timeout) {
  return absl::StrCat(kPrefix, std::string(probe), kTimeoutLead, std::string(timeout),
                      kTimeoutTail);
}

std::optional<std::string> ParseVisibilityTimeout(std::string_view line) {
  if (!line.starts_with(kPrefix) || !line.ends_with(kTimeoutTail)) return std::nullopt;
  line.remove_suffix(sizeof(kTimeoutTail) - 1);
  const size_t lead = line.find(kTimeoutLead);
  if (lead == std::string_view::npos) return std::nullopt;
  line.remove_prefix(lead + sizeof(kTimeoutLead) - 1);
  if (line.empty()) return std::nullopt;
  return std::string(line);
}

std::string FormatSeenBeforeWrite(std::string_view probe, uint64_t trials) {
  return absl::StrCat(kPrefix, std::string(probe), ": ", trials, kEarly);
}

bool IsSeenBeforeWrite(std::string_view line) {
  return line.starts_with(kPrefix) && line.ends_with(kEarly);
}

}  // namespace azbench

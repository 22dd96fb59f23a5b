// The summary lines a visibility probe's result carries among its warnings, written by the agent
// (agent/workloads/visibility/visibility_result.cc) and restated by the coordinator after it joins
// the two halves of a client_to_client probe (coordinator/visibility_join.cc). Both use these
// functions, so the wording lives in one place and the coordinator always recognises what the agent
// wrote.
//
//   "visibility c2c-read: 2 of 3 trials visible, 1 timed out, 0 failed; latency resolution 1ms
//    (the poll interval)"
//   "visibility export: 3 of 3 trials visible, 0 timed out, 0 failed; latency resolution 640ms
//    (the longest gap from a trial's last miss to its first sighting; poll interval 500ms)"
//   "visibility c2c-read: 1 trial(s) seen before the write returned, latency clamped to 0"
//   "visibility export: a trial not visible within 3m is timed out"
#ifndef AZBENCH_COMMON_VISIBILITY_SUMMARY_H_
#define AZBENCH_COMMON_VISIBILITY_SUMMARY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace azbench {

struct VisibilityCounts {
  std::string probe;
  uint64_t visible = 0;
  uint64_t trials = 0;
  uint64_t timed_out = 0;
  uint64_t failed = 0;
  std::string resolution;  // e.g. "1ms"
  // When set: `resolution` was measured -- the longest gap between a visible trial's last miss (or
  // its start) and its first sighting, which the poll's own time and serial polling of overlapping
  // trials make longer than the poll interval -- and this is the configured interval ("500ms").
  // Empty: `resolution` is the poll interval (nothing was seen, or an older result).
  std::string poll_interval{};
};

std::string FormatVisibilityCounts(const VisibilityCounts& counts);
// The counts of a line FormatVisibilityCounts wrote; nullopt for any other line.
std::optional<VisibilityCounts> ParseVisibilityCounts(std::string_view line);

// "visibility export: a trial not visible within 3m is timed out": the lower bound of a timed-out
// trial's latency (counted from the trial's start; absl::FormatDuration text).
std::string FormatVisibilityTimeout(std::string_view probe, std::string_view timeout);
// The timeout of a line FormatVisibilityTimeout wrote ("3m"); nullopt for any other line.
std::optional<std::string> ParseVisibilityTimeout(std::string_view line);

std::string FormatSeenBeforeWrite(std::string_view probe, uint64_t trials);
bool IsSeenBeforeWrite(std::string_view line);

}  // namespace azbench

#endif  // AZBENCH_COMMON_VISIBILITY_SUMMARY_H_

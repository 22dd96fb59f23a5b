// Sizes and durations written the way fio users write them.
//
// Sizes: an integer (or decimal, "1.5g") with an optional suffix, case-insensitive:
//   k/kb/m/mb/g/gb/t/tb/p/pb: powers of kb_base (1024 by default, as fio; 1000 makes them decimal)
//   kib/mib/gib/tib/pib:      always powers of 1024
//   b or no suffix:           bytes
// Durations: an integer or decimal with an optional suffix: ns, us, ms, s, m (minutes), h, d
//   (case-insensitive; fio's nsec, usec, msec, sec, min also accepted).
//   With no suffix the value is in `default_unit` (seconds for fio's runtime/ramp_time).
// Decimals are exact: "1.5g" is 1610612736. A value that is not a whole number of bytes ("1.5",
// "0.1k") or of nanoseconds ("1.5ns") is an error rather than silently truncated.
//
// Example:
//   ASSIGN_OR_RETURN(uint64_t bytes, ParseSize("4m"));          // 4194304
//   ASSIGN_OR_RETURN(absl::Duration d, ParseDuration("500ms"));
#ifndef AZBENCH_COMMON_UNITS_H_
#define AZBENCH_COMMON_UNITS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace azbench {

// Errors: InvalidArgument naming the text and the accepted forms (empty, negative, unknown suffix,
// overflow of uint64, trailing garbage).
absl::StatusOr<uint64_t> ParseSize(std::string_view text, int kb_base = 1024);
absl::StatusOr<absl::Duration> ParseDuration(std::string_view text,
                                             absl::Duration default_unit = absl::Seconds(1));
// fio booleans: 1/0, true/false, yes/no, on/off (case-insensitive).
absl::StatusOr<bool> ParseBool(std::string_view text);
// Non-negative integer with optional size suffix disallowed (e.g. iodepth, numjobs).
absl::StatusOr<int64_t> ParseInt(std::string_view text, int64_t min_value, int64_t max_value);

// Human forms for reports: "4KiB", "1MiB", "1.5GiB"; "250us", "1.20ms", "61.3s".
std::string FormatBytes(uint64_t bytes);
// fio's num2str, as its normal output prints IOPS, bandwidth and sizes: `num` of `base` units
// (1, or 1024 for a count of KiB) divided by 1000 (1024 with `binary`) until at most `max_digits`
// digits remain, then the digits left (the point counted) filled with the fraction, fio's rounding
// included; the SI or IEC prefix and `unit` follow. At 4 digits (fio's significant_figures
// default): 19692 -> "19.7k", 80659692 binary "B/s" -> "76.9MiB/s", 1048576 binary "B" ->
// "1024KiB", 5 -> "5".
std::string FioNum2Str(uint64_t num, int max_digits, uint64_t base, bool binary,
                       std::string_view unit);
std::string FormatNanos(double ns);

}  // namespace azbench

#endif  // AZBENCH_COMMON_UNITS_H_

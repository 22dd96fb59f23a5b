// The checks across options that a job with a trim pattern (rw=trim, randtrim, trimwrite,
// randtrimwrite) needs, which ValidateJobSpec runs. azbench trims with fio's meaning where it
// trims at all; what it does not do for trims is refused here with the reason, never ignored.
#ifndef AZBENCH_COMMON_TRIM_OPTIONS_H_
#define AZBENCH_COMMON_TRIM_OPTIONS_H_

#include "absl/status/status.h"
#include "common/job_spec.h"

namespace azbench {

// OK for a job that does not trim. For one that does, InvalidArgument naming the option when it
// sets: bsrange, bssplit, blockalign, bs_unaligned or bs_is_seq_rand (trims take bs only); a rw
// modifier or percentage_random (trims are all sequential or all random); a zoned
// random_distribution; a rate option; number_ios; verify; fill_device; ioengine nfs or ftruncate
// (fio's fail every trim). With trimwrite or randtrimwrite also: nrfiles above 1 and a write bs
// other than the trim bs (each write covers the blocks its trim just freed).
absl::Status ValidateTrimOptions(const JobSpec& job);

}  // namespace azbench

#endif  // AZBENCH_COMMON_TRIM_OPTIONS_H_

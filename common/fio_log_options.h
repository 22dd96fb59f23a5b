// fio's log file options (write_bw_log, write_lat_log, write_iops_log, write_hist_log and the
// log_* options that shape them), as JobSpec holds them. common/fio_log_writer.h writes the files.
#ifndef AZBENCH_COMMON_FIO_LOG_OPTIONS_H_
#define AZBENCH_COMMON_FIO_LOG_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>

namespace azbench {

struct FioLogOptions {
  // Each log's file name prefix; unset: no such log; empty: the job's name (fio's default).
  std::optional<std::string> bw_prefix;
  std::optional<std::string> lat_prefix;  // the lat, clat and slat logs
  std::optional<std::string> iops_prefix;
  std::optional<std::string> hist_prefix;  // the clat_hist log
  uint64_t avg_msec = 0;                   // 0: one line per op; else one per direction and window
  bool max_value = false;                  // a latency window logs its maximum instead of its mean
  bool per_job_logs = true;  // false: the clones of a job share one file (no ".N" in its name)
  bool offset = false;       // log_offset: an offset column after the block size
  uint64_t hist_msec = 0;    // log_hist_msec; 0: the clat_hist log stays empty, as in fio
  int hist_coarseness = 0;   // log_hist_coarseness: 2^N of fio's bins summed into one column

  bool Any() const {
    return bw_prefix.has_value() || lat_prefix.has_value() || iops_prefix.has_value() ||
           hist_prefix.has_value();
  }
};

}  // namespace azbench

#endif  // AZBENCH_COMMON_FIO_LOG_OPTIONS_H_

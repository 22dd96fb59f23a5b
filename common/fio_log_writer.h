// Writes fio 3.33's log files (write_bw_log, write_lat_log, write_iops_log, write_hist_log) from
// the op records a job streams (common/job_result.h OpRecord): the files are named
// "<prefix>_<type>.<N>.log", N the clone's thread number (1-based over every clone of every job,
// as fio numbers them), or "<prefix>_<type>.log" for all the clones of a job with per_job_logs=0;
// each line is "time_msec, value, ddir, bs[, offset], prio" (ddir 0 read, 1 write, 2 trim; prio
// always 0).
// log_avg_msec=0: one line per op at its completion: bw = bytes / clat in KiB/s (fio's
// bytes * 10^6 / clat_ns), iops 1, lat / clat / slat in ns. log_avg_msec=M: per M ms window since
// the measured start (ops of ms (kM, (k+1)M]) and per direction, at the window's end: bw KiB/s and
// iops over the window (bs 0, every full window of a direction the clone has done), the mean
// (log_max_value: the maximum) latency of the window's ops (windows with ops, the last partial one
// included), as fio. Failed ops and ops that are not reads, writes or trims are not logged, as in
// fio.
// The clat_hist log (log_hist_msec=H > 0) has lines "time_msec, ddir, bs, c0, .., cK": per
// direction, at the first op that completes H ms or more after the direction's window began, the
// ops' clat counts in fio's latency bins (FioClatBin) since the direction's previous line, that op
// included, 2^log_hist_coarseness bins summed per column. The window then moves on by H ms. Ops
// after a direction's last line are in no line, as in fio.
//
//   auto w = FioLogWriter::Open({{.name = "j", .options = spec.fio_logs, .clones = 2}});
//   (*w)->Append("j", 0, records);  ...  (*w)->Close();
#ifndef AZBENCH_COMMON_FIO_LOG_WRITER_H_
#define AZBENCH_COMMON_FIO_LOG_WRITER_H_

#include <array>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "common/fio_log_options.h"
#include "common/job_result.h"

namespace azbench {

// fio's clat histogram (stat.h FIO_IO_U_PLAT_*): 29 groups of 64 bins; a latency below 128 ns has
// a bin of its own, a larger one keeps its 6 bits below the most significant one (relative error
// below 1/128); from 2^34 ns (about 17 s) on, everything is in the last bin.
inline constexpr int kFioClatBins = 29 * 64;
int FioClatBin(uint64_t latency_ns);

class FioLogWriter {
 public:
  struct Job {
    std::string name;
    FioLogOptions options;
    int clones = 1;  // numjobs
  };

  // Creates (truncates) every log file of `jobs`, each relative prefix preceded by `path_prefix`
  // (e.g. "logs/agent-1."; empty: in the current directory); thread numbers follow the order of
  // `jobs`. Jobs without logs only take thread numbers. Errors: the errno's code from creating a
  // file, naming it.
  static absl::StatusOr<std::unique_ptr<FioLogWriter>> Open(const std::vector<Job>& jobs,
                                                            const std::string& path_prefix = "");
  ~FioLogWriter();

  // True when `job` writes any log (Append ignores the records of others).
  bool Wants(const std::string& job) const;
  // Records of clone `clone` (0-based) of `job`, in the order the clone completed them.
  // Errors: Internal naming the file when a write fails.
  absl::Status Append(const std::string& job, int clone, const std::vector<OpRecord>& records);
  // Writes the last partial windows and closes the files. Errors: Internal naming the file.
  absl::Status Close();

 private:
  enum LogType { kBw = 0, kIops, kLat, kClat, kSlat, kHist, kLogTypes };
  struct Direction {
    bool seen = false;
    uint64_t bytes = 0;
    uint64_t ops = 0;
    // Per latency type (lat, clat, slat): sum, samples and maximum of the window.
    std::array<uint64_t, 3> sum_ns{};
    std::array<uint64_t, 3> samples{};
    std::array<uint64_t, 3> max_ns{};
  };
  // A direction's clat_hist window: when it began (fio's hist_last, 0 until an op sets it) and
  // its ops' bins since the direction's previous line.
  struct HistWindow {
    uint64_t began_ms = 0;
    std::vector<uint64_t> bins;
  };
  struct CloneLog {
    const FioLogOptions* options = nullptr;
    std::array<std::FILE*, kLogTypes> files{};
    uint64_t window = 0;  // index of the open averaging window
    std::array<Direction, 3> dirs;
    std::array<HistWindow, 3> hist;
  };

  FioLogWriter() = default;
  absl::Status Line(CloneLog& log, LogType type, uint64_t time_ms, uint64_t value, int ddir,
                    uint64_t bs, uint64_t offset);
  // Counts an op's clat in its direction's clat_hist window; writes the window's line when the op
  // ends it.
  absl::Status CountHist(CloneLog& log, int ddir, uint64_t time_ms, uint64_t clat_ns, uint64_t bs);
  // Writes the open window of `log` and opens the next; `last`: the run's end (no bw/iops line
  // for a partial window).
  absl::Status EndWindow(CloneLog& log, bool last);

  std::vector<Job> jobs_;
  std::map<std::string, std::FILE*> files_;  // by path: jobs with the same prefix share a file
  std::map<std::FILE*, std::string> paths_;
  std::map<std::pair<std::string, int>, CloneLog> clones_;
};

}  // namespace azbench

#endif  // AZBENCH_COMMON_FIO_LOG_WRITER_H_

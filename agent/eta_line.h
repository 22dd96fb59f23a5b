// fio's status line as text: what fio 3.33's display_thread_status prints from its jobs_eta, byte
// for byte. The figures come from agent/eta_status.h; this file only formats.
//
//   EtaLineDisplay display(/*newline_every=*/absl::Seconds(1));
//   std::fputs(display.Render(jobs_eta, now).c_str(), stdout);
//   // "Jobs: 2 (f=2): [m(2)][60.0%][r=104MiB/s,w=105MiB/s][r=26.6k,w=26.8k IOPS][eta 00m:02s]\r"
#ifndef AZBENCH_AGENT_ETA_LINE_H_
#define AZBENCH_AGENT_ETA_LINE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace azbench {

// fio's jobs_eta: the run at one instant.
struct JobsEta {
  // fio's INT_MAX: no ETA yet (the first 3 s); the line then shows the job counts only.
  static constexpr uint64_t kEtaUnknown = 0x7fffffff;
  int nr_running = 0;  // running, verifying, fsyncing, finishing or in ramp_time
  int nr_ramp = 0;
  int nr_setting_up = 0;
  int files_open = 0;
  // The running jobs' rate limits, summed per direction: bytes/s and IOPS (0: none).
  std::array<uint64_t, 3> rate_min_bytes_per_s{};
  std::array<uint64_t, 3> rate_max_bytes_per_s{};
  std::array<uint64_t, 3> rate_min_iops{};
  std::array<uint64_t, 3> rate_max_iops{};
  // Per direction over the last display interval: KiB/s (fio's unit here) and IOPS.
  std::array<uint64_t, 3> rate_kib_per_s{};
  std::array<uint64_t, 3> iops{};
  uint64_t elapsed_sec = 0;
  uint64_t eta_sec = kEtaUnknown;
  bool is_pow2 = true;  // kb_base=1024: KiB, MiB; else kB, MB
  std::string run_str;  // condensed, "R(1),m(2)" (CondenseRunString)
};

// fio's num2str: `num` (in units of `base`) with at most `max_digits` digits, scaled by 1000 or
// (pow2) 1024 with the prefix k/M/G or Ki/Mi/Gi, rounded as fio rounds. "31.5k", "1024KiB/s".
enum class Num2StrUnit { kNone, kBytesPerSecond };
std::string FioNum2Str(uint64_t num, int max_digits, int base, bool pow2, Num2StrUnit unit);

// fio's eta_to_str: "00m:06s", "01h:02m:03s", "01d:00h:00m:05s".
std::string FioEtaToStr(uint64_t eta_sec);

// fio's update_condensed_str: one state character per job clone ("RRmm_") as runs,
// "R(2),m(2),_(1)".
std::string CondenseRunString(absl::string_view states);

// fio's display_thread_status: keeps what fio keeps between two lines (the last line's length, for
// the padding that blanks a longer predecessor; whether a percentage was shown; when --eta-newline
// next starts a new line).
class EtaLineDisplay {
 public:
  // `newline_every` zero: the line is always rewritten in place (fio without --eta-newline).
  explicit EtaLineDisplay(absl::Duration newline_every = absl::ZeroDuration())
      : newline_every_(newline_every) {}
  // The text to print at `now` (any steady clock): a leading "\n" when --eta-newline's time has
  // passed since the last new line, the line, padding, "\r".
  std::string Render(const JobsEta& je, absl::Time now);

 private:
  absl::Duration newline_every_;
  std::optional<absl::Time> last_newline_;
  bool newline_pending_ = false;
  int last_length_ = 0;
  bool eta_good_ = false;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ETA_LINE_H_

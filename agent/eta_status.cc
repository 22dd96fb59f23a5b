#include "agent/eta_status.h"

#include <algorithm>
#include <string>

namespace azbench {

namespace {

// Whole milliseconds from `from_ns` to `to_ns` (0 when `to_ns` is earlier), as fio's mtime_since.
uint64_t MillisBetween(uint64_t from_ns, uint64_t to_ns) {
  return to_ns > from_ns ? (to_ns - from_ns) / 1'000'000 : 0;
}

// Seconds rounded up, as fio's elapsed figures.
uint64_t SecondsUp(uint64_t ms) { return (ms + 999) / 1000; }

uint64_t WholeSeconds(absl::Duration d) { return static_cast<uint64_t>(absl::ToInt64Seconds(d)); }

bool IsRunning(CloneRunState state) {
  return state == CloneRunState::kRunning || state == CloneRunState::kVerifying ||
         state == CloneRunState::kFsyncing || state == CloneRunState::kFinishing;
}

}  // namespace

char RunStateChar(const JobEtaProfile& profile, CloneRunState state) {
  switch (state) {
    case CloneRunState::kPending:
      return 'P';
    case CloneRunState::kRamp:
      return '/';
    case CloneRunState::kRunning:
      return profile.running_char;
    case CloneRunState::kVerifying:
      return 'V';
    case CloneRunState::kFsyncing:
      return 'F';
    case CloneRunState::kFinishing:
      return 'f';
    case CloneRunState::kDone:
      return '_';
    case CloneRunState::kFailed:
      return 'X';
  }
  return '?';
}

uint64_t CloneEtaSeconds(const JobEtaProfile& profile, const CloneProgressSample& sample,
                         uint64_t now_monotonic_ns, uint64_t done_secs) {
  const uint64_t timeout = WholeSeconds(profile.runtime);
  const bool has_timeout = profile.runtime > absl::ZeroDuration();
  const uint64_t bytes_total = profile.total_io_bytes;
  if (sample.state == CloneRunState::kRunning || sample.state == CloneRunState::kVerifying) {
    const uint64_t elapsed = SecondsUp(MillisBetween(sample.epoch_monotonic_ns, now_monotonic_ns));
    double perc = 0.0;
    if (bytes_total > 0) {
      const uint64_t bytes_done = sample.bytes[0] + sample.bytes[1] + sample.bytes[2];
      perc = std::min(1.0, static_cast<double>(bytes_done) / static_cast<double>(bytes_total));
    }
    if (profile.time_based) {
      perc = timeout > 0
                 ? std::min(perc, static_cast<double>(elapsed) / static_cast<double>(timeout))
                 : 0.0;
    }
    uint64_t eta =
        perc == 0.0 ? timeout
                    : static_cast<uint64_t>(static_cast<double>(elapsed) * (1.0 / perc)) - elapsed;
    // Bounded by the runtime left; unsigned as fio's, so a clone past its whole seconds of
    // runtime is not bounded at all.
    if (has_timeout && eta > timeout + done_secs - elapsed) eta = timeout + done_secs - elapsed;
    return eta;
  }
  if (sample.state == CloneRunState::kPending || sample.state == CloneRunState::kRamp) {
    // A guess: the whole runtime (with startdelay and ramp_time) if given, or the size at the
    // rate if one is set; the smaller of the two.
    uint64_t t_eta = 0;
    if (has_timeout) {
      t_eta = WholeSeconds(profile.runtime + profile.start_delay + profile.ramp_time);
      if (sample.state == CloneRunState::kRamp) {
        const uint64_t ramp_spent =
            SecondsUp(MillisBetween(sample.epoch_monotonic_ns, now_monotonic_ns));
        if (ramp_spent <= t_eta) t_eta -= ramp_spent;
      }
    }
    uint64_t rate_bytes = 0;
    for (int d = 0; d < kProgressDirections; ++d) {
      if (profile.directions[d]) rate_bytes += profile.rate_bytes_per_s[d];
    }
    uint64_t r_eta = 0;
    if (rate_bytes > 0) r_eta = bytes_total / rate_bytes + WholeSeconds(profile.start_delay);
    if (r_eta > 0 && t_eta > 0) return std::min(r_eta, t_eta);
    return r_eta > 0 ? r_eta : t_eta;
  }
  return 0;  // ended, or syncing and finishing
}

std::optional<JobsEta> EtaCalculator::Calc(const std::vector<CloneEtaInput>& clones,
                                           uint64_t now_monotonic_ns) {
  // Until the first bytes, the rates (and the interval's slack) count from genesis, as fio's.
  if (prev_bytes_[0] + prev_bytes_[1] + prev_bytes_[2] == 0) prev_ns_ = genesis_ns_;
  JobsEta je;
  je.is_pow2 = false;
  je.elapsed_sec = SecondsUp(MillisBetween(genesis_ns_, now_monotonic_ns));
  uint64_t done_secs = 0;
  for (const CloneEtaInput& c : clones) {
    if (c.sample.end_monotonic_ns != 0) {
      done_secs += MillisBetween(c.sample.epoch_monotonic_ns, c.sample.end_monotonic_ns) / 1000;
    }
  }
  int nr_pending = 0;
  bool exitall = false;
  std::string states;
  std::vector<uint64_t> etas;
  PerDirection bytes{}, ops{};
  for (const CloneEtaInput& c : clones) {
    const JobEtaProfile& p = *c.profile;
    const CloneRunState state = c.sample.state;
    je.is_pow2 |= p.kb_base_pow2;
    exitall |= p.exitall;
    if (IsRunning(state)) {
      ++je.nr_running;
      for (int d = 0; d < kProgressDirections; ++d) {
        if (!p.directions[d]) continue;
        je.rate_max_bytes_per_s[d] += p.rate_bytes_per_s[d];
        je.rate_min_bytes_per_s[d] += p.rate_min_bytes_per_s[d];
        je.rate_max_iops[d] += p.rate_iops[d];
        je.rate_min_iops[d] += p.rate_iops_min[d];
      }
      je.files_open += p.files_open;
    } else if (state == CloneRunState::kRamp) {
      ++je.nr_running;
      ++je.nr_ramp;
    } else if (state == CloneRunState::kPending) {
      ++nr_pending;
    }
    etas.push_back(je.elapsed_sec >= 3 ? CloneEtaSeconds(p, c.sample, now_monotonic_ns, done_secs)
                                       : JobsEta::kEtaUnknown);
    states += RunStateChar(p, state);
    // As fio's, a clone's bytes count from its ramp's end.
    if (state != CloneRunState::kPending && state != CloneRunState::kRamp) {
      for (int d = 0; d < kProgressDirections; ++d) {
        bytes[d] += c.sample.bytes[d];
        ops[d] += c.sample.ops[d];
      }
    }
  }
  if (exitall) {
    je.eta_sec = JobsEta::kEtaUnknown;
    for (const uint64_t eta : etas) je.eta_sec = std::min(je.eta_sec, eta);
  } else {
    // A stonewalled job still waiting runs after the others: its time adds up.
    uint64_t stone = 0;
    je.eta_sec = 0;
    for (size_t i = 0; i < clones.size(); ++i) {
      if (clones[i].sample.state == CloneRunState::kPending && clones[i].profile->stonewall &&
          clones[i].first_clone) {
        stone += etas[i];
      } else {
        je.eta_sec = std::max(je.eta_sec, etas[i]);
      }
    }
    je.eta_sec += stone;
  }
  const uint64_t disp_ms = MillisBetween(prev_ns_, now_monotonic_ns);
  if (disp_ms <= static_cast<uint64_t>(eta_interval_ms_) * 95 / 100) return std::nullopt;
  for (int d = 0; d < kProgressDirections; ++d) {
    const uint64_t byte_diff = bytes[d] >= prev_bytes_[d] ? bytes[d] - prev_bytes_[d] : 0;
    const uint64_t op_diff = ops[d] >= prev_ops_[d] ? ops[d] - prev_ops_[d] : 0;
    je.rate_kib_per_s[d] = disp_ms > 0 ? 1000 * byte_diff / disp_ms / 1024 : 0;
    je.iops[d] = disp_ms > 0 ? op_diff * 1000 / disp_ms : 0;
  }
  prev_bytes_ = bytes;
  prev_ops_ = ops;
  prev_ns_ = now_monotonic_ns;
  if (je.nr_running == 0 && nr_pending == 0) return std::nullopt;
  je.run_str = CondenseRunString(states);
  return je;
}

}  // namespace azbench

#include "agent/workloads/job_progress.h"

#include <algorithm>
#include <utility>

namespace azbench {

void CloneProgress::Start(uint64_t now_monotonic_ns, bool ramp) {
  epoch_ns_.store(now_monotonic_ns, std::memory_order_relaxed);
  SetState(ramp ? CloneRunState::kRamp : CloneRunState::kRunning);
}

void CloneProgress::EndRamp(uint64_t measured_start_monotonic_ns) {
  epoch_ns_.store(measured_start_monotonic_ns, std::memory_order_relaxed);
  SetState(CloneRunState::kRunning);
}

void CloneProgress::Publish(const PerDirection& bytes, const PerDirection& ops) {
  for (int d = 0; d < kProgressDirections; ++d) {
    bytes_[d].store(bytes[d], std::memory_order_relaxed);
    ops_[d].store(ops[d], std::memory_order_relaxed);
  }
}

void CloneProgress::End(uint64_t now_monotonic_ns, bool failed) {
  end_ns_.store(now_monotonic_ns, std::memory_order_relaxed);
  SetState(failed ? CloneRunState::kFailed : CloneRunState::kDone);
}

CloneProgressSample CloneProgress::Sample() const {
  CloneProgressSample s;
  s.state = state_.load(std::memory_order_acquire);
  for (int d = 0; d < kProgressDirections; ++d) {
    s.bytes[d] = bytes_[d].load(std::memory_order_relaxed);
    s.ops[d] = ops_[d].load(std::memory_order_relaxed);
  }
  s.epoch_monotonic_ns = epoch_ns_.load(std::memory_order_relaxed);
  s.end_monotonic_ns = end_ns_.load(std::memory_order_relaxed);
  return s;
}

JobEtaProfile EtaProfileOf(const JobSpec& spec, int clone_index) {
  JobEtaProfile p;
  const bool reads = DoesRead(spec.rw);
  const bool writes = DoesWrite(spec.rw);
  const bool random = IsRandom(spec.rw);
  p.directions = {reads, writes, DoesTrim(spec.rw)};
  // fio's rwmix: rwmixread of the reads, the rest of the writes.
  const int read_percent = spec.rwmixread_percent;
  char c = 'D';
  if (reads && writes) {
    c = read_percent == 100 ? 'R' : read_percent == 0 ? 'W' : 'M';
  } else if (reads) {
    c = 'R';
  } else if (writes) {
    c = 'W';
  }
  p.running_char = random ? static_cast<char>(c - 'A' + 'a') : c;
  const uint64_t loops = static_cast<uint64_t>(std::max(1, spec.loops));
  p.total_io_bytes = spec.CloneIoSize(clone_index) * loops;
  // A write job that verifies afterwards reads back what it wrote: fio counts that into the total
  // (a mixed job's writes only, by their share).
  if (spec.do_verify && spec.EffectiveVerify() != VerifyType::kNone && writes) {
    if (reads) {
      const uint64_t write_percent = read_percent == 100 ? 50 : 100 - read_percent;
      p.total_io_bytes += p.total_io_bytes * write_percent / 100;
    } else {
      p.total_io_bytes *= 2;
    }
  }
  p.time_based = spec.time_based;
  p.runtime = spec.runtime;
  p.ramp_time = spec.ramp_time;
  p.start_delay = spec.startdelay;
  for (int d = 0; d < 2; ++d) {
    p.rate_bytes_per_s[d] = spec.rate_bytes_per_s[d];
    p.rate_min_bytes_per_s[d] = spec.rate_min_bytes_per_s[d];
    p.rate_iops[d] = spec.rate_iops[d];
    p.rate_iops_min[d] = spec.rate_iops_min[d];
  }
  p.stonewall = spec.stonewall;
  p.exitall = spec.exitall;
  p.kb_base_pow2 = spec.kb_base == 1024;
  p.files_open = spec.openfiles > 0 ? std::min(spec.openfiles, spec.nrfiles) : spec.nrfiles;
  return p;
}

JobProgress::JobProgress(std::vector<JobEtaProfile> clone_profiles)
    : profiles(std::move(clone_profiles)) {
  for (size_t i = 0; i < profiles.size(); ++i) clones.push_back(std::make_unique<CloneProgress>());
}

}  // namespace azbench

#include "agent/runner/steady_state_monitor.h"

#include <utility>

#include "absl/time/time.h"
#include "common/clock.h"

namespace azbench {
namespace {

constexpr uint64_t kSampleNs = 1'000'000'000;  // fio samples steady state once per second

}  // namespace

SteadyStateMonitor::SteadyStateMonitor(std::vector<Job> jobs, std::function<void(size_t)> end_job,
                                       std::function<bool(size_t)> running)
    : end_job_(std::move(end_job)), running_(std::move(running)) {
  absl::MutexLock lock(&mu_);
  for (Job& job : jobs) {
    const SteadyStatePolicy& policy = job.policy;
    if (!policy.spec.enabled()) continue;
    // A reporting group's jobs share one unit, judged when its last job is sampled (fio keeps a
    // group's window in its last thread).
    Unit* unit = nullptr;
    if (policy.group_reporting) {
      for (Unit& u : units_) {
        const SteadyStatePolicy& first = u.members.front().job.policy;
        if (first.group_reporting && first.group_id == policy.group_id) unit = &u;
      }
    }
    if (unit == nullptr) {
      units_.emplace_back();
      unit = &units_.back();
      unit->detector = std::make_unique<SteadyStateDetector>(policy.spec);
    }
    unit->members.push_back(Member{.job = std::move(job)});
  }
  active_ = !units_.empty();
}

SteadyStateMonitor::~SteadyStateMonitor() { Stop(); }

void SteadyStateMonitor::Arm(uint64_t start_ns) {
  absl::MutexLock lock(&mu_);
  for (Unit& unit : units_) {
    for (Member& m : unit.members) {
      m.epoch_ns =
          start_ns + static_cast<uint64_t>(absl::ToInt64Nanoseconds(m.job.policy.ramp_time));
      m.prev_ns = m.epoch_ns;
      m.ramp_over = m.job.policy.spec.ramp <= absl::ZeroDuration();
    }
  }
}

void SteadyStateMonitor::Start(uint64_t start_ns) {
  if (!active_) return;
  Arm(start_ns);
  thread_ = std::thread([this, start_ns] {
    for (uint64_t next = start_ns + kSampleNs;; next += kSampleNs) {
      const uint64_t now = MonotonicNanos();
      if (next > now && stop_.WaitForNotificationWithTimeout(
                            absl::Nanoseconds(static_cast<int64_t>(next - now)))) {
        return;
      }
      if (stop_.HasBeenNotified()) return;
      Check(MonotonicNanos());
    }
  });
}

void SteadyStateMonitor::Stop() {
  if (!stop_.HasBeenNotified()) stop_.Notify();
  if (thread_.joinable()) thread_.join();
}

void SteadyStateMonitor::Check(uint64_t now_ns) {
  std::vector<size_t> to_end;
  {
    absl::MutexLock lock(&mu_);
    for (Unit& unit : units_) {
      if (unit.detector->attained()) continue;
      uint64_t group_iops = 0, group_bw = 0;
      int ramp_over = 0;
      for (size_t k = 0; k < unit.members.size(); ++k) {
        Member& m = unit.members[k];
        // Before its measured start a job is in its ramp_time, and once ended it is gone: fio
        // samples neither.
        if (now_ns < m.epoch_ns || !running_(m.job.index)) continue;
        const SteadyStateSpec& spec = m.job.policy.spec;
        if (!m.ramp_over) {
          // Samples count from one second after ss_ramp.
          m.ramp_over =
              now_ns - m.epoch_ns >=
              static_cast<uint64_t>(absl::ToInt64Nanoseconds(spec.ramp + absl::Seconds(1)));
        }
        const uint64_t ops = m.job.workload->ops_done();
        const uint64_t bytes = m.job.workload->bytes_done();
        const uint64_t rate_ms = (now_ns - m.prev_ns) / 1'000'000;
        m.prev_ns = now_ns;
        if (m.ramp_over && rate_ms > 0) {
          group_bw += 1000 * (bytes - m.prev_bytes) / rate_ms;
          group_iops += 1000 * (ops - m.prev_ops) / rate_ms;
          ++ramp_over;
        }
        m.prev_ops = ops;
        m.prev_bytes = bytes;
        if (k + 1 < unit.members.size() || ramp_over == 0) continue;
        if (unit.detector->Add(group_iops, group_bw)) {
          for (const Member& member : unit.members) to_end.push_back(member.job.index);
        }
      }
    }
  }
  for (size_t index : to_end) end_job_(index);
}

std::optional<SteadyStateResult> SteadyStateMonitor::Result(size_t index) const {
  absl::MutexLock lock(&mu_);
  for (const Unit& unit : units_) {
    for (const Member& m : unit.members) {
      if (m.job.index == index) return unit.detector->Result();
    }
  }
  return std::nullopt;
}

}  // namespace azbench

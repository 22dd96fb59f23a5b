#include "coordinator/run_progress.h"

#include <algorithm>

namespace azbench {

ProgressMeter::ProgressMeter(size_t agents, int64_t start_ns)
    : latest_(agents), start_ns_(start_ns), last_sample_ns_(start_ns) {}

void ProgressMeter::Started(size_t, int64_t) {}

void ProgressMeter::Report(size_t agent, const ProgressReport& report) {
  if (agent < latest_.size()) latest_[agent] = report;
}

void ProgressMeter::Ended(size_t) {}

// The increase of the summed counters since the last sample, over the coordinator's time between
// the two samples.
void ProgressMeter::Sample(int64_t now_ns, LiveProgress& p) {
  p.ops = 0;
  p.bytes = 0;
  for (const ProgressReport& r : latest_) {
    p.ops += r.ops;
    p.bytes += r.bytes;
  }
  p.elapsed_s = now_ns > start_ns_ ? static_cast<double>(now_ns - start_ns_) / 1e9 : 0;
  const double dt = static_cast<double>(now_ns - last_sample_ns_) / 1e9;
  p.ops_per_s = 0;
  p.bytes_per_s = 0;
  if (dt > 0) {
    p.ops_per_s = static_cast<double>(p.ops - std::min(p.ops, last_ops_)) / dt;
    p.bytes_per_s = static_cast<double>(p.bytes - std::min(p.bytes, last_bytes_)) / dt;
  }
  last_ops_ = p.ops;
  last_bytes_ = p.bytes;
  last_sample_ns_ = now_ns;
}

}  // namespace azbench

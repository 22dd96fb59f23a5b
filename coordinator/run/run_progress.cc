#include "coordinator/run/run_progress.h"

namespace azbench {

ProgressMeter::ProgressMeter(size_t agents, int64_t start_ns)
    : agents_(agents), start_ns_(start_ns) {}

void ProgressMeter::Started(size_t agent, int64_t agent_realtime_ns) {
  Report(agent, {agent_realtime_ns, 0, 0});
}

void ProgressMeter::Report(size_t agent, const ProgressReport& report) {
  if (agent >= agents_.size()) return;
  std::deque<ProgressReport>& window = agents_[agent].window;
  if (!window.empty()) {
    const ProgressReport& newest = window.back();
    if (report.ops < newest.ops || report.bytes < newest.bytes ||
        report.agent_realtime_ns <= newest.agent_realtime_ns) {
      window.clear();
    }
  }
  window.push_back(report);
  // Keep one report at or before (newest - window) as the base, none older.
  const int64_t window_start_ns =
      report.agent_realtime_ns - absl::ToInt64Nanoseconds(kProgressRateWindow);
  while (window.size() >= 2 && window[1].agent_realtime_ns <= window_start_ns) window.pop_front();
}

void ProgressMeter::Ended(size_t agent) {
  if (agent < agents_.size()) agents_[agent].ended = true;
}

void ProgressMeter::Sample(int64_t now_ns, LiveProgress& p) const {
  p.ops = 0;
  p.bytes = 0;
  p.ops_per_s = 0;
  p.bytes_per_s = 0;
  for (const Agent& a : agents_) {
    if (a.window.empty()) continue;
    const ProgressReport& base = a.window.front();
    const ProgressReport& newest = a.window.back();
    p.ops += newest.ops;
    p.bytes += newest.bytes;
    // Instants strictly increase along the window (Report), so two reports span some time.
    if (a.ended || a.window.size() < 2) continue;
    const double span_s =
        static_cast<double>(newest.agent_realtime_ns - base.agent_realtime_ns) / 1e9;
    p.ops_per_s += static_cast<double>(newest.ops - base.ops) / span_s;
    p.bytes_per_s += static_cast<double>(newest.bytes - base.bytes) / span_s;
  }
  p.elapsed_s = now_ns > start_ns_ ? static_cast<double>(now_ns - start_ns_) / 1e9 : 0;
}

}  // namespace azbench

// The phase barrier of a started run (coordinator/run/run.h): a phased workload's agents (metadata)
// report PhaseDone after each phase and wait; once every agent still running has, the next phase is
// released on all of them at one instant, mdtest's barrier across all clients. Internal to running
// a scenario (run_internal.h).
#include <chrono>
#include <thread>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "coordinator/run/run_internal.h"

namespace azbench::run_internal {

namespace {

// True once every agent still running reported PhaseDone for phase `released` (agents that
// finished or were lost do not hold the others back). Takes live.mu.
bool BarrierReached(LiveRun& live, int released) {
  absl::MutexLock lock(&live.mu);
  int waiting = 0, active = 0;
  for (const AgentRun& r : live.runs) {
    if (r.member == nullptr || r.lost || r.finished) continue;
    ++active;
    if (r.phases_done > released) ++waiting;
  }
  return active > 0 && waiting == active;
}

// Releases phase `phase_index` + 1 on every agent at `at_ns` (coordinator clock), in parallel.
void ReleaseEverywhere(LiveRun& live, int phase_index, int64_t at_ns) {
  std::vector<std::thread> calls;
  for (AgentRun& r : live.runs) {
    if (r.member == nullptr) continue;
    calls.emplace_back([&live, &r, phase_index, at_ns] {
      v1::ProceedRequest proceed;
      proceed.set_run_id(live.run_id);
      proceed.set_phase_index(phase_index);
      proceed.set_start_at_agent_realtime_ns(at_ns + r.offset_ns);
      // A call lost on the way is made again; an agent that cannot be told (it answers with
      // anything else, or for 60 s) is cancelled, which ends its stream, instead of holding the
      // others at the barrier for ever.
      const absl::Status s = ProceedUntilDelivered(
          *r.member->client, proceed, absl::Seconds(10),
          [&] {
            absl::MutexLock lock(&live.mu);
            return !r.finished && !r.lost && !live.all_done.load();
          },
          absl::Seconds(60), absl::Milliseconds(200));
      if (s.ok()) return;
      {
        absl::MutexLock lock(&live.mu);
        if (r.finished || r.lost) return;
        r.errors.push_back(absl::StrCat("could not be told to start the phase after barrier ",
                                        proceed.phase_index(), ": ", s.message()));
      }
      (void)r.member->client->Cancel(live.run_id, absl::Seconds(5));
    });
  }
  for (auto& t : calls) t.join();
}

}  // namespace

void DrivePhaseBarriers(LiveRun& live) {
  int released = 0;  // barriers released so far
  while (!live.all_done.load()) {
    if (!BarrierReached(live, released)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    // Like the first start, in each agent's own clock.
    const int64_t at = RealtimeNanos() + absl::ToInt64Nanoseconds(live.options.phase_start_margin);
    ReleaseEverywhere(live, released, at);
    ++released;
  }
}

}  // namespace azbench::run_internal

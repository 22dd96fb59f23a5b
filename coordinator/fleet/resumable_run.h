// Reading one agent's run stream to the end across short breaks (agent.proto Run and Attach): the
// events' seq numbers say what was received; when the stream ends without RunFinished, and the
// coordinator did not stop it itself, Attach(run_id, last seq) is tried every retry_pause until the
// agent answers or its reattach grace is over, events already received are skipped, and the rest
// go to the same consumer as if the stream had never broken. Only when no reattach is possible
// (the agent answers NOT_FOUND or DATA_LOSS, or is unreachable for the whole grace) is the stream's
// end final, as without resuming.
//
//   ResumeOptions resume;
//   resume.grace = member.info.reattach_grace;
//   resume.on_resumed = [&](const StreamResume& r) { warn(r.down_ns); };
//   absl::Status status = RunResumable(client, request, on_event, resume);
#ifndef AZBENCH_COORDINATOR_FLEET_RESUMABLE_RUN_H_
#define AZBENCH_COORDINATOR_FLEET_RESUMABLE_RUN_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "azbench/v1/agent.pb.h"
#include "coordinator/fleet/agent_client.h"

namespace azbench {

// One break of the stream that was resumed.
struct StreamResume {
  int64_t down_ns = 0;     // from the stream's end to the first event of the Attach stream
  uint64_t after_seq = 0;  // the last event received before the break
  int attempts = 0;        // Attach calls made (the last one succeeded)
};

struct ResumeOptions {
  // How long to try to reattach after a break (the agent's reattach grace); zero = never.
  absl::Duration grace = absl::Seconds(30);
  absl::Duration retry_pause = absl::Milliseconds(200);
  // Asked before every Attach: false stops trying (the coordinator is cancelling the run).
  std::function<bool()> keep_trying;
  // Called (on the calling thread) when a break was resumed, before the first event after it.
  std::function<void(const StreamResume&)> on_resumed;
  // When an answer ends the stream for good without RunFinished (a refused Attach, a local error
  // such as RESOURCE_EXHAUSTED), the agent may still be running it: a Cancel is sent, waiting at
  // most this long (zero: none). Not when on_event or keep_trying stopped it.
  absl::Duration cancel_timeout = absl::Seconds(5);
};

// "the run stream from agent a1 broke and was resumed after 350ms (after event 41, attempt 2); no
// event was lost": the warning a scenario keeps.
std::string DescribeResume(const std::string& agent_id, const StreamResume& resume);

// Runs `request` on `client`, feeding every event once, in order, to `on_event` (returning false
// cancels the stream; it is not resumed). Returns, once RunFinished came, the run's own outcome it
// carries (RunFinished.outcome: OK, or a job's error), whatever status the stream then ended with
// (a break just after RunFinished is no failure of the run); from an agent that sends no outcome,
// the status of the last stream. Without RunFinished: the break's error (with why it could not be
// resumed), after a best-effort Cancel (ResumeOptions::cancel_timeout) when the agent may still
// run it unobserved.
absl::Status RunResumable(AgentClient& client, const v1::RunRequest& request,
                          const std::function<bool(const v1::RunEvent&)>& on_event,
                          const ResumeOptions& options);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_FLEET_RESUMABLE_RUN_H_

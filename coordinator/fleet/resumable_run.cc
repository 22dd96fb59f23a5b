#include "coordinator/fleet/resumable_run.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/proto_convert.h"

namespace azbench {

namespace {

// An answer that says the run cannot be followed (again) on this agent: no point in retrying.
bool Final(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kDataLoss:
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnauthenticated:
    case absl::StatusCode::kResourceExhausted:
    case absl::StatusCode::kUnimplemented:
    case absl::StatusCode::kOutOfRange:
      return true;
    default:
      return false;
  }
}

absl::Status NotResumed(const absl::Status& broke, const absl::Status& last, const char* why) {
  return absl::Status(
      broke.ok() ? absl::StatusCode::kUnavailable : broke.code(),
      absl::StrCat(
          broke.ok() ? "the stream ended before the run finished" : std::string(broke.message()),
          "; not resumed: ", why, last.ok() ? "" : absl::StrCat(" (", last.message(), ")")));
}

}  // namespace

std::string DescribeResume(const std::string& agent_id, const StreamResume& resume) {
  return absl::StrCat(
      "the run stream from agent ", agent_id, " broke and was resumed after ",
      absl::FormatDuration(absl::Trunc(absl::Nanoseconds(resume.down_ns), absl::Milliseconds(1))),
      " (after event ", resume.after_seq, ", attempt ", resume.attempts, "); no event was lost");
}

absl::Status RunResumable(AgentClient& client, const v1::RunRequest& request,
                          const std::function<bool(const v1::RunEvent&)>& on_event,
                          const ResumeOptions& options) {
  uint64_t last_seq = 0;
  bool finished = false;
  bool stopped = false;
  // The run's outcome as RunFinished carried it (an agent that predates RunFinished.outcome sends
  // none: then the stream's status is the outcome, as it was).
  std::optional<absl::Status> outcome;
  auto consume = [&](const v1::RunEvent& event) {
    if (event.seq() != 0) {
      if (event.seq() <= last_seq) return true;  // already received before the break
      last_seq = event.seq();
    }
    if (event.has_finished()) {
      finished = true;
      if (event.finished().has_outcome()) {
        const absl::Status run = RunOutcomeFromProto(event.finished().outcome());
        // Worded as the stream's status would have been.
        outcome =
            run.ok() ? run : AgentCallError(run.code(), client.address(), "Run", run.message());
      }
    }
    if (!on_event(event)) {
      stopped = true;
      return false;
    }
    return true;
  };
  // Given up on an answer without RunFinished: the agent may still be running it (the Attach was
  // refused, or the error was the coordinator's own) and would go on for its whole grace. (Without
  // a grace a broken stream ends the run; an agent unreachable for the whole grace ended it.)
  auto give_up = [&](absl::Status why) {
    if (options.cancel_timeout > absl::ZeroDuration()) {
      (void)client.Cancel(request.run_id(), options.cancel_timeout);
    }
    return why;
  };
  absl::Status status = client.Run(request, consume);
  while (!finished && !stopped) {
    // The agent does not resume, or the Run itself was refused: as before.
    if (options.grace <= absl::ZeroDuration()) return status;
    if (Final(status)) return give_up(status);
    const absl::Time down_since = absl::Now();
    const absl::Time give_up_at = down_since + options.grace;
    const absl::Status broke = status;
    bool resumed = false;
    for (int attempts = 1;; ++attempts) {
      if (options.keep_trying && !options.keep_trying()) {
        return NotResumed(broke, absl::OkStatus(), "the run is being cancelled");
      }
      v1::AttachRequest attach;
      attach.set_run_id(request.run_id());
      attach.set_after_seq(last_seq);
      // Connection waits of at most a second: keep_trying is asked again soon (Ctrl-C).
      status = client.Attach(
          attach, std::clamp(give_up_at - absl::Now(), absl::Milliseconds(1), absl::Seconds(1)),
          [&](const v1::RunEvent& event) {
            if (!resumed) {
              resumed = true;
              if (options.on_resumed) {
                options.on_resumed({absl::ToInt64Nanoseconds(absl::Now() - down_since),
                                    attach.after_seq(), attempts});
              }
            }
            return consume(event);
          });
      if (resumed) break;  // followed again: finished, stopped, or broken once more
      if (Final(status)) return give_up(NotResumed(broke, status, "the agent cannot replay it"));
      if (absl::Now() + options.retry_pause >= give_up_at) {
        return NotResumed(
            broke, status,
            absl::StrCat("no reattach within ", absl::FormatDuration(options.grace)).c_str());
      }
      absl::SleepFor(options.retry_pause);
    }
  }
  // After RunFinished the stream's own end says nothing more: a break between the two (the
  // status lost on the way) must not turn the run's outcome into UNAVAILABLE.
  if (finished && outcome.has_value()) return *outcome;
  return status;
}

}  // namespace azbench

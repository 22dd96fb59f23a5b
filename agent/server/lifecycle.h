// The serve loop's process lifecycle: the systemd readiness protocol and the signals that stop or
// reload the agent.
//
//   StopAndReloadSignals signals;                 // before any thread starts
//   NotifySystemd("READY=1\nSTATUS=listening");   // once the gRPC server listens
//   while (signals.Wait() == SIGHUP) { ...reload... }
//   NotifySystemd("STOPPING=1");
#ifndef AZBENCH_AGENT_SERVER_LIFECYCLE_H_
#define AZBENCH_AGENT_SERVER_LIFECYCLE_H_

#include <signal.h>

#include <string>

namespace azbench {

// Sends `state` (newline-separated VAR=value assignments, sd_notify(3)) to the service manager
// when NOTIFY_SOCKET names one; does nothing otherwise. Returns whether a message was sent.
bool NotifySystemd(const std::string& state);

// Blocks SIGTERM, SIGINT and SIGHUP in the constructing thread and so in every thread it starts
// later; Wait() returns the next one of them. Construct before starting any thread.
class StopAndReloadSignals {
 public:
  StopAndReloadSignals();
  int Wait();

 private:
  sigset_t set_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_SERVER_LIFECYCLE_H_

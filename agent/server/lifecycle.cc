#include "agent/server/lifecycle.h"

#include <pthread.h>
#include <systemd/sd-daemon.h>

namespace azbench {

bool NotifySystemd(const std::string& state) { return sd_notify(0, state.c_str()) > 0; }

StopAndReloadSignals::StopAndReloadSignals() {
  sigemptyset(&set_);
  sigaddset(&set_, SIGTERM);
  sigaddset(&set_, SIGINT);
  sigaddset(&set_, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &set_, nullptr);
}

int StopAndReloadSignals::Wait() {
  int signal_number = 0;
  while (sigwait(&set_, &signal_number) != 0) {
  }
  return signal_number;
}

}  // namespace azbench

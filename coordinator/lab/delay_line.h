// The lab's delay line: this kernel has no netem, so distance between AZs is added in userspace.
// Policy routing on the router (lab_network.h) sends every packet that leaves AZ i for another AZ
// to AZ i's TUN device; the delay line reads it there, holds it for half the configured round trip
// and writes it to the TUN of the AZ its destination address belongs to, from where the kernel
// delivers it. Packets leave in the order they came (one FIFO: every packet waits the same time).
// Run by the hidden `azbench lab delay-line` in the router namespace until killed.
//
//   DelayLine line(PlanLab(options));
//   RETURN_IF_ERROR(line.Open());
//   line.Run();  // forever
#ifndef AZBENCH_COORDINATOR_LAB_DELAY_LINE_H_
#define AZBENCH_COORDINATOR_LAB_DELAY_LINE_H_

#include <chrono>
#include <deque>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "coordinator/lab/lab_topology.h"

namespace azbench {

class DelayLine {
 public:
  explicit DelayLine(LabTopology lab);
  ~DelayLine();
  DelayLine(const DelayLine&) = delete;
  DelayLine& operator=(const DelayLine&) = delete;

  // Attaches to every AZ's TUN device. Internal naming the device that cannot be opened.
  absl::Status Open();
  // Moves packets until an error; returns it (Internal).
  absl::Status Run();

 private:
  struct Packet {
    std::chrono::steady_clock::time_point due;
    int out_fd;
    std::string bytes;
  };
  void ReadAvailable(int fd);
  void WriteDue(std::chrono::steady_clock::time_point now);

  LabTopology lab_;
  std::chrono::nanoseconds one_way_;
  std::vector<int> fds_;  // per AZ
  std::deque<Packet> queue_;
  std::vector<std::string> spare_;  // buffers of packets sent, for the next ones
};

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_LAB_DELAY_LINE_H_

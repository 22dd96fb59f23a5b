// Simulated agents for the coordinator-cost benchmark: real gRPC servers on loopback speaking the
// agent protocol (Hello, Describe, Prepare, Run, Cancel, Cleanup) without doing I/O. Each Run waits
// for the common start, then every interval (Prepare's interval_ms) sends, per job, one interval
// event with `ops_per_interval` ops of 4 KiB and a realistic sparse latency histogram (lognormal
// around 200 us, ~2,000 samples' worth of buckets), and one progress event; at the job's
// `runtime` it sends each job's result (totals, without the streamed intervals, as a real agent
// does since protocol 2) and `finished`. Agent i is "sim-<i>" in AZ "az-<i % azs>".
//
// The coordinator under test runs in another process: RunSyntheticFleetProcess forks before gRPC
// is initialised, and the child serves every agent until it is killed.
#ifndef AZBENCH_BENCH_SYNTHETIC_FLEET_H_
#define AZBENCH_BENCH_SYNTHETIC_FLEET_H_

#include <sys/types.h>

#include <string>
#include <vector>

namespace azbench {

struct SyntheticFleetOptions {
  int agents = 256;
  int azs = 4;
  uint64_t ops_per_interval = 200;
};

struct SyntheticFleetProcess {
  pid_t pid = -1;
  std::vector<std::string> addresses;  // "127.0.0.1:port", one per agent
};

// Forks the child serving the agents and waits until every one listens. Call it before anything
// in this process uses gRPC. Returns pid -1 (and no addresses) on failure, with a message on
// stderr.
SyntheticFleetProcess StartSyntheticFleet(const SyntheticFleetOptions& options);

// Kills and reaps the child.
void StopSyntheticFleet(SyntheticFleetProcess& fleet);

}  // namespace azbench

#endif  // AZBENCH_BENCH_SYNTHETIC_FLEET_H_

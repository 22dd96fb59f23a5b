// Sample results for tests of the results database (coordinator/store/store.h), and field-by-field
// comparisons of what was saved with what was loaded back (a difference names the field).
//
//   const ScenarioResult saved = testing::MakeResult("target=efs/repeat=1", 0);
//   ...
//   testing::ExpectSameResult(saved, (*loaded)[0]);
#ifndef AZBENCH_TESTS_TESTING_STORE_RESULTS_H_
#define AZBENCH_TESTS_TESTING_STORE_RESULTS_H_

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <utility>

#include "common/histogram.h"
#include "common/job_result.h"
#include "common/op_kind.h"
#include "coordinator/placement_evidence.h"
#include "coordinator/scenario.h"
#include "gtest/gtest.h"

namespace azbench::testing {

inline constexpr int64_t kSecond = 1'000'000'000;
inline constexpr int64_t kT0 = 1'700'000'000 * kSecond;

// A job with read (lat only, as a sync engine) and write (lat, slat, clat) histograms, an interval
// series with a stall, errors and warnings; `seed` varies the samples.
inline JobResult MakeJob(const std::string& name, int seed) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> latency(11.0, 2.0);
  JobResult job;
  job.name = name;
  job.group_id = seed % 3;
  job.clones = 1 + seed % 4;
  job.interval_ns = kSecond;
  job.runtime_ns = 3 * kSecond + 12345;
  job.start_realtime_ns = kT0 + seed;
  job.end_realtime_ns = kT0 + 3 * kSecond + seed;
  OpStats& read = job.Stats(OpKind::kRead);
  OpStats& write = job.Stats(OpKind::kWrite);
  for (int i = 0; i < 500 + seed; ++i) {
    read.lat.Record(static_cast<uint64_t>(latency(rng)));
    const uint64_t slat = static_cast<uint64_t>(latency(rng));
    const uint64_t clat = static_cast<uint64_t>(latency(rng));
    write.slat.Record(slat);
    write.clat.Record(clat);
    write.lat.Record(slat + clat);
  }
  // Samples near the top of the range: the wide moments (sum_ns_hi, sum_sq_top) become non-zero.
  read.lat.Record(std::numeric_limits<uint64_t>::max() - 7);
  read.lat.Record(std::numeric_limits<uint64_t>::max() / 2);
  read.ops = read.lat.count();
  read.bytes = read.ops * 4096;
  read.short_ios = 3;
  write.ops = write.lat.count() - 2;
  write.errors = 2;
  write.bytes = write.ops * 65536;
  for (int64_t i = 0; i < 3; ++i) {
    IntervalStats interval;
    interval.index = i;
    if (i != 1) {  // interval 1 is a stall: nothing completed
      Histogram h;
      for (int n = 0; n < 10 + i; ++n) h.Record(static_cast<uint64_t>(latency(rng)));
      IntervalOpStats& r = interval.by_kind[static_cast<int>(OpKind::kRead)];
      r.ops = h.count();
      r.bytes = r.ops * 4096;
      r.lat = h.ToSparse();
      interval.by_kind[static_cast<int>(OpKind::kWrite)].errors = 1;
    }
    job.intervals.push_back(std::move(interval));
  }
  job.error_errno = 5;
  job.error_message = "write: EIO at offset 4096 of 'f.0'";
  job.warnings = {"buffered I/O on a file smaller than RAM", "second, with \"quotes\""};
  job.cpu = {.threads = 2,
             .wall_ns = static_cast<uint64_t>(6 * kSecond + seed),
             .user_ns = 1'234'567'000,
             .system_ns = 2'345'678'000,
             .voluntary_switches = static_cast<uint64_t>(10'000 + seed),
             .involuntary_switches = 77,
             .minor_faults = 1'024,
             .major_faults = 3};
  job.depth.level = {0, 0, 0, 5, static_cast<uint64_t>(1'000 + seed), 0, 0};
  job.depth.submit = {0, 12, 0, 0, 70, 0, 0};
  job.depth.complete = {3, 400, 20, 1, 0, 0, 0};
  job.continue_on_error = true;
  job.total_err_count = static_cast<uint64_t>(48 + seed);
  job.first_error = 28;
  job.latency_depth = 4 + seed % 8;
  if (seed % 2 == 0) {
    SteadyStateResult& ss = job.steadystate.emplace();
    ss.spec.iops = false;
    ss.spec.limit = 2.5;
    ss.spec.duration = absl::Seconds(2);
    ss.spec.ramp = absl::Milliseconds(500);
    ss.attained = true;
    ss.criterion = 0.125 * seed;
    ss.max_deviation = 3.5;
    ss.slope = -0.5;
    ss.iops = {100, static_cast<uint64_t>(101 + seed)};
    ss.bw = {409'600, 413'696};
  }
  return job;
}

inline ScenarioResult MakeResult(const std::string& key, int index,
                                 ScenarioStatus status = ScenarioStatus::kComplete) {
  ScenarioResult result;
  Scenario& s = result.scenario;
  s.index = index;
  s.key = key;
  s.target = "efs";
  s.workload = "randread";
  s.parameters = {{"iodepth", "16"}, {"nodes", "2"}, {"bs", "4k"}};
  s.repeat = 2;
  s.repeats = 3;
  s.agent_ids = {"10.0.0.1:7480", "10.0.0.2:7480"};
  s.jobs = {ScenarioJob{"rand", "block_io", {{"rw", "randread"}, {"directory", "/mnt/efs"}}, 0},
            ScenarioJob{"seq", "block_io", {{"rw", "read"}}, 1}};
  s.cooldown_s = 2.5;
  // Placement evidence of each agent, in agent_ids order.
  for (const std::string& id : {std::string("10.0.0.1:7480"), std::string("10.0.0.2:7480")}) {
    PlacementEvidence e;
    e.agent_id = id;
    e.target = "efs";
    e.placement = id == "10.0.0.1:7480" ? Placement::kSameAz : Placement::kCrossAz;
    e.agent_az = id == "10.0.0.1:7480" ? "us-east-1a" : "us-east-1b";
    e.agent_az_id = id == "10.0.0.1:7480" ? "use1-az1" : "use1-az2";
    e.az_source = "imds";
    e.server_address = "10.0.1.10";
    e.address_source = "addr=";
    e.subnet = "10.0.1.0/24";
    e.subnet_source = "imds " + id;
    e.server_az = "us-east-1a";
    e.server_az_source = "subnet map";
    e.reason = "addr=10.0.1.10 in 10.0.1.0/24";
    e.mount = "nfs4 fs-1.efs.us-east-1.amazonaws.com:/ on /mnt/efs (hard,rsize=1048576,vers=4.1)";
    s.placements.push_back(e);
  }
  result.status = status;
  result.status_detail = status == ScenarioStatus::kComplete ? "" : "agent 10.0.0.2:7480 lost";
  result.results.push_back(AgentJobResult{"10.0.0.1:7480", MakeJob("rand", index * 10 + 1)});
  result.results.push_back(AgentJobResult{"10.0.0.1:7480", MakeJob("seq", index * 10 + 2)});
  result.results.push_back(AgentJobResult{"10.0.0.2:7480", MakeJob("rand", index * 10 + 3)});
  if (status == ScenarioStatus::kPartial) {
    result.lost.push_back(LostAgent{"10.0.0.2:7480", kT0 + 2 * kSecond, "stream reset"});
  }
  result.planned_start_realtime_ns = kT0 - 1000;
  result.first_start_realtime_ns = kT0 + 1;
  result.last_start_realtime_ns = kT0 + 3;
  result.first_end_realtime_ns = kT0 + 3 * kSecond + 1;
  result.last_end_realtime_ns = kT0 + 3 * kSecond + 3;
  // The clock offsets the scenario used, the second agent's clock 1.5 s ahead.
  result.clock_offsets = {{"10.0.0.1:7480", -20'000 - index, 150'000, kT0 - 2 * kSecond},
                          {"10.0.0.2:7480", 1'500'000'000 + index, 210'000, kT0 - 2 * kSecond}};
  // Two disks under the first agent's directories, one under the second's.
  result.disk_util = {{"10.0.0.1:7480", {"nvme0n1", 1'000u + index, 20, 3, 4, 50, 60, 110, 87.5}},
                      {"10.0.0.1:7480", {"nvme1n1", 0, 2, 0, 0, 0, 1, 1, 0.25}},
                      {"10.0.0.2:7480", {"vdb", uint64_t{1} << 40, 9, 0, 1, 7, 8, 15, 100.0}}};
  return result;
}

inline void ExpectSameJob(const JobResult& a, const JobResult& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.group_id, b.group_id);
  EXPECT_EQ(a.clones, b.clones);
  for (int k = 0; k < kOpKindCount; ++k) {
    SCOPED_TRACE(OpKindName(static_cast<OpKind>(k)));
    ASSERT_EQ(a.by_kind[k] == nullptr, b.by_kind[k] == nullptr);
    if (a.by_kind[k] == nullptr) continue;
    const OpStats& x = *a.by_kind[k];
    const OpStats& y = *b.by_kind[k];
    EXPECT_EQ(x.ops, y.ops);
    EXPECT_EQ(x.bytes, y.bytes);
    EXPECT_EQ(x.errors, y.errors);
    EXPECT_EQ(x.short_ios, y.short_ios);
    EXPECT_TRUE(x.lat == y.lat);
    EXPECT_TRUE(x.slat == y.slat);
    EXPECT_TRUE(x.clat == y.clat);
  }
  EXPECT_TRUE(a.cpu == b.cpu);
  EXPECT_TRUE(a.depth == b.depth);
  EXPECT_EQ(a.continue_on_error, b.continue_on_error);
  EXPECT_EQ(a.total_err_count, b.total_err_count);
  EXPECT_EQ(a.first_error, b.first_error);
  EXPECT_EQ(a.latency_depth, b.latency_depth);
  EXPECT_TRUE(a.steadystate == b.steadystate);
  ASSERT_EQ(a.intervals.size(), b.intervals.size());
  for (size_t i = 0; i < a.intervals.size(); ++i) {
    EXPECT_EQ(a.intervals[i].index, b.intervals[i].index);
    for (int k = 0; k < kOpKindCount; ++k) {
      const IntervalOpStats& x = a.intervals[i].by_kind[k];
      const IntervalOpStats& y = b.intervals[i].by_kind[k];
      EXPECT_EQ(x.ops, y.ops);
      EXPECT_EQ(x.bytes, y.bytes);
      EXPECT_EQ(x.errors, y.errors);
      EXPECT_TRUE(x.lat == y.lat);
    }
  }
  EXPECT_EQ(a.interval_ns, b.interval_ns);
  EXPECT_EQ(a.runtime_ns, b.runtime_ns);
  EXPECT_EQ(a.start_realtime_ns, b.start_realtime_ns);
  EXPECT_EQ(a.end_realtime_ns, b.end_realtime_ns);
  EXPECT_EQ(a.error_errno, b.error_errno);
  EXPECT_EQ(a.error_message, b.error_message);
  EXPECT_EQ(a.warnings, b.warnings);
}

inline void ExpectSameResult(const ScenarioResult& a, const ScenarioResult& b) {
  SCOPED_TRACE(a.scenario.key);
  EXPECT_EQ(a.scenario.index, b.scenario.index);
  EXPECT_EQ(a.scenario.key, b.scenario.key);
  EXPECT_EQ(a.scenario.target, b.scenario.target);
  EXPECT_EQ(a.scenario.workload, b.scenario.workload);
  EXPECT_EQ(a.scenario.parameters, b.scenario.parameters);
  EXPECT_EQ(a.scenario.repeat, b.scenario.repeat);
  EXPECT_EQ(a.scenario.repeats, b.scenario.repeats);
  EXPECT_EQ(a.scenario.agent_ids, b.scenario.agent_ids);
  ASSERT_EQ(a.scenario.jobs.size(), b.scenario.jobs.size());
  for (size_t i = 0; i < a.scenario.jobs.size(); ++i) {
    EXPECT_EQ(a.scenario.jobs[i].name, b.scenario.jobs[i].name);
    EXPECT_EQ(a.scenario.jobs[i].workload, b.scenario.jobs[i].workload);
    EXPECT_EQ(a.scenario.jobs[i].options, b.scenario.jobs[i].options);
    EXPECT_EQ(a.scenario.jobs[i].group_id, b.scenario.jobs[i].group_id);
  }
  EXPECT_EQ(a.scenario.cooldown_s, b.scenario.cooldown_s);
  EXPECT_EQ(a.scenario.skipped, b.scenario.skipped);
  EXPECT_EQ(a.scenario.skip_reason, b.scenario.skip_reason);
  ASSERT_EQ(a.scenario.placements.size(), b.scenario.placements.size());
  for (size_t i = 0; i < a.scenario.placements.size(); ++i) {
    const PlacementEvidence& x = a.scenario.placements[i];
    const PlacementEvidence& y = b.scenario.placements[i];
    EXPECT_EQ(std::tie(x.agent_id, x.target, x.placement, x.agent_az, x.agent_az_id, x.az_source,
                       x.server_address, x.address_source, x.subnet, x.subnet_source, x.server_az,
                       x.server_az_source, x.reason),
              std::tie(y.agent_id, y.target, y.placement, y.agent_az, y.agent_az_id, y.az_source,
                       y.server_address, y.address_source, y.subnet, y.subnet_source, y.server_az,
                       y.server_az_source, y.reason));
    EXPECT_EQ(x.mount, y.mount);
  }
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.status_detail, b.status_detail);
  ASSERT_EQ(a.results.size(), b.results.size());
  for (size_t i = 0; i < a.results.size(); ++i) {
    EXPECT_EQ(a.results[i].agent_id, b.results[i].agent_id);
    ExpectSameJob(a.results[i].result, b.results[i].result);
  }
  ASSERT_EQ(a.lost.size(), b.lost.size());
  for (size_t i = 0; i < a.lost.size(); ++i) {
    EXPECT_EQ(a.lost[i].agent_id, b.lost[i].agent_id);
    EXPECT_EQ(a.lost[i].lost_at_realtime_ns, b.lost[i].lost_at_realtime_ns);
    EXPECT_EQ(a.lost[i].reason, b.lost[i].reason);
  }
  EXPECT_EQ(a.planned_start_realtime_ns, b.planned_start_realtime_ns);
  EXPECT_EQ(a.first_start_realtime_ns, b.first_start_realtime_ns);
  EXPECT_EQ(a.last_start_realtime_ns, b.last_start_realtime_ns);
  EXPECT_EQ(a.first_end_realtime_ns, b.first_end_realtime_ns);
  EXPECT_EQ(a.last_end_realtime_ns, b.last_end_realtime_ns);
  EXPECT_EQ(a.clock_offsets, b.clock_offsets);
  ASSERT_EQ(a.disk_util.size(), b.disk_util.size());
  for (size_t i = 0; i < a.disk_util.size(); ++i) {
    const DiskUtil &x = a.disk_util[i].disk, &y = b.disk_util[i].disk;
    EXPECT_EQ(a.disk_util[i].agent_id, b.disk_util[i].agent_id);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.read_ios, y.read_ios);
    EXPECT_EQ(x.write_ios, y.write_ios);
    EXPECT_EQ(x.read_merges, y.read_merges);
    EXPECT_EQ(x.write_merges, y.write_merges);
    EXPECT_EQ(x.read_ticks, y.read_ticks);
    EXPECT_EQ(x.write_ticks, y.write_ticks);
    EXPECT_EQ(x.in_queue, y.in_queue);
    EXPECT_EQ(x.util, y.util);
  }
}

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_STORE_RESULTS_H_

// Coordinator cost: how much CPU, memory and time the coordinator spends on results.
//
//   build/bench/coordinator_cost merge [--agents 256] [--jobs 8] [--intervals 60]
//       In process: a synthetic scenario of agents x jobs results, each with read and write
//       histograms of realistic spread and an interval series; times ComputeFigures (the merge),
//       SaveScenario into a real SQLite file, and LoadScenarios; prints ms, bytes stored, peak RSS.
//   build/bench/coordinator_cost ingest [--agents 32] [--seconds 10]
//       Starts a local fleet of real agent processes, runs one synchronized null-engine job rate-
//       limited to 2,000 IOPS per agent with 100 ms intervals (so each agent streams 10 interval
//       events and 4 progress events a second), and reports the coordinator's CPU seconds and peak
//       RSS per agent and the time from the last agent's finish to the merged result being stored.
//   build/bench/coordinator_cost simulate [--agents 256] [--jobs 4] [--seconds 10]
//       Forks a process serving that many simulated agents (bench/synthetic_fleet.h: real gRPC on
//       loopback, no I/O) and runs one synchronized scenario against them with 100 ms intervals:
//       every agent streams one interval event per job and one progress event per interval, then
//       its results. Reports this (the coordinator's) process: CPU seconds and peak RSS per agent,
//       and the time from the last agent's finish to the merged result being stored.
//   merge and simulate take --fold 0 to skip the per-agent interval-latency fold the coordinator
//   now does as results arrive (coordinator/run/interval_fold.h), for the old figures. simulate
//   takes
//   --stage 0 to hold every interval in memory until the run ends instead of writing them into
//   the database as they arrive (coordinator/run/interval_spool.h, what `azbench run` does), also
//   for the old figures; staged, the figures printed come from the in-memory totals (exact) and the
//   stored interval records are counted in the database.
//
// Not a test: it prints figures.
#include <malloc.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench/synthetic_fleet.h"
#include "common/clock.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/fleet/local_fleet.h"
#include "coordinator/merge.h"
#include "coordinator/run/interval_fold.h"
#include "coordinator/run/run.h"
#include "coordinator/store/store.h"

namespace azbench {
namespace {

double CpuSeconds() {
  rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
         (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

long PeakRssKiB() {
  rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

// Resident set now (VmRSS), KiB.
long CurrentRssKiB() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  long kib = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  }
  std::fclose(f);
  return kib;
}

// Bytes malloc has handed out and not had back (live heap), as opposed to RSS, which also counts
// what malloc keeps cached after frees.
size_t HeapInUseBytes() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

// Samples the live heap every 100 ms from construction to Stop(), keeping the largest
// (mallinfo2 walks every arena, so not more often).
class HeapPeakSampler {
 public:
  HeapPeakSampler()
      : thread_([this] {
          while (!stop_.load()) {
            peak_ = std::max(peak_.load(), HeapInUseBytes());
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
          }
        }) {}
  size_t Stop() {
    stop_.store(true);
    thread_.join();
    return std::max(peak_.load(), HeapInUseBytes());
  }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<size_t> peak_{0};
  std::thread thread_;
};

int Flag(int argc, char** argv, const std::string& name, int fallback) {
  for (int i = 2; i + 1 < argc; ++i) {
    if (argv[i] == name) return std::atoi(argv[i + 1]);
  }
  return fallback;
}

JobResult SyntheticJob(std::mt19937_64& rng, int index, int intervals) {
  JobResult r;
  r.name = "job" + std::to_string(index);
  r.runtime_ns = static_cast<uint64_t>(intervals) * 1'000'000'000ULL;
  r.start_realtime_ns = 1'700'000'000'000'000'000LL;
  r.end_realtime_ns = r.start_realtime_ns + static_cast<int64_t>(r.runtime_ns);
  std::lognormal_distribution<double> lat(std::log(200'000.0), 0.8);  // ~200 us, wide
  for (OpKind kind : {OpKind::kRead, OpKind::kWrite}) {
    OpStats& s = r.Stats(kind);
    for (int i = 0; i < intervals; ++i) {
      IntervalStats* interval;
      if (kind == OpKind::kRead) {
        r.intervals.push_back(IntervalStats{});
        r.intervals.back().index = i;
      }
      interval = &r.intervals[i];
      Histogram h;
      for (int op = 0; op < 2000; ++op) h.Record(static_cast<uint64_t>(lat(rng)));
      IntervalOpStats& io = interval->by_kind[static_cast<int>(kind)];
      io.ops = h.count();
      io.bytes = h.count() * 4096;
      io.lat = h.ToSparse();
      s.lat.Merge(h);
      s.ops += h.count();
      s.bytes += h.count() * 4096;
    }
  }
  return r;
}

int Merge(int argc, char** argv) {
  const int agents = Flag(argc, argv, "--agents", 256);
  const int jobs = Flag(argc, argv, "--jobs", 8);
  const int intervals = Flag(argc, argv, "--intervals", 60);
  std::mt19937_64 rng(1);
  // Distinct synthetic jobs are costly to make; reuse a pool of 16 (the merge does not care).
  std::vector<JobResult> pool;
  for (int i = 0; i < 16; ++i) pool.push_back(SyntheticJob(rng, i, intervals));
  ScenarioResult result;
  result.scenario.key = "bench/merge";
  result.scenario.target = "t";
  result.scenario.workload = "w";
  for (int a = 0; a < agents; ++a) {
    for (int j = 0; j < jobs; ++j) {
      JobResult r = pool[(a * jobs + j) % pool.size()].Clone();
      r.name = "job" + std::to_string(j);
      result.results.push_back({"agent-" + std::to_string(a), std::move(r)});
    }
  }
  const bool fold = Flag(argc, argv, "--fold", 1) != 0;
  if (fold) {  // as coordinator/run/run.cc does on arrival: each agent's first job carries its
               // latency
    for (size_t i = 0; i < result.results.size(); i += static_cast<size_t>(jobs)) {
      for (int j = 1; j < jobs; ++j) {
        FoldIntervalLatency(result.results[i].result, result.results[i + j].result);
      }
    }
  }
  size_t buckets = 0;
  for (const auto& r : result.results)
    buckets += r.result.Find(OpKind::kRead)->lat.ToSparse().buckets.size();
  std::printf(
      "synthetic scenario: %d agents x %d jobs, %d intervals, %zu non-zero read buckets per "
      "job on average, peak RSS so far %ld MiB\n",
      agents, jobs, intervals, buckets / result.results.size(), PeakRssKiB() / 1024);

  const uint64_t t0 = MonotonicNanos();
  ScenarioFigures figures = ComputeFigures(result);
  const uint64_t t1 = MonotonicNanos();
  const std::string dir =
      std::filesystem::temp_directory_path() / ("azbench-bench-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  auto store = Store::Open(dir + "/bench.db");
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", std::string(store.status().message()).c_str());
    return 1;
  }
  (void)(*store)->BeginCampaign("bench", "bench", "");
  const uint64_t t2 = MonotonicNanos();
  absl::Status saved = (*store)->SaveScenario(result);
  const uint64_t t3 = MonotonicNanos();
  auto loaded = (*store)->LoadScenarios();
  const uint64_t t4 = MonotonicNanos();
  const auto db_bytes = std::filesystem::file_size(dir + "/bench.db");
  std::filesystem::remove_all(dir);
  if (!saved.ok() || !loaded.ok()) {
    std::fprintf(stderr, "store failed\n");
    return 1;
  }
  std::printf("merge (ComputeFigures): %.1f ms  (merged read p99 %.1f us over %llu ops)\n",
              (t1 - t0) / 1e6, figures.Find(OpKind::kRead)->lat.Percentile(99) / 1e3,
              static_cast<unsigned long long>(figures.Find(OpKind::kRead)->ops));
  std::printf("store (one transaction): %.1f ms, database %.1f MiB\n", (t3 - t2) / 1e6,
              db_bytes / 1048576.0);
  std::printf("load back: %.1f ms\n", (t4 - t3) / 1e6);
  std::printf("peak RSS: %ld MiB\n", PeakRssKiB() / 1024);
  return 0;
}

int Ingest(int argc, char** argv) {
  const int agents = Flag(argc, argv, "--agents", 32);
  const int seconds = Flag(argc, argv, "--seconds", 10);
  const std::string dir =
      std::filesystem::temp_directory_path() / ("azbench-ingest-" + std::to_string(getpid()));
  LocalFleetOptions options;
  options.agents = agents;
  options.azs = {"a", "b"};
  options.work_root = dir;
  auto fleet = LocalFleet::Start(options);
  if (!fleet.ok()) {
    std::fprintf(stderr, "%s\n", std::string(fleet.status().message()).c_str());
    return 1;
  }
  ConnectOptions connect;
  auto connected = ConnectFleet((*fleet)->addresses(), connect);
  if (!connected.ok()) {
    std::fprintf(stderr, "%s\n", std::string(connected.status().message()).c_str());
    return 1;
  }
  Scenario scenario;
  scenario.key = "bench/ingest";
  for (const auto& m : connected->members) scenario.agent_ids.push_back(m.info.agent_id);
  scenario.jobs.push_back({"null",
                           "block_io",
                           {{"ioengine", "null"},
                            {"rw", "randread"},
                            {"bs", "4k"},
                            {"size", "1g"},
                            {"filename", "/nonexistent"},
                            {"rate_iops", "2000"},
                            {"time_based", "1"},
                            {"runtime", std::to_string(seconds) + "s"}},
                           0});
  RunOptions run;
  run.interval_ms = 100;
  const double cpu0 = CpuSeconds();
  ScenarioResult result = RunScenario(*connected, scenario, run);
  const int64_t returned = RealtimeNanos();
  const double cpu1 = CpuSeconds();
  auto store = Store::Open(dir + "/ingest.db");
  if (!store.ok()) return 1;
  (void)(*store)->BeginCampaign("bench", "bench", "");
  ScenarioFigures figures = ComputeFigures(result);
  absl::Status saved = (*store)->SaveScenario(result);
  const int64_t stored = RealtimeNanos();
  const double cpu2 = CpuSeconds();
  uint64_t interval_events = 0;
  for (const auto& r : result.results) interval_events += r.result.intervals.size();
  std::printf("%d agents, %d s, status %s, %llu ops, %llu interval records\n", agents, seconds,
              ScenarioStatusName(result.status),
              static_cast<unsigned long long>(figures.TotalOps()),
              static_cast<unsigned long long>(interval_events));
  std::printf("coordinator CPU during the run: %.3f s (%.1f ms per agent)\n", cpu1 - cpu0,
              (cpu1 - cpu0) * 1000 / agents);
  std::printf("merge + store CPU: %.3f s\n", cpu2 - cpu1);
  std::printf("last agent finish -> run returned: %.1f ms; -> merged and stored: %.1f ms%s\n",
              (returned - result.last_end_realtime_ns) / 1e6,
              (stored - result.last_end_realtime_ns) / 1e6, saved.ok() ? "" : " (store failed)");
  std::printf("start skew: %.2f ms; peak RSS: %ld MiB (%.2f MiB per agent)\n",
              result.start_skew_ns() / 1e6, PeakRssKiB() / 1024, PeakRssKiB() / 1024.0 / agents);
  (*fleet)->Stop();
  std::filesystem::remove_all(dir);
  return saved.ok() && result.status == ScenarioStatus::kComplete ? 0 : 1;
}

int Simulate(int argc, char** argv) {
  const int agents = Flag(argc, argv, "--agents", 256);
  const int jobs = Flag(argc, argv, "--jobs", 4);
  const int seconds = Flag(argc, argv, "--seconds", 10);
  SyntheticFleetOptions fleet_options;
  fleet_options.agents = agents;
  SyntheticFleetProcess fleet = StartSyntheticFleet(fleet_options);  // before gRPC is used here
  if (fleet.pid < 0) return 1;
  const std::string dir =
      std::filesystem::temp_directory_path() / ("azbench-simulate-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  int rc = 1;
  {
    ConnectOptions connect;
    connect.timeout = absl::Seconds(30);
    auto connected = ConnectFleet(fleet.addresses, connect);
    if (!connected.ok()) {
      std::fprintf(stderr, "%s\n", std::string(connected.status().message()).c_str());
      StopSyntheticFleet(fleet);
      std::filesystem::remove_all(dir);
      return 1;
    }
    Scenario scenario;
    scenario.key = "bench/simulate";
    for (const auto& m : connected->members) scenario.agent_ids.push_back(m.info.agent_id);
    for (int j = 0; j < jobs; ++j) {
      scenario.jobs.push_back({"job" + std::to_string(j),
                               "block_io",
                               {{"ioengine", "null"},
                                {"rw", "randread"},
                                {"bs", "4k"},
                                {"size", "1g"},
                                {"time_based", "1"},
                                {"runtime", std::to_string(seconds) + "s"}},
                               0});
    }
    RunOptions run;
    run.interval_ms = 100;
    run.start_margin = absl::Seconds(2);
    run.prepare_timeout = absl::Seconds(60);
    run.fold_interval_latency = Flag(argc, argv, "--fold", 1) != 0;
    const bool stage = Flag(argc, argv, "--stage", 1) != 0;
    const std::string db_path = dir + "/simulate.db";
    auto store = Store::Open(db_path);
    if (!store.ok()) {
      std::fprintf(stderr, "%s\n", std::string(store.status().message()).c_str());
      StopSyntheticFleet(fleet);
      std::filesystem::remove_all(dir);
      return 1;
    }
    (void)(*store)->BeginCampaign("bench", "bench", "");
    if (stage) run.stage_db_path = db_path;
    const long rss_before = PeakRssKiB();
    const double cpu0 = CpuSeconds();
    HeapPeakSampler sampler;
    ScenarioResult result = RunScenario(*connected, scenario, run);
    const int64_t returned = RealtimeNanos();
    const double cpu1 = CpuSeconds();
    const size_t heap_peak = sampler.Stop();
    const size_t heap_held = HeapInUseBytes();
    malloc_trim(0);  // what is live, not what malloc keeps cached
    const long rss_returned = CurrentRssKiB();
    const long peak_returned = PeakRssKiB();
    {
      ScenarioFigures figures = ComputeFigures(result);
      absl::Status saved = (*store)->SaveScenario(result);
      const int64_t stored = RealtimeNanos();
      const double cpu2 = CpuSeconds();
      uint64_t interval_records = 0;
      for (const auto& r : result.results) interval_records += r.result.intervals.size();
      if (stage) {  // the series are in the database only: count the stored rows there
        sqlite3* db = nullptr;
        sqlite3_stmt* count = nullptr;
        if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK &&
            sqlite3_prepare_v2(db,
                               "SELECT count(*) FROM (SELECT DISTINCT i.agent_result_id, "
                               "i.idx FROM interval i JOIN agent_result r ON r.id = "
                               "i.agent_result_id WHERE r.idx >= 0)",
                               -1, &count, nullptr) == SQLITE_OK &&
            sqlite3_step(count) == SQLITE_ROW) {
          interval_records = static_cast<uint64_t>(sqlite3_column_int64(count, 0));
        }
        sqlite3_finalize(count);
        sqlite3_close(db);
      }
      const OpFigures* read = figures.Find(OpKind::kRead);
      std::printf(
          "%d simulated agents x %d jobs, %d s of 100 ms intervals (%s): status %s, %d agents "
          "with results, %llu ops, %llu interval records stored\n",
          agents, jobs, seconds, stage ? "streamed into the database" : "held until the end",
          ScenarioStatusName(result.status), figures.agents,
          static_cast<unsigned long long>(figures.TotalOps()),
          static_cast<unsigned long long>(interval_records));
      std::printf("coordinator CPU during the run: %.3f s (%.2f ms per agent)\n", cpu1 - cpu0,
                  (cpu1 - cpu0) * 1000 / agents);
      // The WAL is part of the database until SQLite checkpoints it.
      std::error_code no_wal;
      const uintmax_t wal_bytes = std::filesystem::file_size(db_path + "-wal", no_wal);
      const double db_bytes =
          static_cast<double>(std::filesystem::file_size(db_path) + (no_wal ? 0 : wal_bytes));
      std::printf("merge + store CPU: %.3f s; database %.1f MiB (%.0f bytes per interval record)\n",
                  cpu2 - cpu1, db_bytes / 1048576.0,
                  interval_records == 0 ? 0.0 : db_bytes / static_cast<double>(interval_records));
      std::printf("last agent finish -> run returned: %.1f ms; -> merged and stored: %.1f ms%s\n",
                  (returned - result.last_end_realtime_ns) / 1e6,
                  (stored - result.last_end_realtime_ns) / 1e6,
                  saved.ok() ? "" : " (store failed)");
      std::printf("start skew %.2f ms; read p99 %.1f us; fairness CoV %.4f\n",
                  result.start_skew_ns() / 1e6,
                  read != nullptr ? read->lat.Percentile(99) / 1e3 : 0.0,
                  read != nullptr ? read->agent_iops.cv : 0.0);
      std::printf(
          "peak RSS: %ld MiB (%.2f MiB per agent; %ld MiB before the run, peak %ld MiB "
          "until the run returned, %ld MiB live then, holding the results)\n",
          PeakRssKiB() / 1024, PeakRssKiB() / 1024.0 / agents, rss_before / 1024,
          peak_returned / 1024, rss_returned / 1024);
      std::printf(
          "live heap: peak %.0f MiB during the run (%.2f MiB per agent), %.0f MiB holding the "
          "results when it returned (%.2f MiB per agent)\n",
          heap_peak / 1048576.0, heap_peak / 1048576.0 / agents, heap_held / 1048576.0,
          heap_held / 1048576.0 / agents);
      for (const auto& lost : result.lost) {
        std::printf("lost %s: %s\n", lost.agent_id.c_str(), lost.reason.c_str());
      }
      rc = saved.ok() && result.status == ScenarioStatus::kComplete ? 0 : 1;
    }
  }
  StopSyntheticFleet(fleet);
  std::filesystem::remove_all(dir);
  return rc;
}

}  // namespace
}  // namespace azbench

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "merge") return azbench::Merge(argc, argv);
  if (mode == "ingest") return azbench::Ingest(argc, argv);
  if (mode == "simulate") return azbench::Simulate(argc, argv);
  std::fprintf(stderr, "usage: coordinator_cost merge|ingest|simulate [--agents N] ...\n");
  return 2;
}

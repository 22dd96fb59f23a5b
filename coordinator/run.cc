#include "coordinator/run.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <semaphore>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/clock.h"
#include "common/op_log_writer.h"
#include "common/proto_convert.h"
#include "coordinator/agent_stream.h"
#include "coordinator/interval_spool.h"
#include "coordinator/resumable_run.h"
#include "coordinator/visibility_join.h"

namespace azbench {

namespace {

// What the coordinator holds of one agent during a run.
struct AgentRun {
  FleetMember* member = nullptr;
  std::string agent_id;
  int64_t offset_ns = 0;  // agent clock - coordinator clock
  bool prepared = false;
  bool started = false;
  bool finished = false;
  bool lost = false;
  std::string lost_reason;
  int64_t lost_at_ns = 0;
  int64_t start_ns = 0;  // coordinator clock
  int64_t end_ns = 0;
  uint64_t ops = 0;
  uint64_t bytes = 0;
  // Its intervals and results as they stream in (agent_stream.h). Only its own stream thread
  // touches it until that thread ended, so it needs no lock.
  std::unique_ptr<AgentStream> stream;
  std::map<std::string, std::unique_ptr<OpLogWriter>> op_logs;  // by job name
  std::set<std::string> op_log_failed;  // jobs whose op log could not be written (said once)
  // Raw records of client_to_client visibility jobs, kept until the run ends to be joined across
  // agents (visibility_join.h) before they are written.
  std::map<std::string, std::vector<OpRecord>> visibility_records;
  // Its results, taken from `stream` once every stream has ended, and where each one's interval
  // series is staged (with RunOptions::stage_db_path).
  std::vector<JobResult> results;
  std::vector<StagedSeries> staged;
  // Problems with this agent's part (its run failed after it finished, a result or an op log that
  // could not be read or written, a phase it could not be told to start): the scenario is not
  // complete.
  std::vector<std::string> errors;
  // The agent ended the run early on its own (it was stopping: SIGTERM, or a Cancel that did not
  // come from this coordinator).
  bool cancelled_by_agent = false;
  int phases_done = 0;  // PhaseDone events received (metadata's barrier)
  // Breaks of its stream that were resumed (resumable_run.h), said on each of its results.
  std::vector<std::string> resumed;
};

std::string MakeRunId(const std::string& prefix, const Scenario& scenario) {
  static std::mt19937_64 rng(std::random_device{}());
  return absl::StrCat(prefix, "-", scenario.index, "-", absl::Hex(rng()));
}

// Appends `records` to the op log file of (agent, job) under `dir`, creating it on first use.
absl::Status AppendOpLog(AgentRun& r, const std::string& dir, const std::string& job,
                         const std::vector<OpRecord>& records) {
  auto it = r.op_logs.find(job);
  if (it == r.op_logs.end()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    absl::StatusOr<std::unique_ptr<OpLogWriter>> writer =
        OpLogWriter::Open(absl::StrCat(dir, "/", r.agent_id, ".", job, ".csv.gz"));
    if (!writer.ok()) return writer.status();
    it = r.op_logs.emplace(job, std::move(*writer)).first;
  }
  return it->second->Append(records);
}

// The scenario's client_to_client visibility jobs (their agents' halves are joined after the run).
std::vector<std::string> ClientToClientJobs(const Scenario& scenario) {
  std::vector<std::string> jobs;
  for (const ScenarioJob& job : scenario.jobs) {
    if (job.workload != "visibility") continue;
    bool c2c = false;
    for (const auto& [key, value] : job.options) {
      if (key == "probe") c2c = value == "client_to_client";
    }
    if (c2c) jobs.push_back(job.name);
  }
  return jobs;
}

// Joins each client_to_client job's writer and readers (visibility_join.h), then writes their
// records to the op log. A job without exactly one writer that finished (e.g. the writer was lost,
// or every agent is role `local`) is left as the agents reported it, with a warning on the readers.
void JoinClientToClientRuns(std::vector<AgentRun>& runs, const std::vector<std::string>& jobs,
                            const std::string& op_log_dir) {
  for (const std::string& job : jobs) {
    auto result_of = [&](AgentRun& r) -> JobResult* {
      for (JobResult& result : r.results) {
        if (result.name == job) return &result;
      }
      return nullptr;
    };
    std::vector<ClientToClientHalf> writers, readers;
    for (AgentRun& r : runs) {
      auto records = r.visibility_records.find(job);
      JobResult* result = result_of(r);
      if (records == r.visibility_records.end() || result == nullptr || r.lost) continue;
      ClientToClientHalf half{r.agent_id, result, &records->second,
                              r.member != nullptr ? r.member->info.clock_rtt_ns : 0};
      (IsClientToClientWriter(records->second) ? writers : readers).push_back(half);
    }
    const bool any_lost =
        std::any_of(runs.begin(), runs.end(), [](const AgentRun& r) { return r.lost; });
    if (writers.size() == 1) {
      JoinClientToClient(writers[0], readers);
    } else if (writers.size() > 1 || any_lost) {  // the writer may be the one lost
      for (ClientToClientHalf& reader : readers) {
        reader.result->warnings.push_back(absl::StrCat(
            "client_to_client: not joined (", writers.size(),
            " writer results): latency counted from the scheduled instant, so it includes the "
            "write time"));
      }
    }
    if (op_log_dir.empty()) continue;
    for (AgentRun& r : runs) {
      auto records = r.visibility_records.find(job);
      if (records == r.visibility_records.end()) continue;
      if (absl::Status s = AppendOpLog(r, op_log_dir, job, records->second); !s.ok()) {
        r.errors.push_back(std::string(s.message()));
      }
    }
  }
}

// True when a job of `scenario` says sharing=shared-file (the last value of the option wins).
bool UsesSharedFiles(const Scenario& scenario) {
  for (const ScenarioJob& job : scenario.jobs) {
    bool shared = false;
    for (const auto& [key, value] : job.options) {
      if (key == "sharing") shared = value == "shared-file";
    }
    if (shared) return true;
  }
  return false;
}

}  // namespace

ScenarioResult RunScenario(Fleet& fleet, const Scenario& scenario, const RunOptions& options) {
  ScenarioResult out;
  out.scenario = scenario;
  if (scenario.skipped) {
    out.status = ScenarioStatus::kSkipped;
    out.status_detail = scenario.skip_reason;
    return out;
  }
  const std::string run_id = MakeRunId(options.run_id_prefix, scenario);
  const std::vector<std::string> c2c_jobs = ClientToClientJobs(scenario);
  // A client_to_client join compares the writer's and the readers' clocks: measure the offsets now,
  // not only at connect, which may be hours ago (clocks drift apart). A failed measurement keeps
  // the earlier offset and says so on the readers' results.
  std::vector<std::string> stale_clocks;
  if (!c2c_jobs.empty()) {
    stale_clocks = RemeasureClockOffsets(fleet, scenario.agent_ids, 8, absl::Seconds(5));
  }
  out.clock_offsets = ClockOffsetsOf(fleet, scenario.agent_ids);  // the offsets this run uses
  std::vector<AgentRun> runs;
  for (const std::string& id : scenario.agent_ids) {
    AgentRun r;
    r.agent_id = id;
    r.member = fleet.Find(id);
    if (r.member == nullptr) {
      r.lost = true;
      r.lost_reason = "not in the fleet (unreachable at connect)";
      r.lost_at_ns = RealtimeNanos();
    } else {
      r.offset_ns = r.member->info.clock_offset_ns;
    }
    r.stream = std::make_unique<AgentStream>(r.offset_ns, options.interval_ms * 1'000'000ULL,
                                             options.fold_interval_latency);
    runs.push_back(std::move(r));
  }

  // Prepare everywhere (in parallel), then check the barrier.
  v1::PrepareRequest prepare;
  prepare.set_run_id(run_id);
  prepare.set_interval_ms(options.interval_ms);
  for (const ScenarioJob& job : scenario.jobs) {
    v1::JobSpec* spec = prepare.add_jobs();
    spec->set_name(job.name);
    spec->set_workload(job.workload);
    spec->set_group_id(job.group_id);
    for (const auto& [k, v] : job.options) {
      v1::JobOption* opt = spec->add_options();
      opt->set_key(k);
      opt->set_value(v);
    }
  }
  prepare.set_lease_ms(static_cast<uint32_t>(absl::ToInt64Milliseconds(options.prepared_lease)));
  {
    // While the slowest agent still prepares, the others' prepared runs are kept alive with Renew
    // (a quarter of the lease apart); if this process dies here, they expire and remove their
    // files.
    std::vector<std::atomic<bool>> prepared(runs.size());
    std::atomic<bool> barrier_done{false};
    std::thread renewer([&] {
      const absl::Duration every = options.prepared_lease / 4;
      absl::Time next = absl::Now() + every;
      while (!barrier_done.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (absl::Now() < next) continue;
        next = absl::Now() + every;
        for (size_t i = 0; i < runs.size(); ++i) {
          if (!prepared[i].load() || runs[i].member == nullptr) continue;
          v1::RenewRequest renew;
          renew.set_run_id(run_id);
          renew.set_lease_ms(prepare.lease_ms());
          (void)runs[i].member->client->Renew(renew, absl::Seconds(5));
        }
      }
    });
    auto prepare_one = [&](size_t index) {
      AgentRun& r = runs[index];
      // Each agent learns its place among the scenario's agents (metadata's stride and shared
      // directories).
      v1::PrepareRequest mine = prepare;
      mine.set_agent_index(static_cast<int32_t>(index));
      mine.set_agent_count(static_cast<int32_t>(runs.size()));
      absl::StatusOr<v1::PrepareResponse> response =
          r.member->client->Prepare(mine, options.prepare_timeout);
      if (response.ok()) {
        r.prepared = true;
        prepared[index].store(true);
      } else {
        r.errors.push_back(std::string(response.status().message()));
      }
    };
    // sharing=shared-file: the first agent lays the shared files out alone; the others then find
    // them complete and skip the layout (file_layout.cc), so no two agents ever write a layout.
    size_t layout_first = runs.size();
    if (UsesSharedFiles(scenario)) {
      for (size_t index = 0; index < runs.size(); ++index) {
        if (runs[index].member != nullptr) {
          layout_first = index;
          break;
        }
      }
      if (layout_first < runs.size()) prepare_one(layout_first);
    }
    std::vector<std::thread> threads;
    for (size_t index = 0; index < runs.size(); ++index) {
      if (runs[index].member == nullptr || index == layout_first) continue;
      threads.emplace_back([&, index] { prepare_one(index); });
    }
    for (auto& t : threads) t.join();
    barrier_done.store(true);
    renewer.join();
  }
  auto cleanup_all = [&] {
    v1::CleanupRequest cleanup;
    cleanup.set_run_id(run_id);
    cleanup.set_remove_files(true);
    std::vector<std::thread> threads;  // in parallel: one slow agent must not hold the others
    for (AgentRun& r : runs) {
      if (r.member != nullptr && r.prepared && !r.lost) {
        threads.emplace_back([&] { (void)r.member->client->Cleanup(cleanup, absl::Seconds(30)); });
      }
    }
    for (auto& t : threads) t.join();
  };
  std::vector<std::string> prepare_errors;
  for (const AgentRun& r : runs) {
    for (const auto& e : r.errors) prepare_errors.push_back(e);
  }
  if (!prepare_errors.empty()) {
    cleanup_all();
    out.status = ScenarioStatus::kFailed;
    out.status_detail = absl::StrCat("prepare failed: ", absl::StrJoin(prepare_errors, "; "));
    return out;
  }

  // With a results database, intervals are written as they arrive (interval_spool.h); when it
  // cannot be opened, they are held in memory as without one, and the scenario says why.
  std::unique_ptr<IntervalSpool> spool;
  std::string spool_problem;
  if (!options.stage_db_path.empty()) {
    absl::StatusOr<std::unique_ptr<IntervalSpool>> opened =
        IntervalSpool::Open(options.stage_db_path, scenario.key);
    if (opened.ok()) {
      spool = std::move(*opened);
      for (AgentRun& r : runs) {
        r.stream =
            std::make_unique<AgentStream>(r.offset_ns, options.interval_ms * 1'000'000ULL,
                                          options.fold_interval_latency, spool.get(), r.agent_id);
      }
    } else {
      spool_problem = absl::StrCat("intervals held in memory: ", opened.status().message());
    }
  }

  // The common start, in the coordinator's clock, and per agent in its own.
  const int64_t start_ns = RealtimeNanos() + absl::ToInt64Nanoseconds(options.start_margin);
  out.planned_start_realtime_ns = start_ns;
  std::mutex mu;  // guards every AgentRun's flags, counters and errors (not its stream)
  std::atomic<bool> all_done{false};
  std::mutex done_mu;  // with done_cv: wakes the watcher as soon as every stream has ended
  std::condition_variable done_cv;
  // At most one stream thread per core parses at a time: more would not go faster, only lengthen
  // the run queue, and on a loaded host starve gRPC's own threads (keepalive acks). No agent
  // waits for another's network: a slot is held only while parsing a message already received.
  std::counting_semaphore<> parse_slots(
      static_cast<std::ptrdiff_t>(std::max(2u, std::thread::hardware_concurrency())));
  std::vector<std::thread> streams;
  for (AgentRun& r : runs) {
    if (r.member == nullptr) continue;
    streams.emplace_back([&] {
      v1::RunRequest request;
      request.set_run_id(run_id);
      request.set_start_at_agent_realtime_ns(start_ns + r.offset_ns);
      request.set_progress_interval_ms(options.progress_interval_ms);
      // A stream that breaks is resumed within the agent's reattach grace (and a little more:
      // the agent counts it from when it noticed the break), unless the run is being cancelled.
      ResumeOptions resume;
      resume.grace = r.member->info.reattach_grace_ms == 0
                         ? absl::ZeroDuration()
                         : absl::Milliseconds(r.member->info.reattach_grace_ms) + absl::Seconds(1);
      resume.keep_trying = [&] {
        return options.interrupt == nullptr || !options.interrupt->load();
      };
      resume.on_resumed = [&](const StreamResume& resumed) {
        const std::string warning = DescribeResume(r.agent_id, resumed);
        if (options.on_warning) options.on_warning(warning);
        std::lock_guard<std::mutex> lock(mu);
        r.resumed.push_back(warning);
      };
      absl::Status status = RunResumable(
          *r.member->client, request,
          [&](const v1::RunEvent& event) {
            // Intervals and results: parsed and kept without the shared lock (AgentStream is this
            // thread's own), so agents do not wait for each other here.
            if (event.event_case() == v1::RunEvent::kInterval) {
              const v1::IntervalEvent& e = event.interval();
              parse_slots.acquire();
              absl::StatusOr<IntervalStats> interval = IntervalFromProto(e.interval());
              if (interval.ok()) {
                r.stream->AddInterval(e.job_index(),
                                      e.result_name().empty() ? e.job_name() : e.result_name(),
                                      e.series_start_realtime_ns(), std::move(*interval));
              }
              parse_slots.release();
              if (interval.ok()) return true;
              std::lock_guard<std::mutex> lock(mu);
              r.errors.push_back(std::string(interval.status().message()));
              return true;
            }
            if (event.event_case() == v1::RunEvent::kResult) {
              parse_slots.acquire();
              absl::StatusOr<JobResult> result = JobResultFromProto(event.result());
              if (result.ok()) r.stream->AddResult(event.result().job_index(), std::move(*result));
              parse_slots.release();
              if (result.ok()) return true;
              std::lock_guard<std::mutex> lock(mu);
              r.errors.push_back(std::string(result.status().message()));
              return true;
            }
            std::lock_guard<std::mutex> lock(mu);
            switch (event.event_case()) {
              case v1::RunEvent::kStarted:
                r.started = true;
                r.start_ns = event.started().start_realtime_ns() - r.offset_ns;
                break;
              case v1::RunEvent::kProgress:
                r.ops = event.progress().ops();
                r.bytes = event.progress().bytes();
                break;
              case v1::RunEvent::kOpLog: {
                const std::string& job = event.op_log().job_name();
                const bool joined =
                    std::find(c2c_jobs.begin(), c2c_jobs.end(), job) != c2c_jobs.end();
                if (options.op_log_dir.empty() && !joined) break;
                absl::StatusOr<std::vector<OpRecord>> records = OpLogFromProto(event.op_log());
                if (!records.ok()) {
                  r.errors.push_back(std::string(records.status().message()));
                  break;
                }
                if (joined) {  // written after the run, once joined across agents
                  std::vector<OpRecord>& kept = r.visibility_records[job];
                  kept.insert(kept.end(), records->begin(), records->end());
                  break;
                }
                if (absl::Status s = AppendOpLog(r, options.op_log_dir, job, *records);
                    !s.ok() && r.op_log_failed.insert(job).second) {
                  r.errors.push_back(std::string(s.message()));  // the first failure per job
                }
                break;
              }
              case v1::RunEvent::kPhaseDone:
                r.phases_done = std::max(r.phases_done, event.phase_done().phase_index() + 1);
                break;
              case v1::RunEvent::kFinished:
                r.finished = true;
                r.end_ns = event.finished().end_realtime_ns() - r.offset_ns;
                r.cancelled_by_agent = event.finished().cancelled();
                break;
              default:
                break;
            }
            return true;
          },
          resume);
      std::lock_guard<std::mutex> lock(mu);
      if (!r.finished) {
        r.lost = true;
        r.lost_at_ns = RealtimeNanos();
        r.lost_reason = status.ok() ? "the stream ended before the run finished"
                                    : std::string(status.message());
      } else if (!status.ok()) {
        r.errors.push_back(std::string(status.message()));
      }
    });
  }

  // Phase barrier (metadata): once every agent still running reported PhaseDone(k), release phase
  // k+1 everywhere at one instant (like the first start, in each agent's own clock). Agents that
  // finished or were lost do not hold the others back.
  std::thread phase_driver([&] {
    int released = 0;  // barriers released so far
    while (!all_done.load()) {
      bool ready = false;
      {
        std::lock_guard<std::mutex> lock(mu);
        int waiting = 0, active = 0;
        for (const AgentRun& r : runs) {
          if (r.member == nullptr || r.lost || r.finished) continue;
          ++active;
          if (r.phases_done > released) ++waiting;
        }
        ready = active > 0 && waiting == active;
      }
      if (!ready) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      const int64_t at = RealtimeNanos() + absl::ToInt64Nanoseconds(options.phase_start_margin);
      std::vector<std::thread> calls;
      for (AgentRun& r : runs) {
        if (r.member == nullptr) continue;
        calls.emplace_back([&, at] {
          v1::ProceedRequest proceed;
          proceed.set_run_id(run_id);
          proceed.set_phase_index(released);
          proceed.set_start_at_agent_realtime_ns(at + r.offset_ns);
          // A call lost on the way is made again; an agent that cannot be told (it answers
          // with anything else, or for 60 s) is cancelled, which ends its stream, instead of
          // holding the others at the barrier for ever.
          const absl::Status s = ProceedUntilDelivered(
              *r.member->client, proceed, absl::Seconds(10),
              [&] {
                std::lock_guard<std::mutex> lock(mu);
                return !r.finished && !r.lost && !all_done.load();
              },
              absl::Seconds(60), absl::Milliseconds(200));
          if (s.ok()) return;
          {
            std::lock_guard<std::mutex> lock(mu);
            if (r.finished || r.lost) return;
            r.errors.push_back(absl::StrCat("could not be told to start the phase after barrier ",
                                            proceed.phase_index(), ": ", s.message()));
          }
          (void)r.member->client->Cancel(run_id, absl::Seconds(5));
        });
      }
      for (auto& t : calls) t.join();
      ++released;
    }
  });

  // Live progress and interrupt handling, until every stream has ended.
  std::thread watcher([&] {
    uint64_t last_ops = 0, last_bytes = 0;
    int64_t last_ns = RealtimeNanos();
    bool cancelled = false;
    while (!all_done.load()) {
      {
        std::unique_lock<std::mutex> lock(done_mu);
        done_cv.wait_for(lock, std::chrono::milliseconds(options.progress_interval_ms),
                         [&] { return all_done.load(); });
      }
      if (options.interrupt != nullptr && options.interrupt->load() && !cancelled) {
        cancelled = true;
        std::vector<std::thread> cancels;  // in parallel: an unresponsive agent holds no other
        for (AgentRun& r : runs) {
          if (r.member == nullptr) continue;
          cancels.emplace_back([&] { (void)r.member->client->Cancel(run_id, absl::Seconds(5)); });
        }
        for (auto& t : cancels) t.join();
      }
      if (!options.on_progress) continue;
      LiveProgress p;
      {
        std::lock_guard<std::mutex> lock(mu);
        for (const AgentRun& r : runs) {
          ++p.agents;
          p.ops += r.ops;
          p.bytes += r.bytes;
          if (r.lost) {
            ++p.lost;
          } else if (r.finished) {
            ++p.done;
          } else if (r.started) {
            ++p.running;
          }
        }
      }
      const int64_t now = RealtimeNanos();
      p.elapsed_s = now > start_ns ? static_cast<double>(now - start_ns) / 1e9 : 0;
      const double dt = static_cast<double>(now - last_ns) / 1e9;
      if (dt > 0) {
        p.ops_per_s = static_cast<double>(p.ops - std::min(p.ops, last_ops)) / dt;
        p.bytes_per_s = static_cast<double>(p.bytes - std::min(p.bytes, last_bytes)) / dt;
      }
      last_ops = p.ops;
      last_bytes = p.bytes;
      last_ns = now;
      options.on_progress(p);
    }
  });
  for (auto& t : streams) t.join();
  {
    std::lock_guard<std::mutex> lock(mu);  // the watcher and phase driver still read `runs`
    // A lost agent's results that came are kept whole, the rest as partial results summed from
    // its streamed intervals (agent_stream.h).
    for (AgentRun& r : runs) {
      for (StreamedResult& s : r.stream->TakeStreamedResults(r.lost)) {
        for (const std::string& w : r.resumed) s.result.warnings.push_back(w);
        r.results.push_back(std::move(s.result));
        r.staged.push_back(s.staged);
      }
    }
    JoinClientToClientRuns(runs, c2c_jobs, options.op_log_dir);
    for (AgentRun& r : runs) {
      for (JobResult& result : r.results) {
        if (std::find(c2c_jobs.begin(), c2c_jobs.end(), result.name) == c2c_jobs.end()) continue;
        for (const std::string& failure : stale_clocks) {
          result.warnings.push_back(absl::StrCat(
              "client_to_client: clock offset not measured again before this scenario (", failure,
              "): the one from connect is used"));
        }
      }
    }
  }
  for (AgentRun& r : runs) {
    for (auto& [job, writer] : r.op_logs) {
      if (absl::Status s = writer->Close(); !s.ok()) r.errors.push_back(std::string(s.message()));
    }
  }
  {
    std::lock_guard<std::mutex> lock(done_mu);
    all_done.store(true);
  }
  done_cv.notify_all();
  watcher.join();
  phase_driver.join();
  cleanup_all();
  if (spool != nullptr) {
    // Everything streamed is committed now; a write error loses staged intervals, so says so.
    if (absl::Status s = spool->Finish(); !s.ok()) {
      spool_problem = absl::StrCat("some intervals were not stored: ", s.message());
    }
    out.staged_stream_id = spool->stream_id();
  }

  // Assemble.
  std::vector<std::string> problems;
  bool first_start = true;
  for (AgentRun& r : runs) {
    if (r.lost) out.lost.push_back({r.agent_id, r.lost_at_ns, r.lost_reason});
    for (size_t i = 0; i < r.results.size(); ++i) {
      out.results.push_back({r.agent_id, std::move(r.results[i])});
      out.staged.push_back(i < r.staged.size() ? r.staged[i] : StagedSeries{});
    }
    for (const auto& e : r.errors) problems.push_back(absl::StrCat(r.agent_id, ": ", e));
    if (!r.started) continue;
    // The actual start is when the agent's first job thread began (after its start wait), not the
    // instant it was told; likewise the end is its last job's end.
    int64_t actual_start = 0, actual_end = 0;
    for (const auto& ar : out.results) {
      if (ar.agent_id != r.agent_id || ar.result.start_realtime_ns == 0) continue;
      if (actual_start == 0 || ar.result.start_realtime_ns < actual_start) {
        actual_start = ar.result.start_realtime_ns;
      }
      actual_end = std::max(actual_end, ar.result.end_realtime_ns);
    }
    if (actual_start != 0) r.start_ns = actual_start;
    if (actual_end != 0 && !r.lost) r.end_ns = actual_end;
    if (first_start) {
      out.first_start_realtime_ns = out.last_start_realtime_ns = r.start_ns;
      out.first_end_realtime_ns = out.last_end_realtime_ns = r.end_ns;
      first_start = false;
    } else {
      out.first_start_realtime_ns = std::min(out.first_start_realtime_ns, r.start_ns);
      out.last_start_realtime_ns = std::max(out.last_start_realtime_ns, r.start_ns);
      if (r.end_ns != 0) {
        out.first_end_realtime_ns = out.first_end_realtime_ns == 0
                                        ? r.end_ns
                                        : std::min(out.first_end_realtime_ns, r.end_ns);
        out.last_end_realtime_ns = std::max(out.last_end_realtime_ns, r.end_ns);
      }
    }
  }
  if (!out.lost.empty()) {
    out.status = ScenarioStatus::kPartial;
    std::vector<std::string> names;
    for (const auto& l : out.lost) names.push_back(absl::StrCat(l.agent_id, " (", l.reason, ")"));
    out.status_detail = absl::StrCat("lost ", out.lost.size(), " of ", runs.size(),
                                     " agents: ", absl::StrJoin(names, "; "));
  } else if (options.interrupt != nullptr && options.interrupt->load()) {
    out.status = ScenarioStatus::kPartial;
    out.status_detail = "interrupted: the runs were cancelled; figures cover the time until then";
  } else if (out.results.empty()) {
    out.status = ScenarioStatus::kFailed;
    out.status_detail = absl::StrCat("no results: ", absl::StrJoin(problems, "; "));
  } else {
    // A job that stopped on an I/O error (fio's err=) fails the scenario, as it fails fio's exit
    // status; its measurements up to the error are kept.
    std::vector<std::string> job_errors;
    for (const AgentJobResult& ar : out.results) {
      if (ar.result.error_errno == 0 && ar.result.error_message.empty()) continue;
      job_errors.push_back(absl::StrCat(ar.agent_id, " job ", ar.result.name, ": ",
                                        ar.result.error_message.empty()
                                            ? std::strerror(ar.result.error_errno)
                                            : ar.result.error_message));
    }
    if (!job_errors.empty()) {
      out.status = ScenarioStatus::kFailed;
      out.status_detail = absl::StrCat("job error: ", absl::StrJoin(job_errors, "; "));
    }
  }
  if (out.status == ScenarioStatus::kComplete) {
    // An agent that reported a problem with its part, or ended the run early on its own (the
    // coordinator did not interrupt it), leaves figures that do not cover the scenario as asked:
    // never stored as complete, so `run --resume` runs it again.
    std::vector<std::string> agents_failed, agents_cancelled;
    for (const AgentRun& r : runs) {
      if (!r.errors.empty()) agents_failed.push_back(r.agent_id);
      if (r.cancelled_by_agent) agents_cancelled.push_back(r.agent_id);
    }
    if (!agents_failed.empty()) {
      out.status = ScenarioStatus::kFailed;
      out.status_detail = absl::StrCat("problems on ", absl::StrJoin(agents_failed, ", "), ": ",
                                       absl::StrJoin(problems, "; "));
    } else if (!agents_cancelled.empty()) {
      out.status = ScenarioStatus::kPartial;
      out.status_detail =
          absl::StrCat("cancelled by ", absl::StrJoin(agents_cancelled, ", "),
                       " (the agent was stopping); figures cover the time until then");
    }
  }
  if (!spool_problem.empty()) {
    problems.push_back(spool_problem);
    // Intervals that could not be written are missing from the series: `run --resume` runs it
    // again.
    if (out.status == ScenarioStatus::kComplete && out.staged_stream_id != 0) {
      out.status = ScenarioStatus::kPartial;
      out.status_detail = spool_problem;
    }
  }
  if (!problems.empty() && out.status_detail.empty()) {
    out.status_detail = absl::StrJoin(problems, "; ");
  }
  return out;
}

}  // namespace azbench

// Running one scenario (coordinator/run.h): the agents' run state is set up, the prepare barrier
// passed (run_prepare.cc), the common start chosen and sent, each agent's event stream read
// (resumed when it breaks) with its intervals kept or staged, the phases of a phased workload
// released at one instant, live progress reported and an interrupt turned into Cancel; what came
// back is then made into the ScenarioResult (run_results.cc).
#include "coordinator/run.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <random>
#include <semaphore>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/clock.h"
#include "common/proto_convert.h"
#include "coordinator/agent_stream.h"
#include "coordinator/interval_spool.h"
#include "coordinator/resumable_run.h"
#include "coordinator/run_internal.h"

namespace azbench {

namespace {

using run_internal::AgentRun;

std::string MakeRunId(const std::string& prefix, const Scenario& scenario) {
  static std::mt19937_64 rng(std::random_device{}());
  return absl::StrCat(prefix, "-", scenario.index, "-", absl::Hex(rng()));
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
  const std::vector<std::string> c2c_jobs = run_internal::ClientToClientJobs(scenario);
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
  const std::vector<std::string> prepare_errors =
      run_internal::PrepareEverywhere(runs, scenario, run_id, options);
  if (!prepare_errors.empty()) {
    run_internal::CleanupEverywhere(runs, run_id);
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
                if (absl::Status s =
                        run_internal::AppendOpLog(r, options.op_log_dir, job, *records);
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
    run_internal::CollectResults(runs, c2c_jobs, stale_clocks, options.op_log_dir);
  }
  run_internal::CloseOpLogs(runs);
  {
    std::lock_guard<std::mutex> lock(done_mu);
    all_done.store(true);
  }
  done_cv.notify_all();
  watcher.join();
  phase_driver.join();
  run_internal::CleanupEverywhere(runs, run_id);
  if (spool != nullptr) {
    // Everything streamed is committed now; a write error loses staged intervals, so says so.
    if (absl::Status s = spool->Finish(); !s.ok()) {
      spool_problem = absl::StrCat("some intervals were not stored: ", s.message());
    }
    out.staged_stream_id = spool->stream_id();
  }

  run_internal::AssembleOutcome(runs, options, spool_problem, out);
  return out;
}

}  // namespace azbench

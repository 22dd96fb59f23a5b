// Streamed intervals written to the results database as they arrive
// (coordinator/run/interval_spool.h): what is stored equals what the in-memory path stores, the
// coordinator holds a bounded number of intervals however long the run, and an attempt cut short
// leaves its rows where report and resume handle them.
#include "coordinator/run/interval_spool.h"

#include <sqlite3.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "coordinator/merge.h"
#include "coordinator/run/agent_stream.h"
#include "coordinator/store/store.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

constexpr int64_t kT0 = 1'700'000'000'000'000'000;
constexpr uint64_t kInterval = 100'000'000;  // 100 ms

// Interval `i`: `ops` ops of `kind` whose latency spans `buckets` buckets from `base_ns`; `ops` 0
// gives an interval in which nothing happened (a stall).
IntervalStats Interval(int64_t i, uint64_t ops, int buckets, uint64_t base_ns,
                       OpKind kind = OpKind::kRead) {
  Histogram h;
  for (uint64_t op = 0; op < ops; ++op) h.Record(base_ns + (op % buckets) * 1'000);
  IntervalStats in;
  in.index = i;
  IntervalOpStats& s = in.by_kind[static_cast<int>(kind)];
  s.ops = h.count();
  s.bytes = h.count() * 4096;
  s.errors = ops % 7 == 3 ? 1 : 0;
  s.lat = h.ToSparse();
  return in;
}

// One event as the coordinator receives it.
struct Event {
  bool is_result = false;
  int job_index = 0;
  std::string name;
  int64_t series_start_ns = 0;  // agent clock
  IntervalStats interval;
  JobResult result;  // with is_result
};

// The events of one agent's run of `n` intervals, in an order that makes the fold spill and
// then receive late contributions: j0 has two clones (both stream every index), j1 starts one
// interval later (its slots shifted) and arrives only after j0 finished, j1's result carries two
// tail intervals it never streamed, j0 has stalls, and j2 (writes) sends no result. Returns the
// ops fed and the latency samples fed.
std::vector<Event> AgentEvents(int64_t offset_ns, int n, uint64_t& ops, uint64_t& samples) {
  std::vector<Event> events;
  const int64_t start0 = kT0 + offset_ns, start1 = start0 + static_cast<int64_t>(kInterval);
  auto add = [&](int job, const std::string& name, int64_t start, IntervalStats in) {
    for (const auto& s : in.by_kind) {
      ops += s.ops;
      samples += s.lat.count;
    }
    events.push_back({false, job, name, start, std::move(in), JobResult()});
  };
  for (int i = 0; i < n; ++i) {
    for (int clone = 0; clone < 2; ++clone) {
      add(0, "j0", start0, Interval(i, i % 13 == 5 ? 0 : 20 + clone + i % 5, 6, 100'000 + clone));
    }
    add(2, "j2", start0, Interval(i, i % 11 == 4 ? 0 : 9, 3, 400'000, OpKind::kWrite));
  }
  for (int i = 0; i < n - 2; ++i) add(1, "j1", start1, Interval(i, 15, 8, 200'000));
  // Results: totals as the agent sends them (its clock), without the streamed series.
  auto result = [&](int job, const std::string& name, int64_t start, int intervals,
                    uint64_t total_ops, std::vector<IntervalStats> tail) {
    JobResult r;
    r.name = name;
    r.interval_ns = kInterval;
    r.start_realtime_ns = start;
    r.end_realtime_ns = start + intervals * static_cast<int64_t>(kInterval);
    r.runtime_ns = intervals * kInterval;
    r.Stats(OpKind::kRead).ops = total_ops;
    for (IntervalStats& in : tail) {
      for (const auto& s : in.by_kind) {
        ops += s.ops;
        samples += s.lat.count;
      }
    }
    r.intervals = std::move(tail);
    Event e;
    e.is_result = true;
    e.job_index = job;
    e.name = name;
    e.result = std::move(r);
    events.push_back(std::move(e));
  };
  result(0, "j0", start0, n, 1000, {});
  std::vector<IntervalStats> tail;
  tail.push_back(Interval(n - 2, 11, 4, 250'000));
  tail.push_back(Interval(n - 1, 12, 4, 250'000));
  result(1, "j1", start1, n, 2000, std::move(tail));
  return events;
}

void Feed(AgentStream& stream, const std::vector<Event>& events) {
  for (const Event& e : events) {
    if (e.is_result) {
      stream.AddResult(e.job_index, e.result.Clone());
    } else {
      stream.AddInterval(e.job_index, e.name, e.series_start_ns, e.interval);
    }
  }
}

class IntervalSpoolTest : public ::testing::TestWithParam<bool> {
 protected:
  std::unique_ptr<Store> OpenStore(const std::string& name) {
    absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(dir_.File(name));
    EXPECT_TRUE(store.ok()) << store.status();
    if (!store.ok()) return nullptr;
    EXPECT_TRUE((*store)->BeginCampaign("c", "c.yaml", "").ok());
    return std::move(*store);
  }
  testing::TempDir dir_;
};

ScenarioResult NewScenario() {
  ScenarioResult s;
  s.scenario.key = "k";
  s.scenario.agent_ids = {"a", "b"};
  return s;
}

void ExpectSameIntervals(const std::vector<IntervalStats>& got,
                         const std::vector<IntervalStats>& want, const std::string& where) {
  ASSERT_EQ(got.size(), want.size()) << where;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].index, want[i].index) << where << " interval " << i;
    for (int k = 0; k < kOpKindCount; ++k) {
      const IntervalOpStats &g = got[i].by_kind[k], &w = want[i].by_kind[k];
      EXPECT_EQ(g.ops, w.ops) << where << " interval " << i << " kind " << k;
      EXPECT_EQ(g.bytes, w.bytes) << where << " interval " << i << " kind " << k;
      EXPECT_EQ(g.errors, w.errors) << where << " interval " << i << " kind " << k;
      EXPECT_EQ(g.lat, w.lat) << where << " interval " << i << " kind " << k;
    }
  }
}

TEST_P(IntervalSpoolTest, StoredSeriesEqualTheInMemoryPathAndTheEventsFed) {
  const bool fold = GetParam();
  const int n = 120;  // well past the fold window: slots spill, then j1 folds into them again
  uint64_t fed_ops = 0, fed_samples = 0;
  std::vector<std::vector<Event>> agents;
  const std::vector<std::pair<std::string, int64_t>> ids = {{"a", 5'000}, {"b", -30'000'000}};
  for (const auto& [id, offset] : ids)
    agents.push_back(AgentEvents(offset, n, fed_ops, fed_samples));

  // The in-memory path (no sink), stored as before.
  ScenarioResult reference = NewScenario();
  for (size_t a = 0; a < ids.size(); ++a) {
    AgentStream stream(ids[a].second, kInterval, fold);
    Feed(stream, agents[a]);
    for (JobResult& r : stream.TakeResults(/*lost=*/true)) {
      reference.results.push_back({ids[a].first, std::move(r)});
    }
  }
  std::unique_ptr<Store> reference_store = OpenStore("reference.db");
  ASSERT_NE(reference_store, nullptr);
  ASSERT_TRUE(reference_store->SaveScenario(reference).ok());

  // The staged path: intervals in the database as they arrive, attached when saved.
  std::unique_ptr<Store> store = OpenStore("staged.db");
  ASSERT_NE(store, nullptr);
  SpoolOptions small;
  small.batch_intervals = 50;
  small.max_queued_intervals = 200;
  absl::StatusOr<std::unique_ptr<IntervalSpool>> spool =
      IntervalSpool::Open(dir_.File("staged.db"), "k", small);
  ASSERT_TRUE(spool.ok()) << spool.status();
  ScenarioResult staged = NewScenario();
  for (size_t a = 0; a < ids.size(); ++a) {
    AgentStream stream(ids[a].second, kInterval, fold, spool->get(), ids[a].first);
    Feed(stream, agents[a]);
    for (StreamedResult& r : stream.TakeStreamedResults(/*lost=*/true)) {
      EXPECT_TRUE(r.result.intervals.empty()) << "the series is in the database, not here";
      staged.results.push_back({ids[a].first, std::move(r.result)});
      staged.staged.push_back(r.staged);
    }
  }
  ASSERT_TRUE((*spool)->Finish().ok());
  staged.staged_stream_id = (*spool)->stream_id();
  ASSERT_TRUE(store->SaveScenario(staged).ok());
  absl::StatusOr<int64_t> left = store->StagedRowCount(staged.staged_stream_id);
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(*left, 0) << "the attempt's rows are the stored scenario's now";

  absl::StatusOr<std::vector<ScenarioResult>> want = reference_store->LoadScenarios();
  absl::StatusOr<std::vector<ScenarioResult>> got = store->LoadScenarios();
  ASSERT_TRUE(want.ok() && got.ok());
  ASSERT_EQ(got->size(), 1u);
  ASSERT_EQ(got->at(0).results.size(), reference.results.size());
  ASSERT_EQ(reference.results.size(), 6u) << "2 agents x (j0, j1, partial j2)";
  uint64_t stored_ops = 0, stored_samples = 0;
  for (size_t i = 0; i < reference.results.size(); ++i) {
    const AgentJobResult& g = got->at(0).results[i];
    const std::string where = g.agent_id + "/" + g.result.name;
    EXPECT_EQ(g.agent_id, reference.results[i].agent_id);
    EXPECT_EQ(g.result.name, reference.results[i].result.name);
    EXPECT_EQ(g.result.runtime_ns, reference.results[i].result.runtime_ns) << where;
    for (int k = 0; k < kOpKindCount; ++k) {
      const OpStats* gs = g.result.by_kind[k].get();
      const OpStats* ws = reference.results[i].result.by_kind[k].get();
      ASSERT_EQ(gs == nullptr, ws == nullptr) << where << " kind " << k;
      if (gs == nullptr) continue;
      EXPECT_EQ(gs->ops, ws->ops) << where;
      EXPECT_TRUE(gs->lat == ws->lat) << where;
    }
    // Against the in-memory result itself and against what the other file stored.
    ExpectSameIntervals(g.result.intervals, reference.results[i].result.intervals, where);
    ExpectSameIntervals(g.result.intervals, want->at(0).results[i].result.intervals, where);
    for (const IntervalStats& in : g.result.intervals) {
      for (const auto& s : in.by_kind) {
        stored_ops += s.ops;
        stored_samples += s.lat.count;
      }
    }
  }
  EXPECT_EQ(stored_ops, fed_ops) << "every op fed is in exactly one stored interval";
  EXPECT_EQ(stored_samples, fed_samples) << "every latency sample fed is stored once";

  // The figures (rules 4 and 6 read the series) are the same.
  const ScenarioFigures a = ComputeFigures(want->at(0)), b = ComputeFigures(got->at(0));
  ASSERT_EQ(a.ops.size(), b.ops.size());
  for (size_t k = 0; k < a.ops.size(); ++k) {
    EXPECT_EQ(a.ops[k].ops, b.ops[k].ops);
    EXPECT_DOUBLE_EQ(a.ops[k].stonewall_ops, b.ops[k].stonewall_ops);
    EXPECT_TRUE(a.ops[k].lat == b.ops[k].lat);
  }
  ExpectSameIntervals(b.intervals, a.intervals, "merged series");
  EXPECT_GT(b.intervals.size(), 100u);
}

TEST_P(IntervalSpoolTest, HeldIntervalsStayBoundedHoweverLongTheRun) {
  const bool fold = GetParam();
  std::unique_ptr<Store> store = OpenStore("long.db");
  ASSERT_NE(store, nullptr);
  SpoolOptions options;
  options.batch_intervals = 64;
  options.max_queued_intervals = 256;
  absl::StatusOr<std::unique_ptr<IntervalSpool>> spool =
      IntervalSpool::Open(dir_.File("long.db"), "long", options);
  ASSERT_TRUE(spool.ok()) << spool.status();
  const int jobs = 4, n = 5'000;  // 20,000 intervals: a 500 s run at 100 ms
  AgentStream stream(0, kInterval, fold, spool->get(), "a");
  size_t most_queued = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < jobs; ++j) {
      stream.AddInterval(j, "j" + std::to_string(j), kT0, Interval(i, 10 + j, 5, 100'000));
    }
    ASSERT_EQ(stream.pending_intervals(), 0u) << "after interval " << i;
    ASSERT_LE(stream.held_fold_slots(), AgentStream::kFoldWindowSlots) << "after interval " << i;
    most_queued = std::max(most_queued, (*spool)->queued());
  }
  EXPECT_LE(most_queued, 256u);
  EXPECT_LE((*spool)->max_queued(), 256u) << "Add waits for the writer rather than queue more";
  std::vector<StreamedResult> results = stream.TakeStreamedResults(/*lost=*/true);
  ASSERT_TRUE((*spool)->Finish().ok());
  EXPECT_EQ(stream.held_fold_slots(), 0u);
  EXPECT_GE((*spool)->committed(), static_cast<uint64_t>(jobs * n)) << "every interval written";

  // The same run without a sink holds every interval: what the spool saves.
  AgentStream in_memory(0, kInterval, fold);
  for (int i = 0; i < 500; ++i) in_memory.AddInterval(0, "j0", kT0, Interval(i, 10, 5, 100'000));
  EXPECT_EQ(in_memory.pending_intervals(), 500u);

  ScenarioResult s;
  s.scenario.key = "long";
  s.staged_stream_id = (*spool)->stream_id();
  for (StreamedResult& r : results) {
    s.results.push_back({"a", std::move(r.result)});
    s.staged.push_back(r.staged);
  }
  ASSERT_TRUE(store->SaveScenario(s).ok());
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok());
  ASSERT_EQ(loaded->at(0).results.size(), 4u);
  for (const AgentJobResult& r : loaded->at(0).results) {
    EXPECT_EQ(r.result.intervals.size(), static_cast<size_t>(n)) << r.result.name;
    EXPECT_EQ(r.result.runtime_ns, n * kInterval) << "partial: up to its last streamed interval";
  }
}

INSTANTIATE_TEST_SUITE_P(FoldOnAndOff, IntervalSpoolTest, ::testing::Bool());

TEST(IntervalSpoolCrashTest, AnAttemptCutShortIsNotReportedAndGoesWhenTheScenarioIsSavedAgain) {
  testing::TempDir dir;
  const std::string path = dir.File("crash.db");
  {
    absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(path);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->BeginCampaign("c", "c.yaml", "").ok());
  }
  int64_t stream_id = 0;
  {
    // A coordinator that streamed 300 intervals and died before saving the scenario.
    absl::StatusOr<std::unique_ptr<IntervalSpool>> spool = IntervalSpool::Open(path, "k");
    ASSERT_TRUE(spool.ok()) << spool.status();
    stream_id = (*spool)->stream_id();
    AgentStream stream(0, kInterval, true, spool->get(), "a");
    for (int i = 0; i < 300; ++i) stream.AddInterval(0, "j0", kT0, Interval(i, 10, 5, 100'000));
    ASSERT_TRUE((*spool)->Finish().ok());
  }
  // Store::Open, as `run --resume` opens it (OpenExisting is read-only).
  absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(path);
  ASSERT_TRUE(store.ok());
  absl::StatusOr<int64_t> staged = (*store)->StagedRowCount(stream_id);
  ASSERT_TRUE(staged.ok());
  EXPECT_GE(*staged, 300) << "what streamed before the crash is in the file";
  absl::StatusOr<std::vector<ScenarioResult>> loaded = (*store)->LoadScenarios();
  ASSERT_TRUE(loaded.ok());
  EXPECT_TRUE(loaded->empty()) << "report shows no scenario that was never saved";
  absl::StatusOr<std::set<std::string>> complete = (*store)->CompletedScenarioKeys();
  ASSERT_TRUE(complete.ok());
  EXPECT_EQ(complete->count("k"), 0u) << "so --resume runs it again";

  // The resumed run's attempt of the key replaces the leftovers.
  ScenarioResult again;
  again.scenario.key = "k";
  ASSERT_TRUE((*store)->SaveScenario(again).ok());
  staged = (*store)->StagedRowCount(stream_id);
  ASSERT_TRUE(staged.ok());
  EXPECT_EQ(*staged, 0);
}

TEST(IntervalSpoolCrashTest, AnAttemptCutShortLeavesTheStoredScenarioOfItsKeyAsItWas) {
  testing::TempDir dir;
  const std::string path = dir.File("replace.db");
  absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(path);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)->BeginCampaign("c", "c.yaml", "").ok());
  // A partial attempt was stored, with its streamed series.
  {
    absl::StatusOr<std::unique_ptr<IntervalSpool>> spool = IntervalSpool::Open(path, "k");
    ASSERT_TRUE(spool.ok()) << spool.status();
    AgentStream stream(0, kInterval, true, spool->get(), "a");
    for (int i = 0; i < 40; ++i) stream.AddInterval(0, "j0", kT0, Interval(i, 10, 5, 100'000));
    ScenarioResult partial;
    partial.scenario.key = "k";
    partial.status = ScenarioStatus::kPartial;
    for (StreamedResult& r : stream.TakeStreamedResults(/*lost=*/true)) {
      partial.results.push_back({"a", std::move(r.result)});
      partial.staged.push_back(r.staged);
    }
    ASSERT_TRUE((*spool)->Finish().ok());
    partial.staged_stream_id = (*spool)->stream_id();
    ASSERT_TRUE((*store)->SaveScenario(partial).ok());
  }
  // `run --resume` runs it again, and that attempt dies after streaming 300 intervals.
  {
    absl::StatusOr<std::unique_ptr<IntervalSpool>> spool = IntervalSpool::Open(path, "k");
    ASSERT_TRUE(spool.ok()) << spool.status();
    AgentStream stream(0, kInterval, true, spool->get(), "a");
    for (int i = 0; i < 300; ++i) stream.AddInterval(0, "j0", kT0, Interval(i, 10, 5, 100'000));
    ASSERT_TRUE((*spool)->Finish().ok());
  }
  absl::StatusOr<std::vector<ScenarioResult>> loaded = (*store)->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 1u) << "the attempt is no scenario of its own";
  EXPECT_EQ(loaded->at(0).status, ScenarioStatus::kPartial);
  ASSERT_EQ(loaded->at(0).results.size(), 1u);
  EXPECT_EQ(loaded->at(0).results[0].result.intervals.size(), 40u)
      << "the stored attempt's series, not the one cut short";
  absl::StatusOr<std::map<std::string, ScenarioStatus>> keys = (*store)->StoredScenarioKeys();
  ASSERT_TRUE(keys.ok());
  EXPECT_EQ(keys->size(), 1u);
  absl::StatusOr<std::set<std::string>> complete = (*store)->CompletedScenarioKeys();
  ASSERT_TRUE(complete.ok());
  EXPECT_EQ(complete->count("k"), 0u) << "so --resume runs it again";
}

TEST(IntervalSpoolCrashTest, AWriteErrorIsReportedAndNeitherBlocksNorGrowsTheQueue) {
  testing::TempDir dir;
  const std::string path = dir.File("broken.db");
  {
    absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(path);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->BeginCampaign("c", "c.yaml", "").ok());
  }
  SpoolOptions options;
  options.batch_intervals = 10;
  options.max_queued_intervals = 20;
  absl::StatusOr<std::unique_ptr<IntervalSpool>> spool = IntervalSpool::Open(path, "k", options);
  ASSERT_TRUE(spool.ok()) << spool.status();
  // The table goes away under the writer (as a full or failing disk would refuse its writes).
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_busy_timeout(db, 5000);
  ASSERT_EQ(sqlite3_exec(db, "DROP TABLE interval", nullptr, nullptr, nullptr), SQLITE_OK)
      << sqlite3_errmsg(db);
  sqlite3_close(db);
  for (int i = 0; i < 2'000; ++i) {
    (*spool)->Add({"a", 0, "j0", Interval(i, 10, 5, 100'000)});
    ASSERT_LE((*spool)->queued(), 20u);
  }
  absl::Status finished = (*spool)->Finish();
  EXPECT_FALSE(finished.ok());
  EXPECT_NE(std::string(finished.message()).find("streamed intervals"), std::string::npos)
      << finished;
  EXPECT_EQ((*spool)->committed(), 0u);
}

TEST(IntervalSpoolCrashTest, OpeningWithoutACampaignFailsClearly) {
  testing::TempDir dir;
  absl::StatusOr<std::unique_ptr<IntervalSpool>> spool =
      IntervalSpool::Open(dir.File("empty.db"), "k");
  ASSERT_FALSE(spool.ok());
  EXPECT_NE(std::string(spool.status().message()).find("BeginCampaign"), std::string::npos)
      << spool.status();
}

}  // namespace
}  // namespace azbench

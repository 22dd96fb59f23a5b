// The clock offset each scenario used is stored with it (scenario_clock), in a real SQLite file:
// a client_to_client scenario re-measures the agents' offsets just before it runs, and that
// offset, not the one measured at connect (the agent rows), is what its times and joins used.
#include <memory>
#include <string>
#include <vector>

#include "common/clock.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/report/json_report.h"
#include "coordinator/store/store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/store_file.h"
#include "tests/testing/unimplemented_agent_client.h"

namespace azbench {
namespace {

constexpr int64_t kSecond = 1'000'000'000;

using ::azbench::testing::RawQuery;

ScenarioResult Scenario2(const std::string& key, int index, std::vector<AgentClockOffset> offsets) {
  ScenarioResult r;
  r.scenario.index = index;
  r.scenario.key = key;
  r.scenario.target = "shm";
  r.scenario.workload = "c2c";
  r.scenario.agent_ids = {"agent-1", "agent-2"};
  r.clock_offsets = std::move(offsets);
  return r;
}

AgentInfo Agent(const std::string& id, int64_t offset_ns) {
  AgentInfo a;
  a.agent_id = id;
  a.address = "127.0.0.1:7480";
  a.clock_offset_ns = offset_ns;
  a.clock_rtt_ns = 200'000;
  return a;
}

class ScenarioClockStoreTest : public testing::StoreFileTest {};

TEST_F(ScenarioClockStoreTest, EachScenarioKeepsTheOffsetsItUsedBesideTheConnectTimeAgentRows) {
  const int64_t t0 = 1'700'000'000 * kSecond;
  // At connect agent-2 was 100 ms ahead; by the second scenario its clock had drifted to 2.5 s.
  const std::vector<AgentClockOffset> first = {{"agent-1", 10'000, 150'000, t0},
                                               {"agent-2", 100'000'000, 180'000, t0}};
  const std::vector<AgentClockOffset> second = {
      {"agent-1", 12'000, 140'000, t0 + 3600 * kSecond},
      {"agent-2", 2'500'000'000, 160'000, t0 + 3600 * kSecond}};
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "name: c\n").ok());
    ASSERT_TRUE(store->SaveAgents({Agent("agent-1", 10'000), Agent("agent-2", 100'000'000)}).ok());
    ASSERT_TRUE(store->SaveScenario(Scenario2("target=shm/repeat=1", 0, first)).ok());
    ASSERT_TRUE(store->SaveScenario(Scenario2("target=shm/repeat=2", 1, second)).ok());
  }
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 2u);
  EXPECT_EQ((*loaded)[0].clock_offsets, first);
  EXPECT_EQ((*loaded)[1].clock_offsets, second);
  absl::StatusOr<std::vector<AgentInfo>> agents = store->LoadAgents();
  ASSERT_TRUE(agents.ok()) << agents.status();
  ASSERT_EQ(agents->size(), 2u);
  EXPECT_EQ((*agents)[1].clock_offset_ns, 100'000'000) << "the agent row is the connect-time one";
  EXPECT_EQ(RawQuery(path_,
                     "SELECT clock_offset_ns FROM scenario_clock JOIN scenario ON scenario.id = "
                     "scenario_id WHERE key = 'target=shm/repeat=2' AND agent_id = 'agent-2'"),
            2'500'000'000);
}

TEST_F(ScenarioClockStoreTest, SavingAScenarioAgainReplacesItsOffsets) {
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "name: c\n").ok());
  ASSERT_TRUE(
      store->SaveScenario(Scenario2("k", 0, {{"agent-1", 1, 2, 3}, {"agent-2", 4, 5, 6}})).ok());
  // `run --resume` runs it again with one agent.
  ScenarioResult again = Scenario2("k", 0, {{"agent-1", 7, 8, 9}});
  again.scenario.agent_ids = {"agent-1"};
  ASSERT_TRUE(store->SaveScenario(again).ok());
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 1u);
  EXPECT_EQ((*loaded)[0].clock_offsets, (std::vector<AgentClockOffset>{{"agent-1", 7, 8, 9}}));
  EXPECT_EQ(RawQuery(path_, "SELECT count(*) FROM scenario_clock"), 1);
}

TEST_F(ScenarioClockStoreTest, AFileWithoutTheTableGainsItAndItsScenariosHaveNoOffsetsRecorded) {
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "name: c\n").ok());
    ASSERT_TRUE(store->SaveScenario(Scenario2("before", 0, {{"agent-1", 1, 2, 3}})).ok());
  }
  // What an azbench before the table wrote: the same schema version without it.
  RawQuery(path_, "DROP TABLE scenario_clock");
  ASSERT_EQ(RawQuery(path_, "SELECT count(*) FROM sqlite_schema WHERE name = 'scenario_clock'"), 0);
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(RawQuery(path_, "PRAGMA user_version"), kStoreSchemaVersion);
  EXPECT_EQ(RawQuery(path_, "SELECT count(*) FROM sqlite_schema WHERE name = 'scenario_clock'"), 1);
  ASSERT_TRUE(store->SaveScenario(Scenario2("after", 1, {{"agent-2", 4, 5, 6}})).ok());
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 2u);
  EXPECT_TRUE((*loaded)[0].clock_offsets.empty()) << "not recorded, not invented";
  EXPECT_EQ((*loaded)[1].clock_offsets, (std::vector<AgentClockOffset>{{"agent-2", 4, 5, 6}}));
}

TEST(ScenarioClockReportTest, TheJsonReportGivesEachScenarioTheOffsetsItUsed) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(Scenario2("k", 0, {{"agent-1", 1, 2, 3}, {"agent-2", 4, 5, 6}}));
  const nlohmann::json report = JsonReport(
      MakeReportInput("c", {Agent("agent-2", 100)}, std::move(scenarios), KeepPolicy::kAll));
  EXPECT_EQ(report.at("agents").at(0).at("clock_offset_ns"), 100);  // at connect
  const nlohmann::json& used = report.at("scenarios").at(0).at("clock_offsets");
  ASSERT_EQ(used.size(), 2u);
  EXPECT_EQ(used.at(1), (nlohmann::json{{"agent_id", "agent-2"},
                                        {"clock_offset_ns", 4},
                                        {"clock_rtt_ns", 5},
                                        {"measured_at_ns", 6}}));
}

// An agent whose clock runs `offset_ns` ahead of this one; Hello only.
class ClockClient final : public testing::UnimplementedAgentClient {
 public:
  explicit ClockClient(int64_t offset_ns) : offset_ns_(offset_ns) {}
  absl::StatusOr<v1::HelloResponse> Hello(const v1::HelloRequest&, absl::Duration) override {
    v1::HelloResponse response;
    response.set_agent_realtime_ns(RealtimeNanos() + offset_ns_);
    return response;
  }

 private:
  int64_t offset_ns_;
};

TEST(ClockOffsetsOfTest, GivesWhatTheLastMeasurementLeftInTheScenariosAgentOrder) {
  Fleet fleet;
  for (auto [id, offset] :
       {std::pair<const char*, int64_t>{"agent-1", 0}, {"agent-2", 3 * kSecond}}) {
    FleetMember& m = fleet.members.emplace_back();
    m.info = Agent(id, 100'000'000);  // stale: what connect measured hours ago
    m.client = std::make_unique<ClockClient>(offset);
  }
  const int64_t before = RealtimeNanos();
  EXPECT_TRUE(RemeasureClockOffsets(fleet, {"agent-2", "agent-1"}, 3, absl::Seconds(1)).empty());
  const std::vector<AgentClockOffset> used =
      ClockOffsetsOf(fleet, {"agent-2", "agent-1", "not-in-the-fleet"});
  ASSERT_EQ(used.size(), 2u);
  EXPECT_EQ(used[0].agent_id, "agent-2");
  EXPECT_NEAR(static_cast<double>(used[0].clock_offset_ns), 3e9, 0.1e9);
  EXPECT_EQ(used[1].agent_id, "agent-1");
  EXPECT_NEAR(static_cast<double>(used[1].clock_offset_ns), 0, 0.1e9);
  for (const AgentClockOffset& c : used) {
    EXPECT_GE(c.measured_at_ns, before) << c.agent_id;
    EXPECT_LE(c.measured_at_ns, RealtimeNanos()) << c.agent_id;
    EXPECT_GE(c.clock_rtt_ns, 0) << c.agent_id;
  }
}

}  // namespace
}  // namespace azbench

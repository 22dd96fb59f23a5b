#include "coordinator/report/compare.h"

#include <fstream>
#include <sstream>

#include <string>
#include <vector>

#include "common/visibility_summary.h"
#include "coordinator/cli/cli.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/report_scenarios.h"
#include "tests/testing/temp_dir.h"

// FakeScenario is filled with designated initializers that leave the other fields at their
// defaults on purpose; GCC 12 warns about exactly that.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace azbench {
namespace {

using testing::FakeScenario;
using ::testing::HasSubstr;
using testing::MakeFakeScenario;
using testing::TempDir;

constexpr char kCampaignYaml[] =
    "name: NAME\nfleet: {local: {agents: 1}}\n"
    "targets:\n  - {name: efs, path: efs, kind: efs}\n  - {name: fsx, path: fsx, kind: "
    "fsx-openzfs}\n"
    "workloads:\n  - {name: randread, options: {rw: randread, bs: 4k, size: 1m}}\n"
    "repeats: 2\nkeep: KEEP\n";

// Writes a real results database holding `scenarios`.
void WriteStore(const std::string& path, const std::string& name,
                const std::vector<ScenarioResult>& scenarios, const std::string& keep = "last") {
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status();
  std::string yaml = kCampaignYaml;
  yaml.replace(yaml.find("NAME"), 4, name);
  yaml.replace(yaml.find("KEEP"), 4, keep);
  ASSERT_TRUE((*store)->BeginCampaign(name, name + ".yaml", yaml).ok());
  for (const ScenarioResult& s : scenarios) {
    absl::Status saved = (*store)->SaveScenario(s);
    ASSERT_TRUE(saved.ok()) << saved;
  }
}

// Repeats of efs randread with these op counts (over 2 s) and latencies.
std::vector<ScenarioResult> Repeats(const std::vector<uint64_t>& ops,
                                    const std::vector<uint64_t>& latency_ns,
                                    const std::string& target = "efs") {
  std::vector<ScenarioResult> out;
  for (size_t i = 0; i < ops.size(); ++i) {
    out.push_back(MakeFakeScenario({.target = target,
                                    .repeat = static_cast<int>(i + 1),
                                    .ops_per_agent = ops[i],
                                    .latency_ns = latency_ns[i]}));
  }
  return out;
}

const MetricComparison* Metric(const Comparison& c, const std::string& target,
                               const std::string& metric) {
  for (const ScenarioComparison& s : c.matched) {
    if (s.target != target) continue;
    for (const MetricComparison& m : s.metrics) {
      if (m.metric == metric) return &m;
    }
  }
  return nullptr;
}

class CompareTest : public ::testing::Test {
 protected:
  Comparison CompareFiles(const std::vector<ScenarioResult>& a,
                          const std::vector<ScenarioResult>& b,
                          std::optional<KeepPolicy> keep = std::nullopt) {
    WriteStore(dir_.File("a.db"), "before", a);
    WriteStore(dir_.File("b.db"), "after", b);
    auto ra = LoadStoredReport(dir_.File("a.db"), keep);
    auto rb = LoadStoredReport(dir_.File("b.db"), keep);
    EXPECT_TRUE(ra.ok()) << ra.status();
    EXPECT_TRUE(rb.ok()) << rb.status();
    if (!ra.ok() || !rb.ok()) return {};
    return CompareReports(ra->input, rb->input);
  }
  TempDir dir_;
};

TEST(JudgeTest, FlagsOnlyWhenTheRangesOfTheRepeatsAreDisjoint) {
  EXPECT_EQ(Judge({100, 110}, {120, 130}, true), CompareVerdict::kBetter);
  EXPECT_EQ(Judge({100, 110}, {80, 90}, true), CompareVerdict::kWorse);
  EXPECT_EQ(Judge({100, 110}, {105, 130}, true), CompareVerdict::kWithinSpread);
  EXPECT_EQ(Judge({100, 110}, {110, 130}, true), CompareVerdict::kWithinSpread) << "touching";
  // Latency: lower is better.
  EXPECT_EQ(Judge({100, 110}, {80, 90}, false), CompareVerdict::kBetter);
  EXPECT_EQ(Judge({100, 110}, {120, 130}, false), CompareVerdict::kWorse);
  // Fewer than two repeats on either side: no spread known, whatever the difference.
  EXPECT_EQ(Judge({100}, {1000, 1001}, true), CompareVerdict::kNoSpreadKnown);
  EXPECT_EQ(Judge({100, 101}, {1000}, true), CompareVerdict::kNoSpreadKnown);
  EXPECT_EQ(Judge({}, {}, true), CompareVerdict::kNoSpreadKnown);
}

// A lower bound's true value is at least it: it decides only against exact values below it.
TEST(JudgeTest, LowerBoundsDecideOnlyWhereTheyCannotBeWrong) {
  // A exact at 1-2 s, B at least 5-6 s: B is surely slower.
  EXPECT_EQ(Judge({1, 2}, {5, 6}, false, false, true), CompareVerdict::kWorse);
  // A at least 5-6 s, B exact at 1-2 s: B is surely faster.
  EXPECT_EQ(Judge({5, 6}, {1, 2}, false, true, false), CompareVerdict::kBetter);
  // B's values are only bounds below A's: B's true values may be anything above them.
  EXPECT_EQ(Judge({5, 6}, {1, 2}, false, false, true), CompareVerdict::kLowerBoundsOnly);
  EXPECT_EQ(Judge({1, 2}, {5, 6}, false, true, false), CompareVerdict::kLowerBoundsOnly);
  EXPECT_EQ(Judge({1, 6}, {2, 3}, false, true, true), CompareVerdict::kLowerBoundsOnly);
  EXPECT_EQ(Judge({5}, {1, 2}, false, true, false), CompareVerdict::kNoSpreadKnown);
}

// Visibility probes: A's export trials half timed out (at 3 minutes), B's all became visible in
// 30 ms. The visible trials alone look the same on both sides; counting the timed-out ones, as
// every report does, B is better at p99 and on the mean, and A's figures are lower bounds.
TEST_F(CompareTest, ProbeLatencyCountsTimedOutTrialsAndShowsLowerBounds) {
  auto probes = [](uint64_t timed_out) {
    std::vector<ScenarioResult> out;
    for (int repeat = 1; repeat <= 2; ++repeat) {
      ScenarioResult r = MakeFakeScenario({.target = "efs",
                                           .workload = "vis",
                                           .repeat = repeat,
                                           .ops_per_agent = 50,
                                           .latency_ns = 30'000'000,
                                           .bytes_per_op = 0,
                                           .kind = OpKind::kProbe});
      JobResult& job = r.results[0].result;
      job.Stats(OpKind::kProbe).errors = timed_out;
      job.warnings.push_back(FormatVisibilityCounts({.probe = "export",
                                                     .visible = 50,
                                                     .trials = 50 + timed_out,
                                                     .timed_out = timed_out,
                                                     .resolution = "500ms"}));
      job.warnings.push_back(FormatVisibilityTimeout("export", "3m"));
      out.push_back(std::move(r));
    }
    return out;
  };
  const Comparison c = CompareFiles(probes(50), probes(0));
  const MetricComparison* p99 = Metric(c, "efs", "probe p99");
  ASSERT_NE(p99, nullptr);
  EXPECT_TRUE(p99->a_lower_bound);
  EXPECT_FALSE(p99->b_lower_bound);
  EXPECT_DOUBLE_EQ(p99->a, 180e9) << "at least the timeout";
  EXPECT_EQ(p99->verdict, CompareVerdict::kBetter);
  const MetricComparison* mean = Metric(c, "efs", "probe mean lat");
  ASSERT_NE(mean, nullptr);
  EXPECT_TRUE(mean->a_lower_bound);
  EXPECT_GT(mean->a, 90e9) << "timed-out trials counted at the timeout";
  EXPECT_EQ(mean->verdict, CompareVerdict::kBetter);
  const MetricComparison* p50 = Metric(c, "efs", "probe p50");
  ASSERT_NE(p50, nullptr);
  EXPECT_FALSE(p50->a_lower_bound) << "half visible: the median is a sample";
  const std::string text = RenderComparisonText(c);
  EXPECT_THAT(text, HasSubstr(">= 180s [180s-180s]"));
  // B's figures as lower bounds against A's exact ones cannot be judged.
  const Comparison reversed = CompareFiles(probes(0), probes(50));
  const MetricComparison* worse = Metric(reversed, "efs", "probe p99");
  ASSERT_NE(worse, nullptr);
  EXPECT_EQ(worse->verdict, CompareVerdict::kWorse) << "B's bound is above all of A's values";
  EXPECT_THAT(Regressions(reversed), ::testing::Contains(HasSubstr("probe p99 ")));
  EXPECT_THAT(Regressions(reversed), ::testing::Contains(HasSubstr("-> >= 180s")));
}

TEST_F(CompareTest, ADifferenceBeyondTheSpreadOfTheRepeatsIsFlagged) {
  // A: 1,000 and 1,100 IOPS at 2 ms; B: 2,000 and 2,200 IOPS at 1 ms (ops over 2 s).
  const Comparison c = CompareFiles(Repeats({2000, 2200}, {2'000'000, 2'000'000}),
                                    Repeats({4000, 4400}, {1'000'000, 1'000'000}));
  ASSERT_EQ(c.matched.size(), 1u);
  const MetricComparison* iops = Metric(c, "efs", "IOPS");
  ASSERT_NE(iops, nullptr);
  // keep: last, so the shown figures are the second repeats.
  EXPECT_DOUBLE_EQ(iops->a, 1100);
  EXPECT_DOUBLE_EQ(iops->b, 2200);
  EXPECT_DOUBLE_EQ(iops->delta, 1100);
  ASSERT_TRUE(iops->ratio.has_value());
  EXPECT_DOUBLE_EQ(*iops->ratio, 2.0);
  EXPECT_THAT(iops->a_repeats, ::testing::ElementsAre(1000, 1100));
  EXPECT_EQ(iops->verdict, CompareVerdict::kBetter);
  const MetricComparison* p99 = Metric(c, "efs", "p99");
  ASSERT_NE(p99, nullptr);
  EXPECT_EQ(p99->verdict, CompareVerdict::kBetter) << "lower latency is better";
  EXPECT_LT(p99->delta, 0);
  ASSERT_NE(Metric(c, "efs", "MiB/s"), nullptr);

  const std::string text = RenderComparisonText(c);
  EXPECT_THAT(text, HasSubstr("B better"));
  EXPECT_THAT(text, HasSubstr("1,100 [1,000-1,100]"));
  EXPECT_THAT(text, HasSubstr("2.00x"));
  EXPECT_THAT(text, HasSubstr("+1,100"));
  EXPECT_THAT(text, HasSubstr("do not overlap"));
}

TEST_F(CompareTest, OverlappingRepeatsAreWithinSpreadEvenWhenTheShownFiguresDiffer) {
  const Comparison c = CompareFiles(Repeats({2000, 3000}, {1'000'000, 1'000'000}),
                                    Repeats({2800, 2200}, {1'000'000, 1'000'000}));
  const MetricComparison* iops = Metric(c, "efs", "IOPS");
  ASSERT_NE(iops, nullptr);
  EXPECT_DOUBLE_EQ(iops->a, 1500);
  EXPECT_DOUBLE_EQ(iops->b, 1100);
  EXPECT_EQ(iops->verdict, CompareVerdict::kWithinSpread);
}

TEST_F(CompareTest, WithoutRepeatsNothingIsFlaggedAndTheOutputSaysNoSpreadIsKnown) {
  const Comparison c = CompareFiles(Repeats({2000}, {1'000'000}), Repeats({8000}, {100'000}));
  const MetricComparison* iops = Metric(c, "efs", "IOPS");
  ASSERT_NE(iops, nullptr);
  EXPECT_DOUBLE_EQ(*iops->ratio, 4.0);
  EXPECT_EQ(iops->verdict, CompareVerdict::kNoSpreadKnown);
  const std::string md = RenderComparisonMarkdown(c);
  EXPECT_THAT(md,
              HasSubstr("| scenario | target | metric | A | B | delta | ratio B/A | verdict |"));
  EXPECT_THAT(md, HasSubstr("| randread | efs | IOPS | 1,000 | 4,000 | +3,000 | 4.00x | no spread "
                            "known |"));
  EXPECT_THAT(md, HasSubstr("0 flagged"));
}

TEST_F(CompareTest, ScenariosOnOneSideOnlyAreListedNotCompared) {
  std::vector<ScenarioResult> a = Repeats({2000, 2000}, {1'000'000, 1'000'000});
  std::vector<ScenarioResult> fsx = Repeats({1000, 1000}, {1'000'000, 1'000'000}, "fsx");
  a.insert(a.end(), std::make_move_iterator(fsx.begin()), std::make_move_iterator(fsx.end()));
  std::vector<ScenarioResult> b = Repeats({2000, 2000}, {1'000'000, 1'000'000});
  b.push_back(MakeFakeScenario({.target = "efs", .parameters = {{"iodepth", "8"}}}));
  const Comparison c = CompareFiles(a, b);
  ASSERT_EQ(c.matched.size(), 1u);
  EXPECT_THAT(c.only_a, ::testing::ElementsAre("randread fsx"));
  EXPECT_THAT(c.only_b, ::testing::ElementsAre("randread (iodepth=8) efs"));
  EXPECT_THAT(RenderComparisonText(c), HasSubstr("only in A: randread fsx"));
}

TEST_F(CompareTest, CampaignsWithNothingInCommonSaySo) {
  const Comparison c =
      CompareFiles(Repeats({2000}, {1'000'000}, "efs"), Repeats({2000}, {1'000'000}, "fsx"));
  EXPECT_TRUE(c.matched.empty());
  const std::string text = RenderComparisonText(c);
  EXPECT_THAT(text, HasSubstr("No scenarios in common."));
  EXPECT_THAT(text, HasSubstr("only in A: randread efs"));
  EXPECT_THAT(text, HasSubstr("only in B: randread fsx"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("| scenario |")));
  EXPECT_THAT(RenderComparisonMarkdown(c), HasSubstr("- only in B: randread fsx"));
}

TEST_F(CompareTest, KeepGivenToTheCommandOverridesTheStoredOne) {
  const Comparison c =
      CompareFiles(Repeats({2000, 4000}, {1'000'000, 1'000'000}),
                   Repeats({2000, 4000}, {1'000'000, 1'000'000}), KeepPolicy::kAll);
  const MetricComparison* iops = Metric(c, "efs", "IOPS");
  ASSERT_NE(iops, nullptr);
  EXPECT_DOUBLE_EQ(iops->a, 1500) << "keep all: the mean of the repeats";
}

TEST(LoadStoredReportTest, AMissingFileIsNotFound) {
  TempDir dir;
  auto report = LoadStoredReport(dir.File("missing.db"), std::nullopt);
  EXPECT_EQ(report.status().code(), absl::StatusCode::kNotFound);
}

// `azbench compare --fail-on-regression`: 0 without the flag, 1 only when a flagged difference
// is a regression, run through the real command line on real databases.
class CompareExitStatusTest : public CompareTest {
 protected:
  int Compare(const std::vector<ScenarioResult>& a, const std::vector<ScenarioResult>& b,
              bool fail_on_regression) {
    WriteStore(dir_.File("a.db"), "before", a);
    WriteStore(dir_.File("b.db"), "after", b);
    std::vector<std::string> args = {"compare", dir_.File("a.db"), dir_.File("b.db"), "-o",
                                     dir_.File("out.txt")};
    if (fail_on_regression) args.push_back("--fail-on-regression");
    const int code = RunCli(args);
    std::filesystem::remove(dir_.File("a.db"));
    std::filesystem::remove(dir_.File("b.db"));
    return code;
  }
};

TEST_F(CompareExitStatusTest, ARegressionBeyondTheSpreadFailsOnlyWhenAskedTo) {
  // B: half the IOPS and twice the latency, every repeat.
  const auto a = Repeats({4000, 4400}, {1'000'000, 1'000'000});
  const auto b = Repeats({2000, 2200}, {2'000'000, 2'000'000});
  EXPECT_EQ(Compare(a, b, false), 0) << "the exit status is opt-in";
  EXPECT_EQ(Compare(a, b, true), 1);
  std::ifstream in(dir_.File("out.txt"));
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_THAT(text.str(), HasSubstr("B worse")) << "the table is still written";
}

TEST_F(CompareExitStatusTest, AnImprovementOrADifferenceWithinTheSpreadIsNoRegression) {
  // Better throughput and latency in B.
  EXPECT_EQ(Compare(Repeats({2000, 2200}, {2'000'000, 2'000'000}),
                    Repeats({4000, 4400}, {1'000'000, 1'000'000}), true),
            0);
  // Worse, but the repeats overlap.
  EXPECT_EQ(Compare(Repeats({2000, 3000}, {1'000'000, 1'000'000}),
                    Repeats({2800, 1900}, {1'000'000, 1'000'000}), true),
            0);
  // Much worse, but without repeats nothing is flagged, so nothing fails.
  EXPECT_EQ(Compare(Repeats({8000}, {100'000}), Repeats({2000}, {1'000'000}), true), 0);
}

TEST_F(CompareTest, RegressionsNameTheScenarioTheMetricAndBothValues) {
  // Same throughput, latency doubled: only the latency rows regress (higher is worse).
  const Comparison c = CompareFiles(Repeats({4000, 4400}, {1'000'000, 1'000'000}),
                                    Repeats({4000, 4400}, {2'000'000, 2'000'000}));
  const std::vector<std::string> regressions = Regressions(c);
  ASSERT_FALSE(regressions.empty());
  for (const std::string& r : regressions) {
    EXPECT_THAT(r, ::testing::StartsWith("randread efs: ")) << r;
    EXPECT_THAT(r, ::testing::Not(HasSubstr("IOPS"))) << r;
    EXPECT_THAT(r, ::testing::Not(HasSubstr("MiB/s"))) << r;
  }
  EXPECT_THAT(regressions, ::testing::Contains(HasSubstr("p99 ")));
}

// A side whose figures come from an interrupted (partial) repeat is marked as the reports mark a
// partial target, "(partial)" after its values, and the scenario's status note is listed under the
// table ("A partial: <key>: <detail>"), in text and in Markdown; the complete side is not marked.
TEST_F(CompareTest, APartialSideIsMarkedInTextAndMarkdown) {
  std::vector<ScenarioResult> a = Repeats({4000, 4400}, {1'000'000, 1'000'000});
  a[1].status = ScenarioStatus::kPartial;
  a[1].status_detail = "interrupted (Ctrl-C)";
  const Comparison c = CompareFiles(a, Repeats({4000, 4400}, {1'000'000, 1'000'000}));
  ASSERT_EQ(c.matched.size(), 1u);
  EXPECT_TRUE(c.matched[0].a_partial);
  EXPECT_FALSE(c.matched[0].b_partial);
  EXPECT_THAT(c.matched[0].a_notes,
              ::testing::ElementsAre(
                  "partial: workload=randread/target=efs/repeat=2: interrupted (Ctrl-C)"));
  EXPECT_TRUE(c.matched[0].b_notes.empty());
  const std::string note =
      "A partial: workload=randread/target=efs/repeat=2: interrupted (Ctrl-C)\n";
  const std::string text = RenderComparisonText(c);
  EXPECT_THAT(text,
              ::testing::ContainsRegex("IOPS +2,200 \\[2,000-2,200\\] \\(partial\\) +2,200 "));
  EXPECT_THAT(text, HasSubstr(note));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("B partial")));
  const std::string md = RenderComparisonMarkdown(c);
  EXPECT_THAT(md, HasSubstr("| 2,200 [2,000-2,200] (partial) | 2,200 [2,000-2,200] |"));
  EXPECT_THAT(md, HasSubstr("- " + note));
}

// A failed repeat beside repeats with data: the figures are those of the others, and the failure
// is listed under the table with the reports' wording.
TEST_F(CompareTest, AFailedRepeatOfASideIsListedUnderTheTable) {
  std::vector<ScenarioResult> b = Repeats({4000, 4400, 4000}, {1'000'000, 1'000'000, 1'000'000});
  b[2].status = ScenarioStatus::kFailed;
  b[2].status_detail = "agent agent-1: connection reset";
  const Comparison c = CompareFiles(Repeats({4000, 4400}, {1'000'000, 1'000'000}), b);
  ASSERT_EQ(c.matched.size(), 1u);
  EXPECT_FALSE(c.matched[0].b_partial);
  const std::string note =
      "B failed: workload=randread/target=efs/repeat=3: agent agent-1: connection reset\n";
  EXPECT_THAT(RenderComparisonText(c), HasSubstr(note));
  EXPECT_THAT(RenderComparisonMarkdown(c), HasSubstr("- " + note));
}

// A side with the scenario but no data (every repeat failed) is "only in" the other side, with the
// reason.
TEST_F(CompareTest, ASideWhoseScenariosAllFailedSaysWhyInTheOnlyInList) {
  std::vector<ScenarioResult> a = Repeats({4000}, {1'000'000});
  a[0].status = ScenarioStatus::kFailed;
  a[0].status_detail = "no agent reachable";
  const Comparison c = CompareFiles(a, Repeats({4000}, {1'000'000}));
  EXPECT_TRUE(c.matched.empty());
  EXPECT_THAT(c.only_b, ::testing::ElementsAre("randread efs (A: failed: "
                                               "workload=randread/target=efs/repeat=1: no agent "
                                               "reachable)"));
  EXPECT_THAT(RenderComparisonText(c), HasSubstr("only in B: randread efs (A: failed: "));
}

TEST_F(CompareTest, ARegressionOfAPartialSideSaysSo) {
  std::vector<ScenarioResult> b = Repeats({4000, 4400}, {2'000'000, 2'000'000});
  b[1].status = ScenarioStatus::kPartial;
  const Comparison c = CompareFiles(Repeats({4000, 4400}, {1'000'000, 1'000'000}), b);
  const std::vector<std::string> regressions = Regressions(c);
  ASSERT_FALSE(regressions.empty());
  for (const std::string& r : regressions) EXPECT_THAT(r, ::testing::EndsWith(" (partial)")) << r;
}

}  // namespace
}  // namespace azbench

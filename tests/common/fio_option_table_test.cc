#include "common/fio_option_table.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(FioOptionTableTest, NamesAndAliasesAreUniqueAndEveryEntryIsComplete) {
  std::set<std::string_view> seen;
  for (const FioOptionInfo& info : FioOptionTable()) {
    EXPECT_TRUE(seen.insert(info.name).second) << info.name;
    if (!info.alias.empty()) {
      EXPECT_TRUE(seen.insert(info.alias).second) << info.alias;
    }
    EXPECT_FALSE(info.help.empty()) << info.name;
    EXPECT_FALSE(info.category.empty()) << info.name;
    EXPECT_EQ(info.set != nullptr, info.support == FioSupport::kHonoured) << info.name;
    if (info.support != FioSupport::kHonoured) {
      EXPECT_FALSE(info.why.empty()) << info.name;
    }
  }
}

// A sample of fio 3.33's options.c names (with its aliases) across its groups: each is in the table
// under the spelling fio uses, so no fio option falls through to "unknown".
TEST(FioOptionTableTest, CoversFio333OptionsAndAliases) {
  EXPECT_GE(FioOptionTable().size(), 227u + 6u);
  for (const char* name : {"description",
                           "wait_for",
                           "filename_format",
                           "rw_sequencer",
                           "iodepth_batch_submit",
                           "io_limit",
                           "fill_fs",
                           "fileoffset",
                           "blockalign",
                           "blocksize_range",
                           "bssplit",
                           "percentage_sequential",
                           "write_barrier",
                           "verifysort_nr",
                           "merge_blktrace_iters",
                           "zone_reset_frequency",
                           "rwmixcycle",
                           "thinktime_iotime",
                           "ratecycle",
                           "latency_run",
                           "gpu_dev_id",
                           "log_alternate_epoch_clock_id",
                           "dedupe_working_set_percentage",
                           "percentile_list",
                           "disable_bw",
                           "hugepage-size",
                           "flow_watermark",
                           "ss",
                           "ss_dur",
                           "ss_ramp"}) {
    EXPECT_NE(FindFioOption(name), nullptr) << name;
  }
  EXPECT_EQ(FindFioOption("blocksize"), FindFioOption("bs"));
  EXPECT_EQ(FindFioOption("no_such_option"), nullptr);
}

// Each honoured entry's setter is what ApplyJobOption uses: its name and alias set the same field.
TEST(FioOptionTableTest, HonouredEntriesApplyThroughApplyJobOption) {
  JobSpec by_name;
  JobSpec by_alias;
  ASSERT_TRUE(ApplyJobOption(by_name, "offset", "8k").ok());
  ASSERT_TRUE(ApplyJobOption(by_alias, "fileoffset", "8k").ok());
  EXPECT_EQ(by_name.offset_bytes, 8192u);
  EXPECT_EQ(by_alias.offset_bytes, 8192u);
}

// fio's latency options: times count microseconds when no unit is written; the percentile is one
// number in 0..100.
TEST(FioOptionTableTest, LatencyTargetOptionsTakeFiosUnitsAndRange) {
  JobSpec spec;
  ASSERT_TRUE(ApplyJobOption(spec, "latency_target", "500000").ok());
  ASSERT_TRUE(ApplyJobOption(spec, "latency_window", "5s").ok());
  ASSERT_TRUE(ApplyJobOption(spec, "latency_percentile", "99.9").ok());
  ASSERT_TRUE(ApplyJobOption(spec, "latency_run", "").ok());
  EXPECT_EQ(spec.latency_target, absl::Milliseconds(500));
  EXPECT_EQ(spec.latency_window, absl::Seconds(5));
  EXPECT_DOUBLE_EQ(spec.latency_percentile, 99.9);
  EXPECT_TRUE(spec.latency_run);
  for (const char* bad : {"100.1", "-1", "50:60", "high"}) {
    EXPECT_THAT(ApplyJobOption(spec, "latency_percentile", bad),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         AllOf(HasSubstr("latency_percentile"), HasSubstr("0..100"))))
        << bad;
  }
}

// fio sums 2^N of its 1856 bins per clat_hist column: N past 6 would not divide them.
TEST(FioOptionTableTest, HistLogOptionsTakeFiosRange) {
  JobSpec spec;
  ASSERT_TRUE(ApplyJobOption(spec, "write_hist_log", "").ok());
  ASSERT_TRUE(ApplyJobOption(spec, "log_hist_msec", "250").ok());
  ASSERT_TRUE(ApplyJobOption(spec, "log_hist_coarseness", "6").ok());
  EXPECT_EQ(spec.fio_logs.hist_prefix, "");
  EXPECT_EQ(spec.fio_logs.hist_msec, 250u);
  EXPECT_EQ(spec.fio_logs.hist_coarseness, 6);
  EXPECT_THAT(ApplyJobOption(spec, "log_hist_coarseness", "7"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("log_hist_coarseness"), HasSubstr("0 to 6"))));
}

TEST(FioOptionTableTest, SuggestsTheClosestNameOnlyWhenClose) {
  EXPECT_EQ(SuggestFioOption("iodepht"), "iodepth");
  EXPECT_EQ(SuggestFioOption("blocksz"), "blocksize");
  EXPECT_EQ(SuggestFioOption("qqqqqqqqqqqq"), "");
}

TEST(FioOptionHelpTextTest, OneOptionShowsTypeRangeDefaultHelpAndStatus) {
  absl::StatusOr<std::string> bs = FioOptionHelpText("blocksize");
  ASSERT_TRUE(bs.ok()) << bs.status();
  EXPECT_THAT(*bs, AllOf(HasSubstr("name      : bs\n"), HasSubstr("alias     : blocksize\n"),
                         HasSubstr("type      : size (bytes)\n"), HasSubstr("default   : 4k\n"),
                         HasSubstr("range     : 1..1g"), HasSubstr("azbench   : honoured")));
  absl::StatusOr<std::string> dump = FioOptionHelpText("create_fsync");
  ASSERT_TRUE(dump.ok()) << dump.status();
  EXPECT_THAT(*dump, HasSubstr("azbench   : refused: "));
  EXPECT_THAT(FioOptionHelpText("iodepht"),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("did you mean 'iodepth'?")));
}

TEST(FioOptionListTextTest, ListsEveryOptionWithItsStatus) {
  const std::string list = FioOptionListText();
  EXPECT_THAT(list, AllOf(HasSubstr("bs (blocksize)"), HasSubstr("[honoured]"),
                          HasSubstr("[refused]"), HasSubstr("[no effect]")));
  EXPECT_EQ(static_cast<size_t>(std::count(list.begin(), list.end(), '\n')),
            FioOptionTable().size());
}

// docs/fio-options.md is generated (`azbench-agent --cmdhelp=markdown > docs/fio-options.md`);
// this fails when the table changed and the page was not regenerated.
TEST(FioOptionsMarkdownTest, TheCommittedPageIsCurrent) {
  const std::filesystem::path page =
      std::filesystem::path(testing::kSourceDir) / "docs" / "fio-options.md";
  std::ifstream in(page);
  ASSERT_TRUE(in) << "cannot read " << page;
  std::stringstream committed;
  committed << in.rdbuf();
  EXPECT_TRUE(committed.str() == FioOptionsMarkdown())
      << page << " is stale: run `build/agent/azbench-agent --cmdhelp=markdown > "
      << "docs/fio-options.md`";
  EXPECT_THAT(FioOptionsMarkdown(), StartsWith("# fio options in azbench\n"));
}

}  // namespace
}  // namespace azbench

#include "common/visibility_summary.h"

#include "gtest/gtest.h"

namespace azbench {
namespace {

TEST(VisibilitySummaryTest, CountsReadBackExactlyAsTheyWereWritten) {
  const VisibilityCounts counts{.probe = "c2c-read",
                                .visible = 2,
                                .trials = 3,
                                .timed_out = 1,
                                .failed = 0,
                                .resolution = "1ms"};
  const std::string line = FormatVisibilityCounts(counts);
  EXPECT_EQ(line,
            "visibility c2c-read: 2 of 3 trials visible, 1 timed out, 0 failed; latency "
            "resolution 1ms (the poll interval)");
  const std::optional<VisibilityCounts> back = ParseVisibilityCounts(line);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->probe, "c2c-read");
  EXPECT_EQ(back->visible, 2u);
  EXPECT_EQ(back->trials, 3u);
  EXPECT_EQ(back->timed_out, 1u);
  EXPECT_EQ(back->failed, 0u);
  EXPECT_EQ(back->resolution, "1ms");
  EXPECT_EQ(FormatVisibilityCounts(*back), line);
}

TEST(VisibilitySummaryTest, AMeasuredResolutionReadsBackWithThePollInterval) {
  const VisibilityCounts counts{.probe = "export",
                                .visible = 3,
                                .trials = 3,
                                .timed_out = 0,
                                .failed = 0,
                                .resolution = "640ms",
                                .poll_interval = "500ms"};
  const std::string line = FormatVisibilityCounts(counts);
  EXPECT_EQ(line,
            "visibility export: 3 of 3 trials visible, 0 timed out, 0 failed; latency resolution "
            "640ms (the longest gap from a trial's last miss to its first sighting; poll interval "
            "500ms)");
  const std::optional<VisibilityCounts> back = ParseVisibilityCounts(line);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->resolution, "640ms");
  EXPECT_EQ(back->poll_interval, "500ms");
  EXPECT_EQ(back->visible, 3u);
  EXPECT_EQ(FormatVisibilityCounts(*back), line);
}

TEST(VisibilitySummaryTest, OtherLinesAreNotCounts) {
  EXPECT_FALSE(ParseVisibilityCounts("visibility p: cleanup left /x").has_value());
  EXPECT_FALSE(ParseVisibilityCounts("visibility p trial 3 timed_out: no file").has_value());
  EXPECT_FALSE(ParseVisibilityCounts(FormatSeenBeforeWrite("p", 2)).has_value());
  EXPECT_FALSE(
      ParseVisibilityCounts("visibility p: x of 3 trials visible, 1 timed out, 0 failed; latency "
                            "resolution 1ms (the poll interval)")
          .has_value());
  EXPECT_FALSE(ParseVisibilityCounts("client_to_client: note").has_value());
}

TEST(VisibilitySummaryTest, TheTimeoutReadsBackAndNoOtherLineIsOne) {
  const std::string line = FormatVisibilityTimeout("export", "3m");
  EXPECT_EQ(line, "visibility export: a trial not visible within 3m is timed out");
  EXPECT_EQ(ParseVisibilityTimeout(line), "3m");
  EXPECT_FALSE(ParseVisibilityTimeout(FormatSeenBeforeWrite("p", 2)).has_value());
  EXPECT_FALSE(ParseVisibilityTimeout(FormatVisibilityCounts({.probe = "p", .resolution = "1ms"}))
                   .has_value());
  EXPECT_FALSE(ParseVisibilityCounts(line).has_value());
}

TEST(VisibilitySummaryTest, SeenBeforeWriteIsRecognisedOnlyInItsOwnWording) {
  EXPECT_TRUE(IsSeenBeforeWrite(FormatSeenBeforeWrite("c2c-read", 4)));
  EXPECT_FALSE(IsSeenBeforeWrite(
      "client_to_client: visibility latency counted from writer a's write completion; 1 trial(s) "
      "seen before the write returned, clamped to 0"));
  EXPECT_FALSE(IsSeenBeforeWrite(FormatVisibilityCounts({.probe = "p", .resolution = "1ms"})));
}

}  // namespace
}  // namespace azbench

#include "agent/one_shot_eta.h"

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

TEST(OneShotEtaTest, FlagsTakeFiosValues) {
  EXPECT_EQ(ParseEtaMode("always").value_or(EtaMode::kNever), EtaMode::kAlways);
  EXPECT_EQ(ParseEtaMode("auto").value_or(EtaMode::kNever), EtaMode::kAuto);
  EXPECT_EQ(ParseEtaMode("never").value_or(EtaMode::kAlways), EtaMode::kNever);
  EXPECT_THAT(ParseEtaMode("sometimes").status().message(),
              HasSubstr("give never, auto or always"));
  // A time without a suffix is in seconds, as fio's.
  EXPECT_EQ(ParseEtaNewline("2").value_or(absl::ZeroDuration()), absl::Seconds(2));
  EXPECT_EQ(ParseEtaInterval("500ms").value_or(absl::ZeroDuration()), absl::Milliseconds(500));
  EXPECT_THAT(ParseEtaInterval("100ms").status().message(), HasSubstr("at least 250ms"));
  EXPECT_EQ(ParseEtaNewline("0").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(ParseEtaInterval("soon").ok());
}

TEST(OneShotEtaTest, TheLineShowsWhereFiosDoes) {
  EXPECT_FALSE(ShowsEtaLine(EtaMode::kNever, true, true, true));
  EXPECT_TRUE(ShowsEtaLine(EtaMode::kAlways, false, true, true));
  EXPECT_TRUE(ShowsEtaLine(EtaMode::kAuto, true, true, true));
  EXPECT_FALSE(ShowsEtaLine(EtaMode::kAuto, false, true, true));
  // JSON alone on stdout: a status line would corrupt it.
  EXPECT_FALSE(ShowsEtaLine(EtaMode::kAlways, true, false, true));
  // JSON to a file (--output): stdout is free for the line.
  EXPECT_TRUE(ShowsEtaLine(EtaMode::kAlways, true, false, false));
}

std::string ReadAll(std::FILE* f) {
  std::rewind(f);
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) text.append(buf, n);
  return text;
}

TEST(EtaPrinterTest, PrintsLinesWhileJobsRunAndEndsWithANewline) {
  JobSpec spec;
  spec.rw = RwPattern::kRandRw;
  spec.size_bytes = 1 << 20;
  JobProgress job(std::vector<JobEtaProfile>(2, EtaProfileOf(spec)));
  job.clones[0]->Start(0, /*ramp=*/false);
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  {
    EtaPrinter printer({.mode = EtaMode::kAlways, .interval = absl::Milliseconds(250)}, out);
    printer.Watch({&job, nullptr});
    // Lines come at the printer's pace; wait for one rather than for a time.
    while (ReadAll(out).empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    printer.Stop();
  }
  const std::string text = ReadAll(out);
  std::fclose(out);
  EXPECT_THAT(text, MatchesRegex("(Jobs: 1 \\(f=1\\)\r)+\n")) << text;
}

TEST(EtaPrinterTest, NothingPrintedNothingEnded) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  {
    EtaPrinter printer({.mode = EtaMode::kAlways}, out);
    printer.Watch({});
  }
  EXPECT_EQ(ReadAll(out), "");
  std::fclose(out);
}

}  // namespace
}  // namespace azbench

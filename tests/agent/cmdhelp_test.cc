#include "agent/cmdhelp.h"

#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(CmdhelpTest, RecognisesTheFlagWithAndWithoutAValue) {
  EXPECT_TRUE(IsCmdhelpArgument("--cmdhelp"));
  EXPECT_TRUE(IsCmdhelpArgument("--cmdhelp=bs"));
  EXPECT_FALSE(IsCmdhelpArgument("--cmdhelpx"));
  EXPECT_FALSE(IsCmdhelpArgument("run"));
}

TEST(CmdhelpTest, WithoutANameListsEveryOption) {
  std::ostringstream out, err;
  EXPECT_EQ(RunCmdhelp("--cmdhelp", out, err), 0);
  EXPECT_THAT(out.str(), HasSubstr("bs (blocksize)"));
  EXPECT_THAT(out.str(), HasSubstr("verify"));
  std::ostringstream all;
  EXPECT_EQ(RunCmdhelp("--cmdhelp=all", all, err), 0);
  EXPECT_EQ(all.str(), out.str());
}

TEST(CmdhelpTest, ANameShowsOneOptionAndAnUnknownOneSuggestsTheClosest) {
  std::ostringstream out, err;
  EXPECT_EQ(RunCmdhelp("--cmdhelp=disable_slat", out, err), 0);
  EXPECT_THAT(out.str(), StartsWith("name      : disable_slat\n"));
  EXPECT_THAT(out.str(), HasSubstr("azbench   : no effect: "));
  std::ostringstream none;
  EXPECT_EQ(RunCmdhelp("--cmdhelp=iodepht", none, err), 1);
  EXPECT_EQ(none.str(), "");
  EXPECT_THAT(err.str(), HasSubstr("did you mean 'iodepth'?"));
}

TEST(CmdhelpTest, MarkdownWritesTheDocsPage) {
  std::ostringstream out, err;
  EXPECT_EQ(RunCmdhelp("--cmdhelp=markdown", out, err), 0);
  EXPECT_THAT(out.str(), StartsWith("# fio options in azbench\n"));
}

}  // namespace
}  // namespace azbench

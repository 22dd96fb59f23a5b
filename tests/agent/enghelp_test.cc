#include "agent/enghelp.h"

#include <array>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// The first word of each line of `text`: the option names of an engine's list.
std::vector<std::string> FirstWords(const std::string& text) {
  std::vector<std::string> words;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    words.emplace_back(line.substr(0, line.find_first_of(" :")));
  }
  return words;
}

std::string FioStdout(const std::string& arg) {
  std::string out;
  const std::string command = std::string(testing::kFioBinary) + " " + arg + " 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (pipe == nullptr) return out;
  std::array<char, 4096> buffer;
  for (size_t n; (n = fread(buffer.data(), 1, buffer.size(), pipe.get())) > 0;) {
    out.append(buffer.data(), n);
  }
  return out;
}

TEST(EnghelpTest, RecognisesTheFlagWithAndWithoutAValue) {
  EXPECT_TRUE(IsEnghelpArgument("--enghelp"));
  EXPECT_TRUE(IsEnghelpArgument("--enghelp=io_uring"));
  EXPECT_FALSE(IsEnghelpArgument("--enghelpx"));
}

TEST(EnghelpTest, WithoutAnEngineListsTheBuiltInEnginesAsFio) {
  std::ostringstream out, err;
  EXPECT_EQ(RunEnghelp("--enghelp", out, err), 0);
  EXPECT_THAT(out.str(), StartsWith("Available IO engines:\n\tpsync\n"));
  EXPECT_THAT(out.str(), HasSubstr("\tio_uring\n"));
  EXPECT_THAT(out.str(), HasSubstr("\tftruncate\n"));
}

TEST(EnghelpTest, AnEnginesOptionsAreFiosInFiosOrderWithWhatAzbenchDoes) {
  if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
      !missing.empty()) {
    GTEST_SKIP() << missing;
  }
  for (const char* engine : {"pvsync2", "libaio", "io_uring", "mmap", "filestat"}) {
    SCOPED_TRACE(engine);
    const std::string arg = std::string("--enghelp=") + engine;
    std::ostringstream out, err;
    EXPECT_EQ(RunEnghelp(arg, out, err), 0);
    std::vector<std::string> ours = FirstWords(out.str());
    if (std::string(engine) == "io_uring") {
      ASSERT_FALSE(ours.empty());
      EXPECT_EQ(ours.back(), "uring_wait_pause");  // azbench's own, after fio's
      ours.pop_back();
    }
    EXPECT_EQ(ours, FirstWords(FioStdout(arg)));
  }
  std::ostringstream out, err;
  ASSERT_EQ(RunEnghelp("--enghelp=io_uring", out, err), 0);
  EXPECT_THAT(out.str(), HasSubstr("fixedbufs               : "));
  EXPECT_THAT(out.str(), HasSubstr("sqthread_poll           : not supported by azbench"));
}

TEST(EnghelpTest, EnginesWithoutOptionsAndUnknownOnesFailAsFio) {
  std::ostringstream out, err;
  EXPECT_EQ(RunEnghelp("--enghelp=psync", out, err), 1);
  EXPECT_EQ(out.str(), "IO engine psync has no options\n");
  std::ostringstream out2, err2;
  EXPECT_EQ(RunEnghelp("--enghelp=nope", out2, err2), 1);
  EXPECT_EQ(err2.str(), "IO engine nope not found\n");
}

TEST(EnghelpTest, AnEngineAndOptionShowTheOptionInFull) {
  std::ostringstream out, err;
  EXPECT_EQ(RunEnghelp("--enghelp=io_uring,fixedbufs", out, err), 0);
  EXPECT_THAT(out.str(), HasSubstr("fixedbufs"));
  EXPECT_THAT(out.str(), HasSubstr("azbench"));
  std::ostringstream out2, err2;
  EXPECT_EQ(RunEnghelp("--enghelp=io_uring,bs", out2, err2), 1);
  EXPECT_THAT(err2.str(), HasSubstr("has no option bs"));
}

}  // namespace
}  // namespace azbench

// fio's status line (--eta) of `azbench-agent run` beside the real fio 3.33's for the same job:
// both print lines of fio's grammar, with the same run string, the percentage rising and the ETA
// falling, and rates for the directions that ran; --eta=never and --eta=auto to a file print none.
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::Subprocess;
using testing::TempDir;

constexpr auto kTimeout = std::chrono::seconds(120);

// fio's status line once its ETA is known: "Jobs: 2 (f=2): [m(2)][60.0%][r=104MiB/s,w=105MiB/s]
// [r=26.6k,w=26.8k IOPS][eta 00m:02s]", padded with blanks.
const std::regex& FullLine() {
  static const auto* re = new std::regex(
      R"(Jobs: \d+ \(f=\d+\)(, [^:]+)?: \[((?:[PC/IRrWwMmDdVFfE_XK]\(\d+\),?)+)\])"
      R"(\[(-\.-|\d+\.\d)%\](?:\[([^\]]*)\]\[([^\]]*) IOPS\])?\[eta ((?:\d+[dhm]:)*\d+s)\] *)");
  return *re;
}
// Before it: "Jobs: 2 (f=2)".
const std::regex& ShortLine() {
  static const auto* re = new std::regex(R"(Jobs: \d+ \(f=\d+\)(, [^:]+)?)");
  return *re;
}

struct StatusLine {
  std::string run_str;
  std::optional<double> percent;  // none: "-.-%"
  std::string rates;              // "r=...,w=..."; empty when nothing moved
  int eta_sec = 0;
};

int EtaSeconds(const std::string& eta) {
  int total = 0;
  for (absl::string_view part : absl::StrSplit(eta, ':')) {
    const int n = std::stoi(std::string(part.substr(0, part.size() - 1)));
    switch (part.back()) {
      case 'd':
        total += n * 86400;
        break;
      case 'h':
        total += n * 3600;
        break;
      case 'm':
        total += n * 60;
        break;
      default:
        total += n;
    }
  }
  return total;
}

// The status lines of `output` (each ends with "\r"); fails the test on a line of neither form.
std::vector<StatusLine> StatusLines(const std::string& output) {
  std::vector<StatusLine> lines;
  for (absl::string_view piece : absl::StrSplit(output, absl::ByAnyChar("\r\n"))) {
    const std::string text(piece);
    if (text.rfind("Jobs: ", 0) != 0) continue;
    std::smatch m;
    if (std::regex_match(text, m, FullLine())) {
      StatusLine line;
      line.run_str = m[2];
      if (m[3] != "-.-") line.percent = std::stod(m[3]);
      line.rates = m[4];
      line.eta_sec = EtaSeconds(m[6]);
      lines.push_back(line);
    } else {
      EXPECT_TRUE(std::regex_match(text, ShortLine())) << "not fio's status line: '" << text << "'";
    }
  }
  return lines;
}

class OneShotEtaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
        !missing.empty()) {
      GTEST_SKIP() << missing;
    }
  }
  // `program` with a job of two randrw clones running `runtime_s` and `flags`; its output.
  std::string Run(const std::vector<std::string>& program, int runtime_s,
                  const std::vector<std::string>& flags) {
    std::vector<std::string> argv = program;
    for (const std::string& a :
         {std::string("--name=j"), absl::StrCat("--filename=", dir_.File("data")),
          std::string("--size=16m"), std::string("--rw=randrw"), std::string("--numjobs=2"),
          absl::StrCat("--runtime=", runtime_s), std::string("--time_based")}) {
      argv.push_back(a);
    }
    argv.insert(argv.end(), flags.begin(), flags.end());
    Subprocess p(argv, dir_.File(absl::StrCat("run-", ++runs_, ".txt")));
    EXPECT_EQ(p.Wait(kTimeout), 0) << p.Output();
    return p.Output();
  }
  TempDir dir_{testing::kDiskBase};
  int runs_ = 0;
};

TEST_F(OneShotEtaTest, AlwaysPrintsFiosLineBesideFio) {
  const std::vector<std::string> flags = {"--eta=always", "--eta-newline=1"};
  const std::string fio = Run({testing::kFioBinary}, 5, flags);
  const std::string az = Run({AZBENCH_AGENT_BIN, "run"}, 5, flags);
  for (const auto& [who, output] : {std::pair{"fio", fio}, std::pair{"azbench", az}}) {
    SCOPED_TRACE(absl::StrCat(who, ":\n", output));
    const std::vector<StatusLine> lines = StatusLines(output);
    ASSERT_GE(lines.size(), 2u);
    // Both clones of randrw run as fio's "m".
    EXPECT_EQ(lines.front().run_str, "m(2)");
    std::optional<double> last_percent;
    int last_eta = lines.front().eta_sec;
    for (const StatusLine& line : lines) {
      if (line.run_str != "m(2)") continue;  // the clones' ends
      ASSERT_TRUE(line.percent.has_value());
      if (last_percent.has_value()) {
        EXPECT_GE(*line.percent, *last_percent);
      }
      EXPECT_LE(line.eta_sec, last_eta);
      last_percent = line.percent;
      last_eta = line.eta_sec;
      EXPECT_THAT(line.rates, ::testing::MatchesRegex("r=[0-9.]+[KMG]iB/s,w=[0-9.]+[KMG]iB/s"));
    }
    ASSERT_TRUE(last_percent.has_value() && lines.front().percent.has_value());
    EXPECT_GT(*last_percent, *lines.front().percent);
    EXPECT_LT(last_eta, lines.front().eta_sec);
    // The report starts on a fresh line after the last status line.
    const size_t last_cr = output.rfind('\r');
    ASSERT_NE(last_cr, std::string::npos);
    EXPECT_EQ(output.substr(last_cr, 3), "\r\nj") << output.substr(last_cr);
  }
}

TEST_F(OneShotEtaTest, NeverAndAutoToAFilePrintNone) {
  for (const char* eta : {"--eta=never", "--eta=auto"}) {
    const std::string az = Run({AZBENCH_AGENT_BIN, "run"}, 2, {eta});
    EXPECT_THAT(az, Not(HasSubstr("Jobs: "))) << eta;
    EXPECT_THAT(az, HasSubstr("j: (groupid=0")) << eta;
  }
}

}  // namespace
}  // namespace azbench

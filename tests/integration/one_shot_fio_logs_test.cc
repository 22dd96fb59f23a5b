// fio's log files from `azbench-agent run` beside the real fio 3.33 on the same job: the same file
// names, as many lines within one per direction, values in fio's units (bw KiB/s, lat ns), and
// fio's own tools (fio2gnuplot, fio_generate_plots) read azbench's files. Debian's fio has no
// reader of histogram logs (fio's tools/hist is not packaged): the clat_hist log is checked
// against fio's file and against the op records azbench kept of the same run.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <zlib.h>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/fio_log_writer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/dependencies.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using testing::Subprocess;
using testing::TempDir;

constexpr auto kTimeout = std::chrono::seconds(120);

// One log line's columns.
using LogLine = std::vector<uint64_t>;

std::vector<LogLine> ReadLog(const std::string& path) {
  std::vector<LogLine> lines;
  std::ifstream in(path);
  std::string text;
  while (std::getline(in, text)) {
    LogLine line;
    for (absl::string_view column : absl::StrSplit(text, ',')) {
      uint64_t value = 0;
      EXPECT_TRUE(absl::SimpleAtoi(absl::StripAsciiWhitespace(column), &value))
          << path << ": '" << text << "'";
      line.push_back(value);
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

// Lines per direction (column 2).
std::map<uint64_t, int> LinesPerDirection(const std::vector<LogLine>& lines) {
  std::map<uint64_t, int> count;
  for (const LogLine& line : lines) ++count[line.at(2)];
  return count;
}

std::set<std::string> FileNames(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".log") names.insert(entry.path().filename().string());
  }
  return names;
}

// The lines of a gzip-compressed text file.
std::vector<std::string> ReadGzipLines(const std::string& path) {
  std::vector<std::string> lines;
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) return lines;
  std::string text;
  char buffer[1 << 16];
  int n = 0;
  while ((n = gzread(file, buffer, sizeof(buffer))) > 0)
    text.append(buffer, static_cast<size_t>(n));
  gzclose(file);
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    lines.emplace_back(line);
  }
  return lines;
}

class OneShotFioLogsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
        !missing.empty()) {
      GTEST_SKIP() << missing;
    }
    fs::create_directories(dir_.File("fio"));
    fs::create_directories(dir_.File("az"));
  }
  // The job's options, its logs prefixed by `out`/j.
  std::vector<std::string> Job(const std::string& out, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"--name=j", absl::StrCat("--filename=", dir_.File("data")),
                                     "--size=8m", "--bs=4k", "--ioengine=psync"};
    for (const char* log : {"bw", "lat", "iops"}) {
      args.push_back(absl::StrCat("--write_", log, "_log=", dir_.File(out), "/j"));
    }
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  // Runs `argv` to its end; its exit code, output in `output`.
  int Run(const std::vector<std::string>& argv, std::string* output) {
    Subprocess p(argv, dir_.File(absl::StrCat("run-", ++runs_, ".txt")));
    const int code = p.Wait(kTimeout);
    *output = p.Output();
    return code;
  }
  int RunFio(const std::vector<std::string>& job, std::string* output) {
    std::vector<std::string> argv = {testing::kFioBinary, "--output-format=json"};
    argv.insert(argv.end(), job.begin(), job.end());
    return Run(argv, output);
  }
  int RunAzbench(const std::vector<std::string>& job, std::string* output) {
    std::vector<std::string> argv = {AZBENCH_AGENT_BIN, "run", "--output-format=json"};
    argv.insert(argv.end(), job.begin(), job.end());
    return Run(argv, output);
  }
  // Runs `command` in `dir` with sh.
  int Shell(const std::string& dir, const std::string& command, std::string* output) {
    return Run({"/bin/sh", "-c", absl::StrCat("cd '", dir, "' && ", command)}, output);
  }
  TempDir dir_{testing::kDiskBase};
  int runs_ = 0;
};

TEST_F(OneShotFioLogsTest, AveragedLogsHaveFiosNamesLinesAndUnits) {
  const std::vector<std::string> extra = {"--rw=randrw", "--runtime=1", "--time_based",
                                          "--numjobs=2", "--log_avg_msec=100"};
  std::string fio_out, az_out;
  ASSERT_EQ(RunFio(Job("fio", extra), &fio_out), 0) << fio_out;
  ASSERT_EQ(RunAzbench(Job("az", extra), &az_out), 0) << az_out;

  const std::set<std::string> names = FileNames(dir_.File("fio"));
  EXPECT_EQ(FileNames(dir_.File("az")), names);
  EXPECT_THAT(names, ::testing::Contains("j_bw.2.log"));
  for (const std::string& name : names) {
    const std::vector<LogLine> fio = ReadLog(dir_.File("fio/" + name));
    const std::vector<LogLine> az = ReadLog(dir_.File("az/" + name));
    for (const LogLine& line : az) EXPECT_EQ(line.size(), 5u) << name;
    // A window's count differs only by where the run's end falls in the last window.
    const std::map<uint64_t, int> fio_lines = LinesPerDirection(fio);
    const std::map<uint64_t, int> az_lines = LinesPerDirection(az);
    for (const auto& [ddir, count] : fio_lines) {
      EXPECT_NEAR(az_lines.count(ddir) ? az_lines.at(ddir) : 0, count, 1)
          << name << " ddir " << ddir;
    }
    EXPECT_EQ(az_lines.size(), fio_lines.size()) << name << ": directions";
  }

  // bw in KiB/s: each window's bw is its IOPS times 4 (KiB of a 4k op), as in fio's files.
  for (const std::string out : {"fio", "az"}) {
    const std::vector<LogLine> bw = ReadLog(dir_.File(out + "/j_bw.1.log"));
    const std::vector<LogLine> iops = ReadLog(dir_.File(out + "/j_iops.1.log"));
    ASSERT_EQ(bw.size(), iops.size()) << out;
    for (size_t i = 0; i < bw.size(); ++i) {
      EXPECT_NEAR(static_cast<double>(bw[i][1]), 4.0 * static_cast<double>(iops[i][1]),
                  0.01 * static_cast<double>(bw[i][1]) + 4)
          << out << " line " << i;
    }
  }
  // lat in ns: the median window's mean lies within the job's lat_ns range in azbench's JSON.
  const nlohmann::json json = nlohmann::json::parse(az_out);
  const nlohmann::json& read_lat = json["jobs"][0]["read"]["lat_ns"];
  std::vector<uint64_t> values;
  for (const LogLine& line : ReadLog(dir_.File("az/j_lat.1.log"))) {
    if (line[2] == 0) values.push_back(line[1]);
  }
  ASSERT_FALSE(values.empty());
  std::sort(values.begin(), values.end());
  const double median = static_cast<double>(values[values.size() / 2]);
  EXPECT_GE(median, read_lat["min"].get<double>());
  EXPECT_LE(median, read_lat["max"].get<double>());
  EXPECT_EQ(ReadLog(dir_.File("az/j_slat.1.log")).size(), 0u) << "psync has no slat, as in fio";

  // fio's tools read azbench's files.
  std::string output;
  fs::create_directories(dir_.File("az/plots"));
  ASSERT_EQ(Shell(dir_.File("az"), "fio2gnuplot -b -d plots", &output), 0) << output;
  EXPECT_THAT(output, ::testing::HasSubstr("j_bw.1.log"));
  std::ifstream average(dir_.File("az/plots/result.average"));
  std::stringstream text;
  text << average.rdbuf();
  EXPECT_THAT(text.str(), ::testing::ContainsRegex("\n0 [1-9][0-9]*\n")) << "a mean bw";
  ASSERT_EQ(Shell(dir_.File("az"), "fio2gnuplot -i -d plots", &output), 0) << output;
  EXPECT_THAT(output, ::testing::HasSubstr("j_iops.1.log"));
  if (Shell(dir_.File("az"), "command -v gnuplot", &output) == 0) {
    ASSERT_EQ(Shell(dir_.File("az"), "fio_generate_plots az", &output), 0) << output;
    for (const char* plot : {"az-bw.svg", "az-iops.svg", "az-lat.svg", "az-clat.svg"}) {
      EXPECT_TRUE(fs::exists(dir_.File(absl::StrCat("az/", plot)))) << plot << "\n" << output;
    }
  }
}

TEST_F(OneShotFioLogsTest, UnaveragedLogsHaveOneLineAnOpWithItsOffset) {
  const std::vector<std::string> extra = {"--rw=randread", "--number_ios=64", "--log_offset=1",
                                          "--per_job_logs=0", "--numjobs=2"};
  std::string fio_out, az_out;
  ASSERT_EQ(RunFio(Job("fio", extra), &fio_out), 0) << fio_out;
  ASSERT_EQ(RunAzbench(Job("az", extra), &az_out), 0) << az_out;
  const std::set<std::string> names = FileNames(dir_.File("fio"));
  EXPECT_EQ(FileNames(dir_.File("az")), names);
  EXPECT_THAT(names, ::testing::Contains("j_bw.log")) << "per_job_logs=0: one file, no .N";
  for (const std::string name : {"j_bw.log", "j_iops.log", "j_lat.log", "j_clat.log"}) {
    const std::vector<LogLine> fio = ReadLog(dir_.File(absl::StrCat("fio/", name)));
    const std::vector<LogLine> az = ReadLog(dir_.File(absl::StrCat("az/", name)));
    EXPECT_EQ(az.size(), fio.size()) << name;
    EXPECT_EQ(az.size(), 128u) << name << ": 64 ops of each of 2 clones";
    for (const LogLine& line : az) {
      ASSERT_EQ(line.size(), 6u) << name;
      EXPECT_EQ(line[2], 0u) << name << ": reads";
      EXPECT_EQ(line[3], 4096u) << name << ": bs";
      EXPECT_EQ(line[4] % 4096, 0u) << name << ": offset";
      EXPECT_LT(line[4], 8u << 20) << name << ": offset";
      if (name == "j_iops.log") {
        EXPECT_EQ(line[1], 1u);
      }
    }
  }
}

TEST_F(OneShotFioLogsTest, HistLogCountsEveryRecordedOpsClatInFiosBins) {
  const std::vector<std::string> job = {
      "--name=j",           absl::StrCat("--filename=", dir_.File("data")),
      "--size=8m",          "--bs=4k",
      "--ioengine=psync",   "--rw=randrw",
      "--runtime=1",        "--time_based",
      "--log_hist_msec=50", "--log_hist_coarseness=2"};
  auto with_log = [&](const std::string& out) {
    std::vector<std::string> args = job;
    args.push_back(absl::StrCat("--write_hist_log=", dir_.File(out), "/j"));
    return args;
  };
  std::string fio_out, az_out;
  ASSERT_EQ(RunFio(with_log("fio"), &fio_out), 0) << fio_out;
  std::vector<std::string> az_job = with_log("az");
  az_job.push_back("--op_log=1");  // the records the histograms are checked against
  // In az/: the op log goes to the current directory.
  ASSERT_EQ(Shell(dir_.File("az"),
                  absl::StrCat(AZBENCH_AGENT_BIN, " run ", absl::StrJoin(az_job, " ")), &az_out),
            0)
      << az_out;

  EXPECT_EQ(FileNames(dir_.File("az")), FileNames(dir_.File("fio")));
  const std::vector<LogLine> fio = ReadLog(dir_.File("fio/j_clat_hist.1.log"));
  const std::vector<LogLine> az = ReadLog(dir_.File("az/j_clat_hist.1.log"));
  // "time, ddir, bs" and fio's 1856 bins summed by 4, as fio's own file has them.
  ASSERT_FALSE(fio.empty());
  ASSERT_FALSE(az.empty());
  EXPECT_EQ(fio[0].size(), 3u + kFioClatBins / 4);
  for (const LogLine& line : az) ASSERT_EQ(line.size(), fio[0].size());
  // A line about every 50 ms per direction: as many as fio's within 2 (the run's ends differ).
  std::map<uint64_t, int> fio_lines, az_lines;  // by ddir, the second column here
  for (const LogLine& line : fio) ++fio_lines[line[1]];
  for (const LogLine& line : az) ++az_lines[line[1]];
  EXPECT_EQ(fio_lines.size(), 2u) << "reads and writes";
  for (const auto& [ddir, count] : fio_lines) EXPECT_NEAR(az_lines[ddir], count, 2) << ddir;

  // Each direction's ops, in completion order, from the op log: a line counts the ops since the
  // direction's previous line, the one completed at the line's time last.
  std::map<uint64_t, std::vector<std::pair<uint64_t, uint64_t>>> ops;  // ddir -> (ms, clat ns)
  const std::vector<std::string> records = ReadGzipLines(dir_.File("az/j.oplog.csv.gz"));
  ASSERT_GT(records.size(), 1u);
  for (size_t i = 1; i < records.size(); ++i) {  // after the header
    const std::vector<std::string> f = absl::StrSplit(records[i], ',');
    ASSERT_EQ(f.size(), 7u) << records[i];
    uint64_t start_ns = 0, latency_ns = 0;
    ASSERT_TRUE(absl::SimpleAtoi(f[1], &start_ns) && absl::SimpleAtoi(f[5], &latency_ns));
    if (f[6] != "0" || (f[2] != "read" && f[2] != "write")) continue;
    ops[f[2] == "read" ? 0 : 1].push_back({(start_ns + latency_ns) / 1'000'000, latency_ns});
  }
  std::map<uint64_t, size_t> next;  // ddir -> its first op not yet in a line
  for (const LogLine& line : az) {
    const uint64_t ddir = line[1];
    EXPECT_EQ(line[2], 4096u) << "bs";
    uint64_t count = 0;
    for (size_t c = 3; c < line.size(); ++c) count += line[c];
    ASSERT_GT(count, 0u);
    const size_t first = next[ddir];
    ASSERT_LE(first + count, ops[ddir].size()) << "ddir " << ddir;
    std::vector<uint64_t> columns(line.size() - 3, 0);
    for (size_t i = first; i < first + count; ++i) {
      ++columns[static_cast<size_t>(FioClatBin(ops[ddir][i].second)) / 4];
    }
    EXPECT_EQ(columns, LogLine(line.begin() + 3, line.end())) << "line at " << line[0];
    EXPECT_EQ(ops[ddir][first + count - 1].first, line[0]) << "the last op ends the line";
    next[ddir] = first + count;
  }
}

}  // namespace
}  // namespace azbench

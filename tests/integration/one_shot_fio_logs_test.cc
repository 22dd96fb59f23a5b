// fio's log files from `azbench-agent run` beside the real fio 3.33 on the same job: the same file
// names, as many lines within one per direction, values in fio's units (bw KiB/s, lat ns), and
// fio's own tools (fio2gnuplot, fio_generate_plots) read azbench's files. Debian's fio has no
// reader of histogram logs (fio's tools/hist is not packaged): the clat_hist log is checked
// against fio's file and against the op records azbench kept of the same run.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
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
    // A window's count differs by where the run's end falls in the last window, and by one more
    // where fio's helper thread woke late and took two windows as one (under load).
    const std::map<uint64_t, int> fio_lines = LinesPerDirection(fio);
    const std::map<uint64_t, int> az_lines = LinesPerDirection(az);
    for (const auto& [ddir, count] : fio_lines) {
      EXPECT_NEAR(az_lines.count(ddir) ? az_lines.at(ddir) : 0, count, 2)
          << name << " ddir " << ddir;
    }
    EXPECT_EQ(az_lines.size(), fio_lines.size()) << name << ": directions";
  }

  // bw in KiB/s: each window's bw is its IOPS times 4 (KiB of a 4k op), as in fio's files.
  // azbench takes both from one window (1%: rounding); fio keeps a sample time for each, and
  // when its helper thread wakes late (the sanitizer build beside it) they cover windows a few
  // percent apart (2% seen).
  for (const std::string out : {"fio", "az"}) {
    const double tolerance = out == "fio" ? 0.05 : 0.01;
    const std::vector<LogLine> bw = ReadLog(dir_.File(out + "/j_bw.1.log"));
    const std::vector<LogLine> iops = ReadLog(dir_.File(out + "/j_iops.1.log"));
    ASSERT_EQ(bw.size(), iops.size()) << out;
    for (size_t i = 0; i < bw.size(); ++i) {
      EXPECT_NEAR(static_cast<double>(bw[i][1]), 4.0 * static_cast<double>(iops[i][1]),
                  tolerance * static_cast<double>(bw[i][1]) + 4)
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

// What the unaveraged logs say a job did, from fio and from azbench on the same job: the share of
// ops of each block size per direction (bssplit) and how the hits of a zipf or pareto job fall over
// the blocks, which fio-genzipf (fio's own table of its generators) draws as well.

// A null-engine job over a sparse file (no data moves), its lat log with offsets in `out`/j.
std::vector<std::string> PatternJob(const std::string& file, const std::string& out,
                                    const std::vector<std::string>& extra) {
  std::vector<std::string> args = {
      "--name=j",        absl::StrCat("--filename=", file),           "--ioengine=null",
      "--norandommap",   absl::StrCat("--write_lat_log=", out, "/j"), "--log_offset=1",
      "--per_job_logs=0"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// Percent of each direction's ops (column 2) by block size (column 3) in a lat log.
std::map<uint64_t, std::map<uint64_t, double>> SizeShares(const std::vector<LogLine>& lines) {
  std::map<uint64_t, std::map<uint64_t, double>> shares;
  std::map<uint64_t, double> total;
  for (const LogLine& line : lines) {
    shares[line.at(2)][line.at(3)] += 1;
    total[line.at(2)] += 1;
  }
  for (auto& [ddir, sizes] : shares) {
    for (auto& [bs, n] : sizes) n = 100 * n / total[ddir];
  }
  return shares;
}

// fio-genzipf's view of hit counts: the blocks that were hit, hottest first, and the percent of
// all `draws` that fell in the top `percent`% of them.
std::vector<double> TopShares(std::vector<uint64_t> hits, uint64_t draws,
                              const std::vector<int>& percents) {
  std::sort(hits.begin(), hits.end(), std::greater<>());
  std::vector<double> shares;
  for (int percent : percents) {
    const size_t top = (hits.size() * static_cast<size_t>(percent) + 99) / 100;
    uint64_t sum = 0;
    for (size_t i = 0; i < top; ++i) sum += hits[i];
    shares.push_back(100.0 * static_cast<double>(sum) / static_cast<double>(draws));
  }
  return shares;
}

// Hits per block (`block_bytes`) of a lat log's offsets (column 4), the blocks hit only.
std::vector<uint64_t> HitsPerBlock(const std::vector<LogLine>& lines, uint64_t block_bytes) {
  std::map<uint64_t, uint64_t> hits;
  for (const LogLine& line : lines) ++hits[line.at(4) / block_bytes];
  std::vector<uint64_t> counts;
  for (const auto& [block, n] : hits) counts.push_back(n);
  return counts;
}

TEST_F(OneShotFioLogsTest, BssplitGivesEachDirectionFiosSizeMix) {
  // Reads and writes with their own splits, 2 GiB in all (about 110,000 ops over the 64 MiB
  // region): each share's sampling error stays under half a point, so a 2-point difference is a
  // different mix, not chance.
  const std::vector<std::string> extra = {"--rw=randrw", "--rwmixread=70", "--size=64m",
                                          "--io_size=2g",
                                          "--bssplit=4k/50:16k/30:64k/20,8k/60:32k/40"};
  std::string fio_out, az_out;
  ASSERT_EQ(RunFio(PatternJob(dir_.File("data"), dir_.File("fio"), extra), &fio_out), 0) << fio_out;
  ASSERT_EQ(RunAzbench(PatternJob(dir_.File("data"), dir_.File("az"), extra), &az_out), 0)
      << az_out;
  const std::vector<LogLine> fio_lines = ReadLog(dir_.File("fio/j_lat.log"));
  const std::vector<LogLine> az_lines = ReadLog(dir_.File("az/j_lat.log"));
  ASSERT_GT(az_lines.size(), 100'000u);
  const auto fio = SizeShares(fio_lines);
  const auto az = SizeShares(az_lines);
  const std::map<uint64_t, std::map<uint64_t, double>> split = {
      {0, {{4096, 50}, {16384, 30}, {65536, 20}}}, {1, {{8192, 60}, {32768, 40}}}};
  for (const auto& [ddir, sizes] : split) {
    ASSERT_EQ(az.count(ddir), 1u) << "ddir " << ddir;
    ASSERT_EQ(fio.count(ddir), 1u) << "ddir " << ddir;
    double outside = 100;  // percent of the direction's ops with a size not in its split
    for (const auto& [bs, percent] : sizes) {
      const double got = az.at(ddir).count(bs) ? az.at(ddir).at(bs) : 0;
      const double want = fio.at(ddir).count(bs) ? fio.at(ddir).at(bs) : 0;
      outside -= got;
      std::cout << "ddir " << ddir << " bs " << bs << ": azbench " << got << "%, fio " << want
                << "%, bssplit " << percent << "%\n";
      EXPECT_NEAR(got, want, 2) << "ddir " << ddir << " bs " << bs;
      EXPECT_NEAR(got, percent, 2) << "ddir " << ddir << " bs " << bs;
    }
    // The run's last op may be cut to end at io_size; no other size appears.
    EXPECT_LT(outside, 0.01) << "ddir " << ddir;
  }
  // rwmixread=70 counts ops, as fio does.
  std::map<uint64_t, int> az_dirs = LinesPerDirection(az_lines);
  std::map<uint64_t, int> fio_dirs = LinesPerDirection(fio_lines);
  EXPECT_NEAR(100.0 * az_dirs[0] / static_cast<double>(az_lines.size()),
              100.0 * fio_dirs[0] / static_cast<double>(fio_lines.size()), 2);
}

TEST_F(OneShotFioLogsTest, ZipfAndParetoHitsFallAsInFioAndFioGenzipf) {
  // fio-genzipf sizes its data set in whole GiB: 1 GiB of 16 KiB blocks, as many draws as blocks.
  constexpr uint64_t kBlockBytes = 16384;
  constexpr uint64_t kBlocks = (1ull << 30) / kBlockBytes;
  const std::vector<int> rows = {5, 10, 20, 50};
  std::ofstream(dir_.File("data")).close();
  fs::resize_file(dir_.File("data"), 1ull << 30);  // sparse: the null engine moves no data
  // fio-genzipf comes with fio, beside it.
  const std::string genzipf_binary =
      (fs::path(testing::kFioBinary).parent_path() / "fio-genzipf").string();
  if (std::string missing = testing::MissingDependency("fio-genzipf", genzipf_binary);
      !missing.empty()) {
    GTEST_SKIP() << missing;
  }
  for (const auto& [type, value] : std::vector<std::pair<std::string, std::string>>{
           {"zipf", "1.2"}, {"zipf", "0.8"}, {"pareto", "0.3"}}) {
    SCOPED_TRACE(type + ":" + value);
    const std::string fio_dir = dir_.File(absl::StrCat("fio-", type, value));
    const std::string az_dir = dir_.File(absl::StrCat("az-", type, value));
    fs::create_directories(fio_dir);
    fs::create_directories(az_dir);
    const std::vector<std::string> extra = {
        "--rw=randread", absl::StrCat("--bs=", kBlockBytes), "--size=1g",
        absl::StrCat("--number_ios=", kBlocks),
        absl::StrCat("--random_distribution=", type, ":", value)};
    std::string fio_out, az_out, table;
    ASSERT_EQ(RunFio(PatternJob(dir_.File("data"), fio_dir, extra), &fio_out), 0) << fio_out;
    ASSERT_EQ(RunAzbench(PatternJob(dir_.File("data"), az_dir, extra), &az_out), 0) << az_out;
    ASSERT_EQ(Run({genzipf_binary, "-t", type, "-i", value, "-g", "1", "-b",
                   absl::StrCat(kBlockBytes), "-c"},
                  &table),
              0)
        << table;
    // "rank, count" lines, hottest first.
    std::vector<uint64_t> genzipf;
    for (absl::string_view line : absl::StrSplit(table, '\n', absl::SkipEmpty())) {
      std::vector<absl::string_view> f = absl::StrSplit(line, ", ");
      uint64_t count = 0;
      if (f.size() == 2 && absl::SimpleAtoi(f[1], &count)) genzipf.push_back(count);
    }
    ASSERT_GT(genzipf.size(), 100u) << table.substr(0, 500);

    const std::vector<LogLine> az_lines = ReadLog(az_dir + "/j_lat.log");
    const std::vector<LogLine> fio_lines = ReadLog(fio_dir + "/j_lat.log");
    ASSERT_EQ(az_lines.size(), kBlocks);
    for (const LogLine& line : az_lines) ASSERT_LT(line.at(4), 1ull << 30);
    const std::vector<double> az = TopShares(HitsPerBlock(az_lines, kBlockBytes), kBlocks, rows);
    const std::vector<double> fio =
        TopShares(HitsPerBlock(fio_lines, kBlockBytes), fio_lines.size(), rows);
    const std::vector<double> gen = TopShares(genzipf, kBlocks, rows);
    for (size_t i = 0; i < rows.size(); ++i) {
      std::cout << type << ":" << value << " top " << rows[i] << "% of the blocks hit: azbench "
                << az[i] << "%, fio " << fio[i] << "%, fio-genzipf " << gen[i] << "% of the hits\n";
      EXPECT_NEAR(az[i], gen[i], 1.5) << "top " << rows[i] << "%";
      EXPECT_NEAR(az[i], fio[i], 1.5) << "top " << rows[i] << "%";
    }
  }
}

TEST_F(OneShotFioLogsTest, ZonedHitsFallInTheirZonesAsInFio) {
  // fio's rand-zones example: 50% of the reads in the first 5% of the file, 30% in the next 15%,
  // the rest in the last 80%. (fio 3.33 refuses the example's own hint of separate write zones
  // after a ',' on its command line, so only reads are compared.)
  constexpr uint64_t kSizeBytes = 256ull << 20;
  const std::vector<std::string> extra = {"--rw=randread", "--bs=4k",
                                          absl::StrCat("--size=", kSizeBytes), "--number_ios=40000",
                                          "--random_distribution=zoned:50/5:30/15:20/"};
  std::string fio_out, az_out;
  ASSERT_EQ(RunFio(PatternJob(dir_.File("data"), dir_.File("fio"), extra), &fio_out), 0) << fio_out;
  ASSERT_EQ(RunAzbench(PatternJob(dir_.File("data"), dir_.File("az"), extra), &az_out), 0)
      << az_out;
  // Each zone's upper edge in percent of the file, and its share of the reads.
  const std::vector<std::pair<double, double>> zones = {{5, 50}, {20, 30}, {100, 20}};
  auto shares = [&](const std::vector<LogLine>& lines) {
    std::vector<double> share(zones.size(), 0);
    for (const LogLine& line : lines) {
      const double at = 100.0 * static_cast<double>(line.at(4)) / static_cast<double>(kSizeBytes);
      size_t i = 0;
      while (i + 1 < zones.size() && at >= zones[i].first) ++i;
      share[i] += 100.0 / static_cast<double>(lines.size());
    }
    return share;
  };
  const std::vector<double> fio = shares(ReadLog(dir_.File("fio/j_lat.log")));
  const std::vector<double> az = shares(ReadLog(dir_.File("az/j_lat.log")));
  for (size_t i = 0; i < zones.size(); ++i) {
    std::cout << "zone up to " << zones[i].first << "% of the file: azbench " << az[i]
              << "% of the reads, fio " << fio[i] << "%, asked " << zones[i].second << "%\n";
    EXPECT_NEAR(az[i], fio[i], 2) << "zone " << i;
    EXPECT_NEAR(az[i], zones[i].second, 2) << "zone " << i;
  }
}

}  // namespace
}  // namespace azbench

// `azbench-agent run` (one-shot mode) beside the real fio 3.33 on the same job file: every key
// path fio writes in its output formats is in azbench's, and the values that describe the job
// (options as given, queue depth, what the disk did) agree.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/result_json.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/dependencies.h"
#include "tests/testing/fio_json.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::Subprocess;
using testing::TempDir;

constexpr auto kTimeout = std::chrono::seconds(120);

// Key paths fio writes that azbench does not, each with its reason. fio writes "aggr_*" in a
// disk_util entry only for a device-mapper or md device (its slaves' sums), which
// common/disk_util.h does not collect.
bool AllowedMissing(const std::string& path) {
  return path.find("disk_util/") == 0 && path.find("/aggr_") != std::string::npos;
}

// Every key path of `j` ("jobs/read/clat_ns/percentile/99.000000"; array elements share their
// array's path). Members of "job options" / "global options" are the job's, not the format's.
void Walk(const json& j, const std::string& path, std::set<std::string>& out) {
  if (!path.empty()) out.insert(path);
  if (j.is_array()) {
    for (const json& element : j) Walk(element, path, out);
  } else if (j.is_object() && path != "global options" && path != "jobs/job options") {
    for (const auto& [key, value] : j.items()) {
      Walk(value, path.empty() ? key : absl::StrCat(path, "/", key), out);
    }
  }
}

class OneShotFioOutputTest : public ::testing::Test {
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
  // The same job file for both, on the disk (not tmpfs): disk_util is there for both.
  std::string JobFile(const std::string& name) {
    const std::string path = dir_.File(name + ".fio");
    std::ofstream(path) << "[global]\nioengine=psync\nbs=4k\niodepth=2\ndirectory="
                        << dir_.File(name) << "\n[mix]\nrw=randrw\nsize=256k\n";
    return path;
  }
  // Runs `argv`; its exit code, output in `output`.
  int Run(const std::vector<std::string>& argv, std::string* output) {
    Subprocess p(argv, dir_.File(absl::StrCat("run-", ++runs_, ".txt")));
    const int code = p.Wait(kTimeout);
    *output = p.Output();
    return code;
  }
  TempDir dir_{testing::kDiskBase};
  int runs_ = 0;
};

TEST_F(OneShotFioOutputTest, JsonHasEveryKeyPathOfFioAndTheSameJobDescription) {
  std::string output;
  ASSERT_EQ(Run({testing::kFioBinary, "--output-format=json", "--output=" + dir_.File("fio.json"),
                 JobFile("fio")},
                &output),
            0)
      << output;
  ASSERT_EQ(Run({AZBENCH_AGENT_BIN, "run", JobFile("az"), "--output-format=json",
                 "--output=" + dir_.File("az.json")},
                &output),
            0)
      << output;
  const json fio = testing::LoadFioJson(dir_.File("fio.json"));
  const json az = testing::LoadFioJson(dir_.File("az.json"));
  ASSERT_TRUE(fio.is_object() && az.is_object());
  std::set<std::string> fio_paths, az_paths;
  Walk(fio, "", fio_paths);
  Walk(az, "", az_paths);
  ASSERT_GT(fio_paths.size(), 100u);
  for (const std::string& path : fio_paths) {
    if (AllowedMissing(path)) continue;
    EXPECT_EQ(az_paths.count(path), 1u) << "fio's key path '" << path << "' is missing";
  }
  const json& f = fio["jobs"][0];
  const json& a = az["jobs"][0];
  EXPECT_EQ(az["global options"]["ioengine"], "psync");
  EXPECT_EQ(az["global options"]["iodepth"], fio["global options"]["iodepth"]);
  EXPECT_EQ(a["job options"], f["job options"]);
  EXPECT_EQ(a["latency_depth"], f["latency_depth"]);
  EXPECT_EQ(a["latency_target"], f["latency_target"]);
  EXPECT_EQ(a["latency_window"], f["latency_window"]);
  EXPECT_EQ(a["latency_percentile"], f["latency_percentile"]);
  EXPECT_EQ(a["eta"], f["eta"]);
  EXPECT_GE(a["elapsed"].get<int64_t>(), 1);
  EXPECT_EQ(a["read"]["io_bytes"].get<uint64_t>() + a["write"]["io_bytes"].get<uint64_t>(),
            256u * 1024);
  // The distribution is of every completion, in percent.
  double total = 0;
  for (const char* unit : {"latency_ns", "latency_us", "latency_ms"}) {
    for (const auto& [key, share] : a[unit].items()) total += share.get<double>();
  }
  EXPECT_NEAR(total, 100.0, 1e-6);
  // The same disk, by fio's rule; azbench wrote at least its own 256 KiB to it or read it.
  ASSERT_EQ(az.contains("disk_util"), fio.contains("disk_util"));
  if (fio.contains("disk_util")) {
    ASSERT_EQ(az["disk_util"].size(), fio["disk_util"].size());
    EXPECT_EQ(az["disk_util"][0]["name"], fio["disk_util"][0]["name"]);
    EXPECT_LE(az["disk_util"][0]["util"].get<double>(), 100.0);
  }
}

// A rate-capped job asking for steady state within 20% of its mean IOPS over 2 s: both tools end
// it as soon as the window is steady, long before its runtime, and report the same block.
TEST_F(OneShotFioOutputTest, SteadyStateEndsTheJobOnceItsWindowIsSteadyAndReportsItAsFio) {
  const std::string job_file = dir_.File("ss.fio");
  std::ofstream(job_file) << "[ss]\nioengine=null\nrw=read\nbs=4k\nsize=64m\ntime_based\n"
                             "runtime=60\nrate_iops=1000\nss=iops:20%\nss_dur=2\n";
  std::string output;
  ASSERT_EQ(Run({testing::kFioBinary, "--output-format=json", "--output=" + dir_.File("fio.json"),
                 job_file},
                &output),
            0)
      << output;
  ASSERT_EQ(Run({AZBENCH_AGENT_BIN, "run", job_file, "--output-format=json",
                 "--output=" + dir_.File("az.json")},
                &output),
            0)
      << output;
  const json fio = testing::LoadFioJson(dir_.File("fio.json"));
  const json az = testing::LoadFioJson(dir_.File("az.json"));
  ASSERT_TRUE(fio.is_object() && az.is_object());
  std::set<std::string> fio_paths, az_paths;
  Walk(fio["jobs"][0]["steadystate"], "", fio_paths);
  Walk(az["jobs"][0]["steadystate"], "", az_paths);
  ASSERT_FALSE(fio_paths.empty()) << fio.dump(1);
  EXPECT_EQ(az_paths, fio_paths);
  for (const json* doc : {&fio, &az}) {
    const json& job = (*doc)["jobs"][0];
    SCOPED_TRACE((*doc)["fio version"].get<std::string>());
    const json& ss = job["steadystate"];
    EXPECT_EQ(ss["ss"], "iops:20.000000%");
    EXPECT_EQ(ss["duration"], 2);
    EXPECT_EQ(ss["attained"], 1) << ss.dump();
    ASSERT_EQ(ss["data"]["iops"].size(), 2u);
    // Steady: each sample within 20% of the window's mean, the mean near the cap.
    const double mean = ss["data"]["iops_mean"].get<double>();
    EXPECT_NEAR(mean, 1000, 100);
    for (const json& iops : ss["data"]["iops"]) EXPECT_NEAR(iops.get<double>(), mean, 0.2 * mean);
    // 4 KiB per I/O; fio rounds each bandwidth and IOPS sample on its own (1001.06 against 1000
    // once), so within 1%.
    EXPECT_NEAR(ss["data"]["bw_mean"].get<double>() / 4096, mean, 0.01 * mean) << "4 KiB per I/O";
    // Ended by steady state, not by its 60 s runtime.
    EXPECT_LT(job["read"]["runtime"].get<int64_t>(), 30'000);
  }
}

// The fields of the first terse line of `text` of version `version` (fio may print notes on
// other lines).
std::vector<std::string> TerseFields(const std::string& text, int version) {
  const std::string prefix = absl::StrCat(version, ";");
  std::vector<std::string> fields;
  size_t start = text.rfind(prefix, 0) == 0 ? 0 : text.find("\n" + prefix);
  if (start == std::string::npos) return fields;
  if (start > 0) ++start;
  std::stringstream line(text.substr(start, text.find('\n', start) - start));
  for (std::string field; std::getline(line, field, ';');) fields.push_back(field);
  return fields;
}

TEST_F(OneShotFioOutputTest, EveryTerseVersionIsFiosFieldForField) {
  for (int version : {2, 3, 4, 5}) {
    SCOPED_TRACE(absl::StrCat("terse version ", version));
    const std::string flag = absl::StrCat("--terse-version=", version);
    std::string fio_out, az_out;
    ASSERT_EQ(Run({testing::kFioBinary, "--minimal", flag, JobFile("fio")}, &fio_out), 0)
        << fio_out;
    ASSERT_EQ(Run({AZBENCH_AGENT_BIN, "run", JobFile("az"), "--minimal", flag}, &az_out), 0)
        << az_out;
    const std::vector<std::string> f = TerseFields(fio_out, version);
    const std::vector<std::string> a = TerseFields(az_out, version);
    ASSERT_EQ(a.size(), f.size()) << "fio: " << fio_out << "\nazbench: " << az_out;
    for (size_t i = 0; i < f.size(); ++i) {
      // Field kinds agree everywhere: a percentile label, a percentage, or a plain value.
      const size_t f_eq = f[i].find("%="), a_eq = a[i].find("%=");
      ASSERT_EQ(a_eq == std::string::npos, f_eq == std::string::npos) << "field " << i;
      if (f_eq != std::string::npos) {
        EXPECT_EQ(a[i].substr(0, a_eq), f[i].substr(0, f_eq)) << "percentile label, field " << i;
      } else {
        EXPECT_EQ(a[i].back() == '%', f[i].back() == '%') << "field " << i << ": " << a[i];
      }
    }
    // Version 2 has no fio version field; version 5 has 6 more fields per direction.
    const size_t name = version == 2 ? 1 : 2;
    const size_t direction_fields = version == 5 ? 47 : 41;
    EXPECT_EQ(a[0], std::to_string(version));
    EXPECT_EQ(a[name], f[name]);          // jobname
    EXPECT_EQ(a[name + 1], f[name + 1]);  // groupid
    EXPECT_EQ(a[name + 2], f[name + 2]);  // error
    // read + write io_kbytes: the same 256 KiB job.
    const size_t read_kib = name + 3;
    const size_t write_kib = read_kib + direction_fields;
    EXPECT_EQ(std::stoi(a[read_kib]) + std::stoi(a[write_kib]), 256);
    EXPECT_EQ(std::stoi(f[read_kib]) + std::stoi(f[write_kib]), 256);
    if (version != 3) {
      EXPECT_EQ(a[write_kib + direction_fields], "0");  // trim io_kbytes
    }
    if (version == 5) {
      // iops_samples of reads: fio samples every 500 ms; a short job may have none.
      EXPECT_EQ(a[read_kib + 46].find('.'), std::string::npos) << a[read_kib + 46];
    }
  }
  std::string output;
  EXPECT_EQ(Run({AZBENCH_AGENT_BIN, "run", JobFile("az"), "--terse-version=6"}, &output), 2);
  EXPECT_THAT(output, ::testing::HasSubstr("give 2, 3, 4 or 5"));
}

TEST_F(OneShotFioOutputTest, SeveralFormatsComeInFiosOrderIntoTheOutputFile) {
  std::string output;
  ASSERT_EQ(Run({AZBENCH_AGENT_BIN, "run", JobFile("az"), "--output-format=normal,json,terse",
                 "--output=" + dir_.File("all.txt")},
                &output),
            0)
      << output;
  const std::string all = testing::FileContents(dir_.File("all.txt"));
  // As fio: the terse line, then the JSON document, then the normal text.
  const size_t terse = all.find("3;azbench-");
  const size_t json_start = all.find("{\n");
  const size_t normal = all.find("read: IOPS=");
  ASSERT_EQ(terse, 0u) << all;
  ASSERT_NE(json_start, std::string::npos) << all;
  ASSERT_NE(normal, std::string::npos) << all;
  EXPECT_LT(json_start, normal);
  const size_t json_end = all.rfind("}\n", normal);
  EXPECT_FALSE(json::parse(all.substr(json_start, json_end + 1 - json_start), nullptr, false)
                   .is_discarded());
  EXPECT_EQ(output.find("3;azbench-"), std::string::npos) << "nothing on stdout";
}

// What the percentile options choose in each format, as fio's: in json+ which latency objects
// carry "percentile" (with which keys) and "bins", terse's 20 slot labels, and the normal output's
// percentile blocks (which latencies, which values, in which order).
TEST_F(OneShotFioOutputTest, PercentileOptionsShapeJsonTerseAndNormalOutputAsFios) {
  struct Case {
    const char* engine;
    const char* options;
  };
  for (const Case& c :
       {Case{"psync", ""}, Case{"psync", "percentile_list=99.5:50:1\nlat_percentiles=1\n"},
        Case{"libaio", "clat_percentiles=0\nslat_percentiles=1\n"},
        Case{"libaio", "percentile_list=10:90\nclat_percentiles=0\n"}}) {
    SCOPED_TRACE(absl::StrCat(c.engine, " ", c.options));
    auto job_file = [&](const std::string& name) {
      const std::string path = dir_.File(name + "-percentiles.fio");
      std::ofstream(path) << "[global]\nioengine=" << c.engine
                          << "\nbs=4k\ndirectory=" << dir_.File(name)
                          << "\n[mix]\nrw=randrw\nsize=256k\n"
                          << c.options;
      return path;
    };
    auto run = [&](const std::vector<std::string>& fio_args, std::string* fio_out,
                   std::string* az_out) {
      std::vector<std::string> f = {testing::kFioBinary, job_file("fio")};
      std::vector<std::string> a = {AZBENCH_AGENT_BIN, "run", job_file("az")};
      f.insert(f.end(), fio_args.begin(), fio_args.end());
      a.insert(a.end(), fio_args.begin(), fio_args.end());
      ASSERT_EQ(Run(f, fio_out), 0) << *fio_out;
      ASSERT_EQ(Run(a, az_out), 0) << *az_out;
    };

    std::string fio_out, az_out;
    run({"--output-format=json+"}, &fio_out, &az_out);
    const json fio_doc = json::parse(fio_out, nullptr, false);
    const json az_doc = json::parse(az_out, nullptr, false);
    ASSERT_FALSE(fio_doc.is_discarded() || az_doc.is_discarded()) << fio_out << az_out;
    for (const char* direction : {"read", "write"}) {
      for (const char* latency : {"slat_ns", "clat_ns", "lat_ns"}) {
        const json& f = fio_doc["jobs"][0][direction][latency];
        const json& a = az_doc["jobs"][0][direction][latency];
        ASSERT_EQ(a.contains("percentile"), f.contains("percentile")) << direction << latency;
        EXPECT_EQ(a.contains("bins"), f.contains("bins")) << direction << latency;
        if (!f.contains("percentile")) continue;
        std::vector<std::string> f_keys, a_keys;
        for (const auto& [key, value] : f["percentile"].items()) f_keys.push_back(key);
        for (const auto& [key, value] : a["percentile"].items()) a_keys.push_back(key);
        EXPECT_EQ(a_keys, f_keys) << direction << latency;
      }
    }

    run({"--minimal"}, &fio_out, &az_out);
    const std::vector<std::string> f = TerseFields(fio_out, 3);
    const std::vector<std::string> a = TerseFields(az_out, 3);
    ASSERT_EQ(a.size(), f.size()) << fio_out << "\n" << az_out;
    for (size_t first : {17u, 58u}) {  // read's and write's 20 slots
      for (size_t i = first; i < first + 20; ++i) {
        EXPECT_EQ(a[i].substr(0, a[i].find("%=")), f[i].substr(0, f[i].find("%="))) << i;
      }
    }

    run({}, &fio_out, &az_out);
    auto blocks = [](const std::string& text) {
      std::vector<std::string> out;
      const std::regex item(R"((\w+) percentiles \(|([0-9.]+)th=\[)");
      for (auto it = std::sregex_iterator(text.begin(), text.end(), item);
           it != std::sregex_iterator(); ++it) {
        out.push_back((*it)[1].matched ? (*it)[1].str() : (*it)[2].str());
      }
      return out;
    };
    EXPECT_EQ(blocks(az_out), blocks(fio_out)) << "fio:\n" << fio_out << "azbench:\n" << az_out;
  }
}

TEST_F(OneShotFioOutputTest, UnifiedRwReportingShapesJsonTerseAndNormalOutputAsFios) {
  for (const char* mode : {"mixed", "both"}) {
    SCOPED_TRACE(mode);
    auto job_file = [&](const std::string& name) {
      const std::string path = dir_.File(name + "-unified.fio");
      std::ofstream(path) << "[global]\nioengine=psync\nbs=4k\ndirectory=" << dir_.File(name)
                          << "\nunified_rw_reporting=" << mode
                          << "\n[mix]\nrw=randrw\nsize=256k\nfsync=8\n";
      return path;
    };
    auto run = [&](const std::string& format, std::string* fio_out, std::string* az_out) {
      ASSERT_EQ(Run({testing::kFioBinary, job_file("fio"), format}, fio_out), 0) << *fio_out;
      ASSERT_EQ(Run({AZBENCH_AGENT_BIN, "run", job_file("az"), format}, az_out), 0) << *az_out;
    };

    std::string fio_out, az_out;
    run("--output-format=json", &fio_out, &az_out);
    const json fio_doc = json::parse(fio_out, nullptr, false);
    const json az_doc = json::parse(az_out, nullptr, false);
    ASSERT_FALSE(fio_doc.is_discarded() || az_doc.is_discarded()) << fio_out << az_out;
    const json& f = fio_doc["jobs"][0];
    const json& a = az_doc["jobs"][0];
    for (const char* key : {"read", "write", "trim", "sync", "mixed"}) {
      EXPECT_EQ(a.contains(key), f.contains(key)) << key;
    }
    ASSERT_TRUE(a.contains("mixed"));
    EXPECT_EQ(a["mixed"]["io_bytes"], f["mixed"]["io_bytes"]);
    EXPECT_EQ(a["mixed"]["total_ios"], f["mixed"]["total_ios"]);
    EXPECT_EQ(a["mixed"]["clat_ns"].contains("percentile"),
              f["mixed"]["clat_ns"].contains("percentile"));

    run("--minimal", &fio_out, &az_out);
    const std::vector<std::string> ft = TerseFields(fio_out, 3);
    const std::vector<std::string> at = TerseFields(az_out, 3);
    ASSERT_EQ(at.size(), ft.size()) << fio_out << "\n" << az_out;
    // The mixed slots' io_kbytes: first with mixed, after read's and write's with both.
    const size_t kbytes = std::string(mode) == "mixed" ? 5 : 5 + 41 + 41;
    EXPECT_EQ(at[kbytes], "256");
    EXPECT_EQ(at[kbytes], ft[kbytes]);

    run("--output-format=normal", &fio_out, &az_out);
    auto sections = [](const std::string& text) {
      std::vector<std::string> out;
      const std::regex section(R"(\n  (read|write|mixed): IOPS=)");
      for (auto it = std::sregex_iterator(text.begin(), text.end(), section);
           it != std::sregex_iterator(); ++it) {
        out.push_back((*it)[1].str());
      }
      return out;
    };
    EXPECT_EQ(sections(az_out), sections(fio_out)) << "fio:\n" << fio_out << "azbench:\n" << az_out;
  }
}

TEST_F(OneShotFioOutputTest, SignificantFiguresShapeTheNormalOutputsFiguresAsFios) {
  for (const char* figures : {"2", "4", "6"}) {
    SCOPED_TRACE(figures);
    auto job_file = [&](const std::string& name) {
      const std::string path = dir_.File(name + "-figures.fio");
      std::ofstream(path) << "[global]\nbs=4k\nsize=256k\nrw=read\ndirectory=" << dir_.File(name)
                          << "\nsignificant_figures=" << figures << "\n[j]\n";
      return path;
    };
    std::string fio_out, az_out;
    ASSERT_EQ(Run({testing::kFioBinary, job_file("fio")}, &fio_out), 0) << fio_out;
    ASSERT_EQ(Run({AZBENCH_AGENT_BIN, "run", job_file("az")}, &az_out), 0) << az_out;
    // IOPS, bandwidth (binary, then decimal) and the bytes done, as fio's num2str writes them.
    const std::regex line(
        R"(  read: IOPS=([0-9.]+)[kMGTPE]?, BW=([0-9.]+)(?:[KMGTPE]i)?B/s \(([0-9.]+)[kMGTPE]?B/s\)\(([^/]+)/)");
    std::smatch f, a;
    ASSERT_TRUE(std::regex_search(fio_out, f, line)) << fio_out;
    ASSERT_TRUE(std::regex_search(az_out, a, line)) << az_out;
    EXPECT_EQ(a[4].str(), f[4].str()) << "the bytes done";
    const size_t most = static_cast<size_t>(std::stoi(figures)) + 1;  // a carry may add one
    for (int i = 1; i <= 3; ++i) {
      EXPECT_LE(f[i].length(), most) << f[0];
      EXPECT_LE(a[i].length(), most) << a[0];
    }
  }
}

// The labels of a normal output's lines from its first job section on: each line's text before
// its first '(', ':' or '=' (a job's name, "read", "clat", "clat percentiles", "Run status group
// 0", "READ", a disk's name), with "lat dist" for the latency distribution lines, "| rows" for a
// percentile block's rows (how many fit on a row depends on the widest value, so on the run's
// tail) and consecutive repeats folded into one. azbench's warning lines are azbench's own.
std::vector<std::string> NormalLabels(const std::string& text) {
  std::vector<std::string> labels;
  const size_t first = text.find(": (groupid=");
  std::stringstream in(text.substr(text.rfind('\n', first) + 1));
  const std::regex distribution(R"(^  lat \((nsec|usec|msec)\)   : )");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line.rfind("  warning: ", 0) == 0) continue;
    std::string label = std::regex_search(line, distribution) ? "lat dist"
                        : line.rfind("     |", 0) == 0        ? "| rows"
                                                              : line;
    label = label.substr(0, label.find_first_of("(:="));
    label.erase(0, label.find_first_not_of(' '));
    label.erase(label.find_last_not_of(' ') + 1);
    if (labels.empty() || labels.back() != label) labels.push_back(label);
  }
  return labels;
}

TEST_F(OneShotFioOutputTest, NormalOutputHasFiosLinesInFiosOrderWithTheSameCounts) {
  // Three stonewalled groups, on the disk (Disk stats are printed for both): w and r are shorter
  // than fio's 500 ms bandwidth sample (no bw and iops lines), t runs for three samples.
  auto job_file = [&](const std::string& name) {
    const std::string path = dir_.File(name + "-normal.fio");
    std::ofstream(path) << "[global]\nioengine=psync\nbs=4k\nsize=256k\ndirectory="
                        << dir_.File(name) << "\n[w]\nrw=write\nfsync=16\n[r]\nstonewall\n"
                        << "rw=randread\n[t]\nstonewall\nrw=read\ntime_based\nruntime=1600ms\n";
    return path;
  };
  std::string fio_out, az_out;
  ASSERT_EQ(Run({testing::kFioBinary, job_file("fio")}, &fio_out), 0) << fio_out;
  ASSERT_EQ(Run({AZBENCH_AGENT_BIN, "run", job_file("az")}, &az_out), 0) << az_out;
  EXPECT_EQ(NormalLabels(az_out), NormalLabels(fio_out)) << "fio:\n"
                                                         << fio_out << "azbench:\n"
                                                         << az_out;
  // What w and r issued (reads, writes, trims, syncs) and their groups' bytes, as fio counts them
  // (t's, time-based, are whatever each did in its time).
  for (const auto& check : {std::pair<const char*, size_t>{R"(issued rwts: (total=[0-9,]+))", 2},
                            {R"(   READ: bw=.*, io=([^ ]+))", 1},
                            {R"(  WRITE: bw=.*, io=([^ ]+))", 1}}) {
    const char* pattern = check.first;
    const size_t count = check.second;  // clang 14 cannot capture a structured binding
    const std::regex re(pattern);
    auto found = [&](const std::string& text) {
      std::vector<std::string> out;
      for (auto it = std::sregex_iterator(text.begin(), text.end(), re);
           it != std::sregex_iterator() && out.size() < count; ++it) {
        out.push_back((*it)[1].str());
      }
      return out;
    };
    EXPECT_EQ(found(fio_out).size(), count) << pattern;
    EXPECT_EQ(found(az_out), found(fio_out)) << pattern;
  }
  // A sync after writes 16, 32 and 48: as fio's, none after the last write.
  EXPECT_THAT(az_out, ::testing::HasSubstr("issued rwts: total=0,64,0,3 short=0,0,0,0"));
  EXPECT_THAT(az_out, ::testing::HasSubstr("iB/s): min="));
  EXPECT_THAT(az_out, ::testing::HasSubstr("\n   iops        : min="));
}

// fio's json+ reader, installed beside fio (Debian's fio package).
std::string Clat2Csv() {
  return (fs::path(testing::kFioBinary).parent_path() / "fio_jsonplus_clat2csv").string();
}

// The rows of a CSV file, each split at ',' with the spaces around fields removed.
std::vector<std::vector<std::string>> ReadCsv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> row;
    std::stringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) {
      const size_t first = field.find_first_not_of(' ');
      row.push_back(first == std::string::npos ? "" : field.substr(first));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

TEST_F(OneShotFioOutputTest, FiosJsonPlusReaderAgreesWithAzbenchsPercentilesWithinOneBin) {
  if (std::string missing = testing::MissingDependency("fio_jsonplus_clat2csv", Clat2Csv());
      !missing.empty()) {
    GTEST_SKIP() << missing;
  }
  std::string output;
  ASSERT_EQ(Run({AZBENCH_AGENT_BIN, "run", "--name=rr", "--rw=randread", "--bs=4k", "--size=1m",
                 "--directory=" + dir_.File("az"), "--output-format=json+",
                 "--output=" + dir_.File("az.json")},
                &output),
            0)
      << output;
  ASSERT_EQ(Run({Clat2Csv(), dir_.File("az.json"), dir_.File("az.csv")}, &output), 0) << output;
  // --validate: the tool checks that the CSV it wrote holds exactly the bins of the document.
  ASSERT_EQ(Run({Clat2Csv(), dir_.File("az.json"), dir_.File("az.csv"), "--validate"}, &output), 0)
      << output;
  const json az = testing::LoadFioJson(dir_.File("az.json"));
  const json& clat = az["jobs"][0]["read"]["clat_ns"];
  ASSERT_TRUE(clat.contains("bins"));
  uint64_t binned = 0;
  for (const auto& [value, count] : clat["bins"].items()) binned += count.get<uint64_t>();
  EXPECT_EQ(binned, clat["N"].get<uint64_t>()) << "every sample is in a bin";
  EXPECT_EQ(binned, 256u);

  const std::vector<std::vector<std::string>> rows = ReadCsv(dir_.File("az_job0.csv"));
  ASSERT_GT(rows.size(), 1u);
  const auto column = [&](const std::string& name) {
    const auto it = std::find(rows[0].begin(), rows[0].end(), name);
    return static_cast<size_t>(it - rows[0].begin());
  };
  const size_t count_col = column("read_clat_ns_count");
  const size_t pct_col = column("read_clat_ns_percentile");
  ASSERT_LT(pct_col, rows[0].size());
  for (const auto& [key, value] : clat["percentile"].items()) {
    const double p = std::stod(key);
    // fio's reading: the first bin whose cumulative share reaches p.
    ASSERT_GT(p, 0.0);
    uint64_t fio_ns = 0;
    for (size_t r = 1; r < rows.size(); ++r) {
      // A row of another direction's bin leaves this one's fields empty.
      if (rows[r].size() <= pct_col || rows[r][count_col].empty()) continue;
      if (std::stod(rows[r][pct_col]) * 100 + 1e-9 >= p) {  // the tool writes a fraction
        fio_ns = std::stoull(rows[r][0]);
        break;
      }
    }
    const uint64_t az_ns = value.get<uint64_t>();
    const uint64_t width = FioPlatWidth(FioPlatIndex(fio_ns));
    EXPECT_LE(std::max(az_ns, fio_ns) - std::min(az_ns, fio_ns), width)
        << "percentile " << key << ": azbench " << az_ns << " ns, fio's reader " << fio_ns;
  }
}

}  // namespace
}  // namespace azbench

// fio 3.33's own example job files (Debian's fio-examples package) through the real fio and through
// `azbench-agent run`, side by side. Each example is scaled to about a second by rewriting the
// values of a few options (sizes, runtimes, file counts) and pointing its files at a temporary
// directory on the local disk (a device path becomes a file of kDeviceBytes, as if it were the
// device); everything else is the example as fio ships it. The table below says, per example, what
// azbench does with it today, and the test holds azbench to that: an example that runs must do
// the same work as fio (jobs, groups, bytes and ops per job and direction, or for time-based jobs
// the same jobs, directions and read share); an example azbench refuses must be refused with the
// named reason, so that this table stays the true list of what runs (docs/fio-compatibility.md).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
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

constexpr char kExamplesDir[] = "/usr/share/doc/fio/examples";
constexpr auto kTimeout = std::chrono::seconds(120);
constexpr uint64_t kDeviceBytes = 8 << 20;

enum class Outcome {
  kSameWork,        // both run; the same bytes and ops per job and direction
  kSameJobs,        // both run (time-based); the same jobs, groups, directions and read share
  kSameFlowShares,  // as kSameJobs, and each job's share of all I/Os is fio's (flow)
  kAzbenchRefuses,  // fio runs it; azbench refuses it, and its error contains `why`
  kBothRefuse,      // fio 3.33 refuses it too (the example is wrong for 3.33); so does azbench
};

struct Example {
  const char* name;
  // option -> value, applied to every line that sets the option (scaling to about a second).
  std::vector<std::pair<std::string, std::string>> set;
  Outcome outcome;
  const char* why = "";  // kAzbenchRefuses, kBothRefuse: a part of azbench's error
};

// The file-system examples of fio 3.33 (41 in fio's tree today; dircreate-, dirdelete-,
// dirstat-ioengine and sequence-distribution came after 3.33, so 37 here).
const std::vector<Example>& Examples() {
  static const auto* examples = new std::vector<Example>{
      {"1mbs_clients", {{"size", "256k"}}, Outcome::kAzbenchRefuses, "rate"},
      {"aio-read", {{"size", "2m"}}, Outcome::kSameWork},
      {"backwards-read",
       {{"size", "1m"}, {"filename", "128m"}},
       Outcome::kAzbenchRefuses,
       "read:-8k"},
      {"basic-verify", {}, Outcome::kAzbenchRefuses, "verify"},
      // fio takes the size of the existing file; azbench needs size=.
      {"butterfly",
       {{"filename", "/dev/butterfly"}},
       Outcome::kAzbenchRefuses,
       "size must be given"},
      {"cpp_null", {{"size", "64m"}}, Outcome::kAzbenchRefuses, "cpp_null"},
      {"cross-stripe-verify",
       {{"offset_increment", "256k"}, {"io_size", "128k"}, {"numjobs", "4"}},
       Outcome::kAzbenchRefuses,
       "write:112k"},
      {"dedupe-global",
       {{"size", "1m"}, {"iodepth", "8"}},
       Outcome::kAzbenchRefuses,
       "dedupe_mode"},
      {"enospc-pressure",
       {{"filesize", "4m"}, {"size", "8m"}, {"runtime", "1"}, {"iodepth", "8"}},
       Outcome::kAzbenchRefuses,
       "filesize"},
      {"exitwhat",
       {{"filesize", "4m"}, {"number_ios", "20"}},
       Outcome::kAzbenchRefuses,
       "azbench does no trims"},
      {"falloc",
       {{"size", "4m"}, {"filesize", "4m"}, {"runtime", "1"}},
       Outcome::kAzbenchRefuses,
       "falloc"},
      {"filecreate-ioengine", {{"nrfiles", "20"}}, Outcome::kAzbenchRefuses, "create_on_open"},
      {"filedelete-ioengine", {{"nrfiles", "20"}}, Outcome::kAzbenchRefuses, "filedelete"},
      {"filestat-ioengine", {{"nrfiles", "20"}}, Outcome::kAzbenchRefuses, "filestat"},
      {"fio-rand-RW", {{"size", "4m"}, {"runtime", "1"}}, Outcome::kSameJobs},
      {"fio-rand-read", {{"size", "4m"}, {"runtime", "1"}}, Outcome::kSameJobs},
      {"fio-rand-write", {{"size", "4m"}, {"runtime", "1"}}, Outcome::kSameJobs},
      {"fio-seq-RW", {{"size", "4m"}, {"runtime", "1"}}, Outcome::kSameJobs},
      {"fio-seq-read", {{"size", "4m"}, {"runtime", "1"}}, Outcome::kSameJobs},
      {"fio-seq-write", {{"size", "4m"}, {"runtime", "1"}}, Outcome::kSameJobs},
      {"fixed-rate-submission", {{"size", "1m"}}, Outcome::kAzbenchRefuses, "io_submit_mode"},
      {"flow", {{"size", "4m"}, {"runtime", "1"}}, Outcome::kSameFlowShares},
      {"fsx", {{"loops", "20"}}, Outcome::kAzbenchRefuses, "loops"},
      {"ftruncate", {{"size", "1028k"}, {"runtime", "1s"}}, Outcome::kAzbenchRefuses, "ftruncate"},
      {"iometer-file-access-server", {{"size", "4m"}}, Outcome::kAzbenchRefuses, "bssplit"},
      {"jesd219", {{"iodepth", "8"}}, Outcome::kAzbenchRefuses, "bssplit"},
      {"latency-profile", {}, Outcome::kAzbenchRefuses, "random_generator"},
      {"nfs", {}, Outcome::kAzbenchRefuses, "filename_format"},
      {"null", {{"size", "64m"}}, Outcome::kSameWork},
      {"poisson-rate-submission",
       {{"size", "1m"}, {"rate_iops", "200"}},
       Outcome::kAzbenchRefuses,
       "io_submit_mode"},
      {"rand-zones", {{"size", "4m"}}, Outcome::kAzbenchRefuses, "random_distribution"},
      {"ssd-test", {{"size", "1m"}}, Outcome::kSameWork},
      {"steadystate", {}, Outcome::kBothRefuse, "threads"},
      {"surface-scan", {}, Outcome::kAzbenchRefuses, "verify"},
      {"tiobench-example", {{"size", "1m"}}, Outcome::kAzbenchRefuses, "bsrange"},
      {"waitfor", {}, Outcome::kBothRefuse, "threads"},
      {"zipf", {{"size", "16m"}}, Outcome::kAzbenchRefuses, "random_distribution"},
  };
  return *examples;
}

// The example rewritten into `dir`: the values in `set` replaced, `directory=` dropped (both tools
// run in `dir`), absolute file names made relative; device paths (/dev/...) are created as files
// of kDeviceBytes, as a device of that size would be there.
std::string Rewrite(const Example& example, const std::string& dir) {
  std::ifstream in(absl::StrCat(kExamplesDir, "/", example.name, ".fio"));
  std::string out, line;
  while (std::getline(in, line)) {
    const std::string stripped(absl::StripAsciiWhitespace(line));
    const size_t eq = stripped.find('=');
    if (stripped.empty() || stripped[0] == ';' || stripped[0] == '#' || stripped[0] == '[' ||
        eq == std::string::npos) {
      absl::StrAppend(&out, line, "\n");
      continue;
    }
    const std::string key(absl::StripAsciiWhitespace(stripped.substr(0, eq)));
    std::string value(absl::StripAsciiWhitespace(stripped.substr(eq + 1)));
    if (const size_t comment = value.find_first_of(";#"); comment != std::string::npos) {
      value = std::string(absl::StripAsciiWhitespace(value.substr(0, comment)));
    }
    if (key == "directory") continue;
    for (const auto& [option, replacement] : example.set) {
      if (key == option) value = replacement;
    }
    if (key == "filename" && value != "/dev/null" && value != "/dev/zero" &&
        absl::StartsWith(value, "/")) {
      const std::string name = fs::path(value).filename().string();
      if (absl::StartsWith(value, "/dev/")) {
        std::ofstream(dir + "/" + name).close();
        fs::resize_file(dir + "/" + name, kDeviceBytes);
      }
      value = name;
    }
    absl::StrAppend(&out, key, "=", value, "\n");
  }
  return out;
}

// The work each job name did, summed over its entries (clones).
struct JobWork {
  int group = -1;
  uint64_t read_bytes = 0, write_bytes = 0, read_ios = 0, write_ios = 0;
};

std::map<std::string, JobWork> WorkByJob(const json& doc) {
  std::map<std::string, JobWork> work;
  if (!doc.is_object() || !doc.contains("jobs")) return work;
  for (const json& job : doc["jobs"]) {
    JobWork& w = work[job.value("jobname", "")];
    w.group = job.value("groupid", -1);
    w.read_bytes += job["read"].value("io_bytes", uint64_t{0});
    w.write_bytes += job["write"].value("io_bytes", uint64_t{0});
    w.read_ios += job["read"].value("total_ios", uint64_t{0});
    w.write_ios += job["write"].value("total_ios", uint64_t{0});
  }
  return work;
}

class FioExamplesTest : public ::testing::TestWithParam<Example> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
        !missing.empty()) {
      GTEST_SKIP() << missing;
    }
    ASSERT_TRUE(fs::exists(kExamplesDir))
        << kExamplesDir << " is missing: scripts/setup.sh installs fio-examples";
  }

  // Runs `tool` on the rewritten example in its own directory; the exit code, the JSON in `doc`
  // and the output in `output`.
  int RunTool(const std::string& tool, const std::string& binary, json* doc, std::string* output) {
    const std::string work = dir_.File(tool);
    fs::create_directories(work);
    const std::string job_file = dir_.File(tool + ".fio");
    std::ofstream(job_file) << Rewrite(GetParam(), work);
    std::vector<std::string> argv = {"/usr/bin/env", "--chdir=" + work, binary};
    if (tool == "azbench") argv.push_back("run");
    argv.push_back("--output-format=json");
    argv.push_back("--output=" + dir_.File(tool + ".json"));
    argv.push_back(job_file);
    Subprocess p(argv, dir_.File(tool + ".txt"));
    const int code = p.Wait(kTimeout);
    *output = p.Output();
    *doc = testing::LoadFioJson(dir_.File(tool + ".json"));
    return code;
  }

  TempDir dir_{testing::kDiskBase};
};

TEST_P(FioExamplesTest, DoesWhatFioDoes) {
  const Example& example = GetParam();
  json fio_doc, az_doc;
  std::string fio_output, az_output;
  const int fio_code = RunTool("fio", testing::kFioBinary, &fio_doc, &fio_output);
  const int az_code = RunTool("azbench", AZBENCH_AGENT_BIN, &az_doc, &az_output);

  switch (example.outcome) {
    case Outcome::kBothRefuse:
      EXPECT_NE(fio_code, 0) << "fio 3.33 runs it now: " << fio_output;
      EXPECT_NE(az_code, 0) << az_output;
      EXPECT_NE(az_output.find(example.why), std::string::npos) << az_output;
      return;
    case Outcome::kAzbenchRefuses:
      ASSERT_EQ(fio_code, 0) << fio_output;
      EXPECT_NE(az_code, 0) << "azbench runs " << example.name
                            << " now: move it to kSameWork or kSameJobs\n"
                            << az_output;
      EXPECT_NE(az_output.find(example.why), std::string::npos)
          << "azbench refuses " << example.name << " for another reason than '" << example.why
          << "':\n"
          << az_output;
      return;
    case Outcome::kSameWork:
    case Outcome::kSameJobs:
    case Outcome::kSameFlowShares:
      break;
  }
  ASSERT_EQ(fio_code, 0) << fio_output;
  ASSERT_EQ(az_code, 0) << az_output;
  const std::map<std::string, JobWork> fio = WorkByJob(fio_doc), az = WorkByJob(az_doc);
  ASSERT_FALSE(fio.empty()) << fio_output;
  uint64_t fio_ios = 0, az_ios = 0;
  for (const auto& [name, w] : fio) fio_ios += w.read_ios + w.write_ios;
  for (const auto& [name, w] : az) az_ios += w.read_ios + w.write_ios;
  ASSERT_EQ(az.size(), fio.size()) << az_output;
  for (const auto& [name, f] : fio) {
    SCOPED_TRACE(name);
    auto it = az.find(name);
    ASSERT_NE(it, az.end()) << "azbench has no job '" << name << "'";
    const JobWork& a = it->second;
    EXPECT_EQ(a.group, f.group);
    if (example.outcome == Outcome::kSameWork) {
      EXPECT_EQ(a.read_bytes, f.read_bytes);
      EXPECT_EQ(a.write_bytes, f.write_bytes);
      EXPECT_EQ(a.read_ios, f.read_ios);
      EXPECT_EQ(a.write_ios, f.write_ios);
      continue;
    }
    if (example.outcome == Outcome::kSameFlowShares && fio_ios > 0 && az_ios > 0) {
      EXPECT_NEAR(100.0 * (a.read_ios + a.write_ios) / az_ios,
                  100.0 * (f.read_ios + f.write_ios) / fio_ios, 2.0)
          << "the job's share of all I/Os, in percent";
    }
    // Time-based: how much each did depends on the speed, but not what it did.
    EXPECT_EQ(a.read_bytes > 0, f.read_bytes > 0);
    EXPECT_EQ(a.write_bytes > 0, f.write_bytes > 0);
    if (f.read_ios > 0 && f.write_ios > 0) {
      const double fio_share = 100.0 * f.read_ios / (f.read_ios + f.write_ios);
      const double az_share = 100.0 * a.read_ios / (a.read_ios + a.write_ios);
      EXPECT_NEAR(az_share, fio_share, 2.0) << "read share of the ops, in percent";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fio333, FioExamplesTest, ::testing::ValuesIn(Examples()),
                         [](const ::testing::TestParamInfo<Example>& info) {
                           std::string name = info.param.name;
                           std::replace_if(
                               name.begin(), name.end(),
                               [](char c) { return !absl::ascii_isalnum(c); }, '_');
                           return name;
                         });

}  // namespace
}  // namespace azbench

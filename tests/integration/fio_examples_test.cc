// fio 3.33's own example job files (Debian's fio-examples package) through the real fio and through
// `azbench-agent run`, side by side. Each example is scaled to about a second by rewriting the
// values of a few options (sizes, runtimes, file counts) and pointing its files at a temporary
// directory on the local disk (a device path becomes a file of kDeviceBytes, as if it were the
// device); everything else is the example as fio ships it. The table below says, per example, what
// azbench does with it today, and the test holds azbench to that: an example that runs must do
// the same work as fio (jobs, groups, bytes and ops per job and direction, or for time-based jobs
// the same jobs, directions and read share) and leave the same files; an example azbench refuses
// must be refused with the named reason, so that this table stays the true list of what runs
// (docs/fio-compatibility.md keeps it in words, by hand). nfs.fio and fio's examples after 3.33,
// which fio 3.33 cannot run, are held to what their jobs ask for at the end of the file.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
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
#include "tests/testing/nfs_server_fixture.h"
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
  kSameGroupWork,   // as kSameWork per group (group_reporting: fio writes one entry per group)
  kSameBytes,       // both run; the same bytes per job, directions and read share of the ops
  kSameJobs,        // both run (time-based); the same jobs, groups, directions and read share
  kSameFlowShares,  // as kSameJobs, and each job's share of all I/Os is fio's (flow)
  kSameFileOps,     // both run a file-operation engine: as many ops per job (fio: reads of bs)
  kAzbenchRefuses,  // fio runs it; azbench refuses it, and its error contains `why`
  kFioFails,        // fio 3.33 fails it here; azbench fails too, and its error contains `why`
};

struct Example {
  const char* name;
  // option -> value, applied to every line that sets the option (scaling to about a second).
  std::vector<std::pair<std::string, std::string>> set;
  Outcome outcome;
  const char* why = "";  // kAzbenchRefuses, kFioFails: a part of azbench's error
  // option=value lines put after the file's first section header (its [global] where it has one),
  // where the example says to add them for a file instead of a device.
  std::vector<std::pair<std::string, std::string>> add = {};
  // Applied to fio's copy only, after `set`: where Debian's fio 3.33 lacks an engine the example
  // names, the built-in engine it stands for, or where fio's run must be bounded.
  std::vector<std::pair<std::string, std::string>> fio_set = {};
  // The I/Os per second each job is capped at: azbench's achieved rate must be within 3% of it.
  double rate_iops = 0;
  // The size of the file a device path (/dev/...) becomes.
  uint64_t device_bytes = kDeviceBytes;
  // Whether the files must hold as many allocated blocks (st_blocks) after both runs.
  bool same_blocks = false;
};

// gtest and ctest name a row by its example.
void PrintTo(const Example& example, std::ostream* os) { *os << example.name; }

// The file-system examples of fio 3.33 (41 in fio's tree today; dircreate-, dirdelete-,
// dirstat-ioengine and sequence-distribution came after 3.33, so 37 here).
const std::vector<Example>& Examples() {
  static const auto* examples = new std::vector<Example>{
      // 32 jobs of 256 reads each at 4 MiB/s (1024 IOPS); all start at once.
      {"1mbs_clients",
       {{"size", "1m"}, {"rate", "4m"}, {"startdelay", "0"}},
       Outcome::kSameWork,
       "",
       {},
       {},
       1024},
      {"aio-read", {{"size", "2m"}}, Outcome::kSameWork},
      {"backwards-read", {{"size", "1m"}, {"filename", "128m"}}, Outcome::kSameWork},
      {"basic-verify", {}, Outcome::kSameWork, "", {{"size", "8m"}}},
      {"butterfly", {}, Outcome::kSameWork, "", {{"size", "1m"}}},
      // Debian's fio 3.33 lacks the external cpp_null engine (a C++ build of null): fio runs null.
      {"cpp_null", {{"size", "64m"}}, Outcome::kSameWork, "", {}, {{"ioengine", "null"}}},
      // Each clone's region is the rest of the device from its own offset, as fio's.
      {"cross-stripe-verify",
       {{"offset_increment", "2m"}, {"io_size", "128k"}, {"numjobs", "3"}},
       Outcome::kSameWork},
      {"dedupe-global", {{"size", "1m"}, {"iodepth", "8"}}, Outcome::kSameWork},
      // fio's punch_hole-raicer trims a regular file through libaio: error 25 (ENOTTY), exit 1.
      // azbench would fail the same way (FioTrimJobTest below), but first refuses the file's
      // aio-dio-verifier job.
      {"enospc-pressure",
       {{"filesize", "4m"}, {"size", "8m"}, {"runtime", "1"}, {"iodepth", "8"}},
       Outcome::kFioFails,
       "create_on_open=1 applies only to ioengine=filecreate or dircreate"},
      {"exitwhat", {{"filesize", "4m"}, {"number_ios", "20"}}, Outcome::kSameGroupWork},
      // Fallocates and punches holes for a second, then rewrites the file in full and reads it: it
      // ends fully allocated.
      {"falloc",
       {{"size", "4m"}, {"filesize", "4m"}, {"runtime", "1"}},
       Outcome::kSameJobs,
       "",
       {},
       {},
       0,
       kDeviceBytes,
       /*same_blocks=*/true},
      {"filecreate-ioengine", {{"nrfiles", "20"}}, Outcome::kSameFileOps},
      {"filedelete-ioengine", {{"nrfiles", "20"}}, Outcome::kSameFileOps},
      {"filestat-ioengine", {{"nrfiles", "20"}}, Outcome::kSameFileOps},
      {"fio-rand-RW", {{"size", "4m"}, {"runtime", "1"}}, Outcome::kSameJobs},
      {"fio-rand-read", {{"size", "4m"}, {"runtime", "1"}}, Outcome::kSameJobs},
      {"fio-rand-write", {{"size", "4m"}, {"runtime", "1"}}, Outcome::kSameJobs},
      // 256 KiB blocks: 3 s for about 20,000 ops. fio's read share of a short run sits 1 to 1.5
      // points below rwmixread=60 (58.2% of 3,733 ops once, under load); at 3 s about 59%.
      {"fio-seq-RW", {{"size", "4m"}, {"runtime", "3"}}, Outcome::kSameJobs},
      {"fio-seq-read", {{"size", "4m"}, {"runtime", "1"}}, Outcome::kSameJobs},
      {"fio-seq-write", {{"size", "4m"}, {"runtime", "1"}}, Outcome::kSameJobs},
      // fio 3.33 with io_submit_mode=offload did not finish in 120 s here; azbench's
      // io_submit_mode has no effect, so fio runs it inline.
      {"fixed-rate-submission",
       {{"size", "4m"}},
       Outcome::kSameWork,
       "",
       {},
       {{"io_submit_mode", "inline"}},
       1000},
      {"flow", {{"size", "4m"}, {"runtime", "1"}}, Outcome::kSameFlowShares},
      // fio re-seeds each loop (randrepeat), so two loops of 16,384 random ops: the same ops and
      // bytes, and a read share within 2 points.
      {"fsx", {{"size", "64m"}, {"loops", "2"}}, Outcome::kSameBytes},
      {"ftruncate", {{"size", "1028k"}, {"runtime", "1s"}}, Outcome::kSameJobs},
      // One pass over 64 MiB. fio's random map shrinks a block to the free run it lands in, so
      // fio issues about 2.4 times azbench's ops (fio with norandommap matches azbench's count).
      {"iometer-file-access-server", {{"size", "64m"}}, Outcome::kSameBytes},
      // Both take the size of the existing device (a file here). With bssplit up to 64k, fio's
      // last I/O of a clone may pass the size by less than a block (32.07 MiB against 32 MiB
      // once), where azbench cuts it at the size: the jobs, directions and read share compare.
      // randrepeat=0: a 64 MiB device gives 4 x 9,000 ops, so the two draws of rwmixread=40 stay
      // within the 2 points (0.4 points standard deviation of their difference).
      {"jesd219", {{"iodepth", "8"}}, Outcome::kSameJobs, "", {}, {}, 0, 64 << 20},
      // 20 ms windows instead of 5 s, and time-based (bounded at 10 s) so the search, not the
      // file's size, ends the job: 500 ms is far above any read's latency here, so both double
      // the depth 1 to 128, run one last window there and stop, with latency_depth 128.
      {"latency-profile",
       {{"latency_window", "20000"}},
       Outcome::kSameJobs,
       "",
       {{"time_based", "1"}, {"runtime", "10"}}},
      // fio 3.33 (Debian) has no nfs engine; azbench's needs an NFS server: FioNfsExampleTest.
      {"nfs", {}, Outcome::kFioFails, "cannot mount"},
      {"null", {{"size", "64m"}}, Outcome::kSameWork},
      // 10,240 ops drawn at 5,000 IOPS: the achieved rate of a Poisson process that long is
      // within 3% of the mean (1% standard deviation).
      {"poisson-rate-submission",
       {{"size", "40m"}, {"rate_iops", "5000"}},
       Outcome::kSameWork,
       "",
       {},
       {{"io_submit_mode", "inline"}},
       5000},
      {"rand-zones", {{"size", "4m"}}, Outcome::kSameWork},
      {"ssd-test", {{"size", "1m"}}, Outcome::kSameWork},
      // Two reporting groups of 4 clones, each judged on its sum: a 2 s window, at most 3 s each.
      // azbench does I/O to regular files and block devices only: /dev/null and /dev/zero become
      // one 8 MiB file, written by the first group and read by the second (the example says to
      // change the file names where they do not exist).
      {"steadystate",
       {{"runtime", "3"},
        {"ss_dur", "2"},
        {"ss_ramp", "0"},
        {"size", "8m"},
        {"filename", "ss-data"}},
       Outcome::kSameJobs},
      // fill_device writes until the disk is full: fio's run is bounded by size instead (azbench's
      // fill_device stops at size). verify-phase (create_serialize=0) lays out with no other job.
      {"surface-scan", {}, Outcome::kSameWork, "", {{"size", "8m"}}, {{"fill_device", "0"}}},
      {"tiobench-example", {{"size", "1m"}}, Outcome::kSameWork},
      {"waitfor", {{"filesize", "8m"}, {"runtime", "1"}}, Outcome::kSameWork},
      {"zipf", {{"size", "16m"}}, Outcome::kSameWork},
  };
  return *examples;
}

// The example rewritten into `dir`: the values in `set` (and for fio's copy `fio_set`) replaced,
// the lines of `add` added, `directory=` dropped (both tools run in `dir`), absolute file names
// made relative; device paths (/dev/...) are created as files of the row's device_bytes, as a
// device of that size would be there.
std::string Rewrite(const Example& example, const std::string& dir, bool for_fio) {
  std::ifstream in(absl::StrCat(kExamplesDir, "/", example.name, ".fio"));
  std::string out, line;
  bool added = false;
  while (std::getline(in, line)) {
    const std::string stripped(absl::StripAsciiWhitespace(line));
    const size_t eq = stripped.find('=');
    if (stripped.empty() || stripped[0] == ';' || stripped[0] == '#' || stripped[0] == '[' ||
        eq == std::string::npos) {
      absl::StrAppend(&out, line, "\n");
      if (!stripped.empty() && stripped[0] == '[' && !added) {
        for (const auto& [option, value] : example.add) {
          absl::StrAppend(&out, option, "=", value, "\n");
        }
        added = true;
      }
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
    for (const auto& [option, replacement] : example.fio_set) {
      if (for_fio && key == option) value = replacement;
    }
    if (key == "filename" && value != "/dev/null" && value != "/dev/zero" &&
        absl::StartsWith(value, "/")) {
      const std::string name = fs::path(value).filename().string();
      if (absl::StartsWith(value, "/dev/")) {
        std::ofstream(dir + "/" + name).close();
        fs::resize_file(dir + "/" + name, example.device_bytes);
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
  uint64_t trim_bytes = 0, trim_ios = 0;
  uint64_t file_ops = 0;  // azbench: ops of the file-operation kinds (create, stat, unlink, ...)
  double iops = 0;        // achieved, reads and writes, summed over the entries
  int entries = 0;        // fio writes one per clone without group_reporting; azbench one per job
  // The "steadystate" block's criterion and window ("iops:10.000000%, 30 s, 30 samples"), empty
  // without one.
  std::string steadystate;
  json latency = json::object();  // latency_depth, _target, _percentile, _window of the last entry
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
    w.trim_bytes += job["trim"].value("io_bytes", uint64_t{0});
    w.trim_ios += job["trim"].value("total_ios", uint64_t{0});
    w.iops += job["read"].value("iops", 0.0) + job["write"].value("iops", 0.0);
    ++w.entries;
    if (job.contains("steadystate")) {
      const json& ss = job["steadystate"];
      w.steadystate = absl::StrCat(ss.value("ss", ""), ", ", ss.value("duration", -1), " s, ",
                                   ss["data"]["iops"].size(), " samples");
    }
    for (const char* key :
         {"latency_depth", "latency_target", "latency_percentile", "latency_window"}) {
      w.latency[key] = job.value(key, json());
    }
    if (job.contains("azbench")) {
      for (const auto& [kind, stats] : job["azbench"]["ops"].items()) {
        if (kind != "read" && kind != "write" && kind != "trim" && kind != "fsync" &&
            kind != "fdatasync") {
          w.file_ops += stats.value("ops", uint64_t{0});
        }
      }
    }
  }
  return work;
}

// WorkByJob summed per reporting group, each named by its first job, as fio's group_reporting
// entries are (azbench writes one entry per job).
std::map<std::string, JobWork> WorkByGroup(const json& doc) {
  std::map<std::string, JobWork> work;
  std::map<int, std::string> group_names;
  if (!doc.is_object() || !doc.contains("jobs")) return work;
  for (const json& job : doc["jobs"]) {
    const int group = job.value("groupid", -1);
    const std::string name = group_names.try_emplace(group, job.value("jobname", "")).first->second;
    json one = json::object();
    one["jobs"] = json::array({job});
    const JobWork w = WorkByJob(one).begin()->second;
    JobWork& sum = work[name];
    sum.group = group;
    sum.read_bytes += w.read_bytes;
    sum.write_bytes += w.write_bytes;
    sum.read_ios += w.read_ios;
    sum.write_ios += w.write_ios;
    sum.trim_bytes += w.trim_bytes;
    sum.trim_ios += w.trim_ios;
    sum.iops += w.iops;
    sum.entries += w.entries;
    sum.latency = w.latency;
    if (sum.steadystate.empty()) sum.steadystate = w.steadystate;  // one verdict per group
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
    std::ofstream(job_file) << Rewrite(GetParam(), work, tool == "fio");
    std::vector<std::string> args = {"/usr/bin/env", "--chdir=" + work, binary};
    if (tool == "azbench") args.push_back("run");
    args.insert(args.end(),
                {"--output-format=json", "--output=" + dir_.File(tool + ".json"), job_file});
    Subprocess p(args, dir_.File(tool + ".txt"));
    const int code = p.Wait(kTimeout);
    *output = p.Output();
    *doc = testing::LoadFioJson(dir_.File(tool + ".json"));
    return code;
  }

  TempDir dir_{testing::kDiskBase};
};

// The files and directories a tool left under `dir`: relative path -> size in bytes (-1 for a
// directory). fio's verify state files (verify_state_save) are left out: azbench keeps none.
std::map<std::string, int64_t> Listing(const std::string& dir) {
  std::map<std::string, int64_t> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = fs::relative(entry.path(), dir).string();
    if (absl::EndsWith(name, "-verify.state")) continue;
    files[name] = entry.is_directory() ? -1 : static_cast<int64_t>(entry.file_size());
  }
  return files;
}

// The allocated 512-byte blocks (st_blocks) of each file a tool left under `dir`.
std::map<std::string, int64_t> AllocatedBlocks(const std::string& dir) {
  std::map<std::string, int64_t> blocks;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    struct stat st {};
    if (!entry.is_regular_file() || stat(entry.path().c_str(), &st) != 0) continue;
    blocks[fs::relative(entry.path(), dir).string()] = st.st_blocks;
  }
  return blocks;
}

// The same files with as many allocated blocks, up to ext4's extent-tree blocks: st_blocks counts
// them too (fio's falloc test file: 4096 data sectors and 8 of them), and how many a file needs
// depends on the order its holes were punched in. 1% of the file, at least 2 such 4 KiB blocks.
void ExpectSameAllocation(const std::map<std::string, int64_t>& az,
                          const std::map<std::string, int64_t>& fio) {
  ASSERT_EQ(az.size(), fio.size()) << "the files left";
  for (const auto& [name, blocks] : fio) {
    ASSERT_TRUE(az.contains(name)) << name;
    EXPECT_NEAR(az.at(name), blocks, std::max<int64_t>(16, blocks / 100))
        << name << ": allocated 512-byte blocks (st_blocks)";
  }
}

// Whether the example sets group_reporting: fio then writes one entry per reporting group.
bool GroupReported(const Example& example) {
  std::ifstream in(absl::StrCat(kExamplesDir, "/", example.name, ".fio"));
  std::string line;
  while (std::getline(in, line)) {
    if (absl::StripAsciiWhitespace(line) == "group_reporting") return true;
  }
  return false;
}

// One line per job and tool: what each did, for the log of a run.
std::string Describe(const std::map<std::string, JobWork>& work) {
  std::string out;
  for (const auto& [name, w] : work) {
    absl::StrAppend(&out, "  ", name, ": group ", w.group, ", entries ", w.entries, ", read ",
                    w.read_ios, " ops ", w.read_bytes, " B, write ", w.write_ios, " ops ",
                    w.write_bytes, " B, trim ", w.trim_ios, " ops ", w.trim_bytes, " B, file ops ",
                    w.file_ops, ", ", static_cast<int64_t>(w.iops), " IOPS\n");
  }
  return out;
}

double ReadSharePercent(const JobWork& w) {
  return 100.0 * static_cast<double>(w.read_ios) / static_cast<double>(w.read_ios + w.write_ios);
}

TEST_P(FioExamplesTest, DoesWhatFioDoes) {
  const Example& example = GetParam();
  json fio_doc, az_doc;
  std::string fio_output, az_output;
  const int fio_code = RunTool("fio", testing::kFioBinary, &fio_doc, &fio_output);
  const int az_code = RunTool("azbench", AZBENCH_AGENT_BIN, &az_doc, &az_output);
  const std::map<std::string, JobWork> fio = WorkByJob(fio_doc);
  const std::map<std::string, JobWork> az =
      example.outcome == Outcome::kSameGroupWork || GroupReported(example) ? WorkByGroup(az_doc)
                                                                           : WorkByJob(az_doc);
  std::cout << example.name << ": fio exit " << fio_code << "\n"
            << Describe(fio) << example.name << ": azbench exit " << az_code << "\n"
            << (az_code == 0 ? Describe(az) : az_output) << std::flush;

  switch (example.outcome) {
    case Outcome::kFioFails:
      EXPECT_NE(fio_code, 0) << "fio 3.33 runs it now: " << fio_output;
      EXPECT_NE(az_code, 0) << az_output;
      EXPECT_NE(az_output.find(example.why), std::string::npos) << az_output;
      return;
    case Outcome::kAzbenchRefuses:
      ASSERT_EQ(fio_code, 0) << fio_output;
      EXPECT_NE(az_code, 0) << "azbench runs " << example.name
                            << " now: move it to a row that compares\n"
                            << az_output;
      EXPECT_NE(az_output.find(example.why), std::string::npos)
          << "azbench refuses " << example.name << " for another reason than '" << example.why
          << "':\n"
          << az_output;
      return;
    case Outcome::kSameWork:
    case Outcome::kSameGroupWork:
    case Outcome::kSameBytes:
    case Outcome::kSameJobs:
    case Outcome::kSameFlowShares:
    case Outcome::kSameFileOps:
      break;
  }
  ASSERT_EQ(fio_code, 0) << fio_output;
  ASSERT_EQ(az_code, 0) << az_output;
  ASSERT_FALSE(fio.empty()) << fio_output;
  ASSERT_EQ(az.size(), fio.size()) << az_output;
  // The files each left: the same names, and the same sizes unless the jobs are time-based (where
  // the last truncate or write that happened to land decides a size).
  std::map<std::string, int64_t> fio_files = Listing(dir_.File("fio")),
                                 az_files = Listing(dir_.File("azbench"));
  if (example.outcome == Outcome::kSameJobs || example.outcome == Outcome::kSameFlowShares) {
    for (auto& [name, bytes] : fio_files) bytes = 0;
    for (auto& [name, bytes] : az_files) bytes = 0;
  }
  EXPECT_EQ(az_files, fio_files) << "the files left: name -> bytes (-1: a directory)";
  if (example.same_blocks) {
    ExpectSameAllocation(AllocatedBlocks(dir_.File("azbench")), AllocatedBlocks(dir_.File("fio")));
  }
  uint64_t fio_ios = 0, az_ios = 0;
  for (const auto& [name, w] : fio) fio_ios += w.read_ios + w.write_ios;
  for (const auto& [name, w] : az) az_ios += w.read_ios + w.write_ios;
  for (const auto& [name, f] : fio) {
    SCOPED_TRACE(name);
    auto it = az.find(name);
    ASSERT_NE(it, az.end()) << "azbench has no job '" << name << "'";
    const JobWork& a = it->second;
    EXPECT_EQ(a.group, f.group);
    EXPECT_EQ(a.steadystate, f.steadystate) << "the steadystate block's criterion and window";
    if (example.rate_iops > 0) {
      EXPECT_NEAR(a.iops, example.rate_iops, 0.03 * example.rate_iops)
          << "achieved IOPS of a rate-capped job (fio: " << f.iops << ")";
    }
    // latency_target's keys (fio writes them for every job; they differ from the defaults only
    // where the job sets latency_target): the search's depth, the target (ns), percentile and
    // window (us).
    for (const char* key :
         {"latency_depth", "latency_target", "latency_percentile", "latency_window"}) {
      EXPECT_EQ(a.latency[key], f.latency[key]) << key;
    }
    switch (example.outcome) {
      case Outcome::kSameFileOps:
        EXPECT_EQ(a.file_ops, f.read_ios) << "fio counts each file op as a read";
        EXPECT_GT(a.file_ops, 0u);
        continue;
      case Outcome::kSameWork:
      case Outcome::kSameGroupWork:
        EXPECT_EQ(a.read_bytes, f.read_bytes);
        EXPECT_EQ(a.write_bytes, f.write_bytes);
        EXPECT_EQ(a.read_ios, f.read_ios);
        EXPECT_EQ(a.write_ios, f.write_ios);
        EXPECT_EQ(a.trim_bytes, f.trim_bytes);
        EXPECT_EQ(a.trim_ios, f.trim_ios);
        continue;
      case Outcome::kSameBytes:
        EXPECT_EQ(a.read_bytes + a.write_bytes, f.read_bytes + f.write_bytes);
        break;
      default:
        break;
    }
    // Time-based: how much each did depends on the speed, but not what it did.
    EXPECT_EQ(a.read_bytes > 0, f.read_bytes > 0);
    EXPECT_EQ(a.write_bytes > 0, f.write_bytes > 0);
    EXPECT_EQ(a.trim_bytes > 0, f.trim_bytes > 0);
    if (f.read_ios > 0 && f.write_ios > 0) {
      EXPECT_NEAR(ReadSharePercent(a), ReadSharePercent(f), 2.0) << "read share of the ops, in %";
    }
    if (example.outcome == Outcome::kSameFlowShares) {
      EXPECT_NEAR(100.0 * static_cast<double>(a.read_ios + a.write_ios) / az_ios,
                  100.0 * static_cast<double>(f.read_ios + f.write_ios) / fio_ios, 2.0)
          << "the job's share of all I/Os, in percent";
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

// nfs.fio, which Debian's fio 3.33 cannot run (no nfs engine), against a real NFS server: azbench's
// run is held to what the job asks for. 10 clones write for a second, then (wait_for) 10 read
// the same files, named by filename_format without the job's name; the export holds those 10.
TEST(FioNfsExampleTest, RunsAgainstAnNfsServerAsTheJobAsks) {
  testing::NfsServerFixture server;
  if (server.unsupported()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  TempDir dir(testing::kDiskBase);
  ASSERT_TRUE(dir.ok());
  const Example example = {
      "nfs",
      {{"nfs_url", server.Url()}, {"size", "1m"}, {"runtime", "1s"}, {"ramp_time", "0"}},
      Outcome::kSameJobs};
  const std::string job_file = dir.File("nfs.fio");
  std::ofstream(job_file) << Rewrite(example, dir.path(), /*for_fio=*/false);
  Subprocess p({"/usr/bin/env", "--chdir=" + dir.path(), AZBENCH_AGENT_BIN, "run",
                "--output-format=json", "--output=" + dir.File("azbench.json"), job_file},
               dir.File("azbench.txt"));
  const int code = p.Wait(kTimeout);
  const json doc = testing::LoadFioJson(dir.File("azbench.json"));
  const std::map<std::string, JobWork> az = WorkByJob(doc);
  std::cout << "nfs: azbench exit " << code << "\n"
            << (code == 0 ? Describe(az) : p.Output()) << std::flush;
  ASSERT_EQ(code, 0) << p.Output() << server.Log();
  ASSERT_EQ(az.size(), 2u);
  const JobWork& write = az.at("write");
  const JobWork& read = az.at("read");
  EXPECT_EQ(write.group, 0);
  EXPECT_GT(write.write_ios, 0u);
  EXPECT_EQ(write.read_ios, 0u);
  EXPECT_EQ(read.group, 0) << "wait_for starts no new group (fio's neither)";
  EXPECT_GT(read.read_ios, 0u);
  EXPECT_EQ(read.write_ios, 0u);
  std::map<std::string, std::pair<uint64_t, uint64_t>> span_ns;  // job -> its start and end
  for (const json& job : doc["jobs"]) {
    span_ns[job.value("jobname", "")] = {job["azbench"].value("start_realtime_ns", uint64_t{0}),
                                         job["azbench"].value("end_realtime_ns", uint64_t{0})};
  }
  EXPECT_GT(span_ns["write"].second, 0u) << "the JSON's azbench.end_realtime_ns";
  EXPECT_GE(span_ns["read"].first, span_ns["write"].second) << "wait_for=write";
  const std::map<std::string, int64_t> files = Listing(server.export_dir());
  EXPECT_EQ(files.size(), 10u) << "one file per clone, shared by write and read";
  for (const auto& [name, bytes] : files) {
    EXPECT_TRUE(absl::StartsWith(name, "myfiles.")) << name;
    EXPECT_EQ(bytes, 1 << 20) << name;
  }
}

// A job file through `tool` in its own directory under `dir`: the exit code, its JSON in `doc`.
int RunJobFile(const TempDir& dir, const std::string& tool, const std::string& job_text, json* doc,
               std::string* output) {
  const std::string work = dir.File(tool);
  fs::create_directories(work);
  const std::string job_file = dir.File(tool + ".fio");
  std::ofstream(job_file) << job_text;
  std::vector<std::string> args = {"/usr/bin/env", "--chdir=" + work,
                                   tool == "fio" ? testing::kFioBinary : AZBENCH_AGENT_BIN};
  if (tool == "azbench") args.push_back("run");
  args.insert(args.end(),
              {"--output-format=json", "--output=" + dir.File(tool + ".json"), job_file});
  Subprocess p(args, dir.File(tool + ".txt"));
  const int code = p.Wait(kTimeout);
  *output = p.Output();
  *doc = testing::LoadFioJson(dir.File(tool + ".json"));
  return code;
}

class FioTrimJobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
        !missing.empty()) {
      GTEST_SKIP() << missing;
    }
  }
  TempDir dir_{testing::kDiskBase};
};

// falloc: a file allocated by writes, then every block of its first half punched once in random
// order, then a trimwrite over the second half; the same trims and writes per job as fio, and the
// same blocks left allocated (the first half freed; fio 3.33: 512 trims,
// then 512 trims and 512 writes, 4104 sectors of st_blocks).
TEST_F(FioTrimJobTest, FallocTrimsCountAndFreeWhatFiosDo) {
  const std::string job_text =
      "[global]\nioengine=falloc\nfilename=holes\nbs=4k\nsize=4m\n"
      "[fill]\nrw=write\n"
      "[punch]\nstonewall\nrw=randtrim\nsize=2m\n"
      "[rewrite]\nstonewall\nrw=trimwrite\noffset=2m\nsize=2m\n";
  json fio_doc, az_doc;
  std::string fio_output, az_output;
  ASSERT_EQ(RunJobFile(dir_, "fio", job_text, &fio_doc, &fio_output), 0) << fio_output;
  ASSERT_EQ(RunJobFile(dir_, "azbench", job_text, &az_doc, &az_output), 0) << az_output;
  const std::map<std::string, JobWork> fio = WorkByJob(fio_doc), az = WorkByJob(az_doc);
  std::cout << "fio:\n" << Describe(fio) << "azbench:\n" << Describe(az) << std::flush;
  ASSERT_EQ(az.size(), 3u);
  for (const auto& [name, f] : fio) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(az.contains(name));
    const JobWork& a = az.at(name);
    EXPECT_EQ(a.trim_ios, f.trim_ios);
    EXPECT_EQ(a.trim_bytes, f.trim_bytes);
    EXPECT_EQ(a.write_ios, f.write_ios);
    EXPECT_EQ(a.write_bytes, f.write_bytes);
    EXPECT_EQ(a.read_ios, f.read_ios);
  }
  EXPECT_EQ(az.at("punch").trim_ios, 512u) << "2 MiB of 4 KiB trims";
  EXPECT_EQ(az.at("rewrite").trim_ios, 512u);
  EXPECT_EQ(az.at("rewrite").write_ios, 512u) << "trimwrite counts its writes against size";
  ExpectSameAllocation(AllocatedBlocks(dir_.File("azbench")), AllocatedBlocks(dir_.File("fio")));
}

// fio's sync, libaio and io_uring engines trim with BLKDISCARD, which a regular file refuses:
// fio 3.33 fails the job with error 25 (ENOTTY), and so does azbench, saying so.
TEST_F(FioTrimJobTest, ATrimOfARegularFileFailsWithEnottyAsInFio) {
  const std::string job_text =
      "[global]\nfilename=raicer\nbs=4k\nsize=1m\niodepth=8\n"
      "[punch]\nioengine=libaio\nrw=randtrim\n";
  json fio_doc, az_doc;
  std::string fio_output, az_output;
  const int fio_code = RunJobFile(dir_, "fio", job_text, &fio_doc, &fio_output);
  const int az_code = RunJobFile(dir_, "azbench", job_text, &az_doc, &az_output);
  EXPECT_NE(fio_code, 0) << fio_output;
  EXPECT_NE(az_code, 0) << az_output;
  ASSERT_TRUE(fio_doc.contains("jobs")) << fio_output;
  EXPECT_EQ(fio_doc["jobs"][0].value("error", 0), ENOTTY);
  ASSERT_TRUE(az_doc.contains("jobs")) << az_output;
  EXPECT_EQ(az_doc["jobs"][0].value("error", 0), ENOTTY);
  EXPECT_EQ(az_doc["jobs"][0]["trim"].value("total_ios", 0),
            fio_doc["jobs"][0]["trim"].value("total_ios", 0))
      << "both count the failed trim";
  const std::string why = az_doc["jobs"][0]["azbench"].value("error_message", "");
  EXPECT_NE(why.find("trim of 4096 bytes"), std::string::npos) << why;
  EXPECT_NE(why.find("(ENOTTY)"), std::string::npos) << why;
}

// fio's examples that came after 3.33: fio 3.33 cannot run them, so azbench's run is held to what
// the job asks for. The test writes each job from the example's options (scaled as above); the
// example files are not part of Debian's fio-examples.
struct LaterExample {
  const char* name;
  std::vector<std::string> global;  // option=value lines of [global]
  // The job sections: a name, then the job's own option=value lines, if any, each after a '\n'.
  std::vector<std::string> jobs;
  int64_t file_ops_per_job = 0;     // file-operation engines: ops per job
  uint64_t read_bytes_per_job = 0;  // data engines: bytes read per job
  const char* why = "";             // neither set: azbench refuses it, and its error contains `why`
};

void PrintTo(const LaterExample& example, std::ostream* os) { *os << example.name; }

const std::vector<LaterExample>& LaterExamples() {
  static const auto* examples = new std::vector<LaterExample>{
      {"dircreate-ioengine",
       {"create_on_open=1", "nrfiles=30", "ioengine=dircreate", "fallocate=none", "filesize=4k",
        "openfiles=1"},
       {"t0", "t1", "t2", "t3", "t4", "t5"},
       30},
      {"dirdelete-ioengine",
       {"ioengine=dirdelete", "filesize=4k", "nrfiles=20", "unlink=0"},
       {"t0", "t1", "t2", "t3", "t4", "t5"},
       20},
      // 10 clones of 5 directories per job.
      {"dirstat-ioengine",
       {"ioengine=dirstat", "numjobs=10", "filesize=4k", "nrfiles=5", "thread"},
       {"t0", "t1", "t2", "t3", "t4", "t5"},
       50},
      // Each job reads io_size in six 4k reads, the second group strided (the blocks visited are
      // BlockIoOffsetsTest's).
      {"sequence-distribution",
       {"ioengine=null", "rw=randread", "bs=4k", "size=48k", "io_size=24k"},
       {"repeating_sequence\nrandom_distribution=sequence:2,0,1\nrandom_sequence_stride=0",
        "strided_sequence\nstonewall\nrandom_distribution=sequence:2,0,1\n"
        "random_sequence_stride=1"},
       0,
       24 << 10},
  };
  return *examples;
}

class LaterFioExamplesTest : public ::testing::TestWithParam<LaterExample> {
 protected:
  TempDir dir_{testing::kDiskBase};
};

TEST_P(LaterFioExamplesTest, DoesWhatTheJobAsks) {
  ASSERT_TRUE(dir_.ok());
  const LaterExample& example = GetParam();
  std::string text = "[global]\n";
  for (const std::string& line : example.global) absl::StrAppend(&text, line, "\n");
  std::vector<std::string> names;
  for (const std::string& job : example.jobs) {
    const size_t end = job.find('\n');
    names.push_back(job.substr(0, end));
    absl::StrAppend(&text, "[", names.back(), "]\n",
                    end == std::string::npos ? "" : job.substr(end + 1), "\n");
  }
  const std::string work = dir_.File("azbench"), job_file = dir_.File("job.fio");
  fs::create_directories(work);
  std::ofstream(job_file) << text;
  Subprocess p({"/usr/bin/env", "--chdir=" + work, AZBENCH_AGENT_BIN, "run", "--output-format=json",
                "--output=" + dir_.File("azbench.json"), job_file},
               dir_.File("azbench.txt"));
  const int code = p.Wait(kTimeout);
  const std::map<std::string, JobWork> az =
      WorkByJob(testing::LoadFioJson(dir_.File("azbench.json")));
  std::cout << example.name << ": azbench exit " << code << "\n"
            << (code == 0 ? Describe(az) : p.Output()) << std::flush;
  if (example.file_ops_per_job == 0 && example.read_bytes_per_job == 0) {
    EXPECT_NE(code, 0) << "azbench runs " << example.name << " now: give it its expected ops";
    EXPECT_NE(p.Output().find(example.why), std::string::npos) << p.Output();
    return;
  }
  ASSERT_EQ(code, 0) << p.Output();
  ASSERT_EQ(az.size(), names.size()) << p.Output();
  for (const std::string& job : names) {
    SCOPED_TRACE(job);
    auto it = az.find(job);
    ASSERT_NE(it, az.end());
    EXPECT_EQ(it->second.file_ops, example.file_ops_per_job);
    EXPECT_EQ(it->second.read_bytes, example.read_bytes_per_job);
    EXPECT_EQ(it->second.write_bytes, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(AfterFio333, LaterFioExamplesTest, ::testing::ValuesIn(LaterExamples()),
                         [](const ::testing::TestParamInfo<LaterExample>& info) {
                           std::string name = info.param.name;
                           std::replace_if(
                               name.begin(), name.end(),
                               [](char c) { return !absl::ascii_isalnum(c); }, '_');
                           return name;
                         });

}  // namespace
}  // namespace azbench

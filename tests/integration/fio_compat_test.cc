// fio compatibility end to end: fio job files and command lines run through the real `azbench`
// binary on a local fleet of real agents, and `azbench report --format fio-json` compared with the
// output of the real fio 3.33 (plain and client/server mode on loopback), key path by key path, and
// with the histograms in the results database.
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/disk_util.h"
#include "common/stats.h"
#include "coordinator/store/store.h"
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
using ::testing::HasSubstr;
using testing::Subprocess;
using testing::TempDir;

constexpr const char* kFio = testing::kFioBinary;
constexpr auto kTimeout = std::chrono::seconds(240);

// Paths in fio's job objects that azbench deliberately does not write (docs/fio-compatibility.md
// lists them): none now. Everything fio writes must be there with its type.
const std::set<std::string> kNotWritten = {};
// Objects whose members depend on the job (compared by type only).
const std::set<std::string> kOpaque = {"job options", "global options", "disk_util"};

std::string TypeOf(const json& j) {
  if (j.is_object()) return "object";
  if (j.is_array()) return "array";
  if (j.is_string()) return "string";
  if (j.is_boolean()) return "bool";
  if (j.is_number_float()) return "float";
  if (j.is_number()) return "integer";
  return "null";
}

// Every key path of `j` ("read/clat_ns/percentile/99.000000") with its type.
void Walk(const json& j, const std::string& path, std::map<std::string, std::string>& out) {
  out[path] = TypeOf(j);
  if (!j.is_object()) return;
  for (const auto& [key, value] : j.items()) {
    const std::string child = path.empty() ? key : absl::StrCat(path, "/", key);
    if (kOpaque.count(key) > 0) {
      out[child] = TypeOf(value);
    } else {
      Walk(value, child, out);
    }
  }
}

// Checks that every key path of fio's `expected` object is in `actual` with the same type, except
// kNotWritten, and that kNotWritten is exactly what is missing (the list stays true).
void ExpectSameKeys(const json& expected, const json& actual, const std::string& what) {
  std::map<std::string, std::string> fio_paths, azbench_paths;
  Walk(expected, "", fio_paths);
  Walk(actual, "", azbench_paths);
  EXPECT_GT(fio_paths.size(), 100u) << what << ": fio's object is not a job object";
  std::set<std::string> missing_top;
  for (const auto& [path, type] : fio_paths) {
    if (path.empty()) continue;
    const std::string top = path.substr(0, path.find('/'));
    if (kNotWritten.count(top) > 0) {
      if (azbench_paths.count(path) == 0) missing_top.insert(top);
      continue;
    }
    auto it = azbench_paths.find(path);
    if (it == azbench_paths.end()) {
      ADD_FAILURE() << what << ": fio's key path '" << path << "' (" << type
                    << ") is missing in azbench's output";
    } else {
      EXPECT_EQ(it->second, type) << what << ": type of '" << path << "'";
    }
  }
  for (const std::string& top : missing_top) {
    EXPECT_EQ(azbench_paths.count(top), 0u) << what << ": '" << top << "' is half written";
  }
  std::set<std::string> fio_tops;
  for (const auto& [path, type] : fio_paths) fio_tops.insert(path.substr(0, path.find('/')));
  for (const std::string& top : kNotWritten) {
    if (fio_tops.count(top) > 0) {
      EXPECT_EQ(missing_top.count(top), 1u)
          << what << ": '" << top << "' is written now: drop it from the list of differences";
    }
  }
}

class FioCompatTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.ok()); }

  // Runs `azbench args...`; returns the exit code, output in `output`.
  int Azbench(const std::vector<std::string>& args, std::string* output = nullptr) {
    std::vector<std::string> argv = {AZBENCH_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    const std::string out = dir_.File(absl::StrCat("azbench-", ++runs_, ".txt"));
    Subprocess azbench(argv, out);
    const int code = azbench.Wait(kTimeout);
    if (output != nullptr) *output = azbench.Output();
    return code;
  }

  // Runs `job_file` on `agents` local agents into <name>.db, then its fio-json report; returns
  // the report (discarded JSON when a step failed, with the step's output in a failure).
  json RunAndReport(const std::string& job_file, int agents, const std::string& name) {
    std::string output;
    const std::string db = dir_.File(name + ".db");
    if (Azbench({"run", "--fio-job", job_file, "--local", std::to_string(agents), "--directory",
                 Mkdir(name), "--db", db, "--quiet"},
                &output) != 0) {
      ADD_FAILURE() << "run: " << output;
      return json::value_t::discarded;
    }
    const std::string report = dir_.File(name + ".json");
    if (Azbench({"report", db, "--format", "fio-json", "-o", report}, &output) != 0) {
      ADD_FAILURE() << "report: " << output;
      return json::value_t::discarded;
    }
    return testing::LoadFioJson(report);
  }

  std::string Mkdir(const std::string& name) {
    fs::create_directories(dir_.File(name));
    return dir_.File(name);
  }

  TempDir dir_{testing::kTmpfsBase};
  int runs_ = 0;
};

TEST_F(FioCompatTest, FioJsonHasEveryKeyPathOfRealFioWithTheSameType) {
  if (std::string missing = testing::MissingDependency("fio", kFio); !missing.empty()) {
    GTEST_SKIP() << missing;
  }
  const std::vector<std::string> job = {"--name=mix", "--rw=randrw", "--bs=4k", "--size=256k"};

  // Real fio, plain.
  {
    std::vector<std::string> argv = {kFio, "--output-format=json",
                                     "--output=" + dir_.File("fio.json"),
                                     "--directory=" + Mkdir("fio")};
    argv.insert(argv.end(), job.begin(), job.end());
    Subprocess fio(argv, dir_.File("fio.txt"));
    ASSERT_EQ(fio.Wait(kTimeout), 0) << fio.Output();
  }
  // Real fio, client/server on loopback: two clients of one server.
  {
    const std::string server_address = absl::StrCat("ip:127.0.0.1,", testing::UnusedLoopbackPort());
    Subprocess server({kFio, "--server=" + server_address}, dir_.File("server.txt"));
    {
      std::ofstream job_file(dir_.File("mix.fio"));
      job_file << "[mix]\nrw=randrw\nbs=4k\nsize=256k\ndirectory=" << Mkdir("fio-client") << "\n";
    }
    int code = -1;
    // The server needs a moment to listen: retry refused connections (bounded).
    // A client that reached the server before it listened can also exit 0 with only one client's
    // stats (seen once under the sanitizer pass's load): such a run is retried too.
    auto complete = [&] {
      const json doc = testing::LoadFioJson(dir_.File("client.json"));
      return doc.is_object() && doc.contains("client_stats") && doc["client_stats"].size() == 3;
    };
    for (int attempt = 0; attempt < 100 && (code != 0 || !complete()); ++attempt) {
      Subprocess client({kFio, "--output-format=json", "--output=" + dir_.File("client.json"),
                         "--client=" + server_address, dir_.File("mix.fio"),
                         "--client=" + server_address, dir_.File("mix.fio")},
                        dir_.File("client.txt"));
      code = client.Wait(kTimeout);
      if (code != 0 || !complete()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_EQ(code, 0) << testing::FileContents(dir_.File("client.txt"));
    server.Signal(SIGTERM);
    server.Wait(std::chrono::seconds(30));
  }
  // azbench on two local agents, the same job as a fio command line.
  std::vector<std::string> run = {"run",
                                  "--local",
                                  "2",
                                  "--db",
                                  dir_.File("a.db"),
                                  "--quiet",
                                  "--",
                                  "--directory=" + Mkdir("az")};
  run.insert(run.end(), job.begin(), job.end());
  std::string output;
  ASSERT_EQ(Azbench(run, &output), 0) << output;
  ASSERT_EQ(
      Azbench({"report", dir_.File("a.db"), "--format", "fio-json", "-o", dir_.File("a.json")},
              &output),
      0)
      << output;

  const json fio = testing::LoadFioJson(dir_.File("fio.json"));
  const json client = testing::LoadFioJson(dir_.File("client.json"));
  const json ours = testing::LoadFioJson(dir_.File("a.json"));
  ASSERT_TRUE(fio.is_object() && client.is_object() && ours.is_object());
  ASSERT_EQ(fio["jobs"].size(), 1u);
  ASSERT_EQ(client["client_stats"].size(), 3u);
  ASSERT_EQ(ours["jobs"].size(), 1u);
  ASSERT_EQ(ours["client_stats"].size(), 3u);  // 2 agents x 1 job + "All clients"

  // Top level: fio's plain keys and its client-mode keys, with their types.
  for (const json* reference : {&fio, &client}) {
    for (const auto& [key, value] : reference->items()) {
      if (key == "jobs" || key == "client_stats") continue;
      ASSERT_TRUE(ours.contains(key)) << "top-level '" << key << "'";
      EXPECT_EQ(TypeOf(ours[key]), TypeOf(value)) << "top-level '" << key << "'";
    }
  }
  ExpectSameKeys(fio["jobs"][0], ours["jobs"][0], "jobs[0]");
  ExpectSameKeys(client["client_stats"][0], ours["client_stats"][0], "client_stats[0]");
  ExpectSameKeys(client["client_stats"][1], ours["client_stats"][1], "client_stats[1]");
  ExpectSameKeys(client["client_stats"][2], ours["client_stats"][2], "All clients");
  EXPECT_EQ(client["client_stats"][2]["jobname"], "All clients");
  EXPECT_EQ(ours["client_stats"][2]["jobname"], "All clients");
  // The same job did the same I/O: 256 KiB read + written in 4 KiB blocks per job.
  const json& f = fio["jobs"][0];
  const json& a = ours["client_stats"][0];
  EXPECT_EQ(a["read"]["io_bytes"].get<uint64_t>() + a["write"]["io_bytes"].get<uint64_t>(),
            f["read"]["io_bytes"].get<uint64_t>() + f["write"]["io_bytes"].get<uint64_t>());
  EXPECT_EQ(a["jobname"], f["jobname"]);
  EXPECT_EQ(a["job options"]["rw"], f["job options"]["rw"]);
}

// Merges one job's (or every job's, when `job` is empty) read histogram over the results of
// `agent` (every agent when empty).
struct Merged {
  Histogram lat;
  uint64_t ops = 0;
  uint64_t bytes = 0;
  uint64_t runtime_ns = 0;
};
Merged MergeRead(const ScenarioResult& scenario, const std::string& job, const std::string& agent) {
  Merged m;
  for (const AgentJobResult& r : scenario.results) {
    if (!job.empty() && r.result.name != job) continue;
    if (!agent.empty() && r.agent_id != agent) continue;
    const OpStats* read = r.result.Find(OpKind::kRead);
    if (read == nullptr) continue;
    m.lat.Merge(read->lat);
    m.ops += read->ops;
    m.bytes += read->bytes;
    m.runtime_ns = std::max(m.runtime_ns, r.result.runtime_ns);
  }
  return m;
}

// The paths fio tooling reads, checked against the database.
void ExpectReadFigures(const json& entry, const Merged& m, const std::string& what) {
  const json& read = entry["read"];
  EXPECT_EQ(read["total_ios"].get<uint64_t>(), m.ops) << what;
  EXPECT_EQ(read["io_bytes"].get<uint64_t>(), m.bytes) << what;
  EXPECT_EQ(read["io_kbytes"].get<uint64_t>(), m.bytes / 1024) << what;
  EXPECT_EQ(read["runtime"].get<uint64_t>(), m.runtime_ns / 1'000'000) << what;
  const double seconds = static_cast<double>(m.runtime_ns) / 1e9;
  EXPECT_NEAR(read["iops"].get<double>(), static_cast<double>(m.ops) / seconds,
              1e-6 * static_cast<double>(m.ops) / seconds)
      << what;
  EXPECT_NEAR(read["bw"].get<double>(), static_cast<double>(m.bytes) / seconds / 1024.0, 1.0)
      << what;
  // psync: fio's clat is the total latency.
  const json& clat = read["clat_ns"];
  EXPECT_EQ(clat["N"].get<uint64_t>(), m.lat.count()) << what;
  EXPECT_EQ(clat["min"].get<uint64_t>(), m.lat.min_ns()) << what;
  EXPECT_EQ(clat["max"].get<uint64_t>(), m.lat.max_ns()) << what;
  EXPECT_DOUBLE_EQ(read["lat_ns"]["mean"].get<double>(), m.lat.mean_ns()) << what;
  for (const char* key : {"50.000000", "90.000000", "99.000000", "99.900000", "99.990000"}) {
    EXPECT_EQ(clat["percentile"][key].get<uint64_t>(), m.lat.Percentile(std::stod(key)))
        << what << " percentile " << key;
  }
}

TEST_F(FioCompatTest, StudyCJobFileRunsVerbatimAndItsFioJsonMatchesTheStore) {
  const std::string job_file =
      std::string(testing::kSourceDir) + "/tests/coordinator/testdata/study-c.fio";
  const json doc = RunAndReport(job_file, 2, "c");
  ASSERT_TRUE(doc.is_object());

  absl::StatusOr<std::unique_ptr<Store>> store = Store::OpenExisting(dir_.File("c.db"));
  ASSERT_TRUE(store.ok()) << store.status();
  absl::StatusOr<std::vector<ScenarioResult>> scenarios = (*store)->LoadScenarios();
  ASSERT_TRUE(scenarios.ok()) << scenarios.status();
  ASSERT_EQ(scenarios->size(), 1u);
  const ScenarioResult& scenario = (*scenarios)[0];
  absl::StatusOr<std::vector<AgentInfo>> agents = (*store)->LoadAgents();
  ASSERT_TRUE(agents.ok()) << agents.status();
  ASSERT_EQ(agents->size(), 2u);

  // jobs[]: each job merged over both agents, in the job file's order.
  ASSERT_EQ(doc["jobs"].size(), 2u);
  const std::vector<std::pair<std::string, std::string>> expected_jobs = {{"rand-read", "randread"},
                                                                          {"seq-read", "read"}};
  for (size_t i = 0; i < expected_jobs.size(); ++i) {
    const json& job = doc["jobs"][i];
    const auto& [name, rw] = expected_jobs[i];
    EXPECT_EQ(job["jobname"], name);
    EXPECT_EQ(job["groupid"], 0);  // no stonewall: both jobs at once, one group
    EXPECT_EQ(job["job options"]["rw"], rw);
    ExpectReadFigures(job, MergeRead(scenario, name, ""), "jobs[" + name + "]");
    EXPECT_EQ(job["write"]["total_ios"], 0);
  }
  // The job file's sizes, read whole in 4 KiB blocks (fio's default bs) on each of 2 agents.
  EXPECT_EQ(doc["jobs"][0]["read"]["io_bytes"].get<uint64_t>(), 2u * (1u << 20));
  EXPECT_EQ(doc["jobs"][1]["read"]["total_ios"].get<uint64_t>(), 2u * (1u << 30) / 4096);

  // client_stats: per agent and job, with the agent's host and port, then "All clients".
  const json& clients = doc["client_stats"];
  ASSERT_EQ(clients.size(), 5u);
  for (const AgentInfo& agent : *agents) {
    for (const auto& [name, rw] : expected_jobs) {
      SCOPED_TRACE(agent.agent_id + " " + name);
      const json* found = nullptr;
      for (size_t k = 0; k + 1 < clients.size(); ++k) {
        if (clients[k]["jobname"] == name &&
            absl::StrCat("127.0.0.1:", clients[k]["port"].get<int>()) == agent.address) {
          EXPECT_EQ(found, nullptr) << "two entries for one agent and job";
          found = &clients[k];
        }
      }
      ASSERT_NE(found, nullptr);
      EXPECT_EQ((*found)["hostname"], agent.hostname);
      ExpectReadFigures(*found, MergeRead(scenario, name, agent.agent_id), "client_stats");
    }
  }
  EXPECT_EQ(clients[4]["jobname"], "All clients");
  ExpectReadFigures(clients[4], MergeRead(scenario, "", ""), "All clients");
  EXPECT_EQ(doc["azbench"]["status"], "complete");
}

// What an agent measured beyond the histograms (the steady-state window, the depth a
// latency_target search ended at) and what the job chose to report (its percentiles, unified
// directions) reach a campaign's fio-json through the store, as fio writes them for the same job.
TEST_F(FioCompatTest, SteadyStateLatencyDepthAndReportChoicesSurviveTheStore) {
  const std::string job_file = dir_.File("ss.fio");
  std::ofstream(job_file) << "[ss]\nioengine=null\nrw=randread\nbs=4k\nsize=1g\niodepth=4\n"
                             "time_based\nruntime=3s\nss=iops_slope:50%\nss_dur=2s\n"
                             "latency_target=10ms\nlatency_window=500ms\n"
                             "percentile_list=99:50\nclat_percentiles=0\nlat_percentiles=1\n"
                             "unified_rw_reporting=both\n";
  const json doc = RunAndReport(job_file, 1, "ss");
  ASSERT_TRUE(doc.is_object());
  const json& job = doc["jobs"][0];
  ASSERT_TRUE(job.contains("steadystate")) << job.dump();
  EXPECT_EQ(job["steadystate"]["ss"], "iops_slope:50.000000%");
  EXPECT_EQ(job["steadystate"]["duration"], 2);
  EXPECT_EQ(job["steadystate"]["data"]["iops"].size(), 2u);
  EXPECT_GT(job["steadystate"]["data"]["iops_mean"].get<uint64_t>(), 0u);
  // The null engine meets a 10 ms target at every depth: the search ends at the job's iodepth.
  EXPECT_EQ(job["latency_target"], 10'000'000);
  EXPECT_EQ(job["latency_depth"], 4);
  EXPECT_FALSE(job["read"]["clat_ns"].contains("percentile"));
  ASSERT_TRUE(job["read"]["lat_ns"].contains("percentile")) << job["read"].dump();
  EXPECT_EQ(job["read"]["lat_ns"]["percentile"].size(), 2u);
  EXPECT_TRUE(job["read"]["lat_ns"]["percentile"].contains("50.000000"));
  EXPECT_TRUE(job["read"]["lat_ns"]["percentile"].contains("99.000000"));
  // unified_rw_reporting=both: the directions, then their sum (reads only here).
  ASSERT_TRUE(job.contains("mixed")) << job.dump();
  EXPECT_EQ(job["mixed"]["total_ios"], job["read"]["total_ios"]);
  EXPECT_EQ(job["mixed"]["lat_ns"]["percentile"].size(), 2u);
}

TEST_F(FioCompatTest, UnsupportedOptionsStopTheRunNamingTheOptionAndTheLine) {
  const std::string bad = dir_.File("bad.fio");
  std::ofstream(bad) << "[global]\nsize=1m\n[job]\ncreate_fsync=1\nrw=read\n";
  std::string output;
  EXPECT_EQ(Azbench({"run", "--fio-job", bad, "--db", dir_.File("bad.db")}, &output), 2);
  EXPECT_THAT(output, HasSubstr(bad + ":4: option 'create_fsync' is not supported by azbench: "));
  EXPECT_EQ(Azbench({"run", "--db", dir_.File("bad.db"), "--", "--name=x", "--size=1m",
                     "--create_fsync=1"},
                    &output),
            2);
  EXPECT_THAT(output,
              HasSubstr("argument 3 '--create_fsync=1': option 'create_fsync' is not supported"));
  EXPECT_FALSE(fs::exists(dir_.File("bad.db"))) << "nothing may run or be stored";
}

TEST_F(FioCompatTest, SeveralKeptScenariosNeedADirectoryOneDocumentEach) {
  const std::string campaign = dir_.File("r.yaml");
  std::ofstream(campaign) << "name: r\nfleet: {local: {agents: 1}}\ntargets: [{name: t, path: "
                             "t}]\nworkloads: [{name: w, options: {rw: read, bs: 4k, size: "
                             "256k}}]\nrepeats: 2\nkeep: all\nresults: r.db\n";
  std::string output;
  ASSERT_EQ(Azbench({"run", campaign, "--quiet"}, &output), 0) << output;
  const std::string db = dir_.File("r.db");
  EXPECT_EQ(Azbench({"report", db, "--format", "fio-json"}, &output), 2);
  EXPECT_THAT(output, HasSubstr("2 scenarios are kept (keep=all)"));

  ASSERT_EQ(Azbench({"report", db, "--format", "fio-json", "-o", dir_.File("docs")}, &output), 0)
      << output;
  for (const char* name :
       {"0-workload_w_target_t_repeat_1.json", "1-workload_w_target_t_repeat_2.json"}) {
    const json doc = testing::LoadFioJson(dir_.File(std::string("docs/") + name));
    ASSERT_TRUE(doc.is_object()) << name;
    EXPECT_EQ(doc["jobs"][0]["read"]["io_bytes"], 256 * 1024) << name;
  }
  ASSERT_EQ(Azbench({"report", db, "--format", "fio-json", "--keep", "last", "-o",
                     dir_.File("last.json")},
                    &output),
            0)
      << output;
  EXPECT_EQ(testing::LoadFioJson(dir_.File("last.json"))["azbench"]["repeat"], 2);
}

// fio's client lists every server's disk under the job's files, with the server's host and port;
// on tmpfs there is no disk and the array stays empty, as fio's, and with disk_util=0 too.
TEST_F(FioCompatTest, DiskUtilHasEachAgentsDiskUnderTheJobAndNoneOnTmpfs) {
  TempDir on_disk(testing::kDiskBase);
  ASSERT_TRUE(on_disk.ok());
  const std::optional<std::string> disk = DiskDirectoryOf(on_disk.path());
  std::string output;
  for (const auto& [db, directory, disk_util] :
       {std::tuple<std::string, std::string, int>{"disk", on_disk.path(), 1},
        {"shm", Mkdir("shm"), 1},
        {"off", on_disk.path(), 0}}) {
    ASSERT_EQ(Azbench({"run", "--local", "2", "--db", dir_.File(db + ".db"), "--quiet", "--",
                       "--name=w", "--rw=write", "--bs=64k", "--size=1m", "--direct=1",
                       "--directory=" + directory, absl::StrCat("--disk_util=", disk_util)},
                      &output),
              0)
        << output;
    ASSERT_EQ(Azbench({"report", dir_.File(db + ".db"), "--format", "fio-json", "-o",
                       dir_.File(db + ".json")},
                      &output),
              0)
        << output;
  }
  const json shm = testing::LoadFioJson(dir_.File("shm.json"));
  ASSERT_TRUE(shm.is_object());
  ASSERT_TRUE(shm.contains("disk_util"));
  EXPECT_TRUE(shm["disk_util"].empty()) << shm["disk_util"];
  const json off = testing::LoadFioJson(dir_.File("off.json"));
  ASSERT_TRUE(off.is_object());
  EXPECT_TRUE(off["disk_util"].empty()) << off["disk_util"];

  const json ours = testing::LoadFioJson(dir_.File("disk.json"));
  ASSERT_TRUE(ours.is_object());
  if (!disk.has_value()) {
    EXPECT_TRUE(ours["disk_util"].empty()) << testing::kDiskBase << " is on no block device here";
    return;
  }
  const std::string name = fs::path(*disk).filename();
  ASSERT_EQ(ours["disk_util"].size(), 2u) << ours["disk_util"];  // one disk per agent
  // Each agent's own entry, named by its host and port as its client_stats entry.
  std::set<std::pair<std::string, int>> agents, disk_hosts;
  for (const json& c : ours["client_stats"]) {
    if (c["jobname"] != "All clients")
      agents.emplace(c["hostname"].get<std::string>(), c["port"].get<int>());
  }
  for (const json& d : ours["disk_util"]) {
    EXPECT_EQ(d["name"], name) << d;
    disk_hosts.emplace(d["hostname"].get<std::string>(), d["port"].get<int>());
    // Each agent wrote 16 direct 64 KiB blocks to it: the disk saw writes, and busy time is a
    // share of the run.
    EXPECT_GT(d["write_ios"].get<uint64_t>(), 0u) << d;
    EXPECT_GE(d["util"].get<double>(), 0.0) << d;
    EXPECT_LE(d["util"].get<double>(), 100.0) << d;
  }
  EXPECT_EQ(agents.size(), 2u);
  EXPECT_EQ(disk_hosts, agents);
}

}  // namespace
}  // namespace azbench

// client_to_client visibility across AZs on the lab (root): `azbench lab up`, a campaign whose
// target is the lab's ganesha as an nfs:// URL, the writer (the scenario's first agent, in the
// server's AZ) and a reader in each other AZ, all through libnfs (no client cache), then `azbench
// lab down`. What physics says must show: no reader sees a write sooner than the reply that
// carries it can cross from the server (one way of the injected round trip), nor later than one
// poll interval plus the round trips of two polls. Placement comes from the URL's server, as for
// block I/O. Skipped without root.
#include <fcntl.h>
#include <sched.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "agent/workloads/visibility/probe_content.h"
#include "agent/workloads/visibility/probe_store.h"
#include "coordinator/lab/lab_topology.h"
#include "nlohmann/json.hpp"
#include "tests/testing/dependencies.h"
#include "tests/testing/lab_fixture.h"
#include "tests/testing/netns.h"

namespace azbench {
namespace {

using json = nlohmann::json;

// The lab's directory and lock as tests/integration/lab_test.cc uses them: one lab per machine,
// the lab tests take turns.
constexpr const char* kDir = testing::kLabTestDir;
constexpr double kInjectedRoundTripMs = 0.8;  // the lab's default --cross-az-delay
// Shorter than a poll's round trips, so polls run back to back and the figure is the network's,
// not the phase of a coarse poll against the write.
constexpr double kPollIntervalMs = 1;
// The readers poll back to back beside the writer, three agents, the delay line and the server on
// a small shared machine: polls in the run took up to five times the quiet poll timed before it.
// The ceiling's point is that nothing caches (a kernel client's acregmin alone is 3 s), so the
// margin is wide; the floor is the assertion that measures physics.
constexpr double kMarginMs = 50;

// Milliseconds of "  FROM -> TO: N us" in `azbench lab status`, or -1.
double StatusRttMs(const std::string& status, const std::string& from, const std::string& to) {
  std::smatch m;
  const std::regex line("  " + from + " -> " + to + ": ([0-9]+) us");
  return std::regex_search(status, m, line) ? std::stod(m[1]) / 1e3 : -1;
}

// How long one open_read poll of a present probe file takes from inside AZ namespace `ns`, through
// libnfs as the readers poll: the mean of `polls` polls, in ms; -1 when it cannot be measured.
double MeasuredPollMs(const std::string& ns, const std::string& url, const std::string& export_dir,
                      int polls) {
  constexpr char kName[] = "poll-cost-probe";
  const size_t size = 4096;
  std::ofstream(export_dir + "/" + kName) << MakeProbeContent(1, size);
  double mean_ms = -1;
  std::thread([&] {
    const int target = open(("/var/run/netns/" + ns).c_str(), O_RDONLY | O_CLOEXEC);
    if (target < 0 || setns(target, CLONE_NEWNET) != 0) return;
    close(target);
    absl::StatusOr<std::unique_ptr<ProbeStore>> store = MakeNfsProbeStore(url, "/", false);
    if (!store.ok()) return;
    const absl::Time start = absl::Now();
    for (int i = 0; i < polls; ++i) {
      absl::StatusOr<bool> seen =
          (*store)->Visible(kName, 1, size, VisibilityReadMethod::kOpenRead);
      if (!seen.ok() || !*seen) return;
    }
    mean_ms = absl::ToDoubleMilliseconds(absl::Now() - start) / polls;
  }).join();
  std::filesystem::remove(export_dir + "/" + kName);
  return mean_ms;
}

class LabVisibilityTest : public testing::LabFixture {};

TEST_F(LabVisibilityTest, CrossAzReadersSeeAWriteNoSoonerThanTheNetworkAllowsAndWithinAPoll) {
  int code = 0;
  std::string out = testing::RunAzbench({"lab", "up", "--dir", kDir}, &code);
  ASSERT_EQ(code, 0) << out;
  // A reader's round trip to the server as the lab measures it (the injected delay, the delay
  // line's own cost and the machine's load), the slower of the two reader AZs.
  out = testing::RunAzbench({"lab", "status", "--dir", kDir}, &code);
  ASSERT_EQ(code, 0) << out;
  const double reader_rtt_ms =
      std::max(StatusRttMs(out, "lab-1b", "nfs"), StatusRttMs(out, "lab-1c", "nfs"));
  ASSERT_GT(reader_rtt_ms, 0) << out;
  const LabTopology lab = PlanLab({.dir = kDir});
  const std::string url =
      absl::StrCat("nfs://", lab.nfs_server_address, lab.export_dir,
                   "?version=3&nfsport=", kLabNfsPort, "&mountport=", kLabMountPort);
  // What a poll costs on this machine now, from each reader's AZ (the injected delay, the delay
  // line, the server and the load together).
  double poll_ms = 0;
  for (size_t az = 1; az < lab.azs.size(); ++az) {
    const double ms = MeasuredPollMs(lab.azs[az].namespace_name, url, lab.export_dir, 20);
    ASSERT_GT(ms, 0) << lab.azs[az].namespace_name;
    poll_ms = std::max(poll_ms, ms);
  }
  const std::string campaign = absl::StrCat(kDir, "/lab-visibility.yaml");
  std::ofstream(campaign) << absl::StrCat(
      "name: lab-visibility\n"
      "fleet:\n"
      "  hosts_file: ",
      kDir, "/hosts\n", "  tls: {ca_file: ", kDir, "/tls/ca.crt, cert_file: ", kDir,
      "/tls/coordinator.crt, key_file: ", kDir, "/tls/coordinator.key}\n",
      "targets:\n"
      "  - name: ganesha\n"
      "    path: nfs://",
      lab.nfs_server_address, lab.export_dir, "?version=3&nfsport=", kLabNfsPort,
      "&mountport=", kLabMountPort, "\n",
      "workloads:\n"
      "  - name: c2c\n"
      "    workload: visibility\n"
      "    options: {probe: client_to_client, trials: 20, spacing: 50ms, poll_interval: ",
      kPollIntervalMs,
      "ms, timeout: 5s, read_method: open_read,\n"
      "              fsync: 0}\n",
      "repeats: 1\n"
      "warmup: 0s\n"
      "cooldown: 0s\n"
      "results: lab-visibility.db\n");
  out = testing::RunAzbench({"run", campaign, "--quiet"}, &code);
  ASSERT_EQ(code, 0) << out;
  const std::string text = testing::RunAzbench(
      {"report", absl::StrCat(kDir, "/lab-visibility.db"), "--format", "json"}, &code);
  ASSERT_EQ(code, 0) << text;
  const json report = json::parse(text, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << text;
  ASSERT_EQ(report["scenarios"].size(), 1u) << text;
  const json& s = report["scenarios"][0];
  ASSERT_EQ(s["status"], "complete") << s["status_detail"];
  // The writer is the scenario's first agent, in the server's AZ; the readers are across AZs.
  std::vector<std::string> agents = s["agent_ids"].get<std::vector<std::string>>();
  ASSERT_EQ(agents.size(), 3u);
  EXPECT_EQ(agents[0], "agent-a0");
  std::sort(agents.begin() + 1, agents.end());
  EXPECT_EQ(agents[1], "agent-b0");
  EXPECT_EQ(agents[2], "agent-c0");
  for (const json& e : s["placements"]) {
    const bool same = e["agent_id"] == "agent-a0";
    EXPECT_EQ(e["placement"], same ? "same-az" : "cross-az") << e.dump();
    EXPECT_EQ(e["address_source"], "nfs_url") << e.dump();
  }
  ASSERT_TRUE(s["ops"].contains("write")) << s["ops"].dump();
  EXPECT_EQ(s["ops"]["write"]["ops"], 20) << "the writer's trials";
  const json& probe = s["ops"]["probe"];
  EXPECT_EQ(probe["ops"], 40) << "every trial seen by both readers";
  EXPECT_EQ(probe["errors"], 0);
  const double min_ms = probe["lat"]["min_ns"].get<double>() / 1e6;
  const double mean_ms = probe["lat"]["mean_ns"].get<double>() / 1e6;
  const double max_ms = probe["lat"]["max_ns"].get<double>() / 1e6;
  // Every agent runs on this machine's one clock, so the offsets the coordinator measured and
  // joined the halves with are its error: the floor is moved by the largest writer-reader one.
  double writer_offset_ms = 0, clock_error_ms = 0;
  for (const json& c : s["clock_offsets"]) {
    if (c["agent_id"] == agents[0]) writer_offset_ms = c["clock_offset_ns"].get<double>() / 1e6;
  }
  for (const json& c : s["clock_offsets"]) {
    clock_error_ms = std::max(
        clock_error_ms, std::abs(c["clock_offset_ns"].get<double>() / 1e6 - writer_offset_ms));
  }
  // The writer returns once the server answered its WRITE (fsync: 0; libnfs has no cache to
  // flush), a few microseconds away in its own AZ. The first reply that carries the data to a
  // reader in another AZ leaves the server after that and takes half the injected round trip.
  const double floor_ms = 0.5 * kInjectedRoundTripMs - clock_error_ms;
  // At worst a poll began just before the server held the file, missed it, and the next poll saw
  // it: two polls' round trips after the write.
  const double ceiling_ms = kPollIntervalMs + 2 * poll_ms + kMarginMs;
  std::cout << "client_to_client over libnfs, writer lab-1a, readers lab-1b and lab-1c: min "
            << min_ms << " ms, mean " << mean_ms << " ms, max " << max_ms << " ms (poll interval "
            << kPollIntervalMs << " ms, injected round trip " << kInjectedRoundTripMs
            << " ms, measured reader round trip " << reader_rtt_ms << " ms, open_read poll "
            << poll_ms << " ms, clock-offset error " << clock_error_ms << " ms, floor " << floor_ms
            << " ms, ceiling " << ceiling_ms << " ms)\n";
  EXPECT_GE(min_ms, floor_ms);
  EXPECT_LE(max_ms, ceiling_ms);
  // The writer's probe files are removed at cleanup.
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(lab.export_dir, ec)) {
    EXPECT_EQ(e.path().filename().string().find("-c2c-"), std::string::npos) << e.path();
  }
}

}  // namespace
}  // namespace azbench

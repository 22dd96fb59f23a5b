// examples/lab-study-a.yaml on the lab (root): `azbench lab up`, the example as written (its paths
// moved to this test's lab directory), `azbench lab down`. What physics says must show: placement
// decided from evidence, the 4k reads' cross-AZ latency one injected round trip above the
// same-AZ one, streams across AZs at the shaped bandwidth, and the report's same-AZ vs cross-AZ
// view with both sides. Skipped without root.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "nlohmann/json.hpp"
#include "tests/testing/dependencies.h"
#include "tests/testing/lab_fixture.h"
#include "tests/testing/netns.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

// The lab's directory and lock as tests/integration/lab_test.cc uses them: one lab per machine,
// the two tests take turns.
constexpr const char* kDir = testing::kLabTestDir;
// The lab this test builds: a longer round trip and a narrower link than the lab's defaults
// (800us, 1g), so that what the delay line itself costs per packet (a userspace process on two
// shared cores, slower still under the sanitizers) is a small part of what is asserted. The two
// cross-AZ readers stream at once, each on its own link: under AddressSanitizer the delay line
// and ganesha carried about 740 Mbit/s in all on two cores, so two 500 Mbit/s links measured
// the CPU, not the shaping; two 200 Mbit/s links stay well inside it.
constexpr char kCrossAzDelay[] = "2ms";
constexpr char kCrossAzBandwidth[] = "200m";
constexpr double kInjectedRoundTripUs = 2000;
constexpr double kShapedBytesPerS = 200e6 / 8;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The stored scenario of `workload` with placement `placement` (null when missing).
const json* FindScenario(const json& report, const std::string& workload,
                         const std::string& placement) {
  for (const json& s : report["scenarios"]) {
    if (s.value("workload", "") != workload) continue;
    for (const json& p : s["parameters"]) {
      if (p[0] == "placement" && p[1] == placement) return &s;
    }
  }
  return nullptr;
}

class LabStudyATest : public testing::LabFixture {};

TEST_F(LabStudyATest, CrossAzCostsTheInjectedRoundTripAndTheShapedBandwidthByEvidence) {
  int code = 0;
  std::string out = testing::RunAzbench({"lab", "up", "--dir", kDir, "--cross-az-delay",
                                         kCrossAzDelay, "--cross-az-bandwidth", kCrossAzBandwidth},
                                        &code);
  ASSERT_EQ(code, 0) << out;
  // The round trip the lab puts between AZs as a TCP client of the server sees it: the injected
  // delay plus what the delay line itself costs per packet (more under the sanitizers). The
  // least of three readings, as load only adds to it.
  double lab_round_trip_us = 1e9;
  for (int i = 0; i < 3; ++i) {
    const std::string status = testing::RunAzbench({"lab", "status", "--dir", kDir}, &code);
    ASSERT_EQ(code, 0) << status;
    const double same_us = testing::StatusRttUs(status, "lab-1a", "nfs");
    const double cross_us = (testing::StatusRttUs(status, "lab-1b", "nfs") +
                             testing::StatusRttUs(status, "lab-1c", "nfs")) /
                            2;
    ASSERT_GT(same_us, 0) << status;
    lab_round_trip_us = std::min(lab_round_trip_us, cross_us - same_us);
  }
  std::cout << "lab: cross-AZ minus same-AZ round trip to the server " << lab_round_trip_us
            << " us (injected " << kInjectedRoundTripUs << " us)\n";
  EXPECT_NEAR(lab_round_trip_us, kInjectedRoundTripUs, 0.15 * kInjectedRoundTripUs);

  // The example as written, its lab paths moved to this test's directory.
  const std::string example =
      ReadFile(std::string(testing::kSourceDir) + "/examples/lab-study-a.yaml");
  ASSERT_THAT(example, HasSubstr("/var/tmp/azbench-lab/"));
  const std::string campaign = absl::StrCat(kDir, "/lab-study-a.yaml");
  std::ofstream(campaign) << absl::StrReplaceAll(
      example, {{"/var/tmp/azbench-lab/", std::string(kDir) + "/"}});
  out = testing::RunAzbench({"run", campaign, "--quiet"}, &code);
  ASSERT_EQ(code, 0) << out;
  const std::string db = absl::StrCat(kDir, "/lab-study-a.db");
  const std::string text = testing::RunAzbench({"report", db, "--format", "json"}, &code);
  ASSERT_EQ(code, 0) << text;
  const json report = json::parse(text, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << text;

  // Placement from evidence: each agent's AZ from its IMDS, the URL's server in lab-1a's subnet.
  for (const char* workload : {"write-4m", "read-4m", "randread-4k"}) {
    for (const char* placement : {"same-az", "cross-az"}) {
      const json* s = FindScenario(report, workload, placement);
      ASSERT_NE(s, nullptr) << workload << " " << placement << "\n" << out;
      EXPECT_EQ((*s)["status"], "complete") << (*s)["status_detail"];
      const std::vector<std::string> expected =
          std::string(placement) == "same-az" ? std::vector<std::string>{"agent-a0"}
                                              : std::vector<std::string>{"agent-b0", "agent-c0"};
      EXPECT_EQ((*s)["agent_ids"].get<std::vector<std::string>>(), expected) << workload;
      for (const json& e : (*s)["placements"]) {
        const bool same = e["agent_id"] == "agent-a0";
        EXPECT_EQ(e["placement"], same ? "same-az" : "cross-az") << e.dump();
        EXPECT_EQ(e["az_source"], "imds") << e.dump();
        EXPECT_EQ(e["server_address"], "10.100.0.2") << e.dump();
        EXPECT_EQ(e["address_source"], "nfs_url") << e.dump();
        EXPECT_EQ(e["subnet"], "10.100.0.0/24") << e.dump();
        EXPECT_EQ(e["server_az"], "lab-1a") << e.dump();
        EXPECT_EQ(e["server_az_source"], "subnet map") << e.dump();
      }
    }
  }

  // 4k reads one at a time: across AZs each costs one more round trip of the lab, within 25%.
  const json* same_rr = FindScenario(report, "randread-4k", "same-az");
  const json* cross_rr = FindScenario(report, "randread-4k", "cross-az");
  ASSERT_TRUE(same_rr != nullptr && cross_rr != nullptr);
  const double same_us = (*same_rr)["ops"]["read"]["lat"]["mean_ns"].get<double>() / 1e3;
  const double cross_us = (*cross_rr)["ops"]["read"]["lat"]["mean_ns"].get<double>() / 1e3;
  std::cout << "randread-4k mean latency: same-az " << same_us << " us, cross-az " << cross_us
            << " us, difference " << cross_us - same_us << " us (lab round trip "
            << lab_round_trip_us << " us)\n";
  EXPECT_NEAR(cross_us - same_us, lab_round_trip_us, 0.25 * lab_round_trip_us);

  // 4 MiB streams across AZs run at the shaped bandwidth: each cross-AZ reader has its own AZ's
  // link; the writers share the link into lab-1a.
  const json* cross_read = FindScenario(report, "read-4m", "cross-az");
  const json* cross_write = FindScenario(report, "write-4m", "cross-az");
  ASSERT_TRUE(cross_read != nullptr && cross_write != nullptr);
  for (const json& a : (*cross_read)["ops"]["read"]["per_agent"]) {
    const double bytes_per_s = a["bytes_per_s"].get<double>();
    std::cout << "read-4m cross-az " << a["agent_id"] << ": " << bytes_per_s * 8 / 1e6
              << " Mbit/s (shaped " << kShapedBytesPerS * 8 / 1e6 << ")\n";
    EXPECT_NEAR(bytes_per_s, kShapedBytesPerS, 0.15 * kShapedBytesPerS) << a.dump();
  }
  const double write_bytes_per_s =
      (*cross_write)["ops"]["write"]["full"]["bytes_per_s"].get<double>();
  std::cout << "write-4m cross-az, both agents: " << write_bytes_per_s * 8 / 1e6
            << " Mbit/s (shaped " << kShapedBytesPerS * 8 / 1e6 << ")\n";
  EXPECT_NEAR(write_bytes_per_s, kShapedBytesPerS, 0.15 * kShapedBytesPerS);

  // The report's same-AZ vs cross-AZ view shows both sides of every workload.
  const std::string md = testing::RunAzbench({"report", db, "--format", "md"}, &code);
  ASSERT_EQ(code, 0) << md;
  EXPECT_THAT(md, HasSubstr("## Placement: same-AZ vs cross-AZ"));
  for (const char* workload : {"write-4m", "read-4m", "randread-4k"}) {
    const size_t at = md.find(absl::StrCat("### ", workload, ": ganesha"));
    ASSERT_NE(at, std::string::npos) << workload << "\n" << md;
    EXPECT_THAT(md.substr(at, md.find("\n### ", at + 1) - at), HasSubstr("| agents | 1 | 2 |"))
        << md;
  }
  std::cout << md.substr(md.find("## Placement: same-AZ vs cross-AZ")) << "\n";
}

}  // namespace
}  // namespace azbench

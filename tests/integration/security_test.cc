// Transport security and confinement with real processes: `azbench certs init` makes the files,
// real agents serve mutual TLS / a token over TLS / plaintext on loopback, and the real coordinator
// binary connects (or is refused with a message that says what to check).
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "coordinator/fleet/agent_client.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using testing::Subprocess;
using testing::TempDir;
namespace fs = std::filesystem;

int ReadPort(const std::string& port_file, Subprocess& process) {
  for (int i = 0; i < 1500; ++i) {
    std::ifstream in(port_file);
    int port = 0;
    if (in >> port && port > 0) return port;
    siginfo_t info{};  // exited? (WNOWAIT: left for Subprocess::Wait to reap)
    if (waitid(P_PID, process.pid(), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == process.pid()) {
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return 0;
}

struct Result {
  int code;
  std::string output;
};

class SecurityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    fs::create_directories(dir_.File("root/target"));
    fs::create_directories(dir_.File("outside"));
    Result certs = Azbench({"certs", "init", "--dir", dir_.File("certs"), "--agent",
                            "localhost=127.0.0.1", "--agent", "agent-x", "--days", "2"});
    ASSERT_EQ(certs.code, 0) << certs.output;
    Result other = Azbench({"certs", "init", "--dir", dir_.File("other"), "--agent", "127.0.0.1"});
    ASSERT_EQ(other.code, 0) << other.output;
    std::ofstream(dir_.File("token")) << "correct-horse-battery\n";
    std::ofstream(dir_.File("wrong-token")) << "correct-horse-battery-staple\n";
  }

  Result Azbench(std::vector<std::string> args) {
    args.insert(args.begin(), AZBENCH_BIN);
    const std::string log = dir_.File(absl::StrCat("azbench.", ++runs_, ".log"));
    Subprocess process(args, log);
    const int code = process.Wait(std::chrono::seconds(120));
    return {code, process.Output()};
  }

  // Starts an agent with `flags`; returns its port, 0 if it exited (its output in agent_output_).
  int StartAgent(std::vector<std::string> flags, const std::string& listen = "127.0.0.1:0") {
    const std::string port_file = dir_.File(absl::StrCat("port.", ++agents_started_));
    std::vector<std::string> args = {AZBENCH_AGENT_BIN,    "serve",
                                     "--listen=" + listen, "--port-file=" + port_file,
                                     "--agent-id=sec-1",   "--log-level=info",
                                     "--imds=disabled",    "--allowed-root=" + dir_.File("root")};
    args.insert(args.end(), flags.begin(), flags.end());
    agent_ = std::make_unique<Subprocess>(
        args, dir_.File(absl::StrCat("agent.", agents_started_, ".log")));
    const int port = ReadPort(port_file, *agent_);
    if (port == 0) {
      agent_->Wait(std::chrono::seconds(10));
      agent_output_ = agent_->Output();
    }
    return port;
  }

  std::vector<std::string> MutualTlsAgentFlags() {
    return {"--tls-cert=" + dir_.File("certs/agents/localhost.crt"),
            "--tls-key=" + dir_.File("certs/agents/localhost.key"),
            "--tls-ca=" + dir_.File("certs/ca.crt")};
  }
  std::vector<std::string> CoordinatorFlags(const std::string& certs = "certs") {
    return {"--tls-ca",   dir_.File(certs + "/ca.crt"),
            "--tls-cert", dir_.File(certs + "/coordinator.crt"),
            "--tls-key",  dir_.File(certs + "/coordinator.key")};
  }
  Result Agents(int port, std::vector<std::string> flags) {
    std::vector<std::string> args = {"agents", "--hosts", absl::StrCat("127.0.0.1:", port)};
    args.insert(args.end(), flags.begin(), flags.end());
    return Azbench(args);
  }

  std::string Campaign(int port, const std::string& target, const std::string& tls) {
    const std::string path = dir_.File("campaign.yaml");
    std::ofstream(path) << "name: sec\nfleet:\n  hosts: [127.0.0.1:" << port << "]\n"
                        << tls << "results: " << dir_.File("results.db")
                        << "\ntargets:\n  - {name: t, path: " << target
                        << ", kind: local}\nworkloads:\n  - name: w\n    options: {rw: write, "
                           "bs: 4k, size: 256k}\n";
    return path;
  }
  std::string CampaignTls() {
    return absl::StrCat("  tls: {ca_file: ", dir_.File("certs/ca.crt"),
                        ", cert_file: ", dir_.File("certs/coordinator.crt"),
                        ", key_file: ", dir_.File("certs/coordinator.key"), "}\n");
  }

  TempDir dir_{testing::kDiskBase};
  std::unique_ptr<Subprocess> agent_;
  std::string agent_output_;
  int runs_ = 0;
  int agents_started_ = 0;
};

TEST_F(SecurityTest, CertsInitKeepsKeysPrivateAndRefusesToOverwrite) {
  for (const char* key : {"certs/ca.key", "certs/coordinator.key", "certs/agents/localhost.key"}) {
    EXPECT_EQ(fs::status(dir_.File(key)).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write)
        << key;
  }
  Result again = Azbench({"certs", "init", "--dir", dir_.File("certs"), "--agent", "x"});
  EXPECT_EQ(again.code, 2);
  EXPECT_THAT(again.output, HasSubstr("refusing to overwrite"));
}

TEST_F(SecurityTest, MutualTlsAgentAndCoordinatorWork) {
  const int port = StartAgent(MutualTlsAgentFlags());
  ASSERT_GT(port, 0) << agent_output_;
  Result ok = Agents(port, CoordinatorFlags());
  EXPECT_EQ(ok.code, 0) << ok.output;
  EXPECT_THAT(ok.output, HasSubstr("sec-1"));
  EXPECT_THAT(agent_->Output(), HasSubstr("mutual TLS"));
}

TEST_F(SecurityTest, ServerNameOverrideChecksACertificateThatDoesNotNameTheAddress) {
  const int port = StartAgent({"--tls-cert=" + dir_.File("certs/agents/agent-x.crt"),
                               "--tls-key=" + dir_.File("certs/agents/agent-x.key"),
                               "--tls-ca=" + dir_.File("certs/ca.crt")});
  ASSERT_GT(port, 0) << agent_output_;
  Result by_ip = Agents(port, CoordinatorFlags());
  EXPECT_NE(by_ip.code, 0) << "the certificate names agent-x, not 127.0.0.1";
  std::vector<std::string> flags = CoordinatorFlags();
  flags.insert(flags.end(), {"--tls-server-name", "agent-x"});
  Result named = Agents(port, flags);
  EXPECT_EQ(named.code, 0) << named.output;
}

TEST_F(SecurityTest, WrongCaNoClientCertificateAndPlaintextAreRefusedWithAClearMessage) {
  const int port = StartAgent(MutualTlsAgentFlags());
  ASSERT_GT(port, 0) << agent_output_;

  Result wrong_ca = Agents(port, CoordinatorFlags("other"));
  EXPECT_NE(wrong_ca.code, 0);
  EXPECT_THAT(wrong_ca.output, HasSubstr("TLS: check that"));
  EXPECT_THAT(wrong_ca.output, HasSubstr(dir_.File("other/ca.crt")));

  Result no_client_cert = Agents(port, {"--tls-ca", dir_.File("certs/ca.crt")});
  EXPECT_NE(no_client_cert.code, 0);
  EXPECT_THAT(no_client_cert.output, HasSubstr("requires a client certificate"));

  Result plaintext = Agents(port, {});
  EXPECT_NE(plaintext.code, 0);
  EXPECT_THAT(plaintext.output, HasSubstr("if the agent serves TLS, give --tls-ca"));

  // The agent is still there for the right coordinator.
  EXPECT_EQ(Agents(port, CoordinatorFlags()).code, 0);
}

TEST_F(SecurityTest, BearerTokenOverTlsIsCheckedOnEveryCall) {
  const int port = StartAgent({"--tls-cert=" + dir_.File("certs/agents/localhost.crt"),
                               "--tls-key=" + dir_.File("certs/agents/localhost.key"),
                               "--token-file=" + dir_.File("token")});
  ASSERT_GT(port, 0) << agent_output_;
  const std::vector<std::string> tls = {"--tls-ca", dir_.File("certs/ca.crt")};

  std::vector<std::string> right = tls;
  right.insert(right.end(), {"--token-file", dir_.File("token")});
  Result ok = Agents(port, right);
  EXPECT_EQ(ok.code, 0) << ok.output;

  std::vector<std::string> wrong = tls;
  wrong.insert(wrong.end(), {"--token-file", dir_.File("wrong-token")});
  Result refused = Agents(port, wrong);
  EXPECT_NE(refused.code, 0);
  EXPECT_THAT(refused.output, HasSubstr("bearer token refused"));

  Result missing = Agents(port, tls);
  EXPECT_NE(missing.code, 0);
  EXPECT_THAT(missing.output, HasSubstr("requires a bearer token"));
}

TEST_F(SecurityTest, AgentWithoutTransportSecurityOrPlaintextOffLoopbackDoesNotStart) {
  EXPECT_EQ(StartAgent({}), 0);
  EXPECT_THAT(agent_output_, HasSubstr("no transport security configured"));
  EXPECT_EQ(StartAgent({"--insecure-loopback-only"}, "0.0.0.0:0"), 0);
  EXPECT_THAT(agent_output_, HasSubstr("refusing to serve plaintext on '0.0.0.0:0'"));
}

TEST_F(SecurityTest, AgentWithAKeyThatIsNotItsCertificatesDoesNotStart) {
  EXPECT_EQ(StartAgent({"--tls-cert=" + dir_.File("certs/agents/localhost.crt"),
                        "--tls-key=" + dir_.File("certs/agents/agent-x.key"),
                        "--tls-ca=" + dir_.File("certs/ca.crt")}),
            0);
  EXPECT_THAT(agent_output_, HasSubstr("is not the key of tls.cert_file"));
  EXPECT_EQ(StartAgent({"--tls-cert=" + dir_.File("certs/agents/localhost.key"),
                        "--tls-key=" + dir_.File("certs/agents/localhost.key"),
                        "--tls-ca=" + dir_.File("certs/ca.crt")}),
            0);
  EXPECT_THAT(agent_output_, HasSubstr("holds no PEM certificate"));
}

TEST_F(SecurityTest, RequestsAboveMaxMessageSizeAndRunsAboveTheJobLimitAreRefusedWithTheNumbers) {
  std::ofstream(dir_.File("limits.yaml"))
      << "insecure_loopback_only: true\nlimits: {max_message_size: 64k, max_jobs_per_run: 4}\n";
  const int port = StartAgent({"--config=" + dir_.File("limits.yaml")});
  ASSERT_GT(port, 0) << agent_output_;
  std::unique_ptr<AgentClient> client = MakeGrpcAgentClient(absl::StrCat("127.0.0.1:", port));
  auto request = [&](const std::string& description, const std::string& numjobs) {
    v1::PrepareRequest prepare;
    prepare.set_run_id("r-" + numjobs);
    prepare.set_interval_ms(1000);
    v1::JobSpec* job = prepare.add_jobs();
    job->set_name("j");
    for (const auto& [key, value] :
         std::vector<std::pair<std::string, std::string>>{{"directory", dir_.File("root/target")},
                                                          {"size", "64k"},
                                                          {"numjobs", numjobs},
                                                          {"description", description}}) {
      v1::JobOption* option = job->add_options();
      option->set_key(key);
      option->set_value(value);
    }
    return client->Prepare(prepare, absl::Seconds(30));
  };
  absl::StatusOr<v1::PrepareResponse> big = request(std::string(100 << 10, 'x'), "1");
  ASSERT_EQ(big.status().code(), absl::StatusCode::kResourceExhausted) << big.status();
  EXPECT_THAT(std::string(big.status().message()), HasSubstr("65536"));

  absl::StatusOr<v1::PrepareResponse> many = request("", "5");
  ASSERT_EQ(many.status().code(), absl::StatusCode::kResourceExhausted) << many.status();
  EXPECT_THAT(std::string(many.status().message()), HasSubstr("5 job clones"));
  EXPECT_THAT(std::string(many.status().message()), HasSubstr("at most 4"));
  EXPECT_TRUE(request("", "4").ok());
}

TEST_F(SecurityTest, CoordinatorRefusesPlaintextToARemoteAgentBeforeConnecting) {
  Result refused = Azbench({"agents", "--hosts", "192.0.2.1:7480"});  // TEST-NET-1: never dialled
  EXPECT_EQ(refused.code, 1);
  EXPECT_THAT(refused.output, HasSubstr("plaintext is only used for loopback agents"));
}

TEST_F(SecurityTest, CampaignOverMutualTlsRunsInsideTheRootsAndRefusesEscapes) {
  const int port = StartAgent(MutualTlsAgentFlags());
  ASSERT_GT(port, 0) << agent_output_;

  Result ok = Azbench({"run", Campaign(port, dir_.File("root/target"), CampaignTls()), "--quiet"});
  EXPECT_EQ(ok.code, 0) << ok.output;

  Result outside = Azbench({"run", Campaign(port, dir_.File("outside"), CampaignTls()), "--quiet"});
  EXPECT_NE(outside.code, 0) << outside.output;
  EXPECT_THAT(outside.output, HasSubstr("not beneath any allowed root"));
  EXPECT_THAT(outside.output, HasSubstr(dir_.File("outside")));
  EXPECT_THAT(outside.output, HasSubstr(dir_.File("root")));

  fs::create_directory_symlink(dir_.File("outside"), dir_.File("root/escape"));
  Result escape =
      Azbench({"run", Campaign(port, dir_.File("root/escape"), CampaignTls()), "--quiet"});
  EXPECT_NE(escape.code, 0) << escape.output;
  EXPECT_THAT(escape.output, HasSubstr("leaves the allowed root"));
  EXPECT_TRUE(fs::is_empty(dir_.File("outside"))) << "nothing was written outside the roots";
  EXPECT_THAT(agent_->Output(), HasSubstr("sandbox: refused"));
}

}  // namespace
}  // namespace azbench

// The deployment keys of the agent config (allowed roots, free space, TLS, token, per-component
// log levels), `check-config`, and what a SIGHUP reload applies live.
#include "agent/server/agent_settings.h"

#include <sys/stat.h>

#include <fstream>

#include "absl/strings/match.h"
#include "agent/server/check_config.h"
#include "agent/server/reload.h"
#include "agent/server/serve.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using testing::TempDir;

class AgentSettingsTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& body, mode_t mode = 0644) {
    const std::string path = dir_.File(name);
    std::ofstream(path) << body;
    chmod(path.c_str(), mode);
    return path;
  }
  absl::StatusOr<ServeConfig> Load(const std::string& body) {
    return LoadServeConfig(Write("agent.yaml", body));
  }
  std::string ErrorOf(const std::string& body) {
    absl::StatusOr<ServeConfig> config = Load(body);
    EXPECT_FALSE(config.ok()) << body;
    EXPECT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(config.status().message());
  }
  TempDir dir_;
};

TEST_F(AgentSettingsTest, TheReattachGraceComesFromTheConfigOrTheFlagAndNeedsARestart) {
  EXPECT_EQ(ParseServeArgs({}).value().reattach_grace, absl::Seconds(30)) << "the default";
  absl::StatusOr<ServeConfig> config = Load("reattach_grace_ms: 5000\n");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->reattach_grace, absl::Seconds(5));
  config = ParseServeArgs({"--reattach-grace-ms=0"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->reattach_grace, absl::ZeroDuration());
  EXPECT_NE(ErrorOf("reattach_grace_ms: -1\n").find("reattach_grace_ms must be 0..3600000"),
            std::string::npos);
  EXPECT_TRUE(absl::IsInvalidArgument(ParseServeArgs({"--reattach-grace-ms=10s"}).status()));
  ServeConfig loaded = *Load("reattach_grace_ms: 1000\n");
  const ReloadOutcome outcome = MergeReloadedConfig(*Load("log_level: info\n"), loaded);
  EXPECT_EQ(outcome.needs_restart, (std::vector<std::string>{"reattach_grace_ms"}));
}

TEST_F(AgentSettingsTest, AllowedNfsServersTakeAddressesAndCidrBlocksAndApplyLive) {
  absl::StatusOr<ServeConfig> config =
      Load("allowed_nfs_servers: [10.0.12.7, 10.1.0.0/16, 'fd00::/8']\n");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->settings.allowed_nfs_servers,
            (std::vector<std::string>{"10.0.12.7", "10.1.0.0/16", "fd00::/8"}));
  const std::vector<std::string> notes = AgentSettingsNotes(config->settings);
  EXPECT_NE(std::find(notes.begin(), notes.end(),
                      "allowed_nfs_servers: 10.0.12.7, 10.1.0.0/16, fd00::/8 (ioengine=nfs jobs "
                      "naming another server are refused)"),
            notes.end());
  const std::string not_an_address = ErrorOf("allowed_nfs_servers: [fs.example.com]\n");
  EXPECT_NE(not_an_address.find("agent.yaml:1:"), std::string::npos) << not_an_address;
  EXPECT_NE(not_an_address.find("'fs.example.com' is not an address"), std::string::npos)
      << not_an_address;
  EXPECT_NE(ErrorOf("allowed_nfs_servers: [10.0.0.0/33]\n").find("prefix length must be 0..32"),
            std::string::npos);
  EXPECT_NE(ErrorOf("allowed_nfs_servers: []\n").find("non-empty list"), std::string::npos);
  const ReloadOutcome outcome = MergeReloadedConfig(*Load("log_level: info\n"), *config);
  EXPECT_NE(
      std::find(outcome.changed_live.begin(), outcome.changed_live.end(), "allowed_nfs_servers"),
      outcome.changed_live.end());
  EXPECT_TRUE(outcome.needs_restart.empty());
}

TEST_F(AgentSettingsTest, TheListenPortIsRangeCheckedInTheFlagAndTheConfig) {
  for (const std::string bad :
       {"127.0.0.1:99999", "127.0.0.1:70000", "127.0.0.1:65536", "127.0.0.1:-1",
        "127.0.0.1:", "127.0.0.1", "127.0.0.1:80x", "[::1]", "[::1]:123456", "::1:7480"}) {
    SCOPED_TRACE(bad);
    absl::StatusOr<ServeConfig> flag = ParseServeArgs({"--listen", bad});
    ASSERT_FALSE(flag.ok());
    EXPECT_EQ(flag.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StartsWith(flag.status().message(), "--listen: '" + bad + "'"))
        << flag.status().message();
    EXPECT_TRUE(absl::StrContains(flag.status().message(), "0..65535")) << flag.status().message();
    const std::string error = ErrorOf("listen: \"" + bad + "\"\n");
    EXPECT_TRUE(absl::StrContains(error, "agent.yaml:1:1: listen: '" + bad + "'")) << error;
    EXPECT_TRUE(absl::StrContains(error, "0..65535")) << error;
  }
  for (const std::string good : {"127.0.0.1:0", "127.0.0.1:65535", "0.0.0.0:7480", "[::1]:7480",
                                 "[::]:0", "localhost:7480", "unix:/run/azbench.sock"}) {
    SCOPED_TRACE(good);
    absl::StatusOr<ServeConfig> flag = ParseServeArgs({"--listen=" + good});
    ASSERT_TRUE(flag.ok()) << flag.status();
    EXPECT_EQ(flag->listen, good);
    absl::StatusOr<ServeConfig> config = Load("listen: \"" + good + "\"\n");
    ASSERT_TRUE(config.ok()) << config.status();
    EXPECT_EQ(config->listen, good);
  }
}

// ":PORT" names no host: gRPC would get it as is. The error says which address was likely meant.
TEST_F(AgentSettingsTest, AListenAddressWithoutAHostIsRefusedSayingWhatToWrite) {
  for (const std::string bad : {":50051", "[]:50051"}) {
    SCOPED_TRACE(bad);
    absl::StatusOr<ServeConfig> flag = ParseServeArgs({"--listen", bad});
    ASSERT_FALSE(flag.ok());
    EXPECT_EQ(flag.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(flag.status().message(),
              "--listen: '" + bad +
                  "' has no host: write 0.0.0.0:50051 (every interface) or 127.0.0.1:50051 (this "
                  "machine only)");
    const std::string error = ErrorOf("listen: \"" + bad + "\"\n");
    EXPECT_TRUE(absl::StrContains(error, "agent.yaml:1:1: listen: '" + bad + "' has no host"))
        << error;
    EXPECT_TRUE(absl::StrContains(error, "write 0.0.0.0:50051")) << error;
  }
}

// An unknown flag is named as unknown, with the flags serve takes, whether or not a value follows.
TEST_F(AgentSettingsTest, AnUnknownServeFlagIsNamedWithTheAllowedFlags) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--bogus"},
                                               {"--bogus", "--listen", "127.0.0.1:0"},
                                               {"--bogus=1"},
                                               {"--bogus", "x"}}) {
    SCOPED_TRACE(args.front());
    absl::StatusOr<ServeConfig> config = ParseServeArgs(args);
    ASSERT_FALSE(config.ok());
    EXPECT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StartsWith(config.status().message(),
                                 "unknown flag '--bogus' (allowed: --config, --listen, "))
        << config.status().message();
    EXPECT_TRUE(absl::StrContains(config.status().message(),
                                  "--allowed-root, --min-free-space, --allowed-nfs-server)"))
        << config.status().message();
  }
  // A known flag without its value still says so.
  absl::StatusOr<ServeConfig> config = ParseServeArgs({"--listen"});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().message(), "flag '--listen' needs a value");
}

// A single-valued flag given twice is refused naming it and both values, as `run` refuses its own
// (the last one used to win silently: a second --listen moved the agent to another address).
TEST_F(AgentSettingsTest, ASingleValuedServeFlagGivenTwiceIsRefusedNamingIt) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  for (const Case& c : {
           Case{{"--listen", "127.0.0.1:0", "--listen=127.0.0.1:7480"},
                "--listen is given twice ('--listen 127.0.0.1:0' and '--listen=127.0.0.1:7480'): "
                "give it once"},
           Case{{"--agent-id=a1", "--az", "local-a", "--agent-id", "a2"},
                "--agent-id is given twice ('--agent-id=a1' and '--agent-id a2'): give it once"},
           Case{{"--insecure-loopback-only", "--insecure-loopback-only=false"},
                "--insecure-loopback-only is given twice ('--insecure-loopback-only' and "
                "'--insecure-loopback-only=false'): give it once"},
           Case{{"--reattach-grace-ms=0", "--reattach-grace-ms=0"},
                "--reattach-grace-ms is given twice ('--reattach-grace-ms=0' and "
                "'--reattach-grace-ms=0'): give it once"},
       }) {
    SCOPED_TRACE(c.args.front());
    absl::StatusOr<ServeConfig> config = ParseServeArgs(c.args);
    ASSERT_FALSE(config.ok());
    EXPECT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(config.status().message(), c.message);
  }
  // --allowed-root is a list: each one adds a root.
  absl::StatusOr<ServeConfig> config = ParseServeArgs(
      {"--allowed-root", dir_.path(), "--allowed-root=/mnt/azbench", "--listen", "127.0.0.1:0"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->settings.allowed_roots.size(), 2u);
  EXPECT_EQ(config->listen, "127.0.0.1:0");
}

// --allowed-nfs-server is a list too; the first one replaces the config's, and a bad rule is named.
TEST_F(AgentSettingsTest, AllowedNfsServerFlagsReplaceTheConfigsList) {
  const std::string path = Write("agent.yaml", "allowed_nfs_servers: [10.9.9.9]\n");
  absl::StatusOr<ServeConfig> config = ParseServeArgs(
      {"--config", path, "--allowed-nfs-server=10.0.0.5", "--allowed-nfs-server", "fd00::/8"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->settings.allowed_nfs_servers,
            (std::vector<std::string>{"10.0.0.5", "fd00::/8"}));
  config = ParseServeArgs({"--config", path});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->settings.allowed_nfs_servers, (std::vector<std::string>{"10.9.9.9"}));
  config = ParseServeArgs({"--allowed-nfs-server=fs.example"});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StartsWith(config.status().message(), "--allowed-nfs-server: "))
      << config.status().message();
}

TEST_F(AgentSettingsTest, ReadsEveryDeploymentKey) {
  const std::string cert = Write("agent.crt", "c");
  const std::string key = Write("agent.key", "k", 0600);
  absl::StatusOr<ServeConfig> config = Load(
      "allowed_roots: [/mnt/azbench/efs/, /mnt/azbench/fsx]\n"
      "min_free_space: 2g\n"
      "tls: {cert_file: " +
      cert + ", key_file: " + key +
      "}\n"
      "token_file: /etc/azbench/token\n"
      "log_levels: {grpc: error, rpc: debug}\n");
  ASSERT_TRUE(config.ok()) << config.status();
  const AgentSettings& s = config->settings;
  EXPECT_EQ(s.allowed_roots, (std::vector<std::string>{"/mnt/azbench/efs", "/mnt/azbench/fsx"}));
  EXPECT_EQ(s.min_free_space_bytes, 2ull << 30);
  EXPECT_EQ(s.tls.cert_file, cert);
  EXPECT_EQ(s.tls.key_file, key);
  EXPECT_EQ(s.token_file, "/etc/azbench/token");
  EXPECT_EQ(s.log_levels.at("grpc"), "error");
  EXPECT_EQ(s.log_levels.at("rpc"), "debug");
}

TEST_F(AgentSettingsTest, ErrorsNameFileLineColumnKeyAndWhatIsAllowed) {
  std::string e = ErrorOf("listen: 0.0.0.0:7480\nallowed_roots:\n  - /ok\n  - data/rel\n");
  EXPECT_TRUE(absl::StrContains(e, "agent.yaml:4:5: allowed_roots: 'data/rel' is not an absolute"))
      << e;
  e = ErrorOf("allowed_roots: [/mnt/../etc]\n");
  EXPECT_TRUE(absl::StrContains(e, "contains '.' or '..'")) << e;
  e = ErrorOf("allowed_roots: [/]\n");
  EXPECT_TRUE(absl::StrContains(e, "'/' is not allowed")) << e;
  e = ErrorOf("allowed_roots: /mnt\n");
  EXPECT_TRUE(absl::StrContains(e, ":1:1: allowed_roots: must be a non-empty list")) << e;
  e = ErrorOf("min_free_space: lots\n");
  EXPECT_TRUE(absl::StrContains(e, ":1:1: min_free_space:")) << e;
  e = ErrorOf("tls: {cert_file: /a.crt}\n");
  EXPECT_TRUE(absl::StrContains(e, "tls: cert_file and key_file go together")) << e;
  e = ErrorOf("tls:\n  cert: /a.crt\n");
  EXPECT_TRUE(absl::StrContains(e,
                                ":2:3: tls.cert: unknown key (allowed: cert_file, key_file, "
                                "ca_file)"))
      << e;
  e = ErrorOf("log_levels: {disk: debug}\n");
  EXPECT_TRUE(
      absl::StrContains(e, "log_levels.disk: unknown component (allowed: agent, rpc, grpc)"))
      << e;
  e = ErrorOf("log_levels: {grpc: chatty}\n");
  EXPECT_TRUE(absl::StrContains(e, "log level 'chatty' is not one of trace, debug, info")) << e;
  e = ErrorOf("\nlog_level: verbose\n");
  EXPECT_TRUE(absl::StrContains(e, "agent.yaml:2:1: log_level: log level 'verbose'")) << e;
  e = ErrorOf("allowed_root: [/mnt]\n");
  EXPECT_TRUE(absl::StrContains(e, "unknown key 'allowed_root' (allowed: ")) << e;
  EXPECT_TRUE(absl::StrContains(
      e,
      "allowed_roots, allowed_nfs_servers, min_free_space, limits, tls, token_file, "
      "insecure_loopback_only, log_levels"))
      << e;
}

TEST_F(AgentSettingsTest, AConfigThatIsNoFileIsRefusedNotWaitedOn) {
  absl::StatusOr<ServeConfig> config = LoadServeConfig(dir_.File("missing.yaml"));
  ASSERT_EQ(config.status().code(), absl::StatusCode::kNotFound) << config.status();
  EXPECT_TRUE(absl::StrContains(config.status().message(), "cannot open config '"))
      << config.status();
  // A FIFO with no writer would block a plain open() for ever; a directory is no config either.
  const std::string fifo = dir_.File("agent.fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {fifo, dir_.path()}) {
    config = LoadServeConfig(path);
    ASSERT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument) << config.status();
    EXPECT_TRUE(absl::StrContains(config.status().message(), "is not a regular file"))
        << config.status();
  }
  // A YAML error still names the file, line and column.
  config = Load("listen: [unclosed\n");
  ASSERT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(config.status().message(), "agent.yaml:")) << config.status();
}

TEST_F(AgentSettingsTest, NotesSayWhatIsEnforced) {
  absl::StatusOr<ServeConfig> config =
      Load("allowed_roots: [/mnt/azbench]\nmin_free_space: 1g\ntoken_file: /t\n");
  ASSERT_TRUE(config.ok()) << config.status();
  std::string all;
  for (const std::string& note : AgentSettingsNotes(config->settings)) all += note + "\n";
  EXPECT_FALSE(absl::StrContains(all, "NOT ENFORCED")) << all;
  EXPECT_TRUE(absl::StrContains(all, "allowed_roots: /mnt/azbench (jobs outside them")) << all;
  EXPECT_TRUE(absl::StrContains(all, "min_free_space: 1GiB (a job whose layout")) << all;
  EXPECT_TRUE(absl::StrContains(all, "token_file: /t (every request needs")) << all;
}

TEST_F(AgentSettingsTest, ReadsLimitsAndTheLoopbackSwitch) {
  absl::StatusOr<ServeConfig> config = Load(
      "limits: {max_jobs_per_run: 8, max_files_per_job: 100, max_job_size: 2g, "
      "max_message_size: 1m}\ninsecure_loopback_only: true\n");
  ASSERT_TRUE(config.ok()) << config.status();
  const JobLimits& l = config->settings.limits;
  EXPECT_EQ(l.max_jobs_per_run, 8u);
  EXPECT_EQ(l.max_files_per_job, 100u);
  EXPECT_EQ(l.max_job_size_bytes, 2ULL << 30);
  EXPECT_EQ(l.max_message_size_bytes, 1u << 20);
  EXPECT_TRUE(config->settings.insecure_loopback_only);
  std::string e = ErrorOf("limits: {max_threads: 4}\n");
  EXPECT_TRUE(absl::StrContains(e, ":1:10: limits.max_threads: unknown key (allowed: ")) << e;
  e = ErrorOf("limits: {max_message_size: 1k}\n");
  EXPECT_TRUE(absl::StrContains(e, "limits.max_message_size: must be 64k..1g")) << e;
  e = ErrorOf("insecure_loopback_only: maybe\n");
  EXPECT_TRUE(absl::StrContains(e, "insecure_loopback_only: must be true or false")) << e;
}

TEST_F(AgentSettingsTest, FileChecksFindUnreadableSecretsAndLooseModes) {
  const std::string key = Write("agent.key", "k", 0644);
  AgentSettings settings;
  settings.tls = {Write("agent.crt", "c"), key, dir_.File("missing-ca.crt")};
  settings.allowed_roots = {dir_.path(), dir_.File("not-there")};
  SettingsFindings findings = CheckAgentSettingsFiles(settings);
  ASSERT_EQ(findings.errors.size(), 1u);
  EXPECT_TRUE(absl::StrContains(findings.errors[0], "tls.ca_file")) << findings.errors[0];
  ASSERT_EQ(findings.warnings.size(), 2u);
  EXPECT_TRUE(absl::StrContains(findings.warnings[0], "not-there")) << findings.warnings[0];
  EXPECT_TRUE(absl::StrContains(findings.warnings[1], "chmod 600")) << findings.warnings[1];
}

TEST_F(AgentSettingsTest, CheckConfigExitCodes) {
  EXPECT_EQ(RunCheckConfigCommand({Write("good.yaml", "allowed_roots: [" + dir_.path() +
                                                          "]\nlisten: 127.0.0.1:7480\n"
                                                          "insecure_loopback_only: true\n")}),
            0);
  // serve would refuse these: no transport at all; plaintext on every interface.
  EXPECT_EQ(RunCheckConfigCommand({Write("none.yaml", "allowed_roots: [" + dir_.path() + "]\n")}),
            1);
  EXPECT_EQ(RunCheckConfigCommand(
                {Write("open.yaml", "listen: 0.0.0.0:7480\ninsecure_loopback_only: true\n")}),
            1);
  EXPECT_EQ(RunCheckConfigCommand({Write("bad.yaml", "max_concurrent_runs: 0\n")}), 1);
  EXPECT_EQ(RunCheckConfigCommand({Write("tls.yaml",
                                         "tls: {cert_file: /no.crt, key_file: "
                                         "/no.key}\n")}),
            1);
  EXPECT_EQ(RunCheckConfigCommand({dir_.File("absent.yaml")}), 1);
  EXPECT_EQ(RunCheckConfigCommand({"--bogus"}), 2);
}

TEST_F(AgentSettingsTest, ReloadAppliesLiveKeysAndNamesTheOnesNeedingARestart) {
  ServeConfig current;
  current.settings.allowed_roots = {"/mnt/a"};
  ServeConfig loaded = current;
  loaded.log_level = "debug";
  loaded.max_concurrent_runs = 9;
  loaded.settings.allowed_roots = {"/mnt/a", "/mnt/b"};
  loaded.listen = "0.0.0.0:9999";
  loaded.identity.availability_zone = "use1-az1";
  loaded.settings.token_file = "/etc/azbench/token";
  loaded.settings.limits.max_files_per_job = 10;
  loaded.settings.limits.max_message_size_bytes = 1 << 20;
  const ReloadOutcome outcome = MergeReloadedConfig(current, loaded);
  EXPECT_EQ(outcome.changed_live, (std::vector<std::string>{"log_level", "max_concurrent_runs",
                                                            "allowed_roots", "limits"}));
  EXPECT_EQ(outcome.needs_restart,
            (std::vector<std::string>{"listen", "availability_zone", "token_file",
                                      "limits.max_message_size"}));
  EXPECT_EQ(outcome.config.settings.limits.max_files_per_job, 10u);
  EXPECT_EQ(outcome.config.settings.limits.max_message_size_bytes,
            current.settings.limits.max_message_size_bytes);
  EXPECT_EQ(outcome.config.log_level, "debug");
  EXPECT_EQ(outcome.config.max_concurrent_runs, 9);
  EXPECT_EQ(outcome.config.listen, current.listen);  // kept until a restart
  EXPECT_TRUE(outcome.config.settings.token_file.empty());
}

}  // namespace
}  // namespace azbench

#include "agent/server/serve.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/host/imds_client.h"
#include "agent/host/imds_metadata_source.h"
#include "agent/host/logging.h"
#include "agent/server/lifecycle.h"
#include "agent/server/reload.h"
#include "agent/server/transport_security.h"
#include "common/file_util.h"
#include "common/flags.h"
#include "common/status_macros.h"
#include "common/units.h"
#include "grpcpp/grpcpp.h"
#include "spdlog/spdlog.h"
#include "yaml-cpp/yaml.h"

namespace azbench {

namespace {

std::string Hostname() {
  char buf[256] = {};
  gethostname(buf, sizeof(buf) - 1);
  return buf;
}

absl::Status WritePortFile(const std::string& path, int port) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << port << "\n";
    if (!out) return absl::InternalError(absl::StrCat("cannot write port file '", tmp, "'"));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return absl::InternalError(absl::StrCat("cannot rename '", tmp, "' to '", path, "'"));
  }
  return absl::OkStatus();
}

// The configured identity completed from instance metadata (about a second when not on EC2).
AgentIdentity DiscoverServeIdentity(const ServeConfig& config, const ImdsSettings& imds_settings) {
  absl::StatusOr<std::unique_ptr<MetadataClient>> imds = MakeImdsClient(imds_settings);
  if (!imds.ok()) spdlog::warn("{}", std::string(imds.status().message()));
  IdentityDiscovery found = DiscoverIdentity(imds.ok() ? imds->get() : nullptr, config.identity);
  for (const std::string& note : found.notes) spdlog::info("{}", note);
  return found.identity;
}

// Which repeatable list flags have been seen: the first of each replaces the config's list.
struct ListsFromFlags {
  bool allowed_roots = false;
  bool allowed_nfs_servers = false;
};

// The transport and confinement flags; NotFound for any other flag.
absl::Status ApplySecurityFlag(const std::string& flag, const std::string& value,
                               AgentSettings& settings, ListsFromFlags& lists) {
  auto absolute = [&](std::string& target) -> absl::Status {
    if (value.empty() || value.front() != '/') {
      return absl::InvalidArgumentError(
          absl::StrCat(flag, " '", value, "': give an absolute path"));
    }
    target = value;
    return absl::OkStatus();
  };
  if (flag == "--tls-cert") return absolute(settings.tls.cert_file);
  if (flag == "--tls-key") return absolute(settings.tls.key_file);
  if (flag == "--tls-ca") return absolute(settings.tls.ca_file);
  if (flag == "--token-file") return absolute(settings.token_file);
  if (flag == "--insecure-loopback-only") {
    absl::StatusOr<bool> on = ParseBool(value);
    if (!on.ok()) return absl::InvalidArgumentError("--insecure-loopback-only takes true or false");
    settings.insecure_loopback_only = *on;
    return absl::OkStatus();
  }
  if (flag == "--allowed-root") {
    std::string root;
    RETURN_IF_ERROR(absolute(root));
    if (!lists.allowed_roots) settings.allowed_roots.clear();
    lists.allowed_roots = true;
    settings.allowed_roots.push_back(root);
    return absl::OkStatus();
  }
  if (flag == "--allowed-nfs-server") {
    if (absl::Status s = ParseNfsServerRule(value); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--allowed-nfs-server: ", s.message()));
    }
    if (!lists.allowed_nfs_servers) settings.allowed_nfs_servers.clear();
    lists.allowed_nfs_servers = true;
    settings.allowed_nfs_servers.push_back(value);
    return absl::OkStatus();
  }
  if (flag == "--min-free-space") {
    absl::StatusOr<uint64_t> bytes = ParseSize(value);
    if (!bytes.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--min-free-space: ", bytes.status().message()));
    }
    settings.min_free_space_bytes = *bytes;
    return absl::OkStatus();
  }
  return absl::NotFoundError(flag);
}

JobPolicy PolicyOf(const AgentSettings& settings) {
  return JobPolicy{settings.allowed_roots, settings.min_free_space_bytes, settings.limits,
                   settings.allowed_nfs_servers};
}

// reattach_grace_ms: 0 .. 1 hour (a run held longer for a coordinator that may never come back
// would only hold its files), in milliseconds as the config file and the flag write it.
absl::StatusOr<absl::Duration> ParseReattachGraceMs(const std::string& value) {
  char* end = nullptr;
  const unsigned long long ms = std::strtoull(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || value[0] == '-' || ms > 3'600'000) {
    return absl::InvalidArgumentError(
        absl::StrCat("reattach_grace_ms must be 0..3600000 (milliseconds), got '", value, "'"));
  }
  return absl::Milliseconds(static_cast<int64_t>(ms));
}

// Every flag serve takes, in the order an unknown flag's error lists them.
const std::vector<FlagSpec>& ServeFlags() {
  static const auto* flags = new std::vector<FlagSpec>{
      {.name = "--config", .help = "YAML config file; the other flags override it"},
      {.name = "--listen", .help = "HOST:PORT, [IPV6]:PORT or unix:PATH"},
      {.name = "--port-file", .help = "where to write the bound port once listening"},
      {.name = "--agent-id", .help = "the agent's name (default: the host name)"},
      {.name = "--az", .help = "availability zone (default: instance metadata)"},
      {.name = "--az-id", .help = "availability zone id"},
      {.name = "--region", .help = "region"},
      {.name = "--log-level", .help = "trace, debug, info, warn, error"},
      {.name = "--reattach-grace-ms", .help = "how long a run waits for its coordinator"},
      {.name = "--imds-endpoint", .help = "instance metadata endpoint"},
      {.name = "--imds", .help = "enabled or disabled"},
      {.name = "--mountinfo", .help = "the mount table Describe reads"},
      {.name = "--tls-cert", .help = "the agent's certificate (absolute path)"},
      {.name = "--tls-key", .help = "its key (absolute path)"},
      {.name = "--tls-ca", .help = "CA of the coordinators' certificates (absolute path)"},
      {.name = "--token-file", .help = "bearer token file (absolute path)"},
      {.name = "--insecure-loopback-only",
       .is_switch = true,
       .help = "plaintext, on a loopback address only"},
      {.name = "--allowed-root",
       .repeatable = true,
       .help = "a directory jobs may use; the first replaces the config's list"},
      {.name = "--min-free-space", .help = "free space a job must leave (bytes, 10g, 5%)"},
      {.name = "--allowed-nfs-server",
       .repeatable = true,
       .help = "an NFS server address or CIDR block jobs may use; the first replaces the config's "
               "list"},
  };
  return *flags;
}

}  // namespace

absl::Status CheckListenAddress(const std::string& address) {
  // gRPC's Unix socket spellings have no port.
  if (absl::StartsWith(address, "unix:") || absl::StartsWith(address, "unix-abstract:")) {
    return absl::OkStatus();
  }
  size_t colon = std::string::npos;
  if (!address.empty() && address.front() == '[') {
    const size_t close = address.find(']');
    if (close != std::string::npos && close + 1 < address.size() && address[close + 1] == ':') {
      colon = close + 1;
    }
  } else if (address.find(':') == address.rfind(':')) {
    colon = address.find(':');  // one colon: HOST:PORT (more: an IPv6 address without brackets)
  }
  const std::string port = colon == std::string::npos ? "" : address.substr(colon + 1);
  const bool digits = !port.empty() && port.size() <= 5 &&
                      port.find_first_not_of("0123456789") == std::string::npos;
  if (colon == std::string::npos || !digits || std::stoul(port) > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", address,
                     "' is not HOST:PORT or [IPV6]:PORT with a port 0..65535 (0 = any free port)"));
  }
  // ":PORT" (or "[]:PORT") would reach gRPC with no host; say which host was meant.
  if (colon == 0 || (colon == 2 && address.front() == '[')) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", address, "' has no host: write 0.0.0.0:", port,
                     " (every interface) or 127.0.0.1:", port, " (this machine only)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<ServeConfig> LoadServeConfig(const std::string& path) {
  ServeConfig config;
  // Through the common reader: a FIFO or device named as the config is refused, not waited on.
  ASSIGN_OR_RETURN(const std::string text, ReadWholeFile(path, "config"));
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", e.mark.line + 1, ":", e.mark.column + 1, ": ", e.msg));
  }
  if (!root.IsMap()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": expected a mapping of settings"));
  }
  static const std::set<std::string> kKeys = {"listen",
                                              "agent_id",
                                              "region",
                                              "availability_zone",
                                              "availability_zone_id",
                                              "instance_type",
                                              "log_level",
                                              "max_concurrent_runs",
                                              "reattach_grace_ms",
                                              "imds_endpoint",
                                              "imds",
                                              "mountinfo_path"};
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>();
    const YAML::Mark mark = kv.first.Mark();
    if (IsAgentSettingsKey(key)) {
      RETURN_IF_ERROR(ApplyAgentSettingsKey(path, key, mark, kv.second, config.settings));
      continue;
    }
    if (kKeys.count(key) == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ":", mark.line + 1, ":", mark.column + 1, ": unknown key '", key,
          "' (allowed: listen, agent_id, region, availability_zone, availability_zone_id, "
          "instance_type, log_level, max_concurrent_runs, reattach_grace_ms, imds_endpoint, imds, "
          "mountinfo_path, ",
          absl::StrJoin(AgentSettingsKeys(), ", "), ")"));
    }
    if (!kv.second.IsScalar()) {
      return absl::InvalidArgumentError(absl::StrCat(path, ":", mark.line + 1, ":", mark.column + 1,
                                                     ": '", key, "' must be a single value"));
    }
    const std::string value = kv.second.as<std::string>();
    if (key == "listen") {
      if (absl::Status s = CheckListenAddress(value); !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(path, ":", mark.line + 1, ":",
                                                       mark.column + 1, ": listen: ", s.message()));
      }
      config.listen = value;
    }
    if (key == "agent_id") config.identity.agent_id = value;
    if (key == "region") config.identity.region = value;
    if (key == "availability_zone") {
      config.identity.availability_zone = value;
      config.identity.az_source = "config";
    }
    if (key == "availability_zone_id") config.identity.availability_zone_id = value;
    if (key == "instance_type") config.identity.instance_type = value;
    if (key == "log_level") {
      if (absl::Status s = ValidateLogLevel(value); !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ":", mark.line + 1, ":", mark.column + 1, ": log_level: ", s.message()));
      }
      config.log_level = value;
    }
    if (key == "imds_endpoint") config.imds_endpoint = value;
    if (key == "mountinfo_path") config.mountinfo_path = value;
    if (key == "imds") {
      if (value != "enabled" && value != "disabled") {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ":", mark.line + 1, ": imds must be enabled or disabled, got '", value, "'"));
      }
      config.imds_disabled = value == "disabled";
    }
    if (key == "max_concurrent_runs") {
      char* end = nullptr;
      const long n = std::strtol(value.c_str(), &end, 10);
      if (*end != '\0' || n < 1 || n > 64) {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ":", mark.line + 1, ": max_concurrent_runs must be 1..64, got '", value, "'"));
      }
      config.max_concurrent_runs = static_cast<int>(n);
    }
    if (key == "reattach_grace_ms") {
      absl::StatusOr<absl::Duration> grace = ParseReattachGraceMs(value);
      if (!grace.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(path, ":", mark.line + 1, ": ", grace.status().message()));
      }
      config.reattach_grace = *grace;
    }
  }
  return config;
}

absl::StatusOr<ServeConfig> ParseServeArgs(const std::vector<std::string>& args) {
  ServeConfig config;
  // Every flag but --allowed-root and --allowed-nfs-server takes one value: a second one is an
  // error, not a silent choice of the last (as `run` treats its own flags).
  ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags(ServeFlags(), args,
                                                 FlagSyntax{.value_may_start_with_dashes = false,
                                                            .single_dash_flags = false}));
  if (!flags.positional.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unexpected '", flags.positional.front(),
                     "': serve takes flags only (a config file is --config FILE)"));
  }
  // The config first, so flags override it wherever they appear.
  if (const std::string* path = flags.Get("--config")) {
    ASSIGN_OR_RETURN(config, LoadServeConfig(*path));
  }
  ListsFromFlags lists_from_flags;
  for (const FlagValue& f : flags.flags) {
    const std::string& flag = f.name;
    const std::string& value = f.value;
    if (flag == "--config") continue;
    if (flag == "--listen") {
      if (absl::Status s = CheckListenAddress(value); !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("--listen: ", s.message()));
      }
      config.listen = value;
    } else if (flag == "--port-file") {
      config.port_file = value;
    } else if (flag == "--agent-id") {
      config.identity.agent_id = value;
    } else if (flag == "--az") {
      config.identity.availability_zone = value;
      config.identity.az_source = "config";
    } else if (flag == "--az-id") {
      config.identity.availability_zone_id = value;
    } else if (flag == "--region") {
      config.identity.region = value;
    } else if (flag == "--log-level") {
      RETURN_IF_ERROR(ValidateLogLevel(value));
      config.log_level = value;
    } else if (flag == "--reattach-grace-ms") {
      ASSIGN_OR_RETURN(config.reattach_grace, ParseReattachGraceMs(value));
    } else if (flag == "--imds-endpoint") {
      config.imds_endpoint = value;
    } else if (flag == "--mountinfo") {
      config.mountinfo_path = value;
    } else if (flag == "--imds") {
      if (value != "enabled" && value != "disabled") {
        return absl::InvalidArgumentError(
            absl::StrCat("--imds must be enabled or disabled, got '", value, "'"));
      }
      config.imds_disabled = value == "disabled";
    } else if (absl::Status s = ApplySecurityFlag(flag, value, config.settings, lists_from_flags);
               s.code() != absl::StatusCode::kNotFound) {
      RETURN_IF_ERROR(s);
    } else {
      // Not reached: ParseFlags refused any flag not in the table.
      return absl::InternalError(absl::StrCat("serve flag ", flag, " has no handler"));
    }
  }
  if (config.identity.hostname.empty()) config.identity.hostname = Hostname();
  if (config.identity.agent_id.empty()) config.identity.agent_id = config.identity.hostname;
  // The id names the agent's subdirectory on shared targets: keep it a plain file name.
  const std::string& id = config.identity.agent_id;
  if (id == "." || id == ".." ||
      id.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") !=
          std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("agent id '", id, "' must be made of [A-Za-z0-9._-] (and not . or ..)"));
  }
  return config;
}

namespace {

// SIGHUP: read the config again and apply what can change live (agent/server/reload.h). A config
// that no longer parses is refused whole; the agent keeps running with the old one.
void ReloadServeConfig(const std::vector<std::string>& args, ServeConfig& config, Runner& runner) {
  absl::StatusOr<ServeConfig> loaded = ParseServeArgs(args);
  if (!loaded.ok()) {
    spdlog::error("reload refused, keeping the running config: {}",
                  std::string(loaded.status().message()));
    return;
  }
  ReloadOutcome outcome = MergeReloadedConfig(config, *loaded);
  config = outcome.config;
  ConfigureAgentLogging({config.log_level, config.settings.log_levels, config.identity.agent_id});
  runner.SetMaxConcurrentRuns(static_cast<uint64_t>(config.max_concurrent_runs));
  runner.SetJobPolicy(PolicyOf(config.settings));
  spdlog::info("reloaded: applied [{}]; needs a restart: [{}]",
               absl::StrJoin(outcome.changed_live, ", "),
               absl::StrJoin(outcome.needs_restart, ", "));
  for (const std::string& note : AgentSettingsNotes(config.settings)) spdlog::info("{}", note);
}

}  // namespace

int RunServeCommand(const std::vector<std::string>& args) {
  absl::StatusOr<ServeConfig> config = ParseServeArgs(args);
  if (!config.ok()) {
    std::cerr << "azbench-agent serve: " << config.status().message() << "\n";
    return 2;
  }
  // The instance metadata settings, with the AWS SDKs' environment variables: a malformed one
  // stops the agent here rather than silently falling back to the defaults.
  absl::StatusOr<ImdsSettings> imds_settings =
      LoadImdsSettings(config->imds_endpoint, config->imds_disabled);
  if (!imds_settings.ok()) {
    std::cerr << "azbench-agent serve: " << imds_settings.status().message() << "\n";
    return 2;
  }
  ConfigureAgentLogging(
      {config->log_level, config->settings.log_levels, config->identity.agent_id});
  for (const std::string& note : AgentSettingsNotes(config->settings)) spdlog::info("{}", note);

  // Block the stop and reload signals in every thread; this thread waits for them.
  StopAndReloadSignals signals;

  // Transport security first: an agent without it does not start
  // (agent/server/transport_security.h).
  absl::StatusOr<ServerSecurity> security = MakeServerSecurity(config->settings, config->listen);
  if (security.ok()) {
    if (absl::Status files = CheckTlsFiles(config->settings.tls); !files.ok()) security = files;
  }
  if (!security.ok()) {
    spdlog::error("{}", std::string(security.status().message()));
    std::cerr << "azbench-agent serve: " << security.status().message() << "\n";
    return 2;
  }

  RunnerConfig runner_config;
  runner_config.max_concurrent_runs = static_cast<uint64_t>(config->max_concurrent_runs);
  runner_config.agent_subdir = config->identity.agent_id;
  runner_config.enforce_policy = true;
  runner_config.policy = PolicyOf(config->settings);
  // Instance-role credentials for the visibility probes' S3 client (asked only when a probe needs
  // S3 and no other credentials are configured).
  absl::StatusOr<std::unique_ptr<MetadataClient>> probe_imds = MakeImdsClient(*imds_settings);
  ImdsMetadataSource probe_metadata(probe_imds.ok() ? probe_imds->get() : nullptr);
  runner_config.metadata = &probe_metadata;
  Runner runner(runner_config);
  RunJournalConfig journal_config;
  journal_config.grace = config->reattach_grace;
  AgentService service(runner, DiscoverServeIdentity(*config, *imds_settings),
                       config->mountinfo_path, std::make_shared<SystemResolver>(), journal_config);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(config->listen, security->credentials, &port);
  builder.RegisterService(&service);
  // Requests are small (job options); a larger one is refused by gRPC with RESOURCE_EXHAUSTED
  // naming both sizes. Events going out (histograms, op logs) may be large.
  builder.SetMaxReceiveMessageSize(
      static_cast<int>(config->settings.limits.max_message_size_bytes));
  builder.SetMaxSendMessageSize(64 << 20);
  // Keepalive both ways: the coordinator pings every 5 s; the agent pings too, so a coordinator
  // that vanished without closing its socket breaks the lease within ~10 s.
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS, 5000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 5000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 1000);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, 0);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    spdlog::error("cannot listen on {}", config->listen);
    std::cerr << "azbench-agent serve: cannot listen on '" << config->listen << "'\n";
    return 1;
  }
  spdlog::info("listening on {} (port {}), {}", config->listen, port, security->description);
  if (!config->port_file.empty()) {
    if (absl::Status s = WritePortFile(config->port_file, port); !s.ok()) {
      spdlog::error("{}", std::string(s.message()));
      server->Shutdown();
      return 1;
    }
  }
  const std::string status_line =
      absl::StrCat("STATUS=listening on ", config->listen, " (port ", port, ")");
  NotifySystemd("READY=1\n" + status_line);
  int signal_number = 0;
  while ((signal_number = signals.Wait()) == SIGHUP) {
    NotifySystemd("RELOADING=1\nSTATUS=reloading the config");
    ReloadServeConfig(args, *config, runner);
    NotifySystemd("READY=1\n" + status_line);
  }
  NotifySystemd("STOPPING=1\nSTATUS=stopping: cancelling runs and removing their files");
  spdlog::info("signal {}: cancelling runs and stopping", signal_number);
  runner.CancelAll();
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(10));
  server->Wait();
  return 0;
}

}  // namespace azbench

#include "agent/host/logging.h"

#include <grpc/support/log.h>

#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "spdlog/pattern_formatter.h"
#include "spdlog/sinks/stdout_color_sinks.h"

namespace azbench {

namespace {

// "<N>" in front of a line tells journald its syslog priority (sd-daemon(3)).
class SyslogPriorityFlag : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    // trace, debug, info, warn, err, critical, off -> debug(7), debug, info(6), warning(4), err(3),
    // crit(2), info.
    static constexpr char kPriority[] = {'7', '7', '6', '4', '3', '2', '6'};
    dest.push_back('<');
    dest.push_back(kPriority[static_cast<int>(msg.level)]);
    dest.push_back('>');
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<SyslogPriorityFlag>();
  }
};

// The loggers live until the process ends (never destroyed), so gRPC threads that log during
// shutdown never see a destroyed logger.
struct LoggerSet {
  absl::Mutex mu;
  std::map<std::string, std::shared_ptr<spdlog::logger>> loggers ABSL_GUARDED_BY(mu);
};
LoggerSet& Loggers() {
  static LoggerSet* set = new LoggerSet;
  return *set;
}

spdlog::level::level_enum LevelOf(const std::string& name) {
  const auto& names = LogLevelNames();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<spdlog::level::level_enum>(i);
  }
  return spdlog::level::info;
}

void GrpcLogToSpdlog(gpr_log_func_args* args) {
  std::shared_ptr<spdlog::logger> logger = AgentLogger("grpc");
  spdlog::level::level_enum level = spdlog::level::info;
  if (args->severity == GPR_LOG_SEVERITY_DEBUG) level = spdlog::level::debug;
  if (args->severity == GPR_LOG_SEVERITY_ERROR) level = spdlog::level::err;
  logger->log(level, "{}:{} {}", args->file, args->line, args->message);
}

std::unique_ptr<spdlog::formatter> MakeFormatter(const std::string& tag) {
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  const std::string who = tag.empty() ? "[%n]" : "[" + tag + " %n]";
  if (std::getenv("JOURNAL_STREAM") != nullptr) {
    formatter->add_flag<SyslogPriorityFlag>('*').set_pattern("%*%l " + who + " %v");
  } else {
    formatter->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ " + who + " %v");
  }
  return formatter;
}

}  // namespace

const std::vector<std::string>& LogLevelNames() {
  // Index = spdlog::level::level_enum.
  static const std::vector<std::string> kNames = {"trace", "debug",    "info", "warn",
                                                  "error", "critical", "off"};
  return kNames;
}

const std::vector<std::string>& LogComponentNames() {
  static const std::vector<std::string> kNames = {"agent", "rpc", "grpc"};
  return kNames;
}

absl::Status ValidateLogLevel(const std::string& level) {
  for (const std::string& name : LogLevelNames()) {
    if (name == level) return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("log level '", level, "' is not one of ", absl::StrJoin(LogLevelNames(), ", ")));
}

void ConfigureAgentLogging(const LogSettings& settings) {
  LoggerSet& set = Loggers();
  bool first = false;
  {
    absl::MutexLock lock(&set.mu);
    first = set.loggers.empty();
    static auto* sink = new std::shared_ptr<spdlog::sinks::sink>(
        std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    for (const std::string& component : LogComponentNames()) {
      auto& logger = set.loggers[component];
      if (logger == nullptr) {
        logger = std::make_shared<spdlog::logger>(component, *sink);
        if (spdlog::get(component) == nullptr) spdlog::register_logger(logger);
      }
      auto it = settings.component_levels.find(component);
      spdlog::level::level_enum level = LevelOf(settings.level);
      // gRPC's own info messages (epoll fd, poller counts) are noise at info: unless asked for,
      // the grpc component shows warnings and errors only, or more when the agent is at debug.
      if (component == "grpc" && level == spdlog::level::info) level = spdlog::level::warn;
      if (it != settings.component_levels.end()) level = LevelOf(it->second);
      logger->set_level(level);
      logger->set_formatter(MakeFormatter(settings.tag));
      logger->flush_on(spdlog::level::info);
    }
    spdlog::set_default_logger(set.loggers["agent"]);
  }
  // gRPC filters by its own verbosity before calling the function: open it as far as the grpc
  // component wants.
  const spdlog::level::level_enum grpc_level = AgentLogger("grpc")->level();
  gpr_set_log_verbosity(grpc_level <= spdlog::level::debug  ? GPR_LOG_SEVERITY_DEBUG
                        : grpc_level <= spdlog::level::info ? GPR_LOG_SEVERITY_INFO
                                                            : GPR_LOG_SEVERITY_ERROR);
  if (first) gpr_set_log_function(GrpcLogToSpdlog);
}

std::shared_ptr<spdlog::logger> AgentLogger(const std::string& component) {
  LoggerSet& set = Loggers();
  absl::MutexLock lock(&set.mu);
  auto it = set.loggers.find(component);
  if (it != set.loggers.end()) return it->second;
  return spdlog::default_logger();
}

}  // namespace azbench

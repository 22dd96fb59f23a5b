#include "agent/engines/file_op_engine.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "absl/strings/str_cat.h"
#include "agent/engines/engine_util.h"
#include "agent/engines/op_clock.h"

namespace azbench {
namespace {

constexpr std::pair<std::string_view, FileOpEngine::Op> kOps[] = {
    {"filecreate", FileOpEngine::Op::kFileCreate}, {"filestat", FileOpEngine::Op::kFileStat},
    {"filedelete", FileOpEngine::Op::kFileDelete}, {"dircreate", FileOpEngine::Op::kDirCreate},
    {"dirstat", FileOpEngine::Op::kDirStat},       {"dirdelete", FileOpEngine::Op::kDirDelete},
};

int64_t Result(int ret) { return ret < 0 ? -static_cast<int64_t>(errno) : 0; }

int64_t Stat(const std::string& path, StatType type) {
  struct stat st;
  switch (type) {
    case StatType::kStat:
      return Result(stat(path.c_str(), &st));
    case StatType::kLstat:
      return Result(lstat(path.c_str(), &st));
    case StatType::kStatx: {
      struct statx stx;
      return Result(statx(AT_FDCWD, path.c_str(), 0, STATX_ALL, &stx));
    }
  }
  return -EINVAL;
}

}  // namespace

std::string_view FileOpEngine::name() const {
  for (const auto& [name, op] : kOps) {
    if (op == op_) return name;
  }
  return "fileop";
}

EngineCapabilities FileOpEngine::capabilities() const {
  return EngineCapabilities{.is_async = false,
                            .does_io = false,
                            .supports_direct = false,
                            .needs_aligned_buffers = false,
                            .max_iodepth = 1};
}

absl::Status FileOpEngine::Init(const EngineOptions& options) {
  stat_type_ = options.stat_type;
  return CheckIodepth(name(), options, 1);
}

QueueResult FileOpEngine::Queue(IoRequest* request) {
  request->issue_ns = request->start_ns;
  request->result = -EOPNOTSUPP;
  request->complete_ns = OpClockNanos();
  return QueueResult::kCompleted;
}

int64_t FileOpEngine::Execute(const std::string& path) const {
  switch (op_) {
    case Op::kFileCreate: {
      int fd;
      do {
        fd = open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
      } while (fd < 0 && errno == EINTR);
      const int64_t result = Result(fd);
      if (fd >= 0) close(fd);
      return result;
    }
    case Op::kFileStat:
    case Op::kDirStat:
      return Stat(path, stat_type_);
    case Op::kFileDelete:
      return Result(unlink(path.c_str()));
    case Op::kDirCreate:
      return Result(mkdir(path.c_str(), 0700));
    case Op::kDirDelete:
      return Result(rmdir(path.c_str()));
  }
  return -EOPNOTSUPP;
}

OpKind FileOpEngine::kind() const {
  switch (op_) {
    case Op::kFileCreate:
    case Op::kDirCreate:
      return OpKind::kCreate;
    case Op::kFileStat:
    case Op::kDirStat:
      return OpKind::kStat;
    case Op::kFileDelete:
    case Op::kDirDelete:
      return OpKind::kUnlink;
  }
  return OpKind::kStat;
}

bool FileOpEngine::needs_existing() const {
  return op_ != Op::kFileCreate && op_ != Op::kDirCreate;
}

bool FileOpEngine::on_directories() const {
  return op_ == Op::kDirCreate || op_ == Op::kDirStat || op_ == Op::kDirDelete;
}

absl::StatusOr<std::unique_ptr<FileOpEngine>> CreateFileOpEngine(std::string_view name) {
  for (const auto& [engine, op] : kOps) {
    if (engine == name) return std::make_unique<FileOpEngine>(op);
  }
  return absl::NotFoundError(
      absl::StrCat("\"", std::string(name), "\" is not a file-operation engine"));
}

}  // namespace azbench

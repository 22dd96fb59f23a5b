// The kinds of operation azbench times. Each has its own histograms in every result.
#ifndef AZBENCH_COMMON_OP_KIND_H_
#define AZBENCH_COMMON_OP_KIND_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace azbench {

enum class OpKind : uint8_t {
  kRead = 0,
  kWrite,
  kTrim,
  kFsync,
  kOpen,
  kCreate,
  kStat,
  kUnlink,
  kRename,
  kProbe,
  kCount,  // not a kind: the number of kinds
};
inline constexpr int kOpKindCount = static_cast<int>(OpKind::kCount);

constexpr std::string_view OpKindName(OpKind kind) {
  switch (kind) {
    case OpKind::kRead:
      return "read";
    case OpKind::kWrite:
      return "write";
    case OpKind::kTrim:
      return "trim";
    case OpKind::kFsync:
      return "fsync";
    case OpKind::kOpen:
      return "open";
    case OpKind::kCreate:
      return "create";
    case OpKind::kStat:
      return "stat";
    case OpKind::kUnlink:
      return "unlink";
    case OpKind::kRename:
      return "rename";
    case OpKind::kProbe:
      return "probe";
    case OpKind::kCount:
      break;
  }
  return "unknown";
}

std::optional<OpKind> OpKindFromName(std::string_view name);

}  // namespace azbench

#endif  // AZBENCH_COMMON_OP_KIND_H_

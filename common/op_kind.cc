#include "common/op_kind.h"

#include <optional>
#include <string_view>

namespace azbench {

std::optional<OpKind> OpKindFromName(std::string_view name) {
  for (int i = 0; i < kOpKindCount; ++i) {
    const auto kind = static_cast<OpKind>(i);
    if (OpKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

}  // namespace azbench

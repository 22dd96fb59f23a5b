// RETURN_IF_ERROR / ASSIGN_OR_RETURN for absl::Status and absl::StatusOr.
//
// Example:
//   RETURN_IF_ERROR(engine->Init(options));
//   ASSIGN_OR_RETURN(uint64_t bytes, ParseSize(text));
#ifndef AZBENCH_COMMON_STATUS_MACROS_H_
#define AZBENCH_COMMON_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define AZB_CONCAT_INNER(a, b) a##b
#define AZB_CONCAT(a, b) AZB_CONCAT_INNER(a, b)

#define RETURN_IF_ERROR(expr)                  \
  do {                                         \
    ::absl::Status azb_status_ = (expr);       \
    if (!azb_status_.ok()) return azb_status_; \
  } while (0)

#define AZB_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(*tmp)

#define ASSIGN_OR_RETURN(lhs, expr) \
  AZB_ASSIGN_OR_RETURN_IMPL(AZB_CONCAT(azb_statusor_, __LINE__), lhs, expr)

#endif  // AZBENCH_COMMON_STATUS_MACROS_H_

#include "agent/workloads/family.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace azbench {

absl::Status WithJobName(const std::string& job, const absl::Status& status) {
  if (status.ok()) return status;
  const std::string prefix = absl::StrCat("job '", job, "': ");
  if (status.message().rfind(prefix, 0) == 0) return status;
  return absl::Status(status.code(), absl::StrCat(prefix, status.message()));
}

absl::StatusOr<uint64_t> CheckedProduct(
    const std::vector<std::pair<std::string, uint64_t>>& factors) {
  uint64_t product = 1;
  for (const auto& [name, value] : factors) {
    if (__builtin_mul_overflow(product, value, &product)) {
      std::vector<std::string> names, values;
      for (const auto& [n, v] : factors) {
        names.push_back(n);
        values.push_back(absl::StrCat(v));
      }
      return absl::InvalidArgumentError(
          absl::StrCat(absl::StrJoin(names, " x "), " (", absl::StrJoin(values, " x "),
                       ") does not fit in 64 bits; make them smaller"));
    }
  }
  return product;
}

}  // namespace azbench

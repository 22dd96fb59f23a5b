#include "agent/runner/family_registry.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/workloads/block_io/block_io_family.h"
#include "agent/workloads/large_stream/large_stream_family.h"
#include "agent/workloads/metadata/metadata_family.h"
#include "agent/workloads/small_files/small_files_family.h"
#include "agent/workloads/visibility/visibility_family.h"

namespace azbench {

const std::vector<const Family*>& Families() {
  static const auto* families = new std::vector<const Family*>{
      &BlockIoFamily(),      //
      &MetadataFamily(),     //
      &SmallFilesFamily(),   //
      &LargeStreamFamily(),  //
      &VisibilityFamily(),   //
  };
  return *families;
}

absl::StatusOr<const Family*> FindFamily(std::string_view workload) {
  std::vector<std::string> names;
  for (const Family* family : Families()) {
    if (family->name() == workload) return family;
    names.emplace_back(family->name());
  }
  return absl::InvalidArgumentError(
      absl::StrCat("workload '", std::string(workload),
                   "' is not supported; allowed: ", absl::StrJoin(names, ", ")));
}

}  // namespace azbench

// The explicit engine registry (no static self-registration: a static library may drop such
// objects). Adding an engine: include its header, add its name to kEngineNames and a branch to
// CreateEngine().
#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/engines/io_engine.h"
#include "agent/engines/io_uring_engine.h"
#include "agent/engines/libaio_engine.h"
#include "agent/engines/null_engine.h"
#include "agent/engines/psync_engine.h"

namespace azbench {
namespace {

constexpr std::array<std::string_view, 5> kEngineNames = {"psync", "sync", "libaio", "io_uring",
                                                          "null"};

}  // namespace

absl::StatusOr<std::unique_ptr<IoEngine>> CreateEngine(std::string_view name) {
  if (name == "psync" || name == "sync") return std::make_unique<PsyncEngine>();
  if (name == "libaio") return std::make_unique<LibaioEngine>();
  if (name == "io_uring") return std::make_unique<IoUringEngine>();
  if (name == "null") return std::make_unique<NullEngine>();
  // std::string: this Abseil build's string_view is not std::string_view.
  return absl::NotFoundError(
      absl::StrCat("unknown I/O engine \"", std::string(name),
                   "\"; engines built in: ", absl::StrJoin(EngineNames(), ", ")));
}

std::vector<std::string> EngineNames() {
  return std::vector<std::string>(kEngineNames.begin(), kEngineNames.end());
}

}  // namespace azbench

// The explicit engine registry (no static self-registration: a static library may drop such
// objects). Adding an engine: include its header, add its name to kIoEngineNames
// (common/job_spec.h) and a branch to CreateEngine().
#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/engines/falloc_engine.h"
#include "agent/engines/file_op_engine.h"
#include "agent/engines/ftruncate_engine.h"
#include "agent/engines/io_engine.h"
#include "agent/engines/io_uring_engine.h"
#include "agent/engines/libaio_engine.h"
#include "agent/engines/mmap_engine.h"
#include "agent/engines/nfs_engine.h"
#include "agent/engines/null_engine.h"
#include "agent/engines/posixaio_engine.h"
#include "agent/engines/psync_engine.h"
#include "agent/engines/pvsync_engine.h"
#include "agent/engines/vsync_engine.h"
#include "common/job_spec.h"
#include "common/status_macros.h"

namespace azbench {

absl::StatusOr<std::unique_ptr<IoEngine>> CreateEngine(std::string_view name) {
  if (name == "psync" || name == "sync") return std::make_unique<PsyncEngine>();
  if (name == "vsync") return std::make_unique<VsyncEngine>();
  if (name == "pvsync") return std::make_unique<PvsyncEngine>(PvsyncEngine::Variant::kPvsync);
  if (name == "pvsync2") return std::make_unique<PvsyncEngine>(PvsyncEngine::Variant::kPvsync2);
  if (name == "posixaio") return std::make_unique<PosixAioEngine>();
  if (name == "mmap") return std::make_unique<MmapEngine>();
  if (IsFileOpEngineName(name)) {
    ASSIGN_OR_RETURN(std::unique_ptr<FileOpEngine> engine, CreateFileOpEngine(name));
    return engine;
  }
  if (name == "falloc") return std::make_unique<FallocEngine>();
  if (name == "ftruncate") return std::make_unique<FtruncateEngine>();
  if (name == "libaio") return std::make_unique<LibaioEngine>();
  if (name == "io_uring") return std::make_unique<IoUringEngine>();
  if (name == "null") return std::make_unique<NullEngine>();
  if (name == "nfs") return std::make_unique<NfsEngine>();
  // std::string: this Abseil build's string_view is not std::string_view.
  return absl::NotFoundError(
      absl::StrCat("unknown I/O engine \"", std::string(name),
                   "\"; engines built in: ", absl::StrJoin(EngineNames(), ", ")));
}

std::vector<std::string> EngineNames() {
  return std::vector<std::string>(kIoEngineNames.begin(), kIoEngineNames.end());
}

}  // namespace azbench

// Helpers shared by the engines in this folder (not part of the engine interface).
#ifndef AZBENCH_AGENT_ENGINES_ENGINE_UTIL_H_
#define AZBENCH_AGENT_ENGINES_ENGINE_UTIL_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "agent/engines/io_engine.h"
#include "common/errno_text.h"  // ErrnoText, which the engines' messages use

namespace azbench {

// OK when 1 <= options.iodepth <= max_iodepth, else InvalidArgument naming the engine and the
// range.
absl::Status CheckIodepth(std::string_view engine, const EngineOptions& options, int max_iodepth);

// Performs `request` synchronously with pread/pwrite/fsync/fdatasync and returns bytes transferred
// (fsync: 0) or -errno; retries on EINTR; a short transfer is returned as is. Ops other than kRead,
// kWrite and kFsync give -EOPNOTSUPP. Does not touch the request's timestamps.
int64_t ExecuteSync(const IoRequest& request);

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_ENGINE_UTIL_H_

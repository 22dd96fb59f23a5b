// fio's verify_dump: when an interval fails its check, its bytes as read go to
// `<file>.<offset>.received` and the bytes the write put there to `<file>.<offset>.expected`, in
// the current directory (fio without --aux-path); <file> is the data file's base name and <offset>
// the interval's offset in it, in decimal. A bad header gives `<file>.<offset>.hdr_fail` (the bytes
// as read) alone: without a trusted header the written bytes cannot be made again.
//
//   ASSIGN_OR_RETURN(std::string path, WriteVerifyDump("/data/f.0.0", 8192, "received", bytes));
#ifndef AZBENCH_AGENT_WORKLOADS_VERIFY_DUMP_H_
#define AZBENCH_AGENT_WORKLOADS_VERIFY_DUMP_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace azbench {

// The dump file's name for the interval at `offset_bytes` of `data_path`: "f.0.0.8192.received".
std::string VerifyDumpName(std::string_view data_path, uint64_t offset_bytes,
                           std::string_view kind);

// Writes `bytes` to VerifyDumpName(...) in the current directory (replacing a file of that name)
// and returns the name. Errors: PermissionDenied, ResourceExhausted or Internal, with the name and
// the errno text.
absl::StatusOr<std::string> WriteVerifyDump(std::string_view data_path, uint64_t offset_bytes,
                                            std::string_view kind, std::string_view bytes);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VERIFY_DUMP_H_

// The content of a visibility-probe file or object: a sequence number and a checksum inside, so a
// reader can tell "visible with the expected content" from "absent", "an older trial's content" and
// "torn / partly visible". Layout (exactly size_bytes long, at least kMinProbeContentBytes):
//   "azbench-visibility seq=<20 digits>\n" <deterministic filler> "crc32=<8 hex>\n"
// where crc32 (zlib) covers everything before the "crc32=" trailer.
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_CONTENT_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_CONTENT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace azbench {

inline constexpr size_t kMinProbeContentBytes = 64;

// `size_bytes` below kMinProbeContentBytes is raised to it.
std::string MakeProbeContent(uint64_t sequence, size_t size_bytes);

// The sequence number inside `content`. Errors: InvalidArgument when the header or trailer is
// missing (absent, torn or truncated content) or the checksum does not match.
absl::StatusOr<uint64_t> ParseProbeContent(std::string_view content);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_CONTENT_H_

#include "agent/workloads/visibility/probe_content.h"

#include <zlib.h>

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace azbench {
namespace {

constexpr std::string_view kHeaderPrefix = "azbench-visibility seq=";
constexpr size_t kHeaderBytes = 23 + 20 + 1;  // prefix + 20 digits + '\n'
constexpr size_t kTrailerBytes = 6 + 8 + 1;   // "crc32=" + 8 hex + '\n'
static_assert(kHeaderBytes + kTrailerBytes <= kMinProbeContentBytes);

uint32_t Crc32(std::string_view data) {
  return static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
}

}  // namespace

std::string MakeProbeContent(uint64_t sequence, size_t size_bytes) {
  size_bytes = std::max(size_bytes, kMinProbeContentBytes);
  std::string content = absl::StrFormat("%s%020u\n", kHeaderPrefix, sequence);
  const size_t filler = size_bytes - kHeaderBytes - kTrailerBytes;
  for (size_t i = 0; i < filler; ++i) {
    content.push_back(i % 64 == 63 ? '\n' : static_cast<char>('a' + (sequence + i) % 26));
  }
  absl::StrAppend(&content, absl::StrFormat("crc32=%08x\n", Crc32(content)));
  return content;
}

absl::StatusOr<uint64_t> ParseProbeContent(std::string_view content) {
  if (content.size() < kHeaderBytes + kTrailerBytes ||
      content.substr(0, kHeaderPrefix.size()) != kHeaderPrefix ||
      content[kHeaderBytes - 1] != '\n') {
    return absl::InvalidArgumentError(
        absl::StrCat("not azbench probe content (", content.size(), " bytes, header missing)"));
  }
  uint64_t sequence = 0;
  if (!absl::SimpleAtoi(std::string(content.substr(kHeaderPrefix.size(), 20)), &sequence)) {
    return absl::InvalidArgumentError("probe content: sequence number is not a number");
  }
  const std::string_view trailer = content.substr(content.size() - kTrailerBytes);
  if (trailer.substr(0, 6) != "crc32=" || trailer.back() != '\n') {
    return absl::InvalidArgumentError(absl::StrCat("probe content seq=", sequence,
                                                   ": checksum trailer missing (torn or partial)"));
  }
  uint32_t expected = 0;
  if (!absl::SimpleHexAtoi(std::string(trailer.substr(6, 8)), &expected) ||
      expected != Crc32(content.substr(0, content.size() - kTrailerBytes))) {
    return absl::InvalidArgumentError(absl::StrCat("probe content seq=", sequence,
                                                   ": checksum mismatch (torn or mixed content)"));
  }
  return sequence;
}

}  // namespace azbench

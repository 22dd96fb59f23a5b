#include "agent/workloads/block_io/cache_traps.h"

#include <fstream>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace azbench {
namespace {

std::string Mib(uint64_t bytes) {
  return absl::StrFormat("%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

std::string Gib(uint64_t bytes) {
  return absl::StrFormat("%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
}

// How many times over the working set the job moved, "2.5x".
std::string Times(uint64_t bytes, uint64_t working_set) {
  return absl::StrFormat("%.1fx", static_cast<double>(bytes) / static_cast<double>(working_set));
}

}  // namespace

std::vector<std::string> CacheTrapWarnings(const CacheTrapFacts& f) {
  std::vector<std::string> out;
  if (f.direct) return out;
  const bool fits = f.client_memory_bytes > 0 && f.working_set_bytes > 0 &&
                    f.working_set_bytes <= f.client_memory_bytes;
  if (f.bytes_written > 0 && !f.syncs_during_run) {
    if (!f.end_fsync) {
      out.push_back(
          "buffered writes (direct=0) with no fsync, fdatasync or end_fsync: the figures show how "
          "fast this client's page cache took the data; most of it may not have reached storage "
          "when the run ended (set direct=1, or end_fsync=1 with a file larger than memory)");
    } else if (fits && f.bytes_written > f.working_set_bytes) {
      out.push_back(absl::StrCat(
          "buffered writes rewrote ", Mib(f.working_set_bytes),
          " of files that fit in this "
          "client's memory (",
          Gib(f.client_memory_bytes), ") ", Times(f.bytes_written, f.working_set_bytes),
          " over: end_fsync flushed only the pages "
          "still dirty at the end, so most writes never reached storage during the run (set "
          "direct=1, fsync=N, or a size larger than memory)"));
    }
  }
  if (f.bytes_read > 0 && fits && (!f.invalidate || f.bytes_read > f.working_set_bytes)) {
    out.push_back(absl::StrCat(
        "buffered reads (direct=0) of ", Mib(f.working_set_bytes),
        " of files that fit in this client's memory (", Gib(f.client_memory_bytes), ")",
        f.invalidate ? absl::StrCat(", read ", Times(f.bytes_read, f.working_set_bytes), " over")
                     : " with invalidate=0",
        ": reads may have come from the page cache, not the file system (set direct=1, or a size "
        "larger than memory)"));
  }
  return out;
}

absl::StatusOr<uint64_t> ClientMemoryBytes(const std::string& meminfo_path) {
  std::ifstream in(meminfo_path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", meminfo_path));
  std::string line;
  while (std::getline(in, line)) {
    absl::string_view rest = line;
    if (!absl::ConsumePrefix(&rest, "MemTotal:")) continue;
    rest = absl::StripAsciiWhitespace(rest);
    const bool kib = absl::ConsumeSuffix(&rest, "kB");
    uint64_t value = 0;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(rest), &value)) break;
    return kib ? value * 1024 : value;
  }
  return absl::DataLossError(absl::StrCat(meminfo_path, ": no readable MemTotal line"));
}

}  // namespace azbench

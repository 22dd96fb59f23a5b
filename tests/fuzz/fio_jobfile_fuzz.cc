// libFuzzer target: the fio job-file parser (INI text, includes, ${VAR}) and the command-line form
// (the same text split on whitespace).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_split.h"
#include "common/fio_jobfile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)azbench::ParseFioJobFile(text, "/nonexistent/azbench-fuzz/job.fio");
  std::vector<std::string> args =
      absl::StrSplit(std::string(text), absl::ByAnyChar(" \n\t"), absl::SkipEmpty());
  (void)azbench::ParseFioCommandLine(args);
  return 0;
}

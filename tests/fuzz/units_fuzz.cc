// libFuzzer target: sizes, durations, booleans and integers as users type them.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/time/time.h"
#include "common/units.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)azbench::ParseSize(text);
  (void)azbench::ParseSize(text, 1000);
  (void)azbench::ParseDuration(text);
  (void)azbench::ParseDuration(text, absl::Milliseconds(1));
  (void)azbench::ParseBool(text);
  (void)azbench::ParseInt(text, INT64_MIN, INT64_MAX);
  (void)azbench::ParseInt(text, 1, 64);
  return 0;
}

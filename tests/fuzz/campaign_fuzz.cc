// libFuzzer target: the campaign parser on arbitrary text. Any outcome but a crash, a hang, a leak
// or undefined behaviour is fine; the parser must answer with a Campaign or a Status.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "coordinator/campaign/campaign.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Relative fio_job/hosts_file paths resolve beside this (nonexistent) file, so they miss.
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)azbench::ParseCampaign(text, "/nonexistent/azbench-fuzz/campaign.yaml");
  return 0;
}

#include "common/errno_text.h"

#include <string.h>

#include "absl/strings/str_cat.h"

namespace azbench {

std::string ErrnoText(int errno_value) {
  // strerrordesc_np / strerrorname_np (glibc >= 2.32) return static strings: no buffer, no
  // locale, thread-safe.
  const char* desc = strerrordesc_np(errno_value);
  const char* name = strerrorname_np(errno_value);
  if (desc == nullptr || name == nullptr) return absl::StrCat("Unknown error ", errno_value);
  return absl::StrCat(desc, " (", name, ")");
}

absl::Status ErrnoStatus(int errno_value, std::string_view what) {
  return absl::Status(absl::ErrnoToStatus(errno_value, "").code(),
                      absl::StrCat(std::string(what), ": ", ErrnoText(errno_value)));
}

}  // namespace azbench

#include "common/file_util.h"

#include <cerrno>
#include <cstdio>

#include "absl/strings/str_cat.h"

namespace azbench {

absl::StatusOr<std::string> ReadWholeFile(const std::string& path, const std::string& what) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    const int error = errno;
    return absl::ErrnoToStatus(error, absl::StrCat("cannot open ", what, " '", path, "'"));
  }
  std::string contents;
  char buffer[8192];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), f)) > 0) contents.append(buffer, n);
  const bool failed = std::ferror(f) != 0;
  const int error = errno;
  std::fclose(f);
  if (failed) {
    return absl::ErrnoToStatus(error, absl::StrCat("cannot read ", what, " '", path, "'"));
  }
  return contents;
}

}  // namespace azbench

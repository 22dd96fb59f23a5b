// Every errno message in one wording: the description and the symbolic name, and a Status whose
// code follows the errno as absl::ErrnoToStatus maps it.
#include "common/errno_text.h"

#include <cerrno>

#include "gtest/gtest.h"

namespace azbench {
namespace {

TEST(ErrnoTextTest, SaysTheDescriptionAndTheSymbolicName) {
  EXPECT_EQ(ErrnoText(ENOENT), "No such file or directory (ENOENT)");
  EXPECT_EQ(ErrnoText(EAGAIN), "Resource temporarily unavailable (EAGAIN)");
  EXPECT_EQ(ErrnoText(4242), "Unknown error 4242");
}

TEST(ErrnoTextTest, AStatusFromErrnoTakesAbslsCodeAndTheOneWording) {
  const absl::Status missing = ErrnoStatus(ENOENT, "cannot read '/x'");
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(missing.message(), "cannot read '/x': No such file or directory (ENOENT)");
  EXPECT_EQ(ErrnoStatus(EEXIST, "w").code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(ErrnoStatus(EACCES, "w").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(ErrnoStatus(EIO, "w").code(), absl::ErrnoToStatus(EIO, "").code());
}

}  // namespace
}  // namespace azbench

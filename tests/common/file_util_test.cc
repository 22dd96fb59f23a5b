#include "common/file_util.h"

#include <sys/stat.h>

#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

TEST(ReadWholeFileTest, ReadsARegularFile) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  std::string text(100'000, 'x');
  text += "\nend";
  std::ofstream(dir.File("c.yaml")) << text;
  absl::StatusOr<std::string> read = ReadWholeFile(dir.File("c.yaml"), "campaign file");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, text);
}

TEST(ReadWholeFileTest, MissingFileIsNotFoundNamingWhatItWasFor) {
  absl::StatusOr<std::string> read = ReadWholeFile("/nonexistent/x.fio", "fio job file");
  EXPECT_EQ(read.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(read.status().message(), HasSubstr("fio job file '/nonexistent/x.fio'"));
}

TEST(ReadWholeFileTest, DevicesFifosAndDirectoriesAreRefusedWithoutBlocking) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  ASSERT_EQ(mkfifo(dir.File("fifo").c_str(), 0600), 0);
  for (const std::string& path :
       std::vector<std::string>{"/dev/zero", dir.File("fifo"), dir.path()}) {
    absl::StatusOr<std::string> read = ReadWholeFile(path, "campaign file");
    EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument) << path;
    EXPECT_THAT(read.status().message(), HasSubstr("not a regular file")) << path;
  }
}

TEST(ReadWholeFileTest, FilesOverTheLimitAreRefused) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  {
    std::ofstream out(dir.File("big"));
    out.seekp(static_cast<std::streamoff>(kMaxWholeFileBytes));  // sparse: no 64 MiB written
    out << 'x';
  }
  absl::StatusOr<std::string> read = ReadWholeFile(dir.File("big"), "config file");
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(read.status().message(), HasSubstr("the limit is"));
}

}  // namespace
}  // namespace azbench

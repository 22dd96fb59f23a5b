#include "common/file_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using testing::DirectoryNames;
using ::testing::ElementsAre;
using testing::FileContents;
using ::testing::HasSubstr;
using testing::ScopedMount;

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

// A UTF-8 byte order mark (an editor's) is not part of the first line; tabs and CR line ends are
// text.
TEST(TextLinesTest, AByteOrderMarkIsDroppedAndTabsAndCarriageReturnsAreText) {
  absl::StatusOr<absl::string_view> lines =
      TextLines("\xEF\xBB\xBF[job]\r\n\tbs=4k\r\n", "a.fio", "fio job file");
  ASSERT_TRUE(lines.ok()) << lines.status();
  EXPECT_EQ(*lines, "[job]\r\n\tbs=4k\r\n");
  // An editor's page break (form feed) and a vertical tab are whitespace, as the parsers read them.
  lines = TextLines("[job]\f\n\vbs=4k\n", "a.fio", "fio job file");
  ASSERT_TRUE(lines.ok()) << lines.status();
  lines = TextLines("", "a.fio", "fio job file");
  ASSERT_TRUE(lines.ok()) << lines.status();
  EXPECT_EQ(*lines, "");
}

// A binary file named by mistake is refused naming the file and where, not echoed.
TEST(TextLinesTest, AControlCharacterIsRefusedNamingTheFileAndLine) {
  const std::string binary(
      "[job]\nbs=4k\n\x7f"
      "ELF\x02\x01\x01\0\0",
      19);
  absl::StatusOr<absl::string_view> lines = TextLines(binary, "a.out", "fio job file");
  ASSERT_EQ(lines.status().code(), absl::StatusCode::kInvalidArgument) << lines.status();
  EXPECT_EQ(lines.status().message(),
            "fio job file 'a.out' line 3: not a text file (a byte 0x7f, a control character)");
  EXPECT_EQ(TextLines(std::string("host\0", 5), "h.txt", "hosts file").status().message(),
            "hosts file 'h.txt' line 1: not a text file (a byte 0x00, a control character)");
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

// --- WriteWholeFile ---------------------------------------------------------------------------

TEST(WriteWholeFileTest, WritesAndReplacesLeavingNoTemporaryFile) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteWholeFile(dir.File("r.md"), "first\n", "output").ok());
  EXPECT_EQ(FileContents(dir.File("r.md")), "first\n");
  ASSERT_TRUE(WriteWholeFile(dir.File("r.md"), "second", "output").ok());
  EXPECT_EQ(FileContents(dir.File("r.md")), "second");
  EXPECT_THAT(DirectoryNames(dir.path()), ElementsAre("r.md"));
}

TEST(WriteWholeFileTest, AFileOnDevShmIsAFileLikeAnyOther) {
  testing::TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteWholeFile(dir.File("r.json"), "{}", "output").ok());
  EXPECT_EQ(FileContents(dir.File("r.json")), "{}");
  ASSERT_TRUE(WriteWholeFile(dir.File("r.json"), "[]", "output").ok());
  EXPECT_EQ(FileContents(dir.File("r.json")), "[]") << "replaced, not appended to";
}

TEST(WriteWholeFileTest, AFailedWriteLeavesTheEarlierFileAsItWas) {
  ScopedMount fs("tmpfs", "64k");
  if (!fs.mounted()) GTEST_SKIP() << "cannot mount tmpfs: " << fs.error();
  const std::string path = fs.path() + "/report.md";
  ASSERT_TRUE(WriteWholeFile(path, "the earlier report", "output").ok());
  // 1 MiB does not fit in 64 KiB: ENOSPC part-way.
  absl::Status s = WriteWholeFile(path, std::string(1 << 20, 'x'), "output");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("cannot write output '" + path + "'"));
  EXPECT_THAT(s.message(), HasSubstr("No space left on device"));
  EXPECT_EQ(FileContents(path), "the earlier report");
  EXPECT_THAT(DirectoryNames(fs.path()), ElementsAre("report.md"));
}

TEST(WriteWholeFileTest, ErrorsNameThePathAndWhy) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  absl::Status missing = WriteWholeFile(dir.File("no/such/dir/r.md"), "x", "output");
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.message(), HasSubstr("no/such/dir/r.md"));
  EXPECT_THAT(missing.message(), HasSubstr("No such file or directory"));
  absl::Status directory = WriteWholeFile(dir.path(), "x", "output");
  EXPECT_EQ(directory.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(directory.message(), HasSubstr("is a directory"));
}

TEST(WriteWholeFileTest, AStreamIsAppendedToAndAReplacedFileKeepsItsMode) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  // /dev/stdout of a process whose output goes to a file is /proc/self/fd/1, i.e. /dev/fd/1: the
  // descriptor itself is written, so what was printed before stays and what is printed after
  // follows.
  const int fd = open(dir.File("out.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "printed before\n", 15), 15);
  struct stat before;
  ASSERT_EQ(fstat(fd, &before), 0);
  ASSERT_TRUE(WriteWholeFile("/dev/fd/" + std::to_string(fd), "the report\n", "output").ok());
  ASSERT_EQ(write(fd, "printed after\n", 14), 14);
  struct stat after;
  ASSERT_EQ(stat(dir.File("out.txt").c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino) << "the same file, not a new one renamed over it";
  EXPECT_EQ(FileContents(dir.File("out.txt")), "printed before\nthe report\nprinted after\n");
  close(fd);

  std::ofstream(dir.File("private.md")) << "old";
  ASSERT_EQ(chmod(dir.File("private.md").c_str(), 0600), 0);
  ASSERT_TRUE(WriteWholeFile(dir.File("private.md"), "new", "output").ok());
  struct stat st;
  ASSERT_EQ(stat(dir.File("private.md").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(FileContents(dir.File("private.md")), "new");
}

TEST(WriteWholeFileTest, ADeviceIsWrittenInPlaceAndALinkKeepsPointingAtItsTarget) {
  // Renaming a file over /dev/null would replace the device for the whole machine.
  ASSERT_TRUE(WriteWholeFile("/dev/null", "discarded", "output").ok());
  struct stat st;
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));

  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  std::ofstream(dir.File("target.md")) << "old";
  std::filesystem::create_symlink(dir.File("target.md"), dir.File("link.md"));
  ASSERT_TRUE(WriteWholeFile(dir.File("link.md"), "new", "output").ok());
  EXPECT_TRUE(std::filesystem::is_symlink(dir.File("link.md")));
  EXPECT_EQ(FileContents(dir.File("target.md")), "new");
  // A link to a file that is not there yet: the file is made through it, the link stays.
  std::filesystem::create_symlink(dir.File("later.md"), dir.File("dangling.md"));
  ASSERT_TRUE(WriteWholeFile(dir.File("dangling.md"), "made", "output").ok());
  EXPECT_TRUE(std::filesystem::is_symlink(dir.File("dangling.md")));
  EXPECT_EQ(FileContents(dir.File("later.md")), "made");
  // No hidden temporary file is left beside any of them.
  for (const std::string& name : DirectoryNames(dir.path())) EXPECT_NE(name[0], '.') << name;
}

}  // namespace
}  // namespace azbench

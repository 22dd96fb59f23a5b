// fio's verify format (agent/workloads/verify_block.h): azbench checks the blocks fio 3.33 writes
// and fio checks the blocks azbench writes, type by type; a corrupted interval is found alone.
#include "agent/workloads/verify_block.h"

#include <chrono>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/workloads/verify_checksum.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr uint32_t kBlock = 4096;
constexpr uint32_t kBlocks = 4;

VerifyFormat Format(VerifyType type, uint32_t interval = kBlock, std::string pattern = "") {
  VerifyFormat format;
  format.type = type;
  format.interval_bytes = interval;
  format.pattern = std::move(pattern);
  return format;
}

std::vector<uint8_t> RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes(n);
  for (auto& b : bytes) b = static_cast<uint8_t>(rng());
  return bytes;
}

struct TypeCase {
  const char* fio_name;
  VerifyType type;
  const char* pattern_option;  // fio's verify_pattern, or ""
  std::string pattern;         // its bytes
};

// The types whose fields fio 3.33 fills as standard checksums (sha256 and sha512 are not:
// agent/workloads/verify_checksum.h).
std::vector<TypeCase> InteroperableTypes() {
  return {{"crc32c", VerifyType::kCrc32c, "", ""},
          {"crc32c-intel", VerifyType::kCrc32c, "", ""},
          {"crc32", VerifyType::kCrc32, "", ""},
          {"md5", VerifyType::kMd5, "", ""},
          {"sha1", VerifyType::kSha1, "", ""},
          {"xxhash", VerifyType::kXxhash, "", ""},
          {"meta", VerifyType::kMeta, "", ""},
          {"meta", VerifyType::kMeta, "0xdeadbeef01", "\xde\xad\xbe\xef\x01"},
          {"pattern", VerifyType::kPatternNoHeader, "\"abc\"", "abc"}};
}

class VerifyBlockFioTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
        !missing.empty()) {
      GTEST_FAIL() << missing;
    }
  }
  // fio ARGS on a 16 KiB file of 4 KiB blocks: its exit code; its output in `*out`.
  int Fio(const std::string& file, std::vector<std::string> args, std::string* out) {
    std::vector<std::string> argv = {testing::kFioBinary, "--name=v", "--filename=" + file,
                                     "--bs=4k", "--size=16k",
                                     // no verify state file in the working directory
                                     "--verify_state_save=0"};
    argv.insert(argv.end(), args.begin(), args.end());
    testing::Subprocess fio(argv, dir_.File("fio-output.txt"));
    const int code = fio.Wait(std::chrono::seconds(60));
    *out = fio.Output();
    return code;
  }
  testing::TempDir dir_;
};

TEST(VerifyBlockTest, HeaderCrcIsFiosCrc32cOfItsFirst36Bytes) {
  // The first header fio 3.33 wrote for `--rw=write --bs=4k --verify=crc32c`.
  const uint8_t header[40] = {0xca, 0xac, 0x05, 0x00, 0x00, 0x10, 0x00, 0x00, 0x3c, 0x54,
                              0x09, 0xc5, 0x01, 0xcc, 0xa4, 0x00, 0,    0,    0,    0,
                              0,    0,    0,    0,    0,    0,    0,    0,    0xbf, 0xe1,
                              0xc4, 0x06, 0x01, 0x00, 0x00, 0x00, 0x83, 0x21, 0x9d, 0xd5};
  EXPECT_EQ(FioCrc32c(header, 36), 0xd59d2183u);
}

TEST(VerifyBlockTest, XxhashAndCrcsMatchTheirReferenceValues) {
  EXPECT_EQ(Xxh32("", 0, 0), 0x02cc5d05u);
  EXPECT_EQ(Xxh32("abc", 3, 0), 0x32d153ffu);
  // crc32c of "123456789" is 0xe3069283 with the final inversion fio leaves out.
  EXPECT_EQ(~FioCrc32c("123456789", 9), 0xe3069283u);
  // POSIX cksum's CRC before the length and inversion: fio's crc32.
  EXPECT_EQ(FioCrc32("123456789", 9), 0x89a1897fu);
}

TEST(VerifyBlockTest, AFlippedByteFailsExactlyItsInterval) {
  for (VerifyType type : {VerifyType::kCrc32c, VerifyType::kMd5, VerifyType::kSha256,
                          VerifyType::kSha512, VerifyType::kXxhash, VerifyType::kSha1}) {
    const VerifyFormat format = Format(type, 1024);
    std::vector<uint8_t> block = RandomBytes(kBlock, 7);
    FillVerifyBlock(format, block.data(), kBlock, 1 << 20, {.seed = 9, .numberio = 3});
    std::vector<uint8_t> copy = block;
    EXPECT_EQ(CheckVerifyBlock(format, copy.data(), kBlock, 1 << 20, "f", {}, false).bad_intervals,
              0);
    block[2048 + 1000] ^= 0x10;
    VerifyBlockResult r = CheckVerifyBlock(format, block.data(), kBlock, 1 << 20, "f", {}, false);
    EXPECT_EQ(r.bad_intervals, 1) << VerifyTypeName(type);
    EXPECT_THAT(r.bad_offsets, ::testing::ElementsAre((1u << 20) + 2048));
    EXPECT_THAT(r.message, StartsWith(absl::StrCat(std::string(VerifyTypeName(type)),
                                                   ": verify failed at file f offset 1050624, "
                                                   "length 1024 (requested block: offset=1048576, "
                                                   "length=4096)")));
  }
}

TEST(VerifyBlockTest, BadChecksumsAreAllCountedUnlessVerifyFatal) {
  const VerifyFormat format = Format(VerifyType::kCrc32c, 1024);
  std::vector<uint8_t> block = RandomBytes(kBlock, 8);
  FillVerifyBlock(format, block.data(), kBlock, 0, {});
  block[1500] ^= 1;
  block[3500] ^= 1;
  std::vector<uint8_t> copy = block;
  EXPECT_EQ(CheckVerifyBlock(format, block.data(), kBlock, 0, "f", {}, false).bad_intervals, 2);
  VerifyBlockResult fatal = CheckVerifyBlock(format, copy.data(), kBlock, 0, "f", {}, true);
  EXPECT_EQ(fatal.bad_intervals, 1);
  EXPECT_THAT(fatal.bad_offsets, ::testing::ElementsAre(1024u));
}

TEST(VerifyBlockTest, TheHeaderNamesItsOffsetSeedAndNumber) {
  const VerifyFormat format = Format(VerifyType::kCrc32c);
  std::vector<uint8_t> block = RandomBytes(kBlock, 9);
  FillVerifyBlock(format, block.data(), kBlock, 8192, {.seed = 5, .numberio = 2});
  std::vector<uint8_t> copy = block;
  EXPECT_EQ(CheckVerifyBlock(format, copy.data(), kBlock, 8192, "f",
                             {.check_seed = true, .seed = 5, .check_numberio = true, .numberio = 2},
                             false)
                .bad_intervals,
            0);
  copy = block;
  EXPECT_THAT(CheckVerifyBlock(format, copy.data(), kBlock, 4096, "f", {}, false).message,
              StartsWith("verify: bad header offset 8192, wanted 4096 at file f offset 4096"));
  copy = block;
  EXPECT_THAT(CheckVerifyBlock(format, copy.data(), kBlock, 8192, "f",
                               {.check_seed = true, .seed = 6}, false)
                  .message,
              StartsWith("verify: bad header rand_seed 5, wanted 6"));
  copy = block;
  EXPECT_THAT(CheckVerifyBlock(format, copy.data(), kBlock, 8192, "f",
                               {.check_numberio = true, .numberio = 1}, false)
                  .message,
              StartsWith("verify: bad header numberio 2, wanted 1"));
  block[3] ^= 1;  // the type: the header's crc no longer matches
  EXPECT_THAT(CheckVerifyBlock(format, block.data(), kBlock, 8192, "f", {}, false).message,
              StartsWith("verify: bad header crc"));
}

TEST(VerifyBlockTest, VerifyOffsetMovesTheHeaderInsideTheInterval) {
  VerifyFormat format = Format(VerifyType::kMd5);
  format.header_offset_bytes = 512;
  std::vector<uint8_t> block = RandomBytes(kBlock, 10);
  FillVerifyBlock(format, block.data(), kBlock, 0, {});
  uint16_t magic;
  std::memcpy(&magic, block.data() + 512, 2);
  EXPECT_EQ(magic, kVerifyMagic);
  EXPECT_EQ(CheckVerifyBlock(format, block.data(), kBlock, 0, "f", {}, false).bad_intervals, 0);
}

TEST_F(VerifyBlockFioTest, AzbenchChecksTheBlocksFioWrites) {
  for (const TypeCase& c : InteroperableTypes()) {
    const std::string file = dir_.File(absl::StrCat("fio-", c.fio_name));
    std::vector<std::string> args = {"--rw=write", absl::StrCat("--verify=", c.fio_name),
                                     "--do_verify=0"};
    if (*c.pattern_option != '\0')
      args.push_back(absl::StrCat("--verify_pattern=", c.pattern_option));
    std::string out;
    ASSERT_EQ(Fio(file, args, &out), 0) << out;
    std::string bytes = testing::FileContents(file);
    ASSERT_EQ(bytes.size(), kBlock * kBlocks);
    const VerifyFormat format = Format(c.type, kBlock, c.pattern);
    for (uint32_t b = 0; b < kBlocks; ++b) {
      auto* block = reinterpret_cast<uint8_t*>(bytes.data()) + b * kBlock;
      VerifyBlockResult r = CheckVerifyBlock(format, block, kBlock, b * kBlock, file, {}, false);
      EXPECT_EQ(r.bad_intervals, 0) << c.fio_name << " block " << b << ": " << r.message;
    }
  }
}

TEST_F(VerifyBlockFioTest, FioChecksTheBlocksAzbenchWrites) {
  for (const TypeCase& c : InteroperableTypes()) {
    const std::string file = dir_.File(absl::StrCat("azbench-", c.fio_name));
    const VerifyFormat format = Format(c.type, kBlock, c.pattern);
    std::vector<uint8_t> bytes = RandomBytes(kBlock * kBlocks, 11);
    for (uint32_t b = 0; b < kBlocks; ++b) {
      FillVerifyBlock(format, bytes.data() + b * kBlock, kBlock, b * kBlock,
                      {.seed = b, .numberio = static_cast<uint16_t>(b)});
    }
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    std::vector<std::string> args = {"--rw=read", absl::StrCat("--verify=", c.fio_name)};
    if (*c.pattern_option != '\0')
      args.push_back(absl::StrCat("--verify_pattern=", c.pattern_option));
    std::string out;
    EXPECT_EQ(Fio(file, args, &out), 0) << c.fio_name << ": " << out;
    // A flipped byte in the third block's data: fio finds it too.
    bytes[2 * kBlock + 3000] ^= 0x40;
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    if (c.type == VerifyType::kMeta && c.pattern.empty()) continue;  // meta alone checks no data
    EXPECT_NE(Fio(file, args, &out), 0) << c.fio_name;
    EXPECT_THAT(out, HasSubstr("offset 8192")) << c.fio_name;
  }
}

}  // namespace
}  // namespace azbench

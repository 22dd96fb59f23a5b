#include "agent/workloads/buffer_pool.h"

#include <cstring>
#include <set>
#include <string>

#include "gtest/gtest.h"

namespace azbench {
namespace {

TEST(BufferPoolTest, BuffersAreAlignedForDirectIo) {
  auto pool = BufferPool::Create({.count = 4, .size_bytes = 4096, .alignment_bytes = 4096});
  ASSERT_TRUE(pool.ok());
  for (int i = 0; i < pool->count(); ++i) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(pool->buffer(i)) % 4096, 0u);
  }
}

TEST(BufferPoolTest, ScrambleMakesEverySectorOfEveryWriteUnique) {
  auto pool = BufferPool::Create({.count = 1, .size_bytes = 8192, .seed = 5});
  ASSERT_TRUE(pool.ok());
  std::vector<unsigned char> first(8192), second(8192);
  pool->PrepareWrite(0, 0);
  std::memcpy(first.data(), pool->buffer(0), 8192);
  pool->PrepareWrite(0, 0);  // same offset again: still different content
  std::memcpy(second.data(), pool->buffer(0), 8192);
  for (size_t sector = 0; sector < 16; ++sector) {
    EXPECT_NE(std::memcmp(first.data() + sector * 512, second.data() + sector * 512, 512), 0)
        << "sector " << sector;
  }
}

TEST(BufferPoolTest, CompressPercentageZeroesThatShareOfEachSegment) {
  auto pool = BufferPool::Create({.count = 1, .size_bytes = 8192, .compress_percentage = 50});
  ASSERT_TRUE(pool.ok());
  const auto* data = static_cast<const unsigned char*>(pool->buffer(0));
  for (int seg = 0; seg < 2; ++seg) {
    size_t zeros = 0;
    for (int i = 0; i < 4096; ++i) zeros += data[seg * 4096 + i] == 0;
    EXPECT_GE(zeros, 2048u);
    EXPECT_LT(zeros, 2048u + 64u);  // the random half has few zero bytes by chance
  }
}

TEST(BufferPoolTest, RandomContentIsIncompressible) {
  auto pool = BufferPool::Create({.count = 1, .size_bytes = 65536});
  ASSERT_TRUE(pool.ok());
  const auto* data = static_cast<const unsigned char*>(pool->buffer(0));
  int histogram[256] = {};
  for (int i = 0; i < 65536; ++i) ++histogram[data[i]];
  for (int b = 0; b < 256; ++b) EXPECT_NEAR(histogram[b], 256, 80) << "byte value " << b;
}

std::string Contents(const BufferPool& pool, int index = 0) {
  return std::string(static_cast<const char*>(pool.buffer(index)), pool.size_bytes());
}

TEST(BufferPoolTest, ZeroBuffersWriteZeroesUnscrambledByDefault) {
  auto pool = BufferPool::Create({.count = 1, .size_bytes = 4096, .zero = true});
  ASSERT_TRUE(pool.ok());
  pool->PrepareWrite(0, 8192);
  EXPECT_EQ(Contents(*pool), std::string(4096, '\0'));
}

TEST(BufferPoolTest, ZeroBuffersAreScrambledWhenAskedAsFio) {
  auto pool = BufferPool::Create({.count = 1, .size_bytes = 4096, .scramble = true, .zero = true});
  ASSERT_TRUE(pool.ok());
  pool->PrepareWrite(0, 0);
  EXPECT_NE(Contents(*pool), std::string(4096, '\0'));
}

TEST(BufferPoolTest, PatternRepeatsOverTheBuffer) {
  auto pool = BufferPool::Create({.count = 2, .size_bytes = 10, .pattern = "abc"});
  ASSERT_TRUE(pool.ok());
  pool->PrepareWrite(1, 0);
  EXPECT_EQ(Contents(*pool, 1), "abcabcabca");
}

TEST(BufferPoolTest, PatternTakesPrecedenceOverZeroAsFio) {
  auto pool = BufferPool::Create(
      {.count = 1, .size_bytes = 4, .zero = true, .pattern = std::string("\x01")});
  ASSERT_TRUE(pool.ok());
  EXPECT_EQ(Contents(*pool), std::string(4, '\x01'));
}

TEST(BufferPoolTest, CompressedChunksAreRandomThenZeroesOrPattern) {
  for (const std::string pattern : {"", "xy"}) {
    auto pool = BufferPool::Create({.count = 1,
                                    .size_bytes = 8192,
                                    .compress_percentage = 25,
                                    .pattern = pattern,
                                    .compress_chunk_bytes = 1024,
                                    .min_write_bytes = 8192});
    ASSERT_TRUE(pool.ok());
    const std::string data = Contents(*pool);
    const std::string filler = pattern.empty() ? std::string(256, '\0') : [] {
      std::string s;
      while (s.size() < 256) s += "xy";
      return s;
    }();
    for (size_t chunk = 0; chunk < 8; ++chunk) {
      EXPECT_EQ(data.substr(chunk * 1024 + 768, 256), filler) << "chunk " << chunk;
      EXPECT_NE(data.substr(chunk * 1024, 8), std::string(8, '\0')) << "chunk " << chunk;
    }
  }
}

TEST(BufferPoolTest, CompressChunkIsAtMostTheSmallestWrite) {
  auto pool = BufferPool::Create({.count = 1,
                                  .size_bytes = 4096,
                                  .compress_percentage = 50,
                                  .compress_chunk_bytes = 65536,
                                  .min_write_bytes = 2048});
  ASSERT_TRUE(pool.ok());
  const std::string data = Contents(*pool);
  EXPECT_EQ(data.substr(1024, 1024), std::string(1024, '\0'));
  EXPECT_EQ(data.substr(3072, 1024), std::string(1024, '\0'));
}

TEST(BufferPoolTest, CompressionRefillsAndDoesNotScrambleByDefault) {
  auto pool = BufferPool::Create({.count = 1, .size_bytes = 4096, .compress_percentage = 50});
  ASSERT_TRUE(pool.ok());
  const std::string before = Contents(*pool);
  pool->PrepareWrite(0, 0);
  const std::string after = Contents(*pool);
  EXPECT_NE(before.substr(0, 256), after.substr(0, 256));     // refilled
  EXPECT_EQ(after.substr(256, 256), std::string(256, '\0'));  // no scramble stamp in the zeroes
}

TEST(BufferPoolTest, DedupePercentageRepeatsThatShareOfBuffers) {
  auto pool = BufferPool::Create({.count = 1, .size_bytes = 4096, .dedupe_percentage = 30});
  ASSERT_TRUE(pool.ok());
  std::set<std::string> seen;
  int repeats = 0;
  constexpr int kWrites = 10000;
  for (int i = 0; i < kWrites; ++i) {
    pool->PrepareWrite(0, static_cast<uint64_t>(i) * 4096);
    repeats += seen.insert(Contents(*pool)).second ? 0 : 1;
  }
  EXPECT_NEAR(repeats, kWrites * 30 / 100, kWrites * 2 / 100);
}

TEST(BufferPoolTest, DedupeAllWritesTheSameBlock) {
  auto pool = BufferPool::Create({.count = 1, .size_bytes = 4096, .dedupe_percentage = 100});
  ASSERT_TRUE(pool.ok());
  pool->PrepareWrite(0, 0);
  const std::string first = Contents(*pool);
  for (int i = 1; i < 10; ++i) {
    pool->PrepareWrite(0, static_cast<uint64_t>(i) * 4096);
    EXPECT_EQ(Contents(*pool), first);
  }
}

TEST(BufferPoolTest, BadOptionsAreRejected) {
  EXPECT_EQ(BufferPool::Create({.count = 0}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(BufferPool::Create({.count = 1, .alignment_bytes = 3}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(BufferPool::Create({.count = 1, .compress_percentage = 101}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(BufferPool::Create({.count = 1, .min_write_bytes = 0}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(BufferPool::Create({.count = 1, .dedupe_percentage = 101}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace azbench

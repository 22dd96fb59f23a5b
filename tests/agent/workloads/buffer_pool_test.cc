#include "agent/workloads/buffer_pool.h"

#include <cstring>

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

TEST(BufferPoolTest, BadOptionsAreRejected) {
  EXPECT_EQ(BufferPool::Create({.count = 0}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(BufferPool::Create({.count = 1, .alignment_bytes = 3}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(BufferPool::Create({.count = 1, .compress_percentage = 101}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace azbench

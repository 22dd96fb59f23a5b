#include "agent/workloads/visibility/probe_content.h"

#include <gtest/gtest.h>

namespace azbench {
namespace {

TEST(ProbeContentTest, RoundTripsSequenceAtRequestedSize) {
  for (size_t size : {size_t{0}, size_t{64}, size_t{100}, size_t{4096}}) {
    const std::string c = MakeProbeContent(123456789, size);
    EXPECT_EQ(c.size(), std::max(size, kMinProbeContentBytes));
    absl::StatusOr<uint64_t> seq = ParseProbeContent(c);
    ASSERT_TRUE(seq.ok()) << seq.status();
    EXPECT_EQ(*seq, 123456789u);
  }
}

TEST(ProbeContentTest, TruncatedTornAndForeignContentAreRejected) {
  const std::string c = MakeProbeContent(7, 1024);
  EXPECT_FALSE(ParseProbeContent(c.substr(0, 512)).ok());
  std::string torn = c;
  torn[500] ^= 1;
  EXPECT_FALSE(ParseProbeContent(torn).ok());
  // Another trial's header with this trial's tail: the checksum catches the mix.
  std::string mixed = MakeProbeContent(8, 1024).substr(0, 100) + c.substr(100);
  EXPECT_FALSE(ParseProbeContent(mixed).ok());
  EXPECT_FALSE(ParseProbeContent("hello").ok());
  EXPECT_FALSE(ParseProbeContent(std::string(1024, '\0')).ok());
}

TEST(ProbeContentTest, DifferentSequencesDifferInContent) {
  EXPECT_NE(MakeProbeContent(1, 256), MakeProbeContent(2, 256));
}

}  // namespace
}  // namespace azbench

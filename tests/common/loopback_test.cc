#include "common/loopback.h"

#include <gtest/gtest.h>

namespace azbench {
namespace {

TEST(LoopbackTest, LoopbackAddressesAreRecognised) {
  for (const char* address : {"127.0.0.1:7480", "127.1.2.3:1", "localhost:7480", "[::1]:7480",
                              "ipv4:127.0.0.1:5", "::1", "[::ffff:127.0.0.1]:80", "127.0.0.1"}) {
    EXPECT_TRUE(IsLoopbackAddress(address)) << address;
  }
}

TEST(LoopbackTest, WildcardAndRemoteAddressesAreNotLoopback) {
  for (const char* address : {"0.0.0.0:7480", "[::]:7480", "10.0.1.5:7480", "agent-1:7480",
                              "128.0.0.1:1", "localhost.example.com:1", "[fd00::5]:7480", ""}) {
    EXPECT_FALSE(IsLoopbackAddress(address)) << address;
  }
}

TEST(LoopbackTest, HostOfAddressStripsPortAndBrackets) {
  EXPECT_EQ(HostOfAddress("10.0.1.5:7480"), "10.0.1.5");
  EXPECT_EQ(HostOfAddress("[fd00::5]:7480"), "fd00::5");
  EXPECT_EQ(HostOfAddress("fd00::5"), "fd00::5");
  EXPECT_EQ(HostOfAddress("agent"), "agent");
}

}  // namespace
}  // namespace azbench

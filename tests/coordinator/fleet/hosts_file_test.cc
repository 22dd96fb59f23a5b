// Agent addresses as users write them in hosts files, `--hosts` and campaign fleets: one parser
// (coordinator/fleet/hosts_file.h).
#include <sys/stat.h>

#include <fstream>

#include "absl/strings/str_cat.h"
#include "common/version.h"
#include "coordinator/fleet/hosts_file.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using testing::TempDir;

TEST(HostsFileTest, TheDefaultPortIsAddedWhereNoneIsGiven) {
  EXPECT_EQ(*NormalizeAddress("10.0.1.5"), absl::StrCat("10.0.1.5:", kDefaultAgentPort));
  EXPECT_EQ(*NormalizeAddress(" agent-a.internal:9000 "), "agent-a.internal:9000");
  EXPECT_EQ(*NormalizeAddress("[fd00::2]:7000"), "[fd00::2]:7000");
  EXPECT_EQ(*NormalizeAddress("[fd00::2]"), absl::StrCat("[fd00::2]:", kDefaultAgentPort));
}

TEST(HostsFileTest, ABareIpv6AddressIsAHostWithoutAPort) {
  // Its last group is not a port: "fd00::2" is not host "fd00:" port 2.
  EXPECT_EQ(*NormalizeAddress("fd00::2"), absl::StrCat("[fd00::2]:", kDefaultAgentPort));
}

TEST(HostsFileTest, BadEntriesSayWhatIsExpected) {
  for (const char* bad : {"", ":7480", "[fd00::2", "[fd00::2]7000", "host:0", "host:70000",
                          "host:http", "a b:7480", "http://host:7480"}) {
    absl::StatusOr<std::string> address = NormalizeAddress(bad);
    EXPECT_FALSE(address.ok()) << "'" << bad << "' was accepted as " << *address;
  }
  EXPECT_NE(NormalizeAddress("host:70000").status().message().find("1 to 65535"),
            absl::string_view::npos);
}

TEST(HostsFileTest, HostsFileErrorsNameTheFileAndLine) {
  TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("hosts.txt");
  {
    std::ofstream out(path);
    out << "# agents\n10.0.1.5\n\nfd00::2   # IPv6\n10.0.2.7:notaport\n";
  }
  absl::StatusOr<std::vector<std::string>> hosts = ReadHostsFile(path);
  ASSERT_FALSE(hosts.ok());
  EXPECT_NE(hosts.status().message().find(path + ":5:"), absl::string_view::npos) << hosts.status();
  {
    std::ofstream out(path);
    out << "# agents\n10.0.1.5\n\nfd00::2   # IPv6\n";
  }
  hosts = ReadHostsFile(path);
  ASSERT_TRUE(hosts.ok()) << hosts.status();
  EXPECT_EQ(*hosts, (std::vector<std::string>{absl::StrCat("10.0.1.5:", kDefaultAgentPort),
                                              absl::StrCat("[fd00::2]:", kDefaultAgentPort)}));
}

TEST(HostsFileTest, ABinaryHostsFileIsRefusedAsSuch) {
  TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("hosts.bin");
  {
    std::ofstream out(path, std::ios::binary);
    out << "10.0.1.5\n"
        << std::string(
               "\x7f"
               "ELF\0\0\x01",
               7);
  }
  absl::StatusOr<std::vector<std::string>> hosts = ReadHostsFile(path);
  ASSERT_EQ(hosts.status().code(), absl::StatusCode::kInvalidArgument) << hosts.status();
  EXPECT_EQ(hosts.status().message(),
            "hosts file '" + path + "' line 2: not a text file (a byte 0x7f, a control character)");
}

TEST(HostsFileTest, AHostsFileThatIsNoFileIsRefusedNotWaitedOn) {
  TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  // A FIFO with no writer would block a plain open() for ever.
  const std::string fifo = dir.File("hosts.fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  absl::StatusOr<std::vector<std::string>> hosts = ReadHostsFile(fifo);
  ASSERT_EQ(hosts.status().code(), absl::StatusCode::kInvalidArgument) << hosts.status();
  EXPECT_NE(hosts.status().message().find("hosts file '" + fifo + "' is not a regular file"),
            absl::string_view::npos)
      << hosts.status();
  hosts = ReadHostsFile(dir.File("missing.txt"));
  ASSERT_EQ(hosts.status().code(), absl::StatusCode::kNotFound) << hosts.status();
  EXPECT_NE(hosts.status().message().find("missing.txt"), absl::string_view::npos);
  // Windows line ends are whitespace around an entry.
  {
    std::ofstream out(dir.File("crlf.txt"));
    out << "10.0.1.5\r\n\r\n10.0.2.7:9000\r\n";
  }
  hosts = ReadHostsFile(dir.File("crlf.txt"));
  ASSERT_TRUE(hosts.ok()) << hosts.status();
  EXPECT_EQ(*hosts, (std::vector<std::string>{absl::StrCat("10.0.1.5:", kDefaultAgentPort),
                                              "10.0.2.7:9000"}));
}

// --hosts-file read the same agent twice into two connections to one agent_id, refused later by
// ConnectFleet as two agents of one name; a campaign's hosts_file refused it with the file's line.
// Both read hosts files here now, and the campaign's rule is kept.
TEST(HostsFileTest, AHostListedTwiceInAHostsFileIsRefusedWithBothLines) {
  TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("hosts.txt");
  {
    std::ofstream out(path);
    out << "10.0.1.5\n10.0.2.7\n# again, with the default port written out\n10.0.1.5:7480\n";
  }
  absl::StatusOr<std::vector<std::string>> hosts = ReadHostsFile(path);
  ASSERT_EQ(hosts.status().code(), absl::StatusCode::kInvalidArgument) << hosts.status();
  EXPECT_EQ(hosts.status().message(),
            path + ":4: host '10.0.1.5:7480' is listed twice (also on line 1)");
}

TEST(HostsFileTest, AHostsFileOfOnlyCommentsSaysItListsNoHosts) {
  TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("hosts.txt");
  {
    std::ofstream out(path);
    out << "# no agents yet\n\n   \n";
  }
  absl::StatusOr<std::vector<std::string>> hosts = ReadHostsFile(path);
  ASSERT_EQ(hosts.status().code(), absl::StatusCode::kInvalidArgument) << hosts.status();
  EXPECT_EQ(hosts.status().message(),
            "'" + path + "' lists no hosts; write one host[:port] per line");
}

}  // namespace
}  // namespace azbench

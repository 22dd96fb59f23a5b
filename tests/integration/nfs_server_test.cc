// The NFS server fixture (tests/testing/nfs_server_fixture.h): a file written over NFSv3 through
// libnfs across the veth reads back the same and lands in the exported directory; nothing of the
// fixture outlives it.
#include <fcntl.h>
#include <nfsc/libnfs.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/netns.h"
#include "tests/testing/nfs_server_fixture.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using testing::NfsServerFixture;
using testing::RunCommand;

struct NfsContextDeleter {
  void operator()(nfs_context* nfs) const { nfs_destroy_context(nfs); }
};

TEST(NfsServerFixtureTest, FileWrittenOverNfsV3ReadsBackAndLandsInTheExport) {
  NfsServerFixture server;
  if (server.unsupported()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();

  std::unique_ptr<nfs_context, NfsContextDeleter> nfs(nfs_init_context());
  ASSERT_NE(nfs, nullptr);
  nfs_url* url = nfs_parse_url_dir(nfs.get(), server.Url().c_str());
  ASSERT_NE(url, nullptr) << nfs_get_error(nfs.get());
  const int mounted = nfs_mount(nfs.get(), url->server, url->path);
  nfs_destroy_url(url);
  ASSERT_EQ(mounted, 0) << nfs_get_error(nfs.get()) << "\n" << server.Log();

  constexpr size_t kBytes = 4 << 20, kChunk = 64 << 10;
  std::vector<char> data(kBytes);
  std::mt19937_64 rng(7);
  for (char& c : data) c = static_cast<char>(rng());
  nfsfh* fh = nullptr;
  ASSERT_EQ(nfs_creat(nfs.get(), "/data.bin", 0644, &fh), 0) << nfs_get_error(nfs.get());
  for (size_t at = 0; at < kBytes; at += kChunk) {
    ASSERT_EQ(nfs_pwrite(nfs.get(), fh, at, kChunk, data.data() + at), static_cast<int>(kChunk))
        << nfs_get_error(nfs.get());
  }
  ASSERT_EQ(nfs_fsync(nfs.get(), fh), 0) << nfs_get_error(nfs.get());
  std::vector<char> back(kBytes);
  for (size_t at = 0; at < kBytes; at += kChunk) {
    ASSERT_EQ(nfs_pread(nfs.get(), fh, at, kChunk, back.data() + at), static_cast<int>(kChunk))
        << nfs_get_error(nfs.get());
  }
  nfs_close(nfs.get(), fh);
  EXPECT_TRUE(back == data);
  EXPECT_TRUE(testing::FileContents(server.export_dir() + "/data.bin") ==
              std::string(data.begin(), data.end()));
}

TEST(NfsServerFixtureTest, LeavesNoNamespaceLinkOrDirectoryBehind) {
  std::string netns, links, dir;
  {
    NfsServerFixture server;
    if (server.unsupported()) GTEST_SKIP() << server.error();
    ASSERT_TRUE(server.ok()) << server.error();
    dir = server.export_dir();
    RunCommand({testing::kIpBinary, "netns", "list"}, &netns);
    ASSERT_NE(netns.find(NfsServerFixture::kNamespacePrefix), std::string::npos);
  }
  RunCommand({testing::kIpBinary, "netns", "list"}, &netns);
  RunCommand({testing::kIpBinary, "-o", "link", "show"}, &links);
  const std::string mine = NfsServerFixture::kNamespacePrefix + std::to_string(getpid());
  EXPECT_EQ(netns.find(mine), std::string::npos) << netns;
  EXPECT_EQ(
      links.find(std::string(": ") + NfsServerFixture::kLinkPrefix + std::to_string(getpid())),
      std::string::npos)
      << links;
  EXPECT_FALSE(std::filesystem::exists(dir));
}

TEST(NfsServerFixtureTest, RemovesWhatACrashedRunLeftBehind) {
  // A crashed run's leftovers: a namespace and a link named for a process that no longer exists.
  const pid_t dead = fork();
  if (dead == 0) _exit(0);
  int status = 0;
  waitpid(dead, &status, 0);
  const std::string ns = NfsServerFixture::kNamespacePrefix + std::to_string(dead);
  const std::string link = NfsServerFixture::kLinkPrefix + std::to_string(dead) + "h";
  ASSERT_EQ(RunCommand({testing::kIpBinary, "netns", "add", ns}), 0);
  ASSERT_EQ(RunCommand({testing::kIpBinary, "link", "add", link, "type", "veth", "peer", "name",
                        NfsServerFixture::kLinkPrefix + std::to_string(dead) + "n"}),
            0);
  {
    NfsServerFixture server;
    if (server.unsupported()) GTEST_SKIP() << server.error();
    ASSERT_TRUE(server.ok()) << server.error();
  }
  std::string netns, links;
  RunCommand({testing::kIpBinary, "netns", "list"}, &netns);
  RunCommand({testing::kIpBinary, "-o", "link", "show"}, &links);
  EXPECT_EQ(netns.find(ns), std::string::npos) << netns;
  EXPECT_EQ(links.find(link), std::string::npos) << links;
  // Whatever the assertions said: nothing of this test stays.
  RunCommand({testing::kIpBinary, "netns", "del", ns});
  RunCommand({testing::kIpBinary, "link", "del", link});
}

}  // namespace
}  // namespace azbench

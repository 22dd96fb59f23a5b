// The lab's tests share one machine-wide lab: each takes a lock before it builds one and takes it
// down after, so that the test cases ctest runs at once take turns. Skipped without root or
// without what the lab needs (scripts/setup.sh installs it).
//
//   class MyLabTest : public testing::LabFixture {};
//   TEST_F(MyLabTest, X) { int code; RunAzbench({"lab", "up", "--dir", kLabTestDir}, &code); }
#ifndef AZBENCH_TESTS_TESTING_LAB_FIXTURE_H_
#define AZBENCH_TESTS_TESTING_LAB_FIXTURE_H_

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <regex>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tests/testing/dependencies.h"
#include "tests/testing/netns.h"

namespace azbench::testing {

inline constexpr char kLabTestDir[] = "/var/tmp/azbench-lab-test";

// `azbench ARGS...` (the binary the integration test was built with); its output.
inline std::string RunAzbench(const std::vector<std::string>& args, int* code) {
  std::vector<std::string> argv = {AZBENCH_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  std::string output;
  *code = RunCommand(argv, &output);
  return output;
}

// Microseconds of "  FROM -> TO: N us" in `azbench lab status` output, or -1.
inline double StatusRttUs(const std::string& status, const std::string& from,
                          const std::string& to) {
  std::smatch m;
  const std::regex line("  " + from + " -> " + to + ": ([0-9]+) us");
  return std::regex_search(status, m, line) ? std::stod(m[1]) : -1;
}

class LabFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "azbench lab needs root";
    for (const auto& [name, path] : {std::pair<const char*, const char*>{
                                         "ganesha.nfsd (nfs-ganesha)", "/usr/bin/ganesha.nfsd"},
                                     {"rpcbind", "/usr/sbin/rpcbind"},
                                     {"tc (iproute2)", "/usr/sbin/tc"}}) {
      if (std::string missing = MissingDependency(name, path); !missing.empty()) {
        GTEST_SKIP() << missing;
      }
    }
    lock_fd_ = open("/var/tmp/azbench-lab-test.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    ASSERT_GE(lock_fd_, 0);
    flock(lock_fd_, LOCK_EX);
  }
  void TearDown() override {
    if (lock_fd_ < 0) return;
    int code = 0;
    const std::string out = RunAzbench({"lab", "down", "--dir", kLabTestDir}, &code);
    EXPECT_EQ(code, 0) << out;
    close(lock_fd_);
  }

 private:
  int lock_fd_ = -1;
};

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_LAB_FIXTURE_H_

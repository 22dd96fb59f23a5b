// The tools scripts/setup.sh installs that tests run, at the paths tests/CMakeLists.txt recorded at
// configure time (so a build tree outside the source tree finds them too), and the one message a
// test gives when one is missing. scripts/test.sh fails a run in which any test skipped with it.
//
//   if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
//       !missing.empty()) GTEST_SKIP() << missing;
#ifndef AZBENCH_TESTS_TESTING_DEPENDENCIES_H_
#define AZBENCH_TESTS_TESTING_DEPENDENCIES_H_

#include <unistd.h>

#include <string>
#include <string_view>

#if !defined(AZBENCH_TEST_S3RVER) || !defined(AZBENCH_TEST_FIO) ||                                 \
    !defined(AZBENCH_TEST_CHROMIUM) || !defined(AZBENCH_TEST_NODE) || !defined(AZBENCH_TEST_IP) || \
    !defined(AZBENCH_SOURCE_DIR)
#error "link the test with azbench_test_dependencies (tests/CMakeLists.txt defines the paths)"
#endif

namespace azbench::testing {

// The source tree (examples/, testdata), wherever the build tree is.
inline constexpr char kSourceDir[] = AZBENCH_SOURCE_DIR;

inline constexpr char kS3rverBinary[] = AZBENCH_TEST_S3RVER;  // npm's s3rver in tests/s3server
inline constexpr char kFioBinary[] = AZBENCH_TEST_FIO;        // Debian fio
inline constexpr char kChromiumBinary[] = AZBENCH_TEST_CHROMIUM;
inline constexpr char kNodeBinary[] = AZBENCH_TEST_NODE;  // Debian nodejs
inline constexpr char kIpBinary[] = AZBENCH_TEST_IP;      // iproute2

// What scripts/test.sh looks for in the test log.
inline constexpr char kMissingDependencyMarker[] = "missing dependency: ";

// Empty when `path` is an executable file; else the message to fail or skip with, e.g.
// "missing dependency: fio at /usr/bin/fio (scripts/setup.sh installs it)".
inline std::string MissingDependency(std::string_view name, std::string_view path) {
  if (access(std::string(path).c_str(), X_OK) == 0) return "";
  return std::string(kMissingDependencyMarker) + std::string(name) + " at " + std::string(path) +
         " (scripts/setup.sh installs it)";
}

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_DEPENDENCIES_H_

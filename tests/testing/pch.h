// The headers most test files include, precompiled once for every test target
// (tests/CMakeLists.txt, azbench_test_pch). A test file still includes what it uses: this list
// only decides what is parsed ahead of time. Headers that few tests use (the wire contract,
// nlohmann/json, yaml-cpp) stay out: each test file that includes them would pay for loading them.
#ifndef AZBENCH_TESTS_TESTING_PCH_H_
#define AZBENCH_TESTS_TESTING_PCH_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

#endif  // AZBENCH_TESTS_TESTING_PCH_H_

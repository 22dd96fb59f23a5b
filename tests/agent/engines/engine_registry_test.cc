// The explicit registry: every listed name builds its engine; an unknown name is NotFound with the
// list.
#include <memory>
#include <string>
#include <vector>

#include "agent/engines/io_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(EngineRegistryTest, ListsTheEnginesBuiltIn) {
  EXPECT_THAT(EngineNames(), ElementsAre("psync", "sync", "libaio", "io_uring", "null", "nfs"));
}

TEST(EngineRegistryTest, EveryListedNameCreatesAnEngineThatInitializes) {
  for (const std::string& name : EngineNames()) {
    absl::StatusOr<std::unique_ptr<IoEngine>> engine = CreateEngine(name);
    ASSERT_TRUE(engine.ok()) << name << ": " << engine.status();
    ASSERT_NE(*engine, nullptr);
    if (name == "nfs") {
      // It connects to a server in Init (tests/integration/nfs_engine_test.cc): without one it
      // says what is missing.
      EXPECT_THAT((*engine)->Init(EngineOptions{}),
                  StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("needs nfs_url")));
    } else {
      EXPECT_TRUE((*engine)->Init(EngineOptions{}).ok()) << name;
    }
    EXPECT_EQ((*engine)->name(), name == "sync" ? "psync" : name);
  }
}

TEST(EngineRegistryTest, SyncIsAnAliasOfPsync) {
  absl::StatusOr<std::unique_ptr<IoEngine>> engine = CreateEngine("sync");
  ASSERT_TRUE(engine.ok());
  EXPECT_EQ((*engine)->name(), "psync");
}

TEST(EngineRegistryTest, CapabilitiesMatchTheKindOfEngine) {
  auto caps = [](const char* name) { return (*CreateEngine(name))->capabilities(); };
  EXPECT_FALSE(caps("psync").is_async);
  EXPECT_EQ(caps("psync").max_iodepth, 1);
  EXPECT_TRUE(caps("libaio").is_async);
  EXPECT_TRUE(caps("io_uring").is_async);
  EXPECT_EQ(caps("io_uring").max_iodepth, 4096);
  EXPECT_FALSE(caps("null").is_async);
  EXPECT_FALSE(caps("null").does_io);
}

TEST(EngineRegistryTest, UnknownNameIsNotFoundAndNamesTheEngineAndTheList) {
  for (const char* name : {"posixaio", "", "IO_URING"}) {
    absl::StatusOr<std::unique_ptr<IoEngine>> engine = CreateEngine(name);
    ASSERT_FALSE(engine.ok());
    EXPECT_EQ(engine.status().code(), absl::StatusCode::kNotFound);
    const std::string message(engine.status().message());
    EXPECT_THAT(message, HasSubstr(std::string("\"") + name + "\""));
    EXPECT_THAT(message, HasSubstr("psync, sync, libaio, io_uring, null"));
  }
}

}  // namespace
}  // namespace azbench

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
  EXPECT_THAT(EngineNames(), ElementsAre("psync", "sync", "vsync", "pvsync", "pvsync2", "posixaio",
                                         "mmap", "libaio", "io_uring", "null", "nfs", "filecreate",
                                         "filestat", "filedelete", "dircreate", "dirstat",
                                         "dirdelete", "falloc", "ftruncate"));
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
  for (const char* name : {"vsync", "pvsync", "pvsync2", "mmap"}) {
    EXPECT_FALSE(caps(name).is_async) << name;
    EXPECT_EQ(caps(name).max_iodepth, 1) << name;
  }
  EXPECT_FALSE(caps("mmap").supports_direct) << "fio's mmap only imitates O_DIRECT";
  EXPECT_TRUE(caps("posixaio").is_async);
  EXPECT_EQ(caps("posixaio").max_iodepth, 4096);
}

TEST(EngineRegistryTest, PvsyncRefusesPerCallFlagsThatOnlyPvsync2Passes) {
  EngineOptions options;
  options.rw_flags = 1;
  EXPECT_THAT((*CreateEngine("pvsync"))->Init(options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("need pvsync2")));
  EXPECT_TRUE((*CreateEngine("pvsync2"))->Init(options).ok());
}

TEST(EngineRegistryTest, UnknownNameIsNotFoundAndNamesTheEngineAndTheList) {
  for (const char* name : {"windowsaio", "", "IO_URING"}) {
    absl::StatusOr<std::unique_ptr<IoEngine>> engine = CreateEngine(name);
    ASSERT_FALSE(engine.ok());
    EXPECT_EQ(engine.status().code(), absl::StatusCode::kNotFound);
    const std::string message(engine.status().message());
    EXPECT_THAT(message, HasSubstr(std::string("\"") + name + "\""));
    EXPECT_THAT(message, HasSubstr("psync, sync, vsync, pvsync, pvsync2, posixaio, mmap, libaio"));
  }
}

}  // namespace
}  // namespace azbench

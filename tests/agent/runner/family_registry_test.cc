#include "agent/runner/family_registry.h"

#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "common/workload_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

TEST(FamilyRegistryTest, EveryFamilyIsFoundByTheNameItAnswersTo) {
  std::set<std::string> names;
  for (const char* name : {"block_io", "metadata", "small_files", "large_stream", "visibility"}) {
    absl::StatusOr<const Family*> family = FindFamily(name);
    ASSERT_TRUE(family.ok()) << family.status();
    EXPECT_EQ((*family)->name(), name);
    names.insert(std::string((*family)->name()));
  }
  EXPECT_EQ(names.size(), Families().size()) << "one registry line per family, none twice";
}

// The coordinator checks campaigns against common/workload_spec.h's list: a family it accepts is
// one every agent has, and the other way round.
TEST(FamilyRegistryTest, TheAgentsFamiliesAreTheOnesTheCampaignParserAccepts) {
  std::vector<std::string> names;
  for (const Family* family : Families()) names.emplace_back(family->name());
  EXPECT_EQ(absl::StrJoin(names, ", "), WorkloadFamilyNames());
}

TEST(FamilyRegistryTest, AnUnknownWorkloadIsRefusedNamingTheAllowedOnes) {
  absl::StatusOr<const Family*> family = FindFamily("mdtest");
  ASSERT_EQ(family.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(family.status().message()),
              HasSubstr("workload 'mdtest' is not supported; allowed: block_io, metadata, "
                        "small_files, large_stream, visibility"));
}

TEST(FamilyRegistryTest, AFamilyParsesItsOwnOptionsAndNamesTheJobInARefusal) {
  absl::StatusOr<const Family*> family = FindFamily("small_files");
  ASSERT_TRUE(family.ok());
  JobRequest request{"sf", "small_files", {{"directory", "/data"}, {"files", "7"}}};
  absl::StatusOr<std::unique_ptr<ParsedJob>> job = (*family)->Parse(request, FamilyContext{});
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ((*job)->name(), "sf");
  absl::StatusOr<JobFootprint> footprint = (*job)->Footprint();
  ASSERT_TRUE(footprint.ok());
  EXPECT_EQ(footprint->files, 7u * 5u) << "7 files of each of the 5 default sizes";

  request.options.push_back({"iodepth", "4"});
  job = (*family)->Parse(request, FamilyContext{});
  ASSERT_FALSE(job.ok());
  EXPECT_THAT(std::string(job.status().message()), HasSubstr("job 'sf': option 'iodepth'"));
}

}  // namespace
}  // namespace azbench

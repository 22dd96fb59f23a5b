// fio's directory lists: `directory=a:b:c` spreads a job's clones over the directories (clone n in
// the (n mod 3)-th), names given by `filename` go in the first, and `\:` is a colon in a name.
// The placements are fio 3.33's for the same jobs (`--numjobs=4 --nrfiles=2` over three
// directories; `--filename=a:b --numjobs=2` over two).
#include <sys/stat.h>

#include <memory>
#include <string>
#include <vector>

#include "agent/workloads/block_io/block_io.h"
#include "agent/workloads/block_io/block_io_family.h"
#include "agent/workloads/family.h"
#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(DirectoryListTest, ClonesGoRoundTheDirectoriesAsFio) {
  JobSpec spec;
  spec.name = "j";
  spec.nrfiles = 2;
  ASSERT_TRUE(ApplyJobOption(spec, "directory", "/d1:/d2:/d\\:3").ok());
  EXPECT_THAT(spec.FilePaths(0), ElementsAre("/d1/j.0.0", "/d1/j.0.1"));
  EXPECT_THAT(spec.FilePaths(1), ElementsAre("/d2/j.1.0", "/d2/j.1.1"));
  EXPECT_THAT(spec.FilePaths(2), ElementsAre("/d:3/j.2.0", "/d:3/j.2.1"));
  EXPECT_THAT(spec.FilePaths(3), ElementsAre("/d1/j.3.0", "/d1/j.3.1"));
}

TEST(DirectoryListTest, NamedFilesGoInTheFirstDirectory) {
  JobSpec spec;
  spec.name = "k";
  spec.directory = "/d1:/d2";
  spec.filename = "a:b:/abs";
  EXPECT_THAT(spec.FilePaths(0), ElementsAre("/d1/a", "/d1/b", "/abs"));
  EXPECT_THAT(spec.FilePaths(1), ElementsAre("/d1/a", "/d1/b", "/abs"));
}

TEST(DirectoryListTest, ASingleDirectoryIsUnchanged) {
  JobSpec spec;
  spec.name = "j";
  spec.directory = "/data/";
  EXPECT_THAT(spec.FilePaths(3), ElementsAre("/data/j.3.0"));
}

TEST(DirectoryListTest, AJobLaysOutAndRunsItsClonesInTheirDirectories) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::vector<std::string> directories = {dir.File("d1"), dir.File("d2"), dir.File("d:3")};
  for (const std::string& d : directories) ASSERT_EQ(mkdir(d.c_str(), 0755), 0) << d;
  JobSpec spec;
  spec.name = "j";
  spec.directory = dir.File("d1") + ":" + dir.File("d2") + ":" + dir.File("d\\:3");
  spec.numjobs = 4;
  spec.nrfiles = 2;
  spec.size_bytes = 8 << 10;
  spec.rw = RwPattern::kWrite;
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  const OpStats* writes = result->Find(OpKind::kWrite);
  ASSERT_NE(writes, nullptr);
  EXPECT_EQ(writes->bytes, 4u * (8 << 10));
  // fio 3.33's placement for the same job.
  for (const auto& [clone, where] :
       std::vector<std::pair<int, std::string>>{{0, "d1"}, {1, "d2"}, {2, "d:3"}, {3, "d1"}}) {
    for (int f = 0; f < 2; ++f) {
      const std::string path =
          dir.File(where + "/j." + std::to_string(clone) + "." + std::to_string(f));
      struct stat st {};
      EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
    }
  }
  EXPECT_TRUE((*job)->RemoveCreatedFiles().ok());
}

// A serving agent's job lives in its own directory of the campaign's target: a list is refused
// there, naming the job; `azbench-agent run` (no agent directory) takes it.
TEST(DirectoryListTest, AServingAgentRefusesAListNamingTheJob) {
  JobRequest request;
  request.name = "spread";
  request.options = {{"directory", "/d1:/d2"}, {"size", "1m"}};
  FamilyContext serving;
  serving.agent_subdir = "agent-1";
  absl::StatusOr<std::unique_ptr<ParsedJob>> job = BlockIoFamily().Parse(request, serving);
  EXPECT_EQ(job.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(job.status().message()),
              AllOf(HasSubstr("job 'spread'"), HasSubstr("azbench-agent run")));
  EXPECT_TRUE(BlockIoFamily().Parse(request, FamilyContext{}).ok());
  request.options = {{"directory", "/d\\:1"}, {"size", "1m"}};
  EXPECT_TRUE(BlockIoFamily().Parse(request, serving).ok()) << "an escaped colon is a name";
}

}  // namespace
}  // namespace azbench

// The file-operation engines' job: the names fio 3.33 creates, stats and deletes for the same job,
// one op per name as fio counts them (fio's read total_ios), and the options that only these
// engines take.
#include "agent/workloads/block_io/file_op_job.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/fio_json.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::AllOf;
using ::testing::HasSubstr;

std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

JobSpec Job(const std::string& engine, const std::string& dir) {
  JobSpec spec;
  spec.name = "t";
  spec.ioengine = engine;
  spec.directory = dir;
  spec.nrfiles = 5;
  spec.numjobs = 2;
  spec.file_size_bytes = 4096;
  return spec;
}

// Runs the job; the ops of `kind` (errors in `*errors`).
uint64_t RunOps(const JobSpec& spec, OpKind kind, uint64_t* errors) {
  absl::StatusOr<std::unique_ptr<FileOpJob>> job = FileOpJob::Prepare(spec, 0);
  EXPECT_TRUE(job.ok()) << job.status();
  if (!job.ok()) return 0;
  absl::StatusOr<std::vector<JobResult>> results = (*job)->Run(RunControl{});
  EXPECT_TRUE(results.ok()) << results.status();
  if (!results.ok() || results->size() != 1) return 0;
  const OpStats* stats = (*results)[0].Find(kind);
  EXPECT_NE(stats, nullptr);
  if (stats == nullptr) return 0;
  *errors = stats->errors;
  return stats->ops;
}

class FileOpJobTest : public ::testing::Test {
 protected:
  // fio 3.33 on the same job in `dir`: its read total_ios (fio's count of file ops).
  int64_t FioOps(const std::string& engine, const std::string& dir) {
    std::vector<std::string> argv = {testing::kFioBinary,
                                     "--name=t",
                                     "--ioengine=" + engine,
                                     "--directory=" + dir,
                                     "--nrfiles=5",
                                     "--numjobs=2",
                                     "--filesize=4k",
                                     "--output-format=json",
                                     "--output=" + tmp_.File("fio.json")};
    testing::Subprocess fio(argv, tmp_.File("fio-output.txt"));
    EXPECT_EQ(fio.Wait(std::chrono::seconds(30)), 0) << fio.Output();
    const nlohmann::json doc = testing::LoadFioJson(tmp_.File("fio.json"));
    if (!doc.contains("jobs")) return -1;
    int64_t ops = 0;
    for (const auto& job : doc["jobs"]) ops += job["read"]["total_ios"].get<int64_t>();
    return ops;
  }
  bool HaveFio() { return testing::MissingDependency("fio", testing::kFioBinary).empty(); }

  testing::TempDir tmp_;
  testing::TempDir ours_;
  testing::TempDir fios_;
};

TEST_F(FileOpJobTest, CreateStatDeleteTouchTheNamesFioDoesOneOpPerName) {
  if (!HaveFio()) FAIL() << testing::MissingDependency("fio", testing::kFioBinary);
  const struct {
    const char* engine;
    OpKind kind;
  } steps[] = {{"filecreate", OpKind::kCreate},
               {"filestat", OpKind::kStat},
               {"filedelete", OpKind::kUnlink}};
  for (const auto& step : steps) {
    SCOPED_TRACE(step.engine);
    EXPECT_EQ(FioOps(step.engine, fios_.path()), 10);
    uint64_t errors = 0;
    EXPECT_EQ(RunOps(Job(step.engine, ours_.path()), step.kind, &errors), 10u);
    EXPECT_EQ(errors, 0u);
    EXPECT_EQ(Names(ours_.path()), Names(fios_.path()));
  }
  EXPECT_TRUE(Names(ours_.path()).empty()) << "filedelete removed every file";
}

TEST_F(FileOpJobTest, FilecreateMakesEmptyFilesAsFioDoes) {
  uint64_t errors = 0;
  EXPECT_EQ(RunOps(Job("filecreate", ours_.path()), OpKind::kCreate, &errors), 10u);
  struct stat st;
  ASSERT_EQ(stat((ours_.path() + "/t.1.4").c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 0);
}

TEST_F(FileOpJobTest, FilestatLaysOutMissingFilesWithFilesizeAndEveryStatTypeWorks) {
  for (StatType type : {StatType::kStat, StatType::kLstat, StatType::kStatx}) {
    JobSpec spec = Job("filestat", ours_.path());
    spec.stat_type = type;
    uint64_t errors = 0;
    EXPECT_EQ(RunOps(spec, OpKind::kStat, &errors), 10u);
    EXPECT_EQ(errors, 0u);
  }
  struct stat st;
  ASSERT_EQ(stat((ours_.path() + "/t.0.0").c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 4096);
}

TEST_F(FileOpJobTest, DirectoryEnginesMakeStatAndRemoveTheNamesAsDirectories) {
  uint64_t errors = 0;
  EXPECT_EQ(RunOps(Job("dircreate", ours_.path()), OpKind::kCreate, &errors), 10u);
  EXPECT_TRUE(std::filesystem::is_directory(ours_.path() + "/t.1.2"));
  EXPECT_EQ(RunOps(Job("dirstat", ours_.path()), OpKind::kStat, &errors), 10u);
  EXPECT_EQ(errors, 0u);
  EXPECT_EQ(RunOps(Job("dirdelete", ours_.path()), OpKind::kUnlink, &errors), 10u);
  EXPECT_EQ(errors, 0u);
  EXPECT_TRUE(Names(ours_.path()).empty());
}

TEST_F(FileOpJobTest, AFailedOpIsAnErrorOfItsKindAndThePassGoesOn) {
  JobSpec spec = Job("filedelete", ours_.path());
  absl::StatusOr<std::unique_ptr<FileOpJob>> job = FileOpJob::Prepare(spec, 0);
  ASSERT_TRUE(job.ok()) << job.status();
  ASSERT_EQ(unlink((ours_.path() + "/t.0.3").c_str()), 0);
  absl::StatusOr<std::vector<JobResult>> results = (*job)->Run(RunControl{});
  ASSERT_TRUE(results.ok());
  const OpStats* stats = (*results)[0].Find(OpKind::kUnlink);
  ASSERT_NE(stats, nullptr);
  EXPECT_EQ(stats->ops, 9u);
  EXPECT_EQ(stats->errors, 1u);
  EXPECT_TRUE((*job)->RemoveCreatedFiles().ok()) << "names already gone are not an error";
}

TEST_F(FileOpJobTest, FileOptionsAreRefusedWhereTheyWouldNotBeHonoured) {
  JobSpec spec = Job("psync", ours_.path());
  spec.size_bytes = 1 << 20;
  spec.file_size_bytes = 0;
  spec.openfiles = 1;
  EXPECT_THAT(ValidateJobSpec(spec),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("openfiles 1 is below")));
  spec = Job("filestat", ours_.path());
  spec.create_on_open = true;
  EXPECT_THAT(ValidateJobSpec(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                              HasSubstr("create_on_open=1 applies only")));
  JobSpec parsed;
  EXPECT_THAT(ApplyJobOption(parsed, "fallocate", "always"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("allowed: none, native")));
  EXPECT_TRUE(ApplyJobOption(parsed, "fallocate", "none").ok());
  EXPECT_THAT(ApplyJobOption(parsed, "filesize", "4k-8k"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("ranges")));
  EXPECT_THAT(ApplyJobOption(parsed, "stat_type", "fstat"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("stat, lstat, statx")));
}

// A pass is one op per name: options that pace or repeat a data job are refused here; runtime
// caps the pass.
TEST_F(FileOpJobTest, PacingOptionsAreRefusedAndRuntimeCapsThePass) {
  for (const auto& [option, value] : std::vector<std::pair<std::string, std::string>>{
           {"rate_iops", "100"}, {"thinktime", "1ms"}, {"loops", "2"}, {"time_based", "1"}}) {
    JobSpec spec = Job("filecreate", ours_.path());
    spec.runtime = absl::Seconds(1);  // time_based needs one
    ASSERT_TRUE(ApplyJobOption(spec, option, value).ok()) << option;
    EXPECT_THAT(FileOpJob::Prepare(spec, 0),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         AllOf(HasSubstr("ioengine=filecreate"), HasSubstr("cannot be used"))))
        << option;
  }
  EXPECT_TRUE(Names(ours_.path()).empty()) << "refused before anything was made";

  JobSpec spec = Job("filecreate", ours_.path());
  spec.runtime = absl::Nanoseconds(1);
  uint64_t errors = 0;
  EXPECT_LT(RunOps(spec, OpKind::kCreate, &errors), 10u) << "the pass ends at runtime";
}

}  // namespace
}  // namespace azbench

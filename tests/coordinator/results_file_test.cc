// The results database as a file (coordinator/results_file.h): the lock one `azbench run` holds on
// its database, with real files and real flock(2) locks (two attempts in one process conflict as
// two processes would: each opens the lock file on its own).
#include "coordinator/results_file.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using ::azbench::testing::StatusIs;
using ::azbench::testing::TempDir;
using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(ResultsLockTest, ASecondRunIsRefusedNamingTheDatabaseAndThePidHoldingIt) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.File("conc.db");
  absl::StatusOr<std::unique_ptr<ResultsLock>> first = ResultsLock::Acquire(db);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ((*first)->path(), db + ".lock");
  EXPECT_EQ(testing::FileContents(db + ".lock"), absl::StrCat(getpid(), "\n"));

  absl::StatusOr<std::unique_ptr<ResultsLock>> second = ResultsLock::Acquire(db);
  EXPECT_THAT(second.status(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       AllOf(HasSubstr(absl::StrCat("results database '", db,
                                                    "' is in use by another azbench run (pid ",
                                                    getpid(), ", lock file '", db, ".lock')")),
                             HasSubstr("give this run another --db"))));

  first->reset();
  EXPECT_FALSE(fs::exists(db + ".lock")) << "a run that ends removes its lock file";
  second = ResultsLock::Acquire(db);
  EXPECT_TRUE(second.ok()) << second.status();
}

TEST(ResultsLockTest, TheLockStaysWithThePathWhenTheDatabaseIsMovedAside) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.File("r.db");
  absl::StatusOr<std::unique_ptr<ResultsLock>> first = ResultsLock::Acquire(db);
  ASSERT_TRUE(first.ok()) << first.status();
  std::ofstream(db).flush();
  absl::StatusOr<std::string> aside = MoveResultsAside(db);
  ASSERT_TRUE(aside.ok()) << aside.status();
  EXPECT_TRUE(fs::exists(db + ".lock"));
  EXPECT_FALSE(ResultsLock::Acquire(db).ok()) << "the new database at the path is still locked";
}

TEST(ResultsLockTest, AProcessThatDiesReleasesItsLock) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.File("r.db");
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  if (child == 0) {
    close(ready[0]);
    absl::StatusOr<std::unique_ptr<ResultsLock>> held = ResultsLock::Acquire(db);
    const char ok = held.ok() ? 'y' : 'n';
    (void)!write(ready[1], &ok, 1);
    if (!held.ok()) _exit(1);
    pause();  // killed holding the lock, its file left behind
    _exit(0);
  }
  // Killed and reaped however the test ends (a failed ASSERT returns early).
  struct Reaper {
    pid_t pid;
    ~Reaper() {
      if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
      }
    }
  } reaper{child};
  close(ready[1]);
  char ok = 0;
  ASSERT_EQ(read(ready[0], &ok, 1), 1);
  close(ready[0]);
  ASSERT_EQ(ok, 'y');
  EXPECT_THAT(ResultsLock::Acquire(db).status(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr(absl::StrCat("(pid ", child, ", lock file"))));
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  reaper.pid = 0;
  ASSERT_TRUE(fs::exists(db + ".lock")) << "SIGKILL left the file";
  absl::StatusOr<std::unique_ptr<ResultsLock>> next = ResultsLock::Acquire(db);
  EXPECT_TRUE(next.ok()) << next.status();
}

TEST(ResultsLockTest, AMissingDirectoryIsNamed) {
  EXPECT_THAT(
      ResultsLock::Acquire("/nonexistent-azbench-dir/x.db").status(),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("cannot create its lock file '/nonexistent-azbench-dir/x.db.lock'")));
}

}  // namespace
}  // namespace azbench

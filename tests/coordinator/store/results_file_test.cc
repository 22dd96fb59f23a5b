// The results database as a file (coordinator/store/results_file.h): the lock one `azbench run`
// holds on its database, with real files and real flock(2) locks (two attempts in one process
// conflict as two processes would: each opens the lock file on its own).
#include "coordinator/store/results_file.h"

#include <grp.h>
#include <signal.h>
#include <sys/stat.h>
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

// The lock file another user's killed run left in a shared directory, which this user cannot
// write: `owner` (root) made `db`.lock (mode 0644, naming a pid no process has) in a directory of
// mode `dir_mode`; a child as nobody (65534) takes the lock and holds it until `release` is
// closed. Returns the child's pid (0 and the test failed when it could not take it).
class ForeignLockFileTest : public ::testing::Test {
 protected:
  static constexpr uid_t kNobody = 65534;
  static constexpr char kStalePid[] = "2147483647";  // beyond any pid_max: not running

  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root to act as another user";
    ASSERT_TRUE(dir_.ok());
  }
  void TearDown() override {
    if (release_ >= 0) close(release_);
    if (child_ > 0) {
      kill(child_, SIGKILL);
      waitpid(child_, nullptr, 0);
    }
  }

  void HoldAsNobody(mode_t dir_mode) {
    ASSERT_EQ(chmod(dir_.path().c_str(), dir_mode), 0);
    std::ofstream(lock_) << kStalePid << "\n";
    ASSERT_EQ(chmod(lock_.c_str(), 0644), 0);
    int ready[2], release[2];
    ASSERT_EQ(pipe(ready), 0);
    ASSERT_EQ(pipe(release), 0);
    child_ = fork();
    ASSERT_GE(child_, 0);
    if (child_ == 0) {
      close(ready[0]);
      close(release[1]);
      if (setgroups(0, nullptr) != 0 || setgid(kNobody) != 0 || setuid(kNobody) != 0) _exit(2);
      absl::StatusOr<std::unique_ptr<ResultsLock>> held = ResultsLock::Acquire(db_);
      const std::string answer = held.ok() ? "y" : std::string(held.status().message());
      (void)!write(ready[1], answer.data(), answer.size());
      close(ready[1]);
      char byte;
      (void)!read(release[0], &byte, 1);  // until the parent closes its end
      _exit(0);
    }
    close(ready[1]);
    close(release[0]);
    release_ = release[1];
    std::string answer;
    char buffer[512];
    ssize_t n;
    while ((n = read(ready[0], buffer, sizeof(buffer))) > 0) answer.append(buffer, n);
    close(ready[0]);
    ASSERT_EQ(answer, "y") << "nobody could not take the lock";
  }

  TempDir dir_;
  std::string db_ = dir_.File("shared.db");
  std::string lock_ = db_ + ".lock";
  pid_t child_ = 0;
  int release_ = -1;
};

TEST_F(ForeignLockFileTest, InAStickyDirectoryItIsLockedReadOnlyAndASecondRunSaysThePidIsStale) {
  HoldAsNobody(01777);
  struct stat st;
  ASSERT_EQ(stat(lock_.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 0u) << "nobody cannot remove root's file from a sticky directory";
  EXPECT_EQ(testing::FileContents(lock_), absl::StrCat(kStalePid, "\n"));
  EXPECT_THAT(ResultsLock::Acquire(db_).status(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       AllOf(HasSubstr(absl::StrCat("' is in use by another azbench run (pid not "
                                                    "known: the lock file names pid ",
                                                    kStalePid, ", which is not a process here")),
                             HasSubstr(absl::StrCat("lock file '", lock_, "'")))));
  close(release_);
  release_ = -1;
  ASSERT_EQ(waitpid(child_, nullptr, 0), child_);
  child_ = 0;
  absl::StatusOr<std::unique_ptr<ResultsLock>> next = ResultsLock::Acquire(db_);
  EXPECT_TRUE(next.ok()) << next.status();
}

TEST_F(ForeignLockFileTest, InADirectoryWithoutTheStickyBitItIsReplacedByOneNamingTheRun) {
  HoldAsNobody(0777);
  struct stat st;
  ASSERT_EQ(stat(lock_.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, kNobody) << "the stale file was replaced";
  EXPECT_EQ(testing::FileContents(lock_), absl::StrCat(child_, "\n"));
  EXPECT_THAT(ResultsLock::Acquire(db_).status(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr(absl::StrCat("in use by another azbench run (pid ", child_,
                                              ", lock file '", lock_, "')"))));
}

}  // namespace
}  // namespace azbench

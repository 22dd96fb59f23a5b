// The results database as a file: what a path given for one must be, and how an earlier one is
// moved aside for a new run (`azbench run` without --resume). Results are never overwritten.
//
//   RETURN_IF_ERROR(CheckResultsPath(db_path));
//   if (exists) ASSIGN_OR_RETURN(std::string aside, MoveResultsAside(db_path));
#ifndef AZBENCH_COORDINATOR_STORE_RESULTS_FILE_H_
#define AZBENCH_COORDINATOR_STORE_RESULTS_FILE_H_

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace azbench {

// Whether `path` is a regular file that begins with SQLite's header ("SQLite format 3").
bool IsSqliteFile(const std::string& path);

// A results database path must not be a directory, and when nothing is there yet, its directory
// must exist (what SQLite would only call "unable to open database file"). InvalidArgument naming
// the path and what is wrong with it.
absl::Status CheckResultsLocation(const std::string& db_path);

// A results database path must name an SQLite database, an empty file, or nothing yet in an
// existing directory (CheckResultsLocation): never a directory, a device, or some other file
// (which a new run would move aside and replace). InvalidArgument naming the path.
absl::Status CheckResultsPath(const std::string& db_path);

// Moves a results database and its -wal/-shm files to "<db>.<unix s>.bak" (".<unix s>.<N>.bak"
// when taken), a name none of them has yet: a retry within the same second never replaces an
// earlier backup. If a -wal or -shm file cannot follow, the database is put back (a new database
// must never meet an old WAL). Returns the backup's path. Errors: FailedPrecondition with the
// errno text.
absl::StatusOr<std::string> MoveResultsAside(const std::string& db_path);

// Undoes MoveResultsAside before anything was stored: removes the new database at `db_path`
// (with its -wal and -shm) and renames the backup `aside` (with its own) back. Errors:
// FailedPrecondition naming what could not be removed or moved back.
absl::Status RestoreResults(const std::string& aside, const std::string& db_path);

// An exclusive lock on a results database for one `azbench run`: flock(2) on "<db>.lock" (beside
// the database, never moved aside with it, never opened by SQLite, whose own locks are fcntl
// locks on the database file and would be released by any close of it). Taken before anything
// touches the database (the move aside, --resume's reads, Store::Open) and held until the run
// ends; the lock file holds the pid of the run that holds it. A lock file this user cannot write
// (another user's killed run left it in a shared directory) is replaced when the directory lets
// this user remove it, else locked read-only without writing the pid (a second run then says the
// pid the file names is not running). A process that dies, however it dies, releases it (the
// kernel drops the lock with the last descriptor; the descriptor is close-on-exec, so agents a
// local fleet starts never hold it). Readers (`report`, `compare`) do not take it: SQLite lets
// them read while a run writes.
class ResultsLock {
 public:
  // FailedPrecondition naming the database, the pid holding the lock (when known) and the lock
  // file when another run holds it; FailedPrecondition with the errno text when the lock file
  // cannot be created or locked.
  static absl::StatusOr<std::unique_ptr<ResultsLock>> Acquire(const std::string& db_path);
  // Removes the lock file and releases the lock.
  ~ResultsLock();
  ResultsLock(const ResultsLock&) = delete;
  ResultsLock& operator=(const ResultsLock&) = delete;

  const std::string& path() const { return path_; }  // "<db>.lock"

 private:
  ResultsLock(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::string path_;
  int fd_ = -1;
};

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_STORE_RESULTS_FILE_H_

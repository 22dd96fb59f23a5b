// The results database as a file: what a path given for one must be, and how an earlier one is
// moved aside for a new run (`azbench run` without --resume). Results are never overwritten.
//
//   RETURN_IF_ERROR(CheckResultsPath(db_path));
//   if (exists) ASSIGN_OR_RETURN(std::string aside, MoveResultsAside(db_path));
#ifndef AZBENCH_COORDINATOR_RESULTS_FILE_H_
#define AZBENCH_COORDINATOR_RESULTS_FILE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace azbench {

// Whether `path` is a regular file that begins with SQLite's header ("SQLite format 3").
bool IsSqliteFile(const std::string& path);

// A results database path must name an SQLite database, an empty file, or nothing yet: never a
// directory, a device, or some other file (which a new run would move aside and replace).
// InvalidArgument naming the path.
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

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_RESULTS_FILE_H_

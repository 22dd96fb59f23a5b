#include "coordinator/store/results_file.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "common/clock.h"
#include "common/errno_text.h"

namespace azbench {

namespace {

// rename(2) that never replaces `to`: errno EEXIST when it exists. Falls back to a check and a
// plain rename on file systems without RENAME_NOREPLACE.
int RenameNoReplace(const std::string& from, const std::string& to) {
  if (renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
  std::error_code ec;
  if (std::filesystem::exists(to, ec)) return EEXIST;
  return rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
}

}  // namespace

bool IsSqliteFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  char magic[16] = {};
  in.read(magic, sizeof(magic));
  return in.gcount() == sizeof(magic) && std::memcmp(magic, "SQLite format 3", 16) == 0;
}

absl::Status CheckResultsLocation(const std::string& db_path) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(db_path, ec);
  if (std::filesystem::is_directory(st)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "results database '", db_path, "' is a directory; give a results database file"));
  }
  if (std::filesystem::exists(st)) return absl::OkStatus();
  std::filesystem::path parent = std::filesystem::path(db_path).parent_path();
  if (parent.empty()) parent = ".";
  const std::filesystem::file_status parent_status = std::filesystem::status(parent, ec);
  if (!std::filesystem::exists(parent_status)) {
    return absl::InvalidArgumentError(
        absl::StrCat("results database '", db_path, "': its directory '", parent.string(),
                     "' does not exist; create it, or give a path in an existing directory"));
  }
  if (!std::filesystem::is_directory(parent_status)) {
    return absl::InvalidArgumentError(absl::StrCat("results database '", db_path, "': '",
                                                   parent.string(), "' is not a directory"));
  }
  return absl::OkStatus();
}

absl::Status CheckResultsPath(const std::string& db_path) {
  if (absl::Status location = CheckResultsLocation(db_path); !location.ok()) return location;
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(db_path, ec);
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    return absl::InvalidArgumentError(
        absl::StrCat("results database '", db_path, "' is not a regular file"));
  }
  if (std::filesystem::is_regular_file(st) && std::filesystem::file_size(db_path, ec) > 0 && !ec &&
      !IsSqliteFile(db_path)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", db_path, "' exists and is not a results database (not SQLite); give another --db"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> MoveResultsAside(const std::string& db_path) {
  const int64_t now_s = RealtimeNanos() / 1'000'000'000;
  std::error_code ec;
  auto exists = [&ec](const std::string& p) { return std::filesystem::exists(p, ec); };
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const std::string aside = attempt == 0
                                  ? absl::StrCat(db_path, ".", now_s, ".bak")
                                  : absl::StrCat(db_path, ".", now_s, ".", attempt, ".bak");
    if (exists(aside + "-wal") || exists(aside + "-shm")) continue;
    if (const int error = RenameNoReplace(db_path, aside); error == EEXIST) {
      continue;
    } else if (error != 0) {
      return absl::FailedPreconditionError(absl::StrCat("cannot move the earlier results '",
                                                        db_path, "' aside: ", ErrnoText(error)));
    }
    // The database's -wal and -shm follow it; if one cannot, every move so far is undone, last
    // first, so the database never stays apart from its WAL.
    std::vector<std::pair<std::string, std::string>> moved = {{db_path, aside}};
    for (const char* suffix : {"-wal", "-shm"}) {
      const std::string from = db_path + suffix;
      if (!exists(from)) continue;
      if (const int error = RenameNoReplace(from, aside + suffix); error != 0) {
        std::string undo_failed;
        for (auto it = moved.rbegin(); it != moved.rend(); ++it) {
          if (const int undo = RenameNoReplace(it->second, it->first); undo != 0) {
            absl::StrAppend(&undo_failed, "; '", it->second, "' could not be moved back to '",
                            it->first, "': ", ErrnoText(undo));
          }
        }
        return absl::FailedPreconditionError(
            absl::StrCat("cannot move '", from, "' aside with its database: ", ErrnoText(error),
                         undo_failed.empty() ? "; nothing was moved" : undo_failed));
      }
      moved.emplace_back(from, aside + suffix);
    }
    return aside;
  }
  return absl::FailedPreconditionError(
      absl::StrCat("cannot move the earlier results '", db_path,
                   "' aside: 1000 backup names of this second are taken"));
}

absl::Status RestoreResults(const std::string& aside, const std::string& db_path) {
  for (const char* suffix : {"", "-wal", "-shm"}) {
    if (unlink((db_path + suffix).c_str()) != 0 && errno != ENOENT) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot remove the new '", db_path, suffix, "' to put the earlier results back (",
          ErrnoText(errno), "); they are in '", aside, "'"));
    }
  }
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm"}) {
    const std::string from = aside + suffix;
    if (*suffix != '\0' && !std::filesystem::exists(from, ec)) continue;
    if (const int error = RenameNoReplace(from, db_path + suffix); error != 0) {
      return absl::FailedPreconditionError(absl::StrCat("cannot move '", from, "' back to '",
                                                        db_path, suffix, "': ", ErrnoText(error)));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<ResultsLock>> ResultsLock::Acquire(const std::string& db_path) {
  const std::string path = db_path + ".lock";
  // A run that ends removes its lock file while it holds the lock: a file locked after that is no
  // longer the one at `path`, and the lock is taken again on the file there now.
  for (int attempt = 0; attempt < 100; ++attempt) {
    int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    // A lock file another user's run left (killed, in a shared directory) may not be writable by
    // this user: flock(2) works on a read-only descriptor too, only the pid is then not written.
    bool read_only = false;
    if (fd < 0 && errno == EACCES) {
      fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
      read_only = fd >= 0;
      if (fd < 0) errno = EACCES;
    }
    if (fd < 0) {
      return absl::FailedPreconditionError(absl::StrCat("results database '", db_path,
                                                        "': cannot create its lock file '", path,
                                                        "': ", ErrnoText(errno)));
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      if (error != EWOULDBLOCK) {
        close(fd);
        return absl::FailedPreconditionError(absl::StrCat(
            "results database '", db_path, "': cannot lock '", path, "': ", ErrnoText(error)));
      }
      char buffer[32] = {};
      const ssize_t n = pread(fd, buffer, sizeof(buffer) - 1, 0);
      close(fd);
      int64_t pid = 0;
      const bool known =
          n > 0 && absl::SimpleAtoi(absl::StripAsciiWhitespace(std::string(buffer, n)), &pid) &&
          pid > 0 && pid <= std::numeric_limits<pid_t>::max();
      std::string holder = known ? absl::StrCat("pid ", pid) : "pid not known";
      // A run that could only open the file read-only left an earlier run's pid in it.
      if (known && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
        holder =
            absl::StrCat("pid not known: the lock file names pid ", pid,
                         ", which is not a process here; the holder may be a run of another user "
                         "(one that cannot write the lock file holds it without writing its pid), "
                         "or a run on another host or in another container");
      }
      return absl::FailedPreconditionError(absl::StrCat(
          "results database '", db_path, "' is in use by another azbench run (", holder,
          ", lock file '", path,
          "'): one run writes a results database at a time; wait for it to end, or give this run "
          "another --db"));
    }
    struct stat locked, named;
    if (fstat(fd, &locked) != 0 || stat(path.c_str(), &named) != 0 ||
        locked.st_dev != named.st_dev || locked.st_ino != named.st_ino) {
      close(fd);
      continue;
    }
    if (read_only) {
      // Locked, so stale: replace it with a file of this run's own when the directory allows
      // (a sticky directory, as /tmp, lets only its owner remove it); else hold it as it is.
      if (unlink(path.c_str()) == 0) {
        close(fd);
        continue;
      }
      return std::unique_ptr<ResultsLock>(new ResultsLock(path, fd));
    }
    const std::string pid = absl::StrCat(getpid(), "\n");
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid.data(), pid.size(), 0) < 0) {
      const int error = errno;
      unlink(path.c_str());
      close(fd);
      return absl::FailedPreconditionError(absl::StrCat("results database '", db_path,
                                                        "': cannot write its lock file '", path,
                                                        "': ", ErrnoText(error)));
    }
    return std::unique_ptr<ResultsLock>(new ResultsLock(path, fd));
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "results database '", db_path, "': its lock file '", path, "' kept being replaced"));
}

ResultsLock::~ResultsLock() {
  unlink(path_.c_str());
  close(fd_);
}

}  // namespace azbench

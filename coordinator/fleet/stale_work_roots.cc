#include "coordinator/fleet/stale_work_roots.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/errno_text.h"

namespace azbench {

namespace fs = std::filesystem;

namespace {

constexpr char kOwnerFile[] = "owner";

}  // namespace

std::optional<unsigned long long> ProcessStartTime(pid_t pid) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/stat"));
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
  const size_t close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(line.substr(close + 1));
  std::string field;
  // Fields 3..21, then field 22 (starttime).
  for (int i = 3; i <= 21; ++i) {
    if (!(rest >> field)) return std::nullopt;
  }
  unsigned long long start = 0;
  if (!(rest >> start)) return std::nullopt;
  return start;
}

absl::Status WriteOwnerFile(const std::string& root) {
  const pid_t self = getpid();
  const std::optional<unsigned long long> start = ProcessStartTime(self);
  if (!start.has_value()) {
    return absl::InternalError(absl::StrCat("cannot read /proc/", self, "/stat"));
  }
  const std::string path = absl::StrCat(root, "/", kOwnerFile);
  std::ofstream out(path, std::ios::trunc);
  out << self << " " << *start << "\n";
  out.close();
  if (!out) {
    // An ofstream need not set errno: no ErrnoStatus, whose 0 would be OK.
    return absl::InternalError(absl::StrCat("cannot write '", path, "': ", ErrnoText(errno)));
  }
  return absl::OkStatus();
}

std::vector<std::string> RemoveStaleWorkRoots(const std::string& parent,
                                              const std::string& prefix) {
  std::vector<std::string> removed;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (!absl::StartsWith(name, prefix) || !entry.is_directory(ec) || entry.is_symlink(ec)) {
      continue;
    }
    std::ifstream owner(entry.path() / kOwnerFile);
    long long pid = 0;
    unsigned long long start = 0;
    if (!(owner >> pid >> start) || pid <= 0) continue;  // not ours to judge
    const std::optional<unsigned long long> now = ProcessStartTime(static_cast<pid_t>(pid));
    if (now.has_value() && *now == start) continue;  // its coordinator still runs
    std::error_code remove_ec;
    fs::remove_all(entry.path(), remove_ec);
    if (!remove_ec) removed.push_back(entry.path().string());
  }
  return removed;
}

}  // namespace azbench

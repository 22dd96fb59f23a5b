#include "agent/host/mounts.h"

#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace azbench {

namespace {

// mountinfo escapes space, tab, newline and backslash as octal (\040 ...).
std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && isdigit(s[i + 1]) && isdigit(s[i + 2]) &&
        isdigit(s[i + 3])) {
      out.push_back(
          static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0')));
      i += 3;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

void AddOptions(const std::string& text, std::map<std::string, std::string>& out) {
  for (absl::string_view opt : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    const size_t eq = opt.find('=');
    if (eq == absl::string_view::npos) {
      out[std::string(opt)] = "";
    } else {
      out[std::string(opt.substr(0, eq))] = std::string(opt.substr(eq + 1));
    }
  }
}

}  // namespace

absl::StatusOr<std::vector<MountEntry>> ParseMountInfo(const std::string& text) {
  std::vector<MountEntry> mounts;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    std::vector<std::string> fields = absl::StrSplit(line, ' ', absl::SkipEmpty());
    size_t sep = 0;
    while (sep < fields.size() && fields[sep] != "-") ++sep;
    if (fields.size() < 7 || sep == fields.size() || sep < 6 || sep + 3 > fields.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("mountinfo line ", line_no,
                       ": expected 'id parent major:minor root mount-point "
                       "options ... - fstype source super-options', got '",
                       line, "'"));
    }
    MountEntry e;
    e.mount_point = Unescape(fields[4]);
    AddOptions(fields[5], e.options);
    e.fstype = fields[sep + 1];
    e.source = Unescape(fields[sep + 2]);
    if (sep + 3 < fields.size()) AddOptions(fields[sep + 3], e.options);
    if (e.fstype == "lustre") {
      // "10.0.1.5@tcp:/fsname" or, with failover, "10.0.1.5@tcp:10.0.1.6@tcp:/fsname": the server
      // is the first NID's address.
      const size_t colon = e.source.find(":/");
      if (colon != std::string::npos) {
        const std::string nids = e.source.substr(0, colon);
        e.server = nids.substr(0, nids.find_first_of("@:"));
        e.export_path = e.source.substr(colon + 1);
      }
    } else if (e.fstype.rfind("nfs", 0) == 0) {
      const size_t colon = e.source.find(":/");
      if (colon != std::string::npos) {
        e.server = e.source.substr(0, colon);
        e.export_path = e.source.substr(colon + 1);
      }
    }
    mounts.push_back(std::move(e));
  }
  return mounts;
}

std::optional<MountEntry> FindMountFor(const std::vector<MountEntry>& mounts,
                                       const std::string& path) {
  const MountEntry* best = nullptr;
  for (const MountEntry& m : mounts) {
    const std::string& mp = m.mount_point;
    const bool covers =
        mp == "/" || path == mp ||
        (path.size() > mp.size() && path.compare(0, mp.size(), mp) == 0 && path[mp.size()] == '/');
    // The later of two equal mount points is the one on top.
    if (covers && (best == nullptr || mp.size() >= best->mount_point.size())) best = &m;
  }
  if (best == nullptr) return std::nullopt;
  return *best;
}

absl::StatusOr<std::vector<MountEntry>> ReadMounts(const std::string& mountinfo_path) {
  std::ifstream in(mountinfo_path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read '", mountinfo_path, "'"));
  std::stringstream buf;
  buf << in.rdbuf();
  return ParseMountInfo(buf.str());
}

}  // namespace azbench

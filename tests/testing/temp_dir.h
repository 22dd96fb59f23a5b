// Test helpers that touch the file system: a temporary directory removed with everything in it when
// the test ends (even when it fails), a small tmpfs mounted for the test (needs root; Skip
// otherwise), and reading a file or a directory listing back.
#ifndef AZBENCH_TESTS_TESTING_TEMP_DIR_H_
#define AZBENCH_TESTS_TESTING_TEMP_DIR_H_

#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace azbench::testing {

// The bytes of a file ("" when it cannot be read).
inline std::string FileContents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The names in a directory, sorted (what a test left behind, or did not).
inline std::vector<std::string> DirectoryNames(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Common bases: tmpfs (/dev/shm) and the local disk (/var/tmp, ext4 here).
inline constexpr char kTmpfsBase[] = "/dev/shm";
inline constexpr char kDiskBase[] = "/var/tmp";

class TempDir {
 public:
  explicit TempDir(const std::string& base = kDiskBase) {
    std::string pattern = base + "/azbench-test-XXXXXX";
    char* made = mkdtemp(pattern.data());
    if (made != nullptr) path_ = made;
  }
  ~TempDir() {
    if (!path_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(path_, ec);
    }
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  bool ok() const { return !path_.empty(); }
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// A file system of type `fstype` (tmpfs, ramfs) mounted on a fresh directory for the test; `size`
// (e.g. "1m") applies to tmpfs; `extra_options` "ro" mounts it read-only.
class ScopedMount {
 public:
  ScopedMount(const std::string& fstype, const std::string& size,
              const std::string& extra_options = "") {
    if (!dir_.ok()) return;
    std::string options = size.empty() ? "" : "size=" + size;
    if (!extra_options.empty()) options += (options.empty() ? "" : ",") + extra_options;
    unsigned long flags = extra_options == "ro" ? MS_RDONLY : 0;
    if (mount(fstype.c_str(), dir_.path().c_str(), fstype.c_str(), flags, options.c_str()) == 0) {
      mounted_ = true;
    } else {
      error_ = std::strerror(errno);
    }
  }
  ~ScopedMount() {
    if (mounted_) umount2(dir_.path().c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& error() const { return error_; }
  const std::string& path() const { return dir_.path(); }

 private:
  TempDir dir_{kDiskBase};
  bool mounted_ = false;
  std::string error_;
};

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_TEMP_DIR_H_

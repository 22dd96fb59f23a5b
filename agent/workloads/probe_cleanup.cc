#include "agent/workloads/probe_cleanup.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/workloads/probe_file_io.h"

namespace azbench {

ProbeCleanup::ProbeCleanup(s3::S3Client* s3, std::string bucket, std::string mount_dir,
                           std::string rel_dir)
    : s3_(s3),
      bucket_(std::move(bucket)),
      mount_dir_(std::move(mount_dir)),
      rel_dir_(std::move(rel_dir)) {}

ProbeCleanup::~ProbeCleanup() {
  if (!finished_) (void)Finish();
}

void ProbeCleanup::AddFile(const std::string& path) {
  if (std::find(files_.begin(), files_.end(), path) == files_.end()) files_.push_back(path);
}

void ProbeCleanup::AddKey(const std::string& key) {
  if (std::find(keys_.begin(), keys_.end(), key) == keys_.end()) keys_.push_back(key);
}

std::string ProbeCleanup::Finish() {
  finished_ = true;
  std::vector<std::string> failures;
  for (const std::string& path : files_) {
    if (unlink(path.c_str()) != 0 && errno != ENOENT) {
      failures.push_back(absl::StrCat("unlink ", path, ": ", std::strerror(errno)));
    }
  }
  files_.clear();
  if (s3_ != nullptr) {
    // Up to 3 attempts 100 ms apart: S3 asks clients to retry a 500/503 (and s3rver answers 500
    // to concurrent deletes under one prefix). A missing key or version is fine.
    auto with_retries = [](const std::function<absl::Status()>& call) {
      absl::Status s;
      for (int attempt = 0; attempt < 3; ++attempt) {
        if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        s = call();
        if (s.ok() || absl::IsNotFound(s)) return absl::OkStatus();
      }
      return s;
    };
    for (const std::string& key : keys_) {
      // On a versioned bucket (study D's) a DeleteObject only adds a delete marker and keeps
      // every version the probe made: each version (and marker) of the key goes by its id. A
      // server that lists no versions (s3rver) gets the plain DeleteObject.
      absl::StatusOr<std::vector<s3::ObjectVersion>> versions =
          s3_->ListObjectVersions(bucket_, key);
      if (!versions.ok()) {
        absl::Status s = with_retries([&] { return s3_->DeleteObject(bucket_, key); });
        if (!s.ok()) failures.push_back(absl::StrCat("DeleteObject ", key, ": ", s.message()));
        continue;
      }
      bool listed = false;
      for (const s3::ObjectVersion& v : *versions) {
        if (v.key != key) continue;  // the listing is by prefix: "x-1" also lists "x-10"
        listed = true;
        absl::Status s =
            with_retries([&] { return s3_->DeleteObjectVersion(bucket_, key, v.version_id); });
        if (!s.ok()) {
          failures.push_back(
              absl::StrCat("DeleteObject ", key, " version ", v.version_id, ": ", s.message()));
        }
      }
      if (!listed && s3_->HeadObject(bucket_, key).ok()) {
        // No version of the key listed, yet it is there: a server that answers ?versions with a
        // plain listing. The plain delete, so nothing is left unreported. (A key that is not
        // there is left alone: on a versioned bucket a delete would add a marker.)
        absl::Status s = with_retries([&] { return s3_->DeleteObject(bucket_, key); });
        if (!s.ok()) failures.push_back(absl::StrCat("DeleteObject ", key, ": ", s.message()));
      }
    }
  }
  keys_.clear();
  if (!mount_dir_.empty() && !rel_dir_.empty()) {
    for (std::filesystem::path rel(rel_dir_); !rel.empty() && rel != rel.root_path();
         rel = rel.parent_path()) {
      if (rmdir(JoinPath(mount_dir_, rel.string()).c_str()) != 0) break;  // not empty or absent
    }
  }
  return absl::StrJoin(failures, "; ");
}

}  // namespace azbench

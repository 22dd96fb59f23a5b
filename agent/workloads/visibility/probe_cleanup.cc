#include "agent/workloads/visibility/probe_cleanup.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace azbench {

namespace {

// "a/b/c" -> {"a/b", "c"}; "c" -> {"", "c"}.
std::pair<std::string, std::string> SplitLast(const std::string& relative) {
  const size_t slash = relative.rfind('/');
  if (slash == std::string::npos) return {"", relative};
  return {relative.substr(0, slash), relative.substr(slash + 1)};
}

}  // namespace

ProbeCleanup::ProbeCleanup(s3::S3Client* s3, std::string bucket, ProbeDir mount,
                           std::string rel_dir)
    : s3_(s3), bucket_(std::move(bucket)), mount_(std::move(mount)) {
  // "a//b/./c/" -> "a/b/c", so the directories come off one component at a time.
  std::vector<std::string> parts;
  for (absl::string_view part : absl::StrSplit(rel_dir, '/', absl::SkipEmpty())) {
    if (part != ".") parts.emplace_back(part);
  }
  rel_dir_ = absl::StrJoin(parts, "/");
}

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
  for (const std::string& relative : files_) {
    if (!mount_.valid()) break;
    const auto [parent, name] = SplitLast(relative);
    absl::StatusOr<std::optional<ProbeDir>> dir = mount_.SubdirIfExists(parent, "cleanup");
    absl::Status s = dir.status();
    if (s.ok() && dir->has_value()) s = (*dir)->Unlink(name);
    if (!s.ok())
      failures.push_back(absl::StrCat("unlink ", mount_.PathOf(relative), ": ", s.message()));
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
  if (mount_.valid() && !rel_dir_.empty()) {
    for (std::string rel = rel_dir_; !rel.empty(); rel = SplitLast(rel).first) {
      const auto [parent, name] = SplitLast(rel);
      absl::StatusOr<std::optional<ProbeDir>> dir = mount_.SubdirIfExists(parent, "cleanup");
      if (!dir.ok() || !dir->has_value() || name.empty() || !(*dir)->RemoveDirIfEmpty(name)) {
        break;  // not empty, absent or not a directory
      }
    }
  }
  return absl::StrJoin(failures, "; ");
}

}  // namespace azbench

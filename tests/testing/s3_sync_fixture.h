// TEST FIXTURE ONLY (never shipped): a toy file-system <-> S3 synchroniser with known delays, so
// the visibility probes can be tested end to end against a real S3-protocol server. It imitates
// what study D observed of S3 Files:
//   - export: a file under `dir` is PUT to <key_prefix><relative path> once it has seen no write
//     for `export_inactivity` (its mtime is that old) and its content differs from what was last
//     synchronised;
//   - import: an object under key_prefix whose ETag differs from what was last synchronised is
//     written into `dir` once it has been listed for `import_delay`; if the local file has changes
//     that were never exported, S3 wins: the local file is moved to
//     <dir>/<lost_found_dir>/<relative path> first.
// A background thread scans every `tick`; the measured delays exceed the configured ones by at
// most one tick plus the time of the S3 calls. Relies on ETag == MD5 (single-part PUT).
//
//   S3SyncFixture sync(&s3, {.dir = mount, .bucket = "b", .export_inactivity = absl::Seconds(1)});
#ifndef AZBENCH_TESTS_TESTING_S3_SYNC_FIXTURE_H_
#define AZBENCH_TESTS_TESTING_S3_SYNC_FIXTURE_H_

#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "agent/s3/payload_hash.h"
#include "agent/s3/s3_client.h"

namespace azbench::testing {

struct S3SyncFixtureOptions {
  std::string dir;
  std::string bucket;
  std::string key_prefix{};
  absl::Duration export_inactivity = absl::Seconds(1);
  absl::Duration import_delay = absl::Seconds(1);
  absl::Duration tick = absl::Milliseconds(20);
  std::string lost_found_dir = ".s3files-lost+found-fixture";
};

class S3SyncFixture {
 public:
  S3SyncFixture(s3::S3Client* s3, S3SyncFixtureOptions options)
      : s3_(s3), options_(std::move(options)), thread_([this] { Loop(); }) {}
  ~S3SyncFixture() {
    stop_ = true;
    thread_.join();
  }
  S3SyncFixture(const S3SyncFixture&) = delete;
  S3SyncFixture& operator=(const S3SyncFixture&) = delete;

  // The last error of an S3 or file operation ("" if none), for test diagnostics.
  std::string last_error() const {
    absl::MutexLock lock(&mu_);
    return last_error_;
  }
  int exports() const { return exports_; }
  int imports() const { return imports_; }
  // When the fixture last made <dir>/<rel> visible in S3 (its PUT returned) or the object visible
  // in <dir> (its rename into place returned); nullopt if it never did. Tests bound a probe's
  // figure by these instants, not by the configured delay plus the fixture's own lateness (which
  // grows with the machine's load).
  std::optional<absl::Time> ExportedAt(const std::string& rel) const {
    return At(exported_at_, rel);
  }
  std::optional<absl::Time> ImportedAt(const std::string& rel) const {
    return At(imported_at_, rel);
  }

 private:
  static std::string ReadFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  void Error(const std::string& e) {
    absl::MutexLock lock(&mu_);
    last_error_ = e;
  }
  std::optional<absl::Time> At(const std::map<std::string, absl::Time>& times,
                               const std::string& rel) const {
    absl::MutexLock lock(&mu_);
    auto it = times.find(rel);
    if (it == times.end()) return std::nullopt;
    return it->second;
  }
  void Record(std::map<std::string, absl::Time>& times, const std::string& rel) {
    const absl::Time now = absl::Now();
    absl::MutexLock lock(&mu_);
    times[rel] = now;
  }

  void ExportScan() {
    std::error_code ec;
    const absl::Time now = absl::Now();
    for (auto it = std::filesystem::recursive_directory_iterator(options_.dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      const std::string rel = it->path().lexically_relative(options_.dir).string();
      if (absl::StartsWith(rel, options_.lost_found_dir)) {
        it.disable_recursion_pending();
        continue;
      }
      struct stat st;
      if (!it->is_regular_file(ec) || stat(it->path().c_str(), &st) != 0) continue;
      const absl::Time mtime = absl::TimeFromTimespec(st.st_mtim);
      if (now - mtime < options_.export_inactivity) continue;
      const std::string content = ReadFile(it->path());
      const std::string md5 = s3::Md5Hex(content);
      if (synced_[rel] == md5) continue;
      absl::StatusOr<std::string> etag =
          s3_->PutObject(options_.bucket, options_.key_prefix + rel, content);
      if (!etag.ok()) {
        Error(std::string(etag.status().message()));
        continue;
      }
      Record(exported_at_, rel);
      synced_[rel] = md5;
      ++exports_;
    }
  }

  void ImportScan() {
    absl::StatusOr<std::vector<s3::ObjectSummary>> objects =
        s3_->ListObjectsV2(options_.bucket, options_.key_prefix);
    // A 5xx ("InternalError ... Please try again", Unavailable) is retried on the next scan, as S3
    // clients retry it: s3rver answers a listing with 500 when an object it lists is removed
    // under it (the probe's cleanup).
    if (absl::IsUnavailable(objects.status())) return;
    if (!objects.ok()) {
      Error(std::string(objects.status().message()));
      return;
    }
    const absl::Time now = absl::Now();
    for (const s3::ObjectSummary& o : *objects) {
      const std::string rel = o.key.substr(options_.key_prefix.size());
      if (synced_[rel] == o.etag) continue;
      auto [it, inserted] = first_listed_.try_emplace(o.key + "\n" + o.etag, now);
      if (now - it->second < options_.import_delay) continue;
      absl::StatusOr<std::string> body = s3_->GetObject(options_.bucket, o.key);
      if (!body.ok()) {
        Error(std::string(body.status().message()));
        continue;
      }
      const std::filesystem::path local = std::filesystem::path(options_.dir) / rel;
      std::error_code ec;
      std::filesystem::create_directories(local.parent_path(), ec);
      if (std::filesystem::exists(local) && s3::Md5Hex(ReadFile(local)) != synced_[rel]) {
        // Unexported local changes lose: keep them in lost+found, as S3 Files does.
        const std::filesystem::path lost =
            std::filesystem::path(options_.dir) / options_.lost_found_dir / rel;
        std::filesystem::create_directories(lost.parent_path(), ec);
        std::filesystem::rename(local, lost, ec);
        if (ec) Error("lost+found move: " + ec.message());
      }
      const std::filesystem::path tmp =
          local.parent_path() / ("." + local.filename().string() + ".sync");
      std::ofstream(tmp, std::ios::binary | std::ios::trunc) << *body;
      std::filesystem::rename(tmp, local, ec);
      if (ec) {
        Error("import rename: " + ec.message());
        continue;
      }
      Record(imported_at_, rel);
      synced_[rel] = o.etag;
      ++imports_;
    }
  }

  void Loop() {
    while (!stop_) {
      ImportScan();
      ExportScan();
      absl::SleepFor(options_.tick);
    }
  }

  s3::S3Client* s3_;
  S3SyncFixtureOptions options_;
  std::map<std::string, std::string> synced_;  // rel path -> MD5 of the last synchronised content
  std::map<std::string, absl::Time> first_listed_;
  std::atomic<bool> stop_{false};
  std::atomic<int> exports_{0};
  std::atomic<int> imports_{0};
  mutable absl::Mutex mu_;
  std::string last_error_;
  std::map<std::string, absl::Time> exported_at_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, absl::Time> imported_at_ ABSL_GUARDED_BY(mu_);
  std::thread thread_;  // last: starts after every other member is constructed
};

// TEST FIXTURE ONLY: makes files written under `from` appear under `to` `delay` after their last
// change (write or rename into place; copy to a temporary name, then rename), imitating a second
// client whose view lags by a known delay. Used to test the client-to-client probe with a known
// injected delay.
class DelayedMirrorFixture {
 public:
  DelayedMirrorFixture(std::string from, std::string to, absl::Duration delay,
                       absl::Duration tick = absl::Milliseconds(10))
      : from_(std::move(from)), to_(std::move(to)), delay_(delay), tick_(tick), thread_([this] {
          Loop();
        }) {}
  ~DelayedMirrorFixture() {
    stop_ = true;
    thread_.join();
  }
  // When <to>/<name> last appeared (its rename into place returned); nullopt if it never did.
  std::optional<absl::Time> MirroredAt(const std::string& name) const {
    absl::MutexLock lock(&mu_);
    auto it = mirrored_at_.find(name);
    if (it == mirrored_at_.end()) return std::nullopt;
    return it->second;
  }

 private:
  void Loop() {
    while (!stop_) {
      std::error_code ec;
      const absl::Time now = absl::Now();
      for (const auto& entry : std::filesystem::directory_iterator(from_, ec)) {
        const std::string name = entry.path().filename().string();
        struct stat st;
        if (name.starts_with(".") || stat(entry.path().c_str(), &st) != 0) continue;
        // The inode's change time: the last write, or the rename that put the file in place
        // (a rename changes ctime, not mtime), so the delay counts from when the file became
        // what the writer meant it to be.
        const absl::Time changed = absl::TimeFromTimespec(st.st_ctim);
        if (now - changed < delay_ || mirrored_[name] == changed) continue;
        const std::filesystem::path tmp = std::filesystem::path(to_) / ("." + name + ".mirror");
        std::filesystem::copy_file(entry.path(), tmp,
                                   std::filesystem::copy_options::overwrite_existing, ec);
        if (!ec) std::filesystem::rename(tmp, std::filesystem::path(to_) / name, ec);
        if (!ec) {
          mirrored_[name] = changed;
          const absl::Time appeared = absl::Now();
          absl::MutexLock lock(&mu_);
          mirrored_at_[name] = appeared;
        }
      }
      absl::SleepFor(tick_);
    }
  }

  std::string from_, to_;
  absl::Duration delay_, tick_;
  std::map<std::string, absl::Time> mirrored_;
  mutable absl::Mutex mu_;
  std::map<std::string, absl::Time> mirrored_at_ ABSL_GUARDED_BY(mu_);
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_S3_SYNC_FIXTURE_H_

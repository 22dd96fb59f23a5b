// What a visibility probe created and must remove when it ends, however it ends (done, failed on
// an error, cancelled): its files on the mount, the S3 objects of its keys (those it PUT and those
// the synchroniser exported from its files) and the probe directories it made, if empty. Probes
// register what they create as they go; Finish removes it all and reports what could not be
// removed; the destructor does the same, silently, when Finish was not reached (an early return).
// Files and directories are removed through the mount's descriptor (probe_dir.h): a symlink on
// the way is never followed (the entry itself may be removed, never what it points at).
//
//   ProbeCleanup cleanup(&s3, bucket, mount, rel_dir);
//   cleanup.AddFile("azbench-visibility/agent-1/run-1-export-0");  cleanup.AddKey(key);
//   ...
//   std::string failures = cleanup.Finish();  // "" when everything went
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_CLEANUP_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_CLEANUP_H_

#include <string>
#include <vector>

#include "agent/s3/s3_client.h"
#include "agent/workloads/visibility/probe_dir.h"

namespace azbench {

class ProbeCleanup {
 public:
  // `s3` may be null (no objects to remove). `rel_dir` ("a/b", beneath `mount`) is removed from
  // the deepest part up to `mount`, each only when empty (other agents' probes may still use a
  // parent).
  ProbeCleanup(s3::S3Client* s3, std::string bucket, ProbeDir mount, std::string rel_dir);
  ~ProbeCleanup();
  ProbeCleanup(const ProbeCleanup&) = delete;
  ProbeCleanup& operator=(const ProbeCleanup&) = delete;

  // A file by its path relative to the mount ("a/b/name").
  void AddFile(const std::string& relative_path);
  void AddKey(const std::string& key);
  // Unlinks the files (absent is fine), deletes the objects -- every version and delete marker of
  // each key by its version id where the server lists versions (a versioned bucket keeps them all
  // after a plain DeleteObject), else a plain DeleteObject; a missing key is fine; a failed delete
  // is tried 3 times 100 ms apart -- then removes the empty probe directories. Returns "" or a
  // "; "-joined list of what failed and why.
  std::string Finish();

 private:
  s3::S3Client* s3_;
  std::string bucket_;
  ProbeDir mount_;
  std::string rel_dir_;
  std::vector<std::string> files_;
  std::vector<std::string> keys_;
  bool finished_ = false;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_CLEANUP_H_

// The lab's NFS server: nfs-ganesha with its VFS back end exporting a local directory over NFSv3
// and v4 (TCP), with the rpcbind it must register with, in mount and pid namespaces of their own
// (a private /run; killing the first process kills them all). The config and start script are
// what tests/testing/nfs_server_fixture.h proved on this kind of machine.
//
//   NfsServerFiles files{.dir = "/var/tmp/azbench-lab/nfs", .export_dir = "/var/tmp/.../export"};
//   RETURN_IF_ERROR(WriteNfsServerFiles(files));
//   SpawnDetached(NfsServerCommand(files, "azlab-a"), files.dir + "/start.log");
#ifndef AZBENCH_COORDINATOR_LAB_NFS_SERVER_H_
#define AZBENCH_COORDINATOR_LAB_NFS_SERVER_H_

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace azbench {

inline constexpr char kGaneshaBinary[] = "/usr/bin/ganesha.nfsd";
inline constexpr char kRpcbindBinary[] = "/usr/sbin/rpcbind";
inline constexpr char kUnshareBinary[] = "/usr/bin/unshare";

struct NfsServerFiles {
  std::string dir;         // config, start script, logs, NFSv4 recovery state
  std::string export_dir;  // exported with Path and Pseudo equal to it
  int nfs_port = 2049;
  int mount_port = 20048;
  std::string log_path() const { return dir + "/ganesha.log"; }
};

// ganesha's config: NFSv3 and v4 on the given ports, no NLM or RQUOTA, Graceless (a fresh server
// otherwise refuses opens for its 90 s grace period), one RW export with root not squashed.
std::string GaneshaConfig(const NfsServerFiles& files);
// The namespace's init: a private /run, rpcbind (ganesha refuses NFSv3 without one), ganesha.
std::string NfsServerStartScript(const NfsServerFiles& files);
// Creates the directories and writes both files. Internal naming a file that cannot be written.
absl::Status WriteNfsServerFiles(const NfsServerFiles& files);
// `ip netns exec NS unshare --mount --pid --fork --kill-child --mount-proc sh start.sh`.
std::vector<std::string> NfsServerCommand(const NfsServerFiles& files,
                                          const std::string& network_namespace);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_LAB_NFS_SERVER_H_

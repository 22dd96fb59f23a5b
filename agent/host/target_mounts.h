// What a target path is on: the mount that holds it, with what placement and result comparisons
// need: the server name and export, the server address the kernel connected to (`addr=`), the
// client's own address (`clientaddr=`), the options that change results, and every address the
// server name resolves to (HostResolver: getaddrinfo, or a fake in tests).
//
//   auto mounts = ReadMounts(mountinfo_path);
//   SystemResolver resolver;
//   TargetMount m = DescribeTargetMount(*mounts, "/mnt/efs/azbench", resolver);
//   TargetMount n = DescribeNfsUrlTarget("nfs://10.0.1.5/export?version=3", resolver);
#ifndef AZBENCH_AGENT_HOST_TARGET_MOUNTS_H_
#define AZBENCH_AGENT_HOST_TARGET_MOUNTS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "agent/host/mounts.h"

namespace azbench {

class HostResolver {
 public:
  virtual ~HostResolver() = default;
  // Every address `host` resolves to (IPv4 and IPv6, numeric, in resolver order, no duplicates).
  // Errors: NotFound when the name does not resolve (message from gai_strerror), Unavailable for a
  // temporary failure.
  virtual absl::StatusOr<std::vector<std::string>> Resolve(const std::string& host) = 0;
};

// getaddrinfo(3); IP literals come back as themselves. A lookup that takes longer than
// `timeout` (a dead DNS server) is DeadlineExceeded, so Describe answers within the
// coordinator's deadline; the lookup finishes in the background.
class SystemResolver final : public HostResolver {
 public:
  explicit SystemResolver(absl::Duration timeout = absl::Seconds(2)) : timeout_(timeout) {}
  absl::StatusOr<std::vector<std::string>> Resolve(const std::string& host) override;

 private:
  absl::Duration timeout_;
};

// A fixed name -> addresses table (tests); unknown names are NotFound.
class StaticResolver final : public HostResolver {
 public:
  explicit StaticResolver(std::map<std::string, std::vector<std::string>> table)
      : table_(std::move(table)) {}
  absl::StatusOr<std::vector<std::string>> Resolve(const std::string& host) override;

 private:
  std::map<std::string, std::vector<std::string>> table_;
};

// Mount options that change benchmark results (NFS and Lustre), in display order.
const std::vector<std::string>& ResultChangingMountOptions();

struct TargetMount {
  std::string target_path;
  bool found = false;  // a mount holds the path (false only for an unreadable mount table)
  MountEntry mount;
  std::string addr;         // the `addr=` option: the server address in use ("" when absent)
  std::string client_addr;  // the `clientaddr=` option
  std::vector<std::string> server_addresses;  // `server` resolved ("" server: none)
  std::string resolve_error;                  // why resolving `server` failed, if it did
  // ResultChangingMountOptions() present on the mount, name -> value ("" for flags).
  std::map<std::string, std::string> result_options;
};

// Describes `target_path` against `mounts`. Never fails: a name that does not resolve leaves
// server_addresses empty and says why in resolve_error.
TargetMount DescribeTargetMount(const std::vector<MountEntry>& mounts,
                                const std::string& target_path, HostResolver& resolver);

// Describes a target given as an nfs:// URL (common/nfs_url.h): jobs reach it through libnfs, with
// no kernel mount, so the URL stands for the mount. fstype kNfsUrlMountType, source the URL, server
// and export from it, no mount point, options vers, nfsport, mountport as given; server_addresses
// the server resolved (an address resolves to itself), which placement classifies as it does a
// mount's server. found is false, with the reason in resolve_error, when the URL does not parse.
TargetMount DescribeNfsUrlTarget(const std::string& target_url, HostResolver& resolver);

}  // namespace azbench

#endif  // AZBENCH_AGENT_HOST_TARGET_MOUNTS_H_

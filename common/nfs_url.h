// fio's `nfs_url` (ioengine=nfs): where the NFS engine finds its files, in libnfs's URL form
//
//   nfs://<server>[:<port>]/<export path>[?<arg>=<value>[&<arg>=<value>]*]
//
// <server> is a host name, an IPv4 address or a bracketed IPv6 address; <port> is the NFS port
// (libnfs's `nfsport`). The whole path is the export, mounted once per job clone; the job's
// `filename` and `directory` name files beneath it, as fio's nfs engine opens them. Arguments:
// version (3, the default, or 4), nfsport and mountport (both skip the portmapper); no others, so
// a job cannot choose the uid and gid the agent claims (AUTH_SYS: its own). NFSv4 takes blocks of
// at most kNfsV4MaxBlockBytes: libnfs 4.0 cannot encode a larger NFSv4 WRITE.
//
//   ASSIGN_OR_RETURN(NfsUrl url, ParseNfsUrl("nfs://10.0.0.5/export?version=3"));
//   url.server;  // "10.0.0.5"
#ifndef AZBENCH_COMMON_NFS_URL_H_
#define AZBENCH_COMMON_NFS_URL_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace azbench {

// libnfs 4.0 encodes an NFSv4 compound into a fixed buffer of about 4 KB, so a WRITE of more than
// ~3.9 KB fails with it; jobs keep well below.
inline constexpr uint64_t kNfsV4MaxBlockBytes = 3072;

struct NfsUrl {
  std::string server;       // without brackets
  std::string export_path;  // absolute, no trailing '/' except "/" itself
  int version = 3;
  int nfs_port = 0;    // 0: ask the portmapper
  int mount_port = 0;  // 0: ask the portmapper (NFSv3 only)

  // The URL for libnfs (nfs_parse_url_dir): the port as its `nfsport` argument, which libnfs 4.0
  // does not read from the authority.
  std::string LibnfsUrl() const;
};

// Errors: InvalidArgument naming what is wrong and what is allowed (scheme, server, port, path,
// argument name or value).
absl::StatusOr<NfsUrl> ParseNfsUrl(std::string_view url);

// The whole-job rules of the nfs engine: ioengine=nfs needs nfs_url, nfs_url needs ioengine=nfs,
// NFSv4 takes bs up to kNfsV4MaxBlockBytes, no direct=1 (libnfs has no page cache to bypass).
// InvalidArgument naming the option.
absl::Status CheckNfsJob(std::string_view ioengine, std::string_view nfs_url,
                         uint64_t block_size_bytes, bool direct);

// The rules of a metadata, small_files or large_stream job whose files are beneath `nfs_url`
// (reached through libnfs): the URL parses, no direct=1 (libnfs has no page cache to bypass), and
// with NFSv4 no call writes more than kNfsV4MaxBlockBytes (`largest_write_bytes`, named by
// `write_field`). InvalidArgument naming the option.
absl::Status CheckNfsFileJob(std::string_view nfs_url, uint64_t largest_write_bytes,
                             std::string_view write_field, bool direct);

// A campaign target whose path is an nfs:// URL is reached through libnfs (no kernel mount): its
// block-I/O jobs run with ioengine=nfs and this URL as nfs_url. Whether `path` is such a URL.
bool IsNfsUrl(std::string_view path);

// The file-system type an agent reports (Describe's MountInfo.fstype) for an nfs:// target: the URL
// stands in for a mount, its server resolved by the agent as a kernel mount's server name is.
inline constexpr std::string_view kNfsUrlMountType = "nfs-url";

}  // namespace azbench

#endif  // AZBENCH_COMMON_NFS_URL_H_

// fio's `nfs_url` (ioengine=nfs): where the NFS engine finds its files, in libnfs's URL form
//
//   nfs://<server>[:<port>]/<export path>[?<arg>=<value>[&<arg>=<value>]*]
//
// <server> is a host name, an IPv4 address or a bracketed IPv6 address; <port> is the NFS port
// (libnfs's `nfsport`). The whole path is the export, mounted once per job clone; the job's
// `filename` and `directory` name files beneath it, as fio's nfs engine opens them. Arguments:
// version (3, the default, or 4), nfsport and mountport (both skip the portmapper); no others, so
// a job cannot choose the uid and gid the agent claims (AUTH_SYS: its own).
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

// libnfs 4.0 encodes every NFSv4 COMPOUND into a buffer of 4096 bytes, whatever its WRITE carries
// (libnfs 5.0 sizes it to the data). Less the RPC header, the AUTH_SYS credential (host name up to
// 255 bytes, up to 16 groups) and PUTFH's handle (up to 128 bytes), one WRITE holds at least 3528
// bytes of data: larger NFSv4 writes go as several WRITEs of at most this many bytes each.
inline constexpr uint64_t kNfsV4MaxWriteBytes = 3072;
// libnfs 4.0 drops a connection whose reply exceeds 1 MiB + 4 KiB and, over NFSv4, does not ask
// the server for its largest READ: larger NFSv4 reads go as several READs of at most this much.
inline constexpr uint64_t kNfsV4MaxReadBytes = 1 << 20;

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
// no direct=1 (libnfs has no page cache to bypass). InvalidArgument naming the option.
absl::Status CheckNfsJob(std::string_view ioengine, std::string_view nfs_url, bool direct);

// The rules of a metadata, small_files or large_stream job whose files are beneath `nfs_url`
// (reached through libnfs): the URL parses, no direct=1 (libnfs has no page cache to bypass).
// InvalidArgument naming the option.
absl::Status CheckNfsFileJob(std::string_view nfs_url, bool direct);

// A campaign target whose path is an nfs:// URL is reached through libnfs (no kernel mount): its
// block-I/O jobs run with ioengine=nfs and this URL as nfs_url. Whether `path` is such a URL.
bool IsNfsUrl(std::string_view path);

// The file-system type an agent reports (Describe's MountInfo.fstype) for an nfs:// target: the URL
// stands in for a mount, its server resolved by the agent as a kernel mount's server name is.
inline constexpr std::string_view kNfsUrlMountType = "nfs-url";

}  // namespace azbench

#endif  // AZBENCH_COMMON_NFS_URL_H_

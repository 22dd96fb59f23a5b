#include "coordinator/lab/nfs_server.h"

#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "coordinator/lab/lab_system.h"

namespace azbench {

std::string GaneshaConfig(const NfsServerFiles& files) {
  return absl::StrCat("NFS_CORE_PARAM {\n  Protocols = 3, 4;\n  NFS_Port = ", files.nfs_port,
                      ";\n  MNT_Port = ", files.mount_port,
                      ";\n  Enable_NLM = false;\n  Enable_RQUOTA = false;\n}\n"
                      "NFSV4 {\n  Graceless = true;\n  RecoveryBackend = fs;\n  RecoveryRoot = ",
                      files.dir,
                      "/recovery;\n}\n"
                      "NFS_KRB5 { Active_krb5 = false; }\n"
                      "EXPORT {\n  Export_Id = 1;\n  Path = ",
                      files.export_dir, ";\n  Pseudo = ", files.export_dir,
                      ";\n  Protocols = 3, 4;\n  Transports = TCP;\n  Access_Type = RW;\n"
                      "  Squash = No_Root_Squash;\n  SecType = sys;\n  FSAL { Name = VFS; }\n}\n"
                      "LOG { Default_Log_Level = EVENT; }\n");
}

std::string NfsServerStartScript(const NfsServerFiles& files) {
  return absl::StrCat("set -e\nmount -t tmpfs tmpfs /run\nmkdir -p /run/rpcbind /run/ganesha\n",
                      kRpcbindBinary,
                      " -f -w &\n"
                      "for i in $(seq 1 100); do [ -S /run/rpcbind.sock ] && break; sleep 0.05; "
                      "done\n",
                      kGaneshaBinary, " -F -f ", files.dir, "/ganesha.conf -L ", files.log_path(),
                      " -p /run/ganesha/ganesha.pid &\nwait\n");
}

absl::Status WriteNfsServerFiles(const NfsServerFiles& files) {
  std::error_code ec;
  std::filesystem::create_directories(files.export_dir, ec);
  std::filesystem::create_directories(files.dir + "/recovery", ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create ", files.dir, ": ", ec.message()));
  for (const auto& [name, text] :
       {std::pair<std::string, std::string>{"/ganesha.conf", GaneshaConfig(files)},
        {"/start.sh", NfsServerStartScript(files)}}) {
    std::ofstream out(files.dir + name);
    out << text;
    if (!out) return absl::InternalError(absl::StrCat("cannot write ", files.dir, name));
  }
  return absl::OkStatus();
}

std::vector<std::string> NfsServerCommand(const NfsServerFiles& files,
                                          const std::string& network_namespace) {
  return {kLabIpBinary,           "netns",        "exec",  network_namespace,
          kUnshareBinary,         "--mount",      "--pid", "--fork",
          "--kill-child",         "--mount-proc", "--",    "/bin/sh",
          files.dir + "/start.sh"};
}

}  // namespace azbench

// The NFS backend of agent/workloads/file_system.h, and the metadata, small_files and large_stream
// jobs on it, against a real NFS server (tests/testing/nfs_server_fixture.h): each call answers as
// its POSIX call does, what a job writes is in the exported directory while the job holds it, and
// the job's cleanup removes its files and the directories it made. The families' paths carry the
// server, so an agent whose allowed_nfs_servers does not list it refuses the job. Skipped without
// root.
#include <fcntl.h>

#include <cerrno>
#include <filesystem>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/confinement/job_confinement.h"
#include "agent/workloads/family.h"
#include "agent/workloads/file_system.h"
#include "agent/workloads/large_stream/large_stream.h"
#include "agent/workloads/large_stream/large_stream_family.h"
#include "agent/workloads/metadata/metadata.h"
#include "agent/workloads/metadata/metadata_family.h"
#include "agent/workloads/small_files/small_files.h"
#include "agent/workloads/small_files/small_files_family.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/integration_fleet.h"
#include "tests/testing/nfs_server_fixture.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::NfsServerFixture;
using testing::StatusIs;

const OpStats* Op(const std::vector<JobResult>& results, const std::string& name, OpKind kind) {
  for (const JobResult& r : results) {
    if (r.name == name) return r.Find(kind);
  }
  return nullptr;
}

#define START_NFS(nfs)                                \
  NfsServerFixture nfs;                               \
  if (nfs.unsupported()) GTEST_SKIP() << nfs.error(); \
  ASSERT_TRUE(nfs.ok()) << nfs.error()

TEST(NfsFileSystemTest, EachCallAnswersAsItsPosixCallOnTheExport) {
  START_NFS(nfs);
  absl::StatusOr<std::unique_ptr<FileSystem>> made = MakeNfsFileSystem(nfs.Url());
  ASSERT_TRUE(made.ok()) << made.status() << "\n" << nfs.Log();
  FileSystem& f = **made;
  const std::string on_disk = nfs.export_dir();

  std::vector<std::string> created;
  ASSERT_TRUE(MakeDirectories(f, "/a/b", created).ok());
  EXPECT_EQ(created, (std::vector<std::string>{"/a", "/a/b"}));
  EXPECT_TRUE(fs::is_directory(on_disk + "/a/b"));

  const int64_t w = f.Open("/a/b/x", O_CREAT | O_EXCL | O_WRONLY);
  ASSERT_GE(w, 0) << w;
  EXPECT_EQ(f.Open("/a/b/x", O_CREAT | O_EXCL | O_WRONLY), -EEXIST);
  EXPECT_EQ(f.Pwrite(w, "hello", 5, 0), 5);
  EXPECT_EQ(f.Fsync(w), 0);
  EXPECT_EQ(f.Close(w), 0);
  EXPECT_EQ(f.Close(w), -EBADF) << "a handle is gone once closed";
  EXPECT_EQ(fs::file_size(on_disk + "/a/b/x"), 5u);

  FileStat st;
  EXPECT_EQ(f.Stat("a/b/x", &st), 0) << "a relative path is beneath the export";
  EXPECT_TRUE(st.is_regular);
  EXPECT_EQ(st.size_bytes, 5u);
  EXPECT_EQ(f.Stat("/a/b/missing", &st), -ENOENT);

  const int64_t r = f.Open("/a/b/x", O_RDONLY);
  ASSERT_GE(r, 0);
  char buffer[8] = {};
  EXPECT_EQ(f.Pread(r, buffer, sizeof(buffer), 1), 4);
  EXPECT_EQ(std::string(buffer, 4), "ello");
  EXPECT_EQ(f.Close(r), 0);
  EXPECT_EQ(f.Open("/a/b/x", O_RDONLY | O_DIRECT), -EINVAL) << "no page cache to bypass";

  EXPECT_EQ(f.Rename("/a/b/x", "/a/b/y"), 0);
  EXPECT_TRUE(fs::exists(on_disk + "/a/b/y"));
  EXPECT_EQ(f.Rmdir("/a/b"), -ENOTEMPTY);
  EXPECT_EQ(f.Unlink("/a/b/y"), 0);
  EXPECT_EQ(f.Unlink("/a/b/y"), -ENOENT);
  EXPECT_EQ(f.Rmdir("/a/b"), 0);
  EXPECT_EQ(f.Mkdir("/a"), -EEXIST);
  EXPECT_THAT(FileSystemError(f, "open", "/a/z", -ENOENT),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr(absl::StrCat("nfs://", nfs.server_address(), "/a/z"))));
}

// libnfs 4.0 carries at most kNfsV4MaxWriteBytes per NFSv4 WRITE and kNfsV4MaxReadBytes per READ:
// one call of any size is the same bytes, sent in pieces.
TEST(NfsFileSystemTest, NfsV4CallsOfAnySizeMoveEveryByte) {
  START_NFS(nfs);
  absl::StatusOr<std::unique_ptr<FileSystem>> made = MakeNfsFileSystem(nfs.Url("", 4));
  ASSERT_TRUE(made.ok()) << made.status() << "\n" << nfs.Log();
  FileSystem& f = **made;
  std::string data((2 << 20) + 5, '\0');
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
  const int64_t w = f.Open("/big", O_CREAT | O_EXCL | O_WRONLY);
  ASSERT_GE(w, 0) << w;
  EXPECT_EQ(f.Pwrite(w, data.data(), data.size(), 0), static_cast<int64_t>(data.size()));
  EXPECT_EQ(f.Close(w), 0);
  EXPECT_EQ(testing::FileContents(nfs.export_dir() + "/big"), data);
  const int64_t r = f.Open("/big", O_RDONLY);
  ASSERT_GE(r, 0) << r;
  std::string back(data.size() + 100, '\0');
  EXPECT_EQ(f.Pread(r, back.data(), back.size(), 0), static_cast<int64_t>(data.size()))
      << "a read past the end returns the bytes up to it";
  back.resize(data.size());
  EXPECT_TRUE(back == data);
  EXPECT_EQ(f.Close(r), 0);
  EXPECT_EQ(f.Unlink("/big"), 0);
}

TEST(NfsFileFamiliesTest, LargeStreamWritesAndReadsItsFileOnTheExportAndRemovesIt) {
  START_NFS(nfs);
  for (const bool write : {true, false}) {
    LargeStreamSpec spec;
    spec.name = "ls";
    spec.nfs_url = nfs.Url();
    spec.directory = "//agent-1";  // "/" with the agent subdirectory: made over NFS
    spec.size_bytes = 256 << 10;
    spec.block_size_bytes = 64 << 10;
    spec.passes = 2;
    spec.write = write;
    absl::StatusOr<std::unique_ptr<LargeStreamJob>> job = LargeStreamJob::Prepare(spec);
    ASSERT_TRUE(job.ok()) << job.status() << "\n" << nfs.Log();
    const std::string file = nfs.export_dir() + "/agent-1/ls.stream";
    ASSERT_TRUE(fs::exists(file));
    absl::StatusOr<std::vector<JobResult>> results = (*job)->Run(RunControl{});
    ASSERT_TRUE(results.ok()) << results.status();
    const OpKind kind = write ? OpKind::kWrite : OpKind::kRead;
    for (const char* pass : {"ls.pass1", "ls.pass2"}) {
      const OpStats* op = Op(*results, pass, kind);
      ASSERT_NE(op, nullptr) << pass;
      EXPECT_EQ(op->ops, 4u) << pass;
      EXPECT_EQ(op->bytes, 256u << 10) << pass;
      EXPECT_EQ(op->errors, 0u) << pass;
      if (write) {
        ASSERT_NE(Op(*results, pass, OpKind::kFsync), nullptr);
        EXPECT_EQ(Op(*results, pass, OpKind::kFsync)->ops, 1u);
      }
    }
    EXPECT_EQ(fs::file_size(file), 256u << 10);
    const std::string data = testing::FileContents(file);
    EXPECT_NE(data.find_first_not_of('\0'), std::string::npos) << "the bytes reached the server";
    ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
    EXPECT_FALSE(fs::exists(nfs.export_dir() + "/agent-1")) << "file and directory removed";
  }
}

TEST(NfsFileFamiliesTest, SmallFilesWritesThenReadsEveryFileOverItsClonesConnections) {
  START_NFS(nfs);
  SmallFilesSpec spec;
  spec.name = "sf";
  spec.nfs_url = nfs.Url();
  spec.directory = "/sf/agent-1";
  spec.numjobs = 2;
  spec.file_sizes_bytes = {4096, 8192};
  spec.files = 5;
  spec.fsync = true;
  absl::StatusOr<std::unique_ptr<SmallFilesJob>> job = SmallFilesJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status() << "\n" << nfs.Log();
  ASSERT_TRUE(fs::is_directory(nfs.export_dir() + "/sf/agent-1"));
  absl::StatusOr<std::vector<JobResult>> results = (*job)->Run(RunControl{});
  ASSERT_TRUE(results.ok()) << results.status();
  for (const std::string size : {"4k", "8k"}) {
    const uint64_t bytes = size == "4k" ? 4096 : 8192;
    for (const auto& [name, kind, want_bytes] :
         {std::tuple<std::string, OpKind, uint64_t>{".write", OpKind::kCreate, 0},
          {".write", OpKind::kWrite, 10 * bytes},
          {".write", OpKind::kFsync, 0},
          {".read", OpKind::kOpen, 0},
          {".read", OpKind::kRead, 10 * bytes}}) {
      const OpStats* op = Op(*results, "sf." + size + name, kind);
      ASSERT_NE(op, nullptr) << size << name << " " << OpKindName(kind);
      EXPECT_EQ(op->ops, 10u) << size << name << " " << OpKindName(kind);
      EXPECT_EQ(op->bytes, want_bytes) << size << name << " " << OpKindName(kind);
      EXPECT_EQ(op->errors, 0u) << size << name << " " << OpKindName(kind);
    }
  }
  EXPECT_EQ(testing::CountEntries(nfs.export_dir() + "/sf/agent-1"), 0u)
      << "each size's files go before the next";
  ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
  EXPECT_FALSE(fs::exists(nfs.export_dir() + "/sf")) << "the directories it made are removed";
}

TEST(NfsFileFamiliesTest, MetadataPhasesWorkOnTheTreeInTheExport) {
  START_NFS(nfs);
  MetadataSpec spec;
  spec.name = "md";
  spec.nfs_url = nfs.Url();
  spec.directory = "/mdroot";  // missing: made over NFS
  spec.numjobs = 2;
  spec.files = 6;
  spec.dirs = 2;
  spec.write_bytes = spec.read_bytes = 100;
  spec.phases = {MetadataPhase::kCreate, MetadataPhase::kStat, MetadataPhase::kOpen,
                 MetadataPhase::kRead, MetadataPhase::kRename};
  absl::StatusOr<std::unique_ptr<MetadataJob>> job = MetadataJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status() << "\n" << nfs.Log();
  absl::StatusOr<std::vector<JobResult>> results = (*job)->Run(RunControl{});
  ASSERT_TRUE(results.ok()) << results.status();
  for (const auto& [phase, kind] : {std::pair<std::string, OpKind>{"create", OpKind::kCreate},
                                    {"stat", OpKind::kStat},
                                    {"open", OpKind::kOpen},
                                    {"read", OpKind::kRead},
                                    {"rename", OpKind::kRename}}) {
    const OpStats* op = Op(*results, "md." + phase, kind);
    ASSERT_NE(op, nullptr) << phase;
    EXPECT_EQ(op->ops, 12u) << phase;
    EXPECT_EQ(op->errors, 0u) << phase;
  }
  // Every file was created with its bytes and renamed, where the layout says.
  for (int clone = 0; clone < 2; ++clone) {
    for (uint64_t n = 0; n < 6; ++n) {
      const std::string path = nfs.export_dir() + (*job)->FilePath(0, clone, n, true);
      ASSERT_TRUE(fs::exists(path)) << path;
      EXPECT_EQ(fs::file_size(path), 100u) << path;
    }
  }
  ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
  EXPECT_FALSE(fs::exists(nfs.export_dir() + "/mdroot")) << "files, tree and directory removed";
  EXPECT_TRUE(fs::is_directory(nfs.export_dir())) << "the export itself stays";
}

// Each family states the server of its nfs_url, so the agent's policy refuses a server it does not
// allow, as for ioengine=nfs (no fixture needed: nothing is reached).
TEST(NfsFileFamiliesPolicyTest, AServerOutsideAllowedNfsServersIsRefused) {
  const std::string url = "nfs://10.9.9.9/export?version=3";
  const std::vector<std::pair<const Family*, JobRequest>> requests = {
      {&MetadataFamily(), {"md", "metadata", {{"directory", "/"}, {"nfs_url", url}}}},
      {&SmallFilesFamily(), {"sf", "small_files", {{"directory", "/"}, {"nfs_url", url}}}},
      {&LargeStreamFamily(), {"ls", "large_stream", {{"directory", "/"}, {"nfs_url", url}}}}};
  for (const auto& [family, request] : requests) {
    absl::StatusOr<std::unique_ptr<ParsedJob>> job = family->Parse(request, {});
    ASSERT_TRUE(job.ok()) << job.status();
    JobPolicy policy;
    policy.allowed_roots = {"/tmp"};
    policy.allowed_nfs_servers = {"10.1.0.0/16"};
    for (const JobPathSet& set : (*job)->Paths()) {
      ASSERT_EQ(set.paths->nfs_server, "10.9.9.9") << request.workload;
      EXPECT_THAT(
          ConfineJob(request.name, JobFootprint{}, *set.paths, policy, "agent-1"),
          StatusIs(absl::StatusCode::kPermissionDenied, HasSubstr("outside allowed_nfs_servers")))
          << request.workload;
    }
  }
}

}  // namespace
}  // namespace azbench

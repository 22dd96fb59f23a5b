#include "common/workload_spec.h"

#include "gtest/gtest.h"

namespace azbench {
namespace {

TEST(WorkloadSpecTest, FamiliesRoundTripByName) {
  for (WorkloadFamily f : {WorkloadFamily::kBlockIo, WorkloadFamily::kMetadata,
                           WorkloadFamily::kSmallFiles, WorkloadFamily::kLargeStream}) {
    absl::StatusOr<WorkloadFamily> parsed = ParseWorkloadFamily(WorkloadFamilyName(f));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, f);
  }
  EXPECT_EQ(ParseWorkloadFamily("ior").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(WorkloadSpecTest, MetadataDefaultsFollowTheIssueAndOptionsApply) {
  MetadataSpec md;
  EXPECT_EQ(md.files, 5000u);
  EXPECT_EQ(md.phases.size(), 6u);
  ASSERT_TRUE(ApplyMetadataOption(md, "files", "250").ok());
  ASSERT_TRUE(ApplyMetadataOption(md, "phases", "create:stat,delete").ok());
  ASSERT_TRUE(ApplyMetadataOption(md, "write_bytes", "3901").ok());
  ASSERT_TRUE(ApplyMetadataOption(md, "stonewall", "30").ok());
  EXPECT_EQ(md.files, 250u);
  EXPECT_EQ(md.phases, (std::vector<MetadataPhase>{MetadataPhase::kCreate, MetadataPhase::kStat,
                                                   MetadataPhase::kDelete}));
  EXPECT_EQ(md.write_bytes, 3901u);
  EXPECT_EQ(md.stonewall, absl::Seconds(30)) << "a bare number is seconds";
}

TEST(WorkloadSpecTest, ReadBytesFollowsWriteBytesUnlessGiven) {
  MetadataSpec md;
  ASSERT_TRUE(ApplyMetadataOption(md, "write_bytes", "0").ok());
  EXPECT_EQ(md.read_bytes, 0u);
  md.directory = "/x";
  EXPECT_TRUE(ValidateMetadataSpec(md).ok());
  ASSERT_TRUE(ApplyMetadataOption(md, "read_bytes", "100").ok());
  ASSERT_TRUE(ApplyMetadataOption(md, "write_bytes", "3901").ok());
  EXPECT_EQ(md.read_bytes, 100u);
  ASSERT_TRUE(ApplyMetadataOption(md, "write_bytes", "50").ok());
  EXPECT_NE(ValidateMetadataSpec(md).message().find("read_bytes (100) must not exceed write_bytes"),
            std::string::npos);
}

TEST(WorkloadSpecTest, MetadataWriteAndReadBytesAreCappedNamingTheOptionAndTheLimit) {
  MetadataSpec md;
  md.directory = "/x";
  ASSERT_TRUE(ApplyMetadataOption(md, "write_bytes", "16m").ok());
  EXPECT_TRUE(ValidateMetadataSpec(md).ok()) << "the limit itself is allowed";
  ASSERT_TRUE(ApplyMetadataOption(md, "write_bytes", "256t").ok());
  const absl::Status write = ValidateMetadataSpec(md);
  EXPECT_EQ(write.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(write.message().find("write_bytes (256TiB) must be at most 16MiB"), std::string::npos)
      << write;
  ASSERT_TRUE(ApplyMetadataOption(md, "write_bytes", "1m").ok());
  ASSERT_TRUE(ApplyMetadataOption(md, "read_bytes", "32m").ok());
  ASSERT_TRUE(ApplyMetadataOption(md, "phases", "create,stat").ok());  // no read phase
  const absl::Status read = ValidateMetadataSpec(md);
  EXPECT_NE(read.message().find("read_bytes (32MiB) must be at most 16MiB"), std::string::npos)
      << read;
}

TEST(WorkloadSpecTest, AFailedOptionLeavesTheSpecUnchanged) {
  MetadataSpec md;
  EXPECT_FALSE(ApplyMetadataOption(md, "files", "0").ok());
  EXPECT_EQ(md.files, 5000u);
  EXPECT_EQ(ApplyMetadataOption(md, "bs", "4k").code(), absl::StatusCode::kNotFound);
}

TEST(WorkloadSpecTest, PhasesMustStartWithCreateAndKeepTheirOrder) {
  MetadataSpec md;
  md.directory = "/x";
  ASSERT_TRUE(ApplyMetadataOption(md, "phases", "stat").ok());
  EXPECT_NE(ValidateMetadataSpec(md).message().find("must start with create"), std::string::npos);
  EXPECT_NE(ApplyMetadataOption(md, "phases", "create,delete,stat").message().find("in that order"),
            std::string::npos);
  EXPECT_NE(ApplyMetadataOption(md, "phases", "create,create").message().find("listed twice"),
            std::string::npos);
}

TEST(WorkloadSpecTest, SmallFilesSizesParseWithUnitsAndLabelBack) {
  SmallFilesSpec sf;
  EXPECT_EQ(sf.file_sizes_bytes.size(), 5u);
  ASSERT_TRUE(ApplySmallFilesOption(sf, "filesizes", "4k, 1m:1000").ok());
  EXPECT_EQ(sf.file_sizes_bytes, (std::vector<uint64_t>{4096, 1 << 20, 1000}));
  EXPECT_EQ(SizeLabel(4096), "4k");
  EXPECT_EQ(SizeLabel(1 << 20), "1m");
  EXPECT_EQ(SizeLabel(1000), "1000");
  EXPECT_EQ(SizeLabel(1536), "1536");
  sf.directory = "/x";
  sf.direct = true;
  EXPECT_NE(ValidateSmallFilesSpec(sf).message().find("1000 bytes is not a multiple of 512"),
            std::string::npos);
}

TEST(WorkloadSpecTest, LargeStreamDefaultsAndChecks) {
  LargeStreamSpec ls;
  EXPECT_EQ(ls.size_bytes, 4ULL << 30);
  ls.directory = "/mnt/x";
  EXPECT_EQ(ls.FilePath(), "/mnt/x/job.stream");
  ASSERT_TRUE(ApplyLargeStreamOption(ls, "bs", "8m").ok());
  ASSERT_TRUE(ApplyLargeStreamOption(ls, "size", "4m").ok());
  EXPECT_NE(ValidateLargeStreamSpec(ls).message().find("must not exceed size"), std::string::npos);
}

TEST(WorkloadSpecTest, FileFamiliesWithAnNfsUrlFollowTheNfsEnginesRules) {
  const WorkloadFamily families[] = {WorkloadFamily::kMetadata, WorkloadFamily::kSmallFiles,
                                     WorkloadFamily::kLargeStream};
  for (const WorkloadFamily family : families) {
    const std::string name(WorkloadFamilyName(family));
    EXPECT_TRUE(ValidateWorkloadOptions(
                    family, {{"directory", "/"}, {"nfs_url", "nfs://10.0.0.5/export"}}, "j")
                    .ok())
        << name;
    const absl::Status bad =
        ValidateWorkloadOptions(family, {{"directory", "/"}, {"nfs_url", "nfs://10.0.0.5"}}, "j");
    EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument) << name;
    EXPECT_NE(bad.message().find("export path is missing"), std::string::npos) << name << bad;
  }
  // No page cache to bypass.
  EXPECT_NE(
      ValidateWorkloadOptions(
          WorkloadFamily::kLargeStream,
          {{"directory", "/"}, {"nfs_url", "nfs://10.0.0.5/e"}, {"direct", "1"}, {"size", "1m"}},
          "j")
          .message()
          .find("direct=1 is not allowed with nfs_url"),
      std::string::npos);
  // NFSv4 writes of any size: the backend sends them in pieces libnfs 4.0 can carry.
  const std::string v4 = "nfs://10.0.0.5/e?version=4";
  EXPECT_TRUE(ValidateWorkloadOptions(WorkloadFamily::kMetadata,
                                      {{"directory", "/"}, {"nfs_url", v4}, {"write_bytes", "4k"}},
                                      "j")
                  .ok());
  EXPECT_TRUE(ValidateWorkloadOptions(
                  WorkloadFamily::kSmallFiles,
                  {{"directory", "/"}, {"nfs_url", v4}, {"filesizes", "2k:8k"}, {"bs", "4k"}}, "j")
                  .ok());
}

TEST(WorkloadSpecTest, ValidateWorkloadOptionsNamesTheFamilyForAForeignOption) {
  absl::Status s = ValidateWorkloadOptions(WorkloadFamily::kSmallFiles,
                                           {{"directory", "/x"}, {"rw", "read"}}, "sf");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("option 'rw' is not supported by workload small_files"),
            std::string::npos)
      << s;
  EXPECT_TRUE(
      ValidateWorkloadOptions(WorkloadFamily::kBlockIo, {{"size", "1m"}, {"kb_base", "1000"}}, "b")
          .ok());
}

TEST(WorkloadSpecTest, AVisibilityOptionTheProbeWouldIgnoreIsRefusedNamingBoth) {
  using Options = std::vector<std::pair<std::string, std::string>>;
  struct Case {
    Options options;
    std::string message;
  };
  const std::vector<Case> refused = {
      {{{"probe", "append"}, {"bucket", "b"}, {"trials", "5"}},
       "option trials does not apply to probe append; it applies to client_to_client, export, "
       "import, conflict"},
      {{{"probe", "export"}, {"bucket", "b"}, {"fsync", "0"}},
       "fsync does not apply to probe export"},
      {{{"probe", "export"}, {"bucket", "b"}, {"role", "reader"}}, "role does not apply"},
      {{{"probe", "export"}, {"bucket", "b"}, {"read_method", "stat"}},
       "read_method does not apply"},
      {{{"probe", "import"}, {"bucket", "b"}, {"read_dir", "/m2"}}, "read_dir does not apply"},
      {{{"probe", "conflict"}, {"bucket", "b"}, {"spacing", "1s"}}, "spacing does not apply"},
      {{{"probe", "client_to_client"}, {"bucket", "b"}}, "bucket does not apply"},
      {{{"probe", "client_to_client"}, {"rel_dir", "x"}}, "rel_dir does not apply"},
      {{{"probe", "import"}, {"bucket", "b"}, {"put_delay", "1s"}}, "put_delay does not apply"},
      {{{"probe", "export"}, {"bucket", "b"}, {"append_interval", "1s"}}, "append_interval"},
      {{{"probe", "conflict"}, {"bucket", "b"}, {"put_delay", "5s"}, {"timeout", "5s"}},
       "put_delay=5s: must be less than timeout (5s)"},
      {{{"probe", "conflict"}, {"bucket", "b"}, {"put_delay", "200s"}},
       "put_delay=200s: must be less than timeout (180s (the default))"},
  };
  for (const Case& c : refused) {
    absl::Status s = ValidateVisibilityOptions(c.options);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.message;
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s;
  }
  const std::vector<Options> accepted = {
      {{"probe", "client_to_client"}, {"trials", "3"}, {"read_dir", "/m2"}, {"fsync", "0"}},
      {{"probe", "import"}, {"bucket", "b"}, {"read_method", "stat"}, {"spacing", "1s"}},
      {{"probe", "append"}, {"bucket", "b"}, {"append_interval", "1s"}, {"run_id", "x"}},
      {{"probe", "conflict"},
       {"bucket", "b"},
       {"trials", "2"},
       {"put_delay", "4s"},
       {"timeout", "5s"}},
  };
  for (const Options& o : accepted) {
    EXPECT_TRUE(ValidateVisibilityOptions(o).ok()) << ValidateVisibilityOptions(o);
  }
}

}  // namespace
}  // namespace azbench

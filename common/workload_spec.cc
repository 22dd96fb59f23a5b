#include "common/workload_spec.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/job_spec.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"
#include "common/units.h"

namespace azbench {
namespace {

constexpr int kMaxNumjobs = 4096;
constexpr int64_t kMaxFiles = 100'000'000;
constexpr int kMaxDirs = 1'000'000;
constexpr uint64_t kDirectAlignmentBytes = 512;

struct FamilyName {
  WorkloadFamily family;
  std::string_view name;
};
constexpr FamilyName kFamilies[] = {{WorkloadFamily::kBlockIo, "block_io"},
                                    {WorkloadFamily::kMetadata, "metadata"},
                                    {WorkloadFamily::kSmallFiles, "small_files"},
                                    {WorkloadFamily::kLargeStream, "large_stream"},
                                    {WorkloadFamily::kVisibility, "visibility"}};

constexpr std::string_view kMetadataOptions[] = {
    "name",   "directory",   "numjobs",    "files",     "dirs",   "dir_mode",    "phases",
    "stride", "write_bytes", "read_bytes", "stonewall", "op_log", "op_log_rate", "nfs_url"};
constexpr std::string_view kSmallFilesOptions[] = {
    "name",   "directory", "numjobs",    "filesizes", "files",       "bs",
    "direct", "fsync",     "invalidate", "op_log",    "op_log_rate", "nfs_url"};
constexpr std::string_view kLargeStreamOptions[] = {
    "name",   "directory", "filename",   "size",   "bs",          "rw",     "direct",
    "passes", "end_fsync", "invalidate", "op_log", "op_log_rate", "nfs_url"};

constexpr std::string_view kVisibilityOptions[] = {"directory",
                                                   "probe",
                                                   "trials",
                                                   "spacing",
                                                   "poll_interval",
                                                   "timeout",
                                                   "size",
                                                   "read_method",
                                                   "fsync",
                                                   "close",
                                                   "rename_into_place",
                                                   "read_dir",
                                                   "role",
                                                   "bucket",
                                                   "key_prefix",
                                                   "rel_dir",
                                                   "run_id",
                                                   "append_interval",
                                                   "append_duration",
                                                   "put_delay",
                                                   "lost_found_pattern",
                                                   "s3_region",
                                                   "s3_endpoint",
                                                   "s3_path_style",
                                                   "s3_profile",
                                                   "s3_credentials_file",
                                                   "nfs_url"};

template <size_t N>
bool In(const std::string_view (&names)[N], std::string_view key) {
  for (std::string_view n : names) {
    if (n == key) return true;
  }
  return false;
}

template <size_t N>
std::vector<std::string> Names(const std::string_view (&names)[N]) {
  std::vector<std::string> out;
  for (std::string_view n : names) out.emplace_back(n);
  return out;
}

absl::Status Named(std::string_view key, const absl::Status& status) {
  if (status.ok()) return status;
  return absl::Status(status.code(),
                      absl::StrCat("option '", std::string(key), "': ", status.message()));
}

absl::Status SetBool(bool& field, std::string_view value) {
  if (value.empty()) {
    field = true;
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(field, ParseBool(value));
  return absl::OkStatus();
}

absl::Status SetInt(int& field, std::string_view value, int64_t min_value, int64_t max_value) {
  ASSIGN_OR_RETURN(int64_t v, ParseInt(value, min_value, max_value));
  field = static_cast<int>(v);
  return absl::OkStatus();
}

absl::Status SetCount(uint64_t& field, std::string_view value, int64_t min_value,
                      int64_t max_value) {
  ASSIGN_OR_RETURN(int64_t v, ParseInt(value, min_value, max_value));
  field = static_cast<uint64_t>(v);
  return absl::OkStatus();
}

absl::Status SetName(std::string& field, std::string_view value) {
  if (value.empty()) return absl::InvalidArgumentError("a non-empty value is required");
  field = std::string(value);
  return absl::OkStatus();
}

absl::Status SetSizeField(uint64_t& field, std::string_view value) {
  ASSIGN_OR_RETURN(field, ParseSize(value));
  return absl::OkStatus();
}

absl::Status SetPhases(MetadataSpec& spec, std::string_view value) {
  std::vector<MetadataPhase> phases;
  for (absl::string_view raw : absl::StrSplit(std::string(value), absl::ByAnyChar(",:"))) {
    const std::string name = absl::AsciiStrToLower(absl::StripAsciiWhitespace(raw));
    bool found = false;
    for (int p = 0; p < kMetadataPhaseCount; ++p) {
      const MetadataPhase phase = static_cast<MetadataPhase>(p);
      if (MetadataPhaseName(phase) == name) {
        for (MetadataPhase seen : phases) {
          if (seen == phase) {
            return absl::InvalidArgumentError(absl::StrCat("phase '", name, "' is listed twice"));
          }
        }
        phases.push_back(phase);
        found = true;
      }
    }
    if (!found) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", name, "' is not a phase; allowed: create, stat, open, read, rename, delete"));
    }
  }
  for (size_t i = 1; i < phases.size(); ++i) {
    if (phases[i] < phases[i - 1]) {
      return absl::InvalidArgumentError(
          "phases run in the order create, stat, open, read, rename, delete; list them in that "
          "order");
    }
  }
  spec.phases = std::move(phases);
  return absl::OkStatus();
}

absl::Status ApplyMetadata(MetadataSpec& spec, std::string_view key, std::string_view value) {
  if (key == "name") return SetName(spec.name, value);
  if (key == "directory") return SetName(spec.directory, value);
  if (key == "nfs_url") return SetName(spec.nfs_url, value);
  if (key == "numjobs") return SetInt(spec.numjobs, value, 1, kMaxNumjobs);
  if (key == "files") return SetCount(spec.files, value, 1, kMaxFiles);
  if (key == "dirs") return SetInt(spec.dirs, value, 1, kMaxDirs);
  if (key == "dir_mode") {
    const std::string lower = absl::AsciiStrToLower(std::string(value));
    if (lower != "unique" && lower != "shared") {
      return absl::InvalidArgumentError(
          absl::StrCat("'", std::string(value), "' is not allowed; allowed: unique, shared"));
    }
    spec.shared_dirs = lower == "shared";
    return absl::OkStatus();
  }
  if (key == "phases") return SetPhases(spec, value);
  if (key == "stride") return SetInt(spec.stride, value, 0, 1'000'000);
  if (key == "write_bytes") {
    RETURN_IF_ERROR(SetSizeField(spec.write_bytes, value));
    if (!spec.read_bytes_given) spec.read_bytes = spec.write_bytes;
    return absl::OkStatus();
  }
  if (key == "read_bytes") {
    spec.read_bytes_given = true;
    return SetSizeField(spec.read_bytes, value);
  }
  if (key == "stonewall") {
    ASSIGN_OR_RETURN(spec.stonewall, ParseDuration(value, absl::Seconds(1)));
    return absl::OkStatus();
  }
  if (key == "op_log") return SetBool(spec.op_log, value);
  if (key == "op_log_rate") return SetCount(spec.op_log_rate, value, 1, 10'000'000);
  return UnknownWorkloadOption(WorkloadFamily::kMetadata, key);
}

absl::Status ApplySmallFiles(SmallFilesSpec& spec, std::string_view key, std::string_view value) {
  if (key == "name") return SetName(spec.name, value);
  if (key == "directory") return SetName(spec.directory, value);
  if (key == "nfs_url") return SetName(spec.nfs_url, value);
  if (key == "numjobs") return SetInt(spec.numjobs, value, 1, kMaxNumjobs);
  if (key == "filesizes") {
    std::vector<uint64_t> sizes;
    for (const std::string& entry : SplitSizeList(value)) {
      ASSIGN_OR_RETURN(uint64_t size, ParseSize(entry));
      if (size == 0) return absl::InvalidArgumentError("file sizes must be greater than 0");
      sizes.push_back(size);
    }
    if (sizes.empty()) {
      return absl::InvalidArgumentError("give at least one size, e.g. 4k:64k:1m");
    }
    spec.file_sizes_bytes = std::move(sizes);
    return absl::OkStatus();
  }
  if (key == "files") return SetCount(spec.files, value, 1, kMaxFiles);
  if (key == "bs") return SetSizeField(spec.block_size_bytes, value);
  if (key == "direct") return SetBool(spec.direct, value);
  if (key == "fsync") return SetBool(spec.fsync, value);
  if (key == "invalidate") return SetBool(spec.invalidate, value);
  if (key == "op_log") return SetBool(spec.op_log, value);
  if (key == "op_log_rate") return SetCount(spec.op_log_rate, value, 1, 10'000'000);
  return UnknownWorkloadOption(WorkloadFamily::kSmallFiles, key);
}

absl::Status ApplyLargeStream(LargeStreamSpec& spec, std::string_view key, std::string_view value) {
  if (key == "name") return SetName(spec.name, value);
  if (key == "directory") return SetName(spec.directory, value);
  if (key == "nfs_url") return SetName(spec.nfs_url, value);
  if (key == "filename") return SetName(spec.filename, value);
  if (key == "size") return SetSizeField(spec.size_bytes, value);
  if (key == "bs") return SetSizeField(spec.block_size_bytes, value);
  if (key == "rw") {
    const std::string lower = absl::AsciiStrToLower(std::string(value));
    if (lower != "read" && lower != "write") {
      return absl::InvalidArgumentError(
          absl::StrCat("'", std::string(value), "' is not allowed; allowed: read, write"));
    }
    spec.write = lower == "write";
    return absl::OkStatus();
  }
  if (key == "direct") return SetBool(spec.direct, value);
  if (key == "passes") return SetInt(spec.passes, value, 1, 10'000);
  if (key == "end_fsync") return SetBool(spec.end_fsync, value);
  if (key == "invalidate") return SetBool(spec.invalidate, value);
  if (key == "op_log") return SetBool(spec.op_log, value);
  if (key == "op_log_rate") return SetCount(spec.op_log_rate, value, 1, 10'000'000);
  return UnknownWorkloadOption(WorkloadFamily::kLargeStream, key);
}

std::string_view Trimmed(std::string_view s) {
  absl::string_view a(s.data(), s.size());
  a = absl::StripAsciiWhitespace(a);
  return std::string_view(a.data(), a.size());
}

}  // namespace

std::string_view WorkloadFamilyName(WorkloadFamily family) {
  for (const FamilyName& f : kFamilies) {
    if (f.family == family) return f.name;
  }
  return "block_io";
}

std::string WorkloadFamilyNames() {
  std::vector<std::string> names;
  for (const FamilyName& f : kFamilies) names.emplace_back(f.name);
  return absl::StrJoin(names, ", ");
}

absl::StatusOr<WorkloadFamily> ParseWorkloadFamily(std::string_view name) {
  for (const FamilyName& f : kFamilies) {
    if (f.name == name) return f.family;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "workload '", std::string(name), "' is not supported; allowed: ", WorkloadFamilyNames()));
}

std::string_view MetadataPhaseName(MetadataPhase phase) {
  switch (phase) {
    case MetadataPhase::kCreate:
      return "create";
    case MetadataPhase::kStat:
      return "stat";
    case MetadataPhase::kOpen:
      return "open";
    case MetadataPhase::kRead:
      return "read";
    case MetadataPhase::kRename:
      return "rename";
    case MetadataPhase::kDelete:
      return "delete";
  }
  return "unknown";
}

OpKind MetadataPhaseOpKind(MetadataPhase phase) {
  switch (phase) {
    case MetadataPhase::kCreate:
      return OpKind::kCreate;
    case MetadataPhase::kStat:
      return OpKind::kStat;
    case MetadataPhase::kOpen:
      return OpKind::kOpen;
    case MetadataPhase::kRead:
      return OpKind::kRead;
    case MetadataPhase::kRename:
      return OpKind::kRename;
    case MetadataPhase::kDelete:
      return OpKind::kUnlink;
  }
  return OpKind::kProbe;
}

absl::Status ApplyMetadataOption(MetadataSpec& spec, std::string_view key, std::string_view value) {
  key = Trimmed(key);
  MetadataSpec updated = spec;
  absl::Status status = ApplyMetadata(updated, key, Trimmed(value));
  if (absl::IsNotFound(status)) return status;
  RETURN_IF_ERROR(Named(key, status));
  spec = std::move(updated);
  return absl::OkStatus();
}

absl::Status ValidateMetadataSpec(const MetadataSpec& spec) {
  if (spec.directory.empty()) {
    return absl::InvalidArgumentError("directory must be given (the target path)");
  }
  if (spec.phases.empty()) return absl::InvalidArgumentError("phases must not be empty");
  if (spec.agent_count < 1 || spec.agent_index < 0 || spec.agent_index >= spec.agent_count) {
    return absl::InvalidArgumentError(absl::StrCat(
        "agent index ", spec.agent_index, " is out of range for ", spec.agent_count, " agents"));
  }
  if (spec.stride > 0 && spec.stonewall > absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        "stride and stonewall cannot be combined: with stonewall an agent does not know how "
        "many files the agent it strides to created");
  }
  if (spec.stonewall < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("stonewall must not be negative");
  }
  for (const auto& [field, bytes] :
       {std::pair<const char*, uint64_t>{"write_bytes", spec.write_bytes},
        std::pair<const char*, uint64_t>{"read_bytes", spec.read_bytes}}) {
    if (bytes > kMaxMetadataFileBytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, " (", FormatBytes(bytes), ") must be at most ", FormatBytes(kMaxMetadataFileBytes),
          ": each clone holds a buffer of that size; larger files are for block_io or "
          "large_stream"));
    }
  }
  const bool creates = spec.phases.front() == MetadataPhase::kCreate;
  if (!creates) {
    return absl::InvalidArgumentError(
        "phases must start with create (the other phases work on the files it creates)");
  }
  if (spec.read_bytes > spec.write_bytes) {
    bool reads = false;
    for (MetadataPhase p : spec.phases) reads = reads || p == MetadataPhase::kRead;
    if (reads) {
      return absl::InvalidArgumentError(
          absl::StrCat("read_bytes (", spec.read_bytes, ") must not exceed write_bytes (",
                       spec.write_bytes, "): the read phase reads what create wrote"));
    }
  }
  if (!spec.nfs_url.empty()) {
    return CheckNfsFileJob(spec.nfs_url, false);
  }
  return absl::OkStatus();
}

std::vector<std::string> SplitSizeList(std::string_view list) {
  std::vector<std::string> out;
  for (absl::string_view part : absl::StrSplit(std::string(list), absl::ByAnyChar(":,"))) {
    part = absl::StripAsciiWhitespace(part);
    if (!part.empty()) out.emplace_back(part);
  }
  return out;
}

std::string SizeLabel(uint64_t bytes) {
  constexpr const char* kUnits[] = {"", "k", "m", "g", "t"};
  int unit = 0;
  while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return absl::StrCat(bytes, kUnits[unit]);
}

absl::Status ApplySmallFilesOption(SmallFilesSpec& spec, std::string_view key,
                                   std::string_view value) {
  key = Trimmed(key);
  SmallFilesSpec updated = spec;
  absl::Status status = ApplySmallFiles(updated, key, Trimmed(value));
  if (absl::IsNotFound(status)) return status;
  RETURN_IF_ERROR(Named(key, status));
  spec = std::move(updated);
  return absl::OkStatus();
}

absl::Status ValidateSmallFilesSpec(const SmallFilesSpec& spec) {
  if (spec.directory.empty()) {
    return absl::InvalidArgumentError("directory must be given (the target path)");
  }
  if (spec.file_sizes_bytes.empty()) return absl::InvalidArgumentError("filesizes is empty");
  if (spec.direct) {
    for (uint64_t size : spec.file_sizes_bytes) {
      if (size % kDirectAlignmentBytes != 0) {
        return absl::InvalidArgumentError(absl::StrCat("filesizes: ", size,
                                                       " bytes is not a multiple of ",
                                                       kDirectAlignmentBytes, " (direct=1)"));
      }
    }
    if (spec.block_size_bytes % kDirectAlignmentBytes != 0) {
      return absl::InvalidArgumentError(absl::StrCat("bs (", spec.block_size_bytes,
                                                     ") must be a multiple of ",
                                                     kDirectAlignmentBytes, " with direct=1"));
    }
  }
  if (!spec.nfs_url.empty()) {
    return CheckNfsFileJob(spec.nfs_url, spec.direct);
  }
  return absl::OkStatus();
}

std::string LargeStreamSpec::FilePath() const {
  const std::string file = filename.empty() ? absl::StrCat(name, ".stream") : filename;
  if (file.front() == '/' || directory.empty()) return file;
  return directory.back() == '/' ? directory + file : absl::StrCat(directory, "/", file);
}

absl::Status ApplyLargeStreamOption(LargeStreamSpec& spec, std::string_view key,
                                    std::string_view value) {
  key = Trimmed(key);
  LargeStreamSpec updated = spec;
  absl::Status status = ApplyLargeStream(updated, key, Trimmed(value));
  if (absl::IsNotFound(status)) return status;
  RETURN_IF_ERROR(Named(key, status));
  spec = std::move(updated);
  return absl::OkStatus();
}

absl::Status ValidateLargeStreamSpec(const LargeStreamSpec& spec) {
  if (spec.directory.empty() && (spec.filename.empty() || spec.filename.front() != '/')) {
    return absl::InvalidArgumentError("directory (or an absolute filename) must be given");
  }
  if (spec.size_bytes == 0) return absl::InvalidArgumentError("size must be greater than 0");
  if (spec.block_size_bytes == 0 || spec.block_size_bytes > (1ULL << 30)) {
    return absl::InvalidArgumentError("bs must be between 1 byte and 1g");
  }
  if (spec.block_size_bytes > spec.size_bytes) {
    return absl::InvalidArgumentError(absl::StrCat("bs (", FormatBytes(spec.block_size_bytes),
                                                   ") must not exceed size (",
                                                   FormatBytes(spec.size_bytes), ")"));
  }
  if (spec.direct && (spec.block_size_bytes % kDirectAlignmentBytes != 0 ||
                      spec.size_bytes % kDirectAlignmentBytes != 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bs and size must be multiples of ", kDirectAlignmentBytes, " with direct=1"));
  }
  if (!spec.nfs_url.empty()) {
    return CheckNfsFileJob(spec.nfs_url, spec.direct);
  }
  return absl::OkStatus();
}

absl::Status UnknownWorkloadOption(WorkloadFamily family, std::string_view key) {
  return absl::NotFoundError(
      absl::StrCat("option '", std::string(key), "' is not supported by workload ",
                   std::string(WorkloadFamilyName(family)),
                   "; supported: ", absl::StrJoin(WorkloadOptionNames(family), ", ")));
}

std::vector<std::string> WorkloadOptionNames(WorkloadFamily family) {
  switch (family) {
    case WorkloadFamily::kBlockIo:
      return SupportedJobOptionNames();
    case WorkloadFamily::kMetadata:
      return Names(kMetadataOptions);
    case WorkloadFamily::kSmallFiles:
      return Names(kSmallFilesOptions);
    case WorkloadFamily::kLargeStream:
      return Names(kLargeStreamOptions);
    case WorkloadFamily::kVisibility:
      return Names(kVisibilityOptions);
  }
  return {};
}

bool IsWorkloadOption(WorkloadFamily family, std::string_view key) {
  key = Trimmed(key);
  switch (family) {
    case WorkloadFamily::kBlockIo:
      return IsSupportedJobOption(key);
    case WorkloadFamily::kMetadata:
      return In(kMetadataOptions, key);
    case WorkloadFamily::kSmallFiles:
      return In(kSmallFilesOptions, key);
    case WorkloadFamily::kLargeStream:
      return In(kLargeStreamOptions, key);
    case WorkloadFamily::kVisibility:
      return In(kVisibilityOptions, key);
  }
  return false;
}

absl::Status ValidateWorkloadOptions(
    WorkloadFamily family, const std::vector<std::pair<std::string, std::string>>& options,
    std::string_view job_name) {
  auto apply_all = [&](auto& spec, auto apply) -> absl::Status {
    spec.name = std::string(job_name);
    for (const auto& [key, value] : options) {
      absl::Status s = apply(spec, key, value);
      if (absl::IsNotFound(s)) return absl::InvalidArgumentError(s.message());
      RETURN_IF_ERROR(s);
    }
    return absl::OkStatus();
  };
  switch (family) {
    case WorkloadFamily::kBlockIo: {
      JobSpec spec;
      spec.name = std::string(job_name);
      for (const bool kb_base_pass : {true, false}) {  // fio parses kb_base first
        for (const auto& [key, value] : options) {
          if ((key == "kb_base") != kb_base_pass) continue;
          absl::Status s = ApplyJobOption(spec, key, value);
          if (absl::IsNotFound(s) || absl::IsUnimplemented(s)) {
            return absl::InvalidArgumentError(s.message());
          }
          RETURN_IF_ERROR(s);
        }
      }
      return ValidateJobSpec(spec);
    }
    case WorkloadFamily::kMetadata: {
      MetadataSpec spec;
      RETURN_IF_ERROR(apply_all(spec, ApplyMetadataOption));
      return ValidateMetadataSpec(spec);
    }
    case WorkloadFamily::kSmallFiles: {
      SmallFilesSpec spec;
      RETURN_IF_ERROR(apply_all(spec, ApplySmallFilesOption));
      return ValidateSmallFilesSpec(spec);
    }
    case WorkloadFamily::kLargeStream: {
      LargeStreamSpec spec;
      RETURN_IF_ERROR(apply_all(spec, ApplyLargeStreamOption));
      return ValidateLargeStreamSpec(spec);
    }
    case WorkloadFamily::kVisibility: {
      for (const auto& [key, value] : options) {
        if (!IsWorkloadOption(family, key)) {
          return absl::InvalidArgumentError(UnknownWorkloadOption(family, key).message());
        }
      }
      return ValidateVisibilityOptions(options);
    }
  }
  return absl::OkStatus();
}

}  // namespace azbench

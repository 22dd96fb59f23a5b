#include "common/job_spec.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/fio_option_table.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"
#include "common/trim_options.h"
#include "common/units.h"
#include "common/verify_options.h"

namespace azbench {
namespace {

// This Abseil build's string_view is its own type, not std::string_view: convert at the boundary.
absl::string_view Av(std::string_view s) { return absl::string_view(s.data(), s.size()); }
std::string_view Sv(absl::string_view s) { return std::string_view(s.data(), s.size()); }

// One read or write moves at most this much: Linux transfers just under 2 GiB per call
// (MAX_RW_COUNT), and a request's length is 32 bits.
constexpr uint64_t kMaxBlockSizeBytes = uint64_t{1} << 30;
constexpr uint64_t kDirectAlignmentBytes = 512;

bool IsAccepted(const FioOptionInfo& info) { return info.support != FioSupport::kRefused; }

std::string JoinPath(absl::string_view directory, absl::string_view name) {
  if (directory.empty()) return std::string(name);
  if (directory.back() == '/') return absl::StrCat(directory, name);
  return absl::StrCat(directory, "/", name);
}

// Splits fio's ':'-separated filename list; "\:" is a literal colon. Empty entries are dropped.
std::vector<std::string> SplitFilenames(absl::string_view list) {
  std::vector<std::string> names;
  std::string current;
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i] == '\\' && i + 1 < list.size() && list[i + 1] == ':') {
      current.push_back(':');
      ++i;
    } else if (list[i] == ':') {
      if (!current.empty()) names.push_back(std::move(current));
      current.clear();
    } else {
      current.push_back(list[i]);
    }
  }
  if (!current.empty()) names.push_back(std::move(current));
  return names;
}

// fio's rate options take read,write,trim values. azbench does not pace trims (ValidateJobSpec
// refuses rates on a job that trims), so a trim value is accepted with a warning (the table's
// notes say so).
bool HasTrimValue(const FioOptionInfo& info, absl::string_view value) {
  static constexpr std::string_view kRateOptions[] = {"rate", "rate_min", "rate_iops",
                                                      "rate_iops_min"};
  if (std::find(std::begin(kRateOptions), std::end(kRateOptions), info.name) ==
      std::end(kRateOptions)) {
    return false;
  }
  const std::vector<absl::string_view> parts = absl::StrSplit(value, ',');
  return parts.size() == 3 && !absl::StripAsciiWhitespace(parts[2]).empty();
}

}  // namespace

bool IsRandom(RwPattern rw) {
  return rw == RwPattern::kRandRead || rw == RwPattern::kRandWrite || rw == RwPattern::kRandRw ||
         rw == RwPattern::kRandTrim || rw == RwPattern::kRandTrimWrite;
}

bool DoesRead(RwPattern rw) {
  return rw == RwPattern::kRead || rw == RwPattern::kRandRead || rw == RwPattern::kReadWrite ||
         rw == RwPattern::kRandRw;
}

bool DoesWrite(RwPattern rw) {
  return rw == RwPattern::kWrite || rw == RwPattern::kRandWrite || rw == RwPattern::kReadWrite ||
         rw == RwPattern::kRandRw || rw == RwPattern::kTrimWrite || rw == RwPattern::kRandTrimWrite;
}

bool DoesTrim(RwPattern rw) {
  return rw == RwPattern::kTrim || rw == RwPattern::kRandTrim || rw == RwPattern::kTrimWrite ||
         rw == RwPattern::kRandTrimWrite;
}

std::string_view RwPatternName(RwPattern rw) {
  switch (rw) {
    case RwPattern::kRead:
      return "read";
    case RwPattern::kWrite:
      return "write";
    case RwPattern::kRandRead:
      return "randread";
    case RwPattern::kRandWrite:
      return "randwrite";
    case RwPattern::kReadWrite:
      return "rw";
    case RwPattern::kRandRw:
      return "randrw";
    case RwPattern::kTrim:
      return "trim";
    case RwPattern::kRandTrim:
      return "randtrim";
    case RwPattern::kTrimWrite:
      return "trimwrite";
    case RwPattern::kRandTrimWrite:
      return "randtrimwrite";
  }
  return "unknown";
}

std::string_view FallocateModeName(FallocateMode mode) {
  switch (mode) {
    case FallocateMode::kNone:
      return "none";
    case FallocateMode::kNative:
      return "native";
    case FallocateMode::kPosix:
      return "posix";
    case FallocateMode::kKeep:
      return "keep";
    case FallocateMode::kTruncate:
      return "truncate";
  }
  return "unknown";
}

std::string_view FileSharingName(FileSharing sharing) {
  switch (sharing) {
    case FileSharing::kFilePerAgent:
      return "file-per-agent";
    case FileSharing::kSharedDir:
      return "shared-dir";
    case FileSharing::kSharedFile:
      return "shared-file";
    case FileSharing::kWriteVerify:
      return "write-verify";
  }
  return "unknown";
}

std::string_view ClockSourceName(ClockSource source) {
  switch (source) {
    case ClockSource::kAuto:
      return "auto";
    case ClockSource::kCpu:
      return "cpu";
    case ClockSource::kClockGettime:
      return "clock_gettime";
  }
  return "auto";
}

BlockSizeChoice JobSpec::BlockSizes(bool write_direction) const {
  // bs_is_seq_rand: the read values are the sequential I/Os', the write values the random ones'.
  const bool write = bs_is_seq_rand ? IsRandom(rw) : write_direction;
  const int dir = write ? 1 : 0;
  BlockSizeChoice choice;
  const uint64_t bs =
      write && write_block_size_bytes != 0 ? write_block_size_bytes : block_size_bytes;
  choice.min_bytes = choice.max_bytes = bs;
  if (bsrange_bytes[dir].first != 0) {
    choice.min_bytes = bsrange_bytes[dir].first;
    choice.max_bytes = bsrange_bytes[dir].second;
  }
  if (!bssplit[dir].empty()) {
    choice.split = bssplit[dir];
    choice.min_bytes = choice.max_bytes = choice.split.front().bytes;
    for (const BlockSizeShare& share : choice.split) {
      choice.min_bytes = std::min(choice.min_bytes, share.bytes);
      choice.max_bytes = std::max(choice.max_bytes, share.bytes);
    }
  }
  choice.align_bytes = blockalign_bytes[dir] != 0 ? blockalign_bytes[dir] : choice.min_bytes;
  choice.unaligned = bs_unaligned;
  return choice;
}

BlockSizeChoice JobSpec::TrimBlockSizes() const {
  BlockSizeChoice choice;
  choice.min_bytes = choice.max_bytes = choice.align_bytes = trim_block_size_bytes;
  return choice;
}

uint64_t JobSpec::MaxBlockSizeBytes() const {
  const uint64_t data = std::max(BlockSizes(false).max_bytes, BlockSizes(true).max_bytes);
  return DoesTrim(rw) ? std::max(data, trim_block_size_bytes) : data;
}

std::vector<std::string> JobSpec::FilePaths(int clone_index) const {
  std::vector<std::string> paths;
  // fio's directory list: clone n's generated files go in entry n modulo their count, the names
  // in `filename` in the first entry.
  const std::vector<std::string> directories = SplitFilenames(directory);
  auto directory_of = [&directories](int index) -> std::string {
    if (directories.empty()) return "";
    return directories[static_cast<size_t>(index) % directories.size()];
  };
  if (!filename.empty()) {
    const std::string first = directory_of(0);
    for (std::string& name : SplitFilenames(filename)) {
      paths.push_back(name.front() == '/' ? std::move(name) : JoinPath(first, name));
    }
    return paths;
  }
  const std::string clone_directory = directory_of(std::max(0, clone_index));
  for (int file_index = 0; file_index < nrfiles; ++file_index) {
    paths.push_back(JoinPath(
        clone_directory,
        absl::StrCat(file_name_prefix, GeneratedFileName(filename_format, name, clone_index,
                                                         file_index, client_uid))));
  }
  return paths;
}

std::string GeneratedFileName(std::string_view format, std::string_view job_name, int job_number,
                              int file_number, std::string_view client_uid) {
  if (format.empty()) return absl::StrCat(Av(job_name), ".", job_number, ".", file_number);
  const std::pair<std::string_view, std::string> keywords[] = {
      {"$jobname", std::string(job_name)},
      {"$jobnum", absl::StrCat(job_number)},
      {"$filenum", absl::StrCat(file_number)},
      {"$clientuid", std::string(client_uid)},
  };
  std::string out;
  size_t i = 0;
  while (i < format.size()) {
    bool replaced = false;
    if (format[i] == '$') {
      for (const auto& [keyword, value] : keywords) {
        if (absl::StartsWithIgnoreCase(Av(format.substr(i)), Av(keyword))) {
          out += value;
          i += keyword.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += format[i++];
  }
  return out;
}

absl::Status ApplyJobOption(JobSpec& job, std::string_view raw_key, std::string_view raw_value,
                            std::vector<std::string>* warnings) {
  const absl::string_view key = absl::StripAsciiWhitespace(Av(raw_key));
  const absl::string_view value = absl::StripAsciiWhitespace(Av(raw_value));
  const FioOptionInfo* info = FindFioOption(Sv(key));
  if (info == nullptr) {
    const std::string suggestion = SuggestFioOption(Sv(key));
    return absl::NotFoundError(absl::StrCat(
        "unknown option '", key, "'",
        suggestion.empty() ? "" : absl::StrCat("; did you mean '", suggestion, "'?"),
        " (not an option of fio 3.33 or azbench; `azbench-agent --cmdhelp` lists every option "
        "and what azbench does with it)"));
  }
  switch (info->support) {
    case FioSupport::kRefused:
      return absl::UnimplementedError(
          absl::StrCat("option '", key, "' is not supported by azbench: ", Av(info->why)));
    case FioSupport::kNoEffect:
      // A flag's value is still checked, as fio would: `thread=maybe` is a typo, not a no-op.
      if (info->type == FioOptionType::kBool && !value.empty()) {
        if (absl::StatusOr<bool> parsed = ParseBool(Sv(value)); !parsed.ok()) {
          return absl::InvalidArgumentError(
              absl::StrCat("option '", key, "': ", parsed.status().message()));
        }
      }
      if (warnings != nullptr) {
        warnings->push_back(
            absl::StrCat("option '", key, "' has no effect in azbench: ", Av(info->why)));
      }
      return absl::OkStatus();
    case FioSupport::kHonoured:
      break;
  }
  // Apply to a copy so that a failed option leaves the job unchanged.
  JobSpec updated = job;
  absl::Status status = info->set(updated, Sv(value));
  if (!status.ok()) {
    return absl::Status(status.code(), absl::StrCat("option '", key, "': ", status.message()));
  }
  job = std::move(updated);
  if (warnings != nullptr && HasTrimValue(*info, value)) {
    warnings->push_back(absl::StrCat("option '", key,
                                     "': the trim value has no effect in azbench: azbench "
                                     "does not pace trims"));
  }
  return absl::OkStatus();
}

bool IsSupportedJobOption(std::string_view key) {
  const FioOptionInfo* info = FindFioOption(Sv(absl::StripAsciiWhitespace(Av(key))));
  return info != nullptr && IsAccepted(*info);
}

std::vector<std::string> SupportedJobOptionNames() {
  std::vector<std::string> names;
  for (const FioSupport support : {FioSupport::kHonoured, FioSupport::kNoEffect}) {
    for (const FioOptionInfo& info : FioOptionTable()) {
      if (info.support == support) names.emplace_back(info.name);
    }
  }
  for (const FioOptionInfo& info : FioOptionTable()) {
    if (IsAccepted(info) && !info.alias.empty()) names.emplace_back(info.alias);
  }
  return names;
}

absl::Status CheckJobName(std::string_view name_view) {
  const std::string name(name_view);
  static_assert(kMaxJobNameLength == 100, "the message below says 100");
  constexpr char kAllowed[] =
      "a job name is 1 to 100 characters, without '/' or control characters, and not '.' or '..' "
      "(it is part of the job's file names)";
  if (name.empty()) return absl::InvalidArgumentError(absl::StrCat("empty job name: ", kAllowed));
  if (name.size() > kMaxJobNameLength) {
    return absl::InvalidArgumentError(absl::StrCat("job name '", name.substr(0, 40), "...' is ",
                                                   name.size(), " characters long: ", kAllowed));
  }
  if (name == "." || name == "..") {
    return absl::InvalidArgumentError(absl::StrCat("job name '", name, "': ", kAllowed));
  }
  for (const char c : name) {
    if (c == '/') {
      return absl::InvalidArgumentError(
          absl::StrCat("job name '", name, "' contains '/': ", kAllowed));
    }
    if (absl::ascii_iscntrl(static_cast<unsigned char>(c))) {
      return absl::InvalidArgumentError(absl::StrCat("job name '", absl::CEscape(name),
                                                     "' contains a control character: ", kAllowed));
    }
  }
  return absl::OkStatus();
}

uint64_t JobSpec::TotalSizeBytes() const {
  if (file_size_bytes == 0) return size_bytes;
  // As fio: a size beyond what the files hold is cut to it.
  const uint64_t files = static_cast<uint64_t>(std::max(1, nrfiles));
  const uint64_t files_bytes =
      file_size_bytes > UINT64_MAX / files ? UINT64_MAX : file_size_bytes * files;
  return size_bytes == 0 ? files_bytes : std::min(size_bytes, files_bytes);
}

uint64_t JobSpec::FileRegionBytes() const {
  if (file_size_bytes > 0) return file_size_bytes;
  return size_bytes / static_cast<uint64_t>(std::max(1, nrfiles));
}

bool IsFileOpEngineName(std::string_view name) {
  for (std::string_view engine :
       {"filecreate", "filestat", "filedelete", "dircreate", "dirstat", "dirdelete"}) {
    if (name == engine) return true;
  }
  return false;
}

absl::Status ValidateJobSpec(const JobSpec& job) {
  RETURN_IF_ERROR(CheckJobName(job.name));
  if (job.random_distribution.kind == RandomDistributionKind::kSequence &&
      (job.nrfiles > 1 || job.rw_seq_nr > 1 || job.percentage_random[0] != 100 ||
       job.percentage_random[1] != 100)) {
    // fio counts a sequence's place over all of a clone's I/Os of a direction, sequential ones
    // and every file included; azbench counts it per file, over the random I/Os.
    return absl::InvalidArgumentError(
        "random_distribution=sequence takes one file and only random I/Os: it is refused with "
        "nrfiles above 1, rw=rand...:<n> and percentage_random below 100");
  }
  const bool file_ops = IsFileOpEngineName(job.ioengine);
  // A data job without size takes the sizes of its existing files when the agent prepares it
  // (JobSpec::SizeFromFiles); until then the checks against the size wait.
  const bool size_known = !job.SizeFromFiles();
  if (file_ops && (job.size_percent != 0 || job.offset_percent != 0 ||
                   job.offset_increment_percent != 0 || job.io_size_percent != 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "percentages of size, offset, offset_increment or io_size apply to engines that move data "
        "(this job's ioengine is ",
        job.ioengine, "); give sizes in bytes"));
  }
  if (job.fill_device) {
    if (file_ops || DoesRead(job.rw)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "fill_device applies to jobs that only write (rw=write or randwrite, an engine that "
          "moves data); this job has rw=",
          Av(RwPatternName(job.rw)), ", ioengine=", job.ioengine));
    }
    if (job.TotalSizeBytes() == 0 && job.size_percent == 0 && job.rw != RwPattern::kWrite) {
      return absl::InvalidArgumentError(
          "fill_device without size needs rw=write: a sequential write fills the file system; "
          "give size for random writes");
    }
  }
  if (job.steadystate.enabled() && file_ops) {
    return absl::InvalidArgumentError(absl::StrCat(
        "steadystate (ss_dur) applies only to engines that move data (this job's ioengine is ",
        job.ioengine, ")"));
  }
  if (job.steadystate.enabled() && job.numjobs > 1 && !job.group_reporting) {
    return absl::InvalidArgumentError(absl::StrCat(
        "steadystate (ss_dur) with numjobs=", job.numjobs,
        " needs group_reporting: fio judges each clone alone without it, and azbench reports a "
        "job's clones as one; set group_reporting to judge the group's sum"));
  }
  if (job.flow_weight > 0 && file_ops) {
    return absl::InvalidArgumentError(absl::StrCat(
        "flow applies only to engines that move data (this job's ioengine is ", job.ioengine, ")"));
  }
  if (job.bs_is_seq_rand && IsRandom(job.rw) &&
      (job.rw_seq_nr > 1 || job.percentage_random[0] < 100 || job.percentage_random[1] < 100)) {
    return absl::InvalidArgumentError(
        "bs_is_seq_rand cannot be used with a random job that also issues sequential I/Os "
        "(percentage_random below 100, or rw=randread:N): azbench sizes a job's I/Os all as "
        "sequential or all as random");
  }
  if (job.create_on_open && job.ioengine != "filecreate" && job.ioengine != "dircreate") {
    return absl::InvalidArgumentError(
        absl::StrCat("create_on_open=1 applies only to ioengine=filecreate or dircreate (this "
                     "job's ioengine is ",
                     job.ioengine, "): other jobs' files are laid out before the run"));
  }
  // fio's checks of a working set (init.c): its blocks are the job's first unique ones.
  if (job.dedupe_percentage > 0 && job.dedupe_working_set) {
    if (job.size_bytes == 0 && job.size_percent == 0) {
      return absl::InvalidArgumentError(
          "dedupe_mode=working_set needs size: the working set is a share of it");
    }
    if (job.nrfiles != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("dedupe_mode=working_set takes one file per job (nrfiles=1); this job has ",
                       job.nrfiles));
    }
    if (job.dedupe_working_set_percentage + job.dedupe_percentage > 100) {
      return absl::InvalidArgumentError(
          absl::StrCat("dedupe_percentage ", job.dedupe_percentage,
                       " plus dedupe_working_set_percentage ", job.dedupe_working_set_percentage,
                       " is over 100: the working set's blocks are unique, so no more than ",
                       100 - job.dedupe_working_set_percentage, "% of the blocks can repeat them"));
    }
  }
  if (job.openfiles > 0 && job.openfiles < job.nrfiles && !file_ops) {
    return absl::InvalidArgumentError(
        absl::StrCat("openfiles ", job.openfiles, " is below nrfiles ", job.nrfiles, ": ioengine ",
                     job.ioengine, " keeps all of a clone's files open (allowed: nrfiles and up)"));
  }
  for (const bool write : {false, true}) {
    const BlockSizeChoice sizes = job.BlockSizes(write);
    const char* dir = write ? "write" : "read";
    // Only a write size that differs from the read one is named by its direction.
    const std::string which = write ? "write, " : "";
    if (sizes.min_bytes == 0) {
      return absl::InvalidArgumentError(absl::StrCat("bs (", dir, ") must be greater than 0"));
    }
    if (sizes.min_bytes > sizes.max_bytes) {
      return absl::InvalidArgumentError(
          absl::StrCat("bsrange (", dir, "): the low end (", FormatBytes(sizes.min_bytes),
                       ") must not exceed the high end (", FormatBytes(sizes.max_bytes), ")"));
    }
    if (sizes.max_bytes > kMaxBlockSizeBytes) {
      return absl::InvalidArgumentError(absl::StrCat("bs (", which, FormatBytes(sizes.max_bytes),
                                                     ") is too large: allowed up to ",
                                                     FormatBytes(kMaxBlockSizeBytes)));
    }
    // With filesize, every file must hold an I/O; else the job's size must.
    const bool by_file = job.file_size_bytes > 0;
    const uint64_t limit_bytes = by_file ? job.file_size_bytes : job.size_bytes;
    if (sizes.max_bytes > limit_bytes && !file_ops && size_known) {
      return absl::InvalidArgumentError(
          absl::StrCat("bs (", which, FormatBytes(sizes.max_bytes), ") must not exceed ",
                       by_file ? "filesize" : "size", " (", FormatBytes(limit_bytes), ")"));
    }
    if (job.direct) {
      // Every size a direction can draw must suit O_DIRECT: its ends, each bssplit entry and,
      // for a range, the step (the minimum) unless bs_unaligned lets sizes fall in between.
      if (sizes.unaligned && sizes.min_bytes != sizes.max_bytes) {
        return absl::InvalidArgumentError(
            absl::StrCat("bs_unaligned cannot be used with direct=1: unaligned ", dir,
                         " sizes cannot be O_DIRECT I/O"));
      }
      for (const BlockSizeShare& share : sizes.split) {
        if (share.bytes % kDirectAlignmentBytes != 0) {
          return absl::InvalidArgumentError(absl::StrCat("bssplit (", dir, ", ", share.bytes,
                                                         " bytes) must be a multiple of ",
                                                         kDirectAlignmentBytes, " with direct=1"));
        }
      }
      for (const uint64_t bytes : {sizes.min_bytes, sizes.max_bytes, sizes.align_bytes}) {
        if (bytes % kDirectAlignmentBytes != 0) {
          return absl::InvalidArgumentError(absl::StrCat("bs/blockalign (", dir, ", ", bytes,
                                                         " bytes) must be a multiple of ",
                                                         kDirectAlignmentBytes, " with direct=1"));
        }
      }
    }
  }
  if (job.iodepth < 1 || job.iodepth > kMaxJobIodepth) {
    return absl::InvalidArgumentError(
        absl::StrCat("iodepth ", job.iodepth, " is out of range: allowed 1..", kMaxJobIodepth));
  }
  if (job.numjobs < 1 || job.numjobs > kMaxJobNumjobs) {
    return absl::InvalidArgumentError(
        absl::StrCat("numjobs ", job.numjobs, " is out of range: allowed 1..", kMaxJobNumjobs));
  }
  if (job.nrfiles < 1 || job.nrfiles > kMaxJobNrfiles) {
    return absl::InvalidArgumentError(
        absl::StrCat("nrfiles ", job.nrfiles, " is out of range: allowed 1..", kMaxJobNrfiles));
  }
  if (job.rwmixread_percent < 0 || job.rwmixread_percent > 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("rwmixread ", job.rwmixread_percent, " is out of range: allowed 0..100"));
  }
  if (job.buffer_compress_percentage < 0 || job.buffer_compress_percentage > 100) {
    return absl::InvalidArgumentError(absl::StrCat("buffer_compress_percentage ",
                                                   job.buffer_compress_percentage,
                                                   " is out of range: allowed 0..100"));
  }
  if (job.ioengine.empty()) return absl::InvalidArgumentError("ioengine must not be empty");
  if ((job.ioengine == "libaio" || job.ioengine == "io_uring" || job.ioengine == "posixaio") &&
      job.iodepth > kMaxKernelAsyncIodepth) {
    return absl::InvalidArgumentError(absl::StrCat("iodepth ", job.iodepth, " exceeds ioengine ",
                                                   job.ioengine, "'s limit: allowed 1..",
                                                   kMaxKernelAsyncIodepth));
  }
  RETURN_IF_ERROR(CheckNfsJob(job.ioengine, job.nfs_url, job.direct));
  if (job.uring_wait_pause && (*job.uring_wait_pause < absl::ZeroDuration() ||
                               *job.uring_wait_pause > kMaxUringWaitPause)) {
    return absl::InvalidArgumentError(
        absl::StrCat("uring_wait_pause ", absl::FormatDuration(*job.uring_wait_pause),
                     " is out of range: allowed 0..", absl::FormatDuration(kMaxUringWaitPause)));
  }
  for (const auto& [name, set] : {std::pair{"hipri", job.hipri}, std::pair{"nowait", job.nowait}}) {
    if (set && job.ioengine != "pvsync2") {
      return absl::InvalidArgumentError(absl::StrCat(
          name, "=1 applies only to ioengine=pvsync2 (this job's ioengine is ", job.ioengine, ")"));
    }
  }
  for (const auto& [name, set] : {std::pair{"uring_wait_pause", job.uring_wait_pause.has_value()},
                                  std::pair{"fixedbufs", job.fixedbufs.has_value()},
                                  std::pair{"registerfiles", job.registerfiles.has_value()}}) {
    if (set && job.ioengine != "io_uring") {
      return absl::InvalidArgumentError(absl::StrCat(
          name, " applies only to ioengine=io_uring (this job's ioengine is ", job.ioengine, ")"));
    }
  }
  if (job.iodepth_batch_complete_max != 0 &&
      job.iodepth_batch_complete_max < job.iodepth_batch_complete_min) {
    return absl::InvalidArgumentError(
        absl::StrCat("iodepth_batch_complete_max (", job.iodepth_batch_complete_max,
                     ") must not be less than iodepth_batch_complete_min (",
                     job.iodepth_batch_complete_min, ")"));
  }
  if (job.direct) {
    if (job.block_size_bytes % kDirectAlignmentBytes != 0) {
      return absl::InvalidArgumentError(absl::StrCat("bs (", job.block_size_bytes,
                                                     " bytes) must be a multiple of ",
                                                     kDirectAlignmentBytes, " with direct=1"));
    }
    if (job.offset_bytes % kDirectAlignmentBytes != 0) {
      return absl::InvalidArgumentError(absl::StrCat("offset (", job.offset_bytes,
                                                     " bytes) must be a multiple of ",
                                                     kDirectAlignmentBytes, " with direct=1"));
    }
  }
  if (job.time_based && job.runtime <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        "time_based requires runtime greater than 0 (e.g. runtime=60s)");
  }
  if (job.runtime < absl::ZeroDuration() || job.ramp_time < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("runtime and ramp_time must not be negative");
  }
  if (job.fsync_every_n < 0 || job.fdatasync_every_n < 0) {
    return absl::InvalidArgumentError("fsync and fdatasync must not be negative");
  }
  // As fio's option checks: a direction takes rate or rate_iops, and a minimum not above its cap.
  for (int dir = 0; dir < 2; ++dir) {
    const char* name = dir == 0 ? "reads" : "writes";
    if (job.rate_bytes_per_s[dir] != 0 && job.rate_iops[dir] != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("rate and rate_iops are mutually exclusive (both set for ", name, ")"));
    }
    if (job.rate_bytes_per_s[dir] != 0 &&
        job.rate_min_bytes_per_s[dir] > job.rate_bytes_per_s[dir]) {
      return absl::InvalidArgumentError(
          absl::StrCat("rate_min (", job.rate_min_bytes_per_s[dir], " bytes/s) exceeds rate (",
                       job.rate_bytes_per_s[dir], " bytes/s) for ", name));
    }
    if (job.rate_iops[dir] != 0 && job.rate_iops_min[dir] > job.rate_iops[dir]) {
      return absl::InvalidArgumentError(absl::StrCat("rate_iops_min (", job.rate_iops_min[dir],
                                                     ") exceeds rate_iops (", job.rate_iops[dir],
                                                     ") for ", name));
    }
  }
  if (job.kb_base != 1000 && job.kb_base != 1024) {
    return absl::InvalidArgumentError(
        absl::StrCat("kb_base ", job.kb_base, " is not allowed: allowed 1000, 1024"));
  }
  RETURN_IF_ERROR(ValidateVerifyOptions(job));
  RETURN_IF_ERROR(ValidateTrimOptions(job));
  return absl::OkStatus();
}

}  // namespace azbench

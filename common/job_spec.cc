#include "common/job_spec.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"
#include "common/units.h"

namespace azbench {
namespace {

// This Abseil build's string_view is its own type, not std::string_view: convert at the boundary.
absl::string_view Av(std::string_view s) { return absl::string_view(s.data(), s.size()); }
std::string_view Sv(absl::string_view s) { return std::string_view(s.data(), s.size()); }

constexpr int kMaxIodepth = 65536;
constexpr int kMaxNumjobs = 4096;
// One read or write moves at most this much: Linux transfers just under 2 GiB per call
// (MAX_RW_COUNT), and a request's length is 32 bits.
constexpr uint64_t kMaxBlockSizeBytes = uint64_t{1} << 30;
constexpr absl::Duration kMaxUringWaitPause = absl::Milliseconds(1);
constexpr int kMaxNrfiles = 1'000'000;
constexpr uint64_t kDirectAlignmentBytes = 512;
constexpr int64_t kMaxInt = std::numeric_limits<int>::max();
constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();

// Every option ApplyJobOption accepts, by its canonical fio name, in the order the README lists
// them.
constexpr absl::string_view kOptionNames[] = {
    "name",
    "description",
    "filename",
    "directory",
    "size",
    "io_size",
    "offset",
    "bs",
    "rw",
    "rwmixread",
    "rwmixwrite",
    "ioengine",
    "nfs_url",
    "iodepth",
    "iodepth_batch_submit",
    "iodepth_batch_complete_min",
    "iodepth_batch_complete_max",
    "numjobs",
    "nrfiles",
    "file_service_type",
    "direct",
    "buffered",
    "fsync",
    "fdatasync",
    "end_fsync",
    "runtime",
    "time_based",
    "ramp_time",
    "randrepeat",
    "randseed",
    "norandommap",
    "rate_iops",
    "uring_wait_pause",
    "fixedbufs",
    "registerfiles",
    "op_log",
    "op_log_rate",
    "sharing",
    "invalidate",
    "buffer_compress_percentage",
    "refill_buffers",
    "scramble_buffers",
    "group_reporting",
    "stonewall",
    "new_group",
    "kb_base",
    "clocksource",
    "thread",
};

// fio's other spellings of the same options.
struct Alias {
  absl::string_view alias;
  absl::string_view canonical;
};
constexpr Alias kAliases[] = {
    {"io_limit", "io_size"},
    {"blocksize", "bs"},
    {"readwrite", "rw"},
    {"iodepth_batch", "iodepth_batch_submit"},
    {"iodepth_batch_complete", "iodepth_batch_complete_min"},
    {"nr_files", "nrfiles"},
    {"timeout", "runtime"},
    {"wait_for_previous", "stonewall"},
};

// Options accepted without any effect on the I/O (see IsKnownJobOption).
constexpr absl::string_view kOutputOnlyOptions[] = {"description", "group_reporting", "new_group",
                                                    "thread"};

absl::string_view Canonical(absl::string_view key) {
  for (const Alias& a : kAliases) {
    if (a.alias == key) return a.canonical;
  }
  return key;
}

bool IsCanonicalOption(absl::string_view key) {
  for (absl::string_view name : kOptionNames) {
    if (name == key) return true;
  }
  return false;
}

std::string SupportedList() {
  std::vector<std::string> names;
  for (absl::string_view name : kOptionNames) names.emplace_back(name);
  for (const Alias& a : kAliases) {
    names.push_back(absl::StrCat(a.alias, " (=", a.canonical, ")"));
  }
  return absl::StrJoin(names, ", ");
}

// --- Value parsers. Their messages describe the value; ApplyJobOption prefixes the option name.
// ---

absl::Status SetString(std::string& field, absl::string_view value) {
  if (value.empty()) return absl::InvalidArgumentError("a non-empty value is required");
  field = std::string(value);
  return absl::OkStatus();
}

absl::Status SetEngine(std::string& field, absl::string_view value) {
  for (std::string_view name : kIoEngineNames) {
    if (value == absl::string_view(name.data(), name.size())) {
      field = std::string(value);
      return absl::OkStatus();
    }
  }
  std::vector<std::string> names(kIoEngineNames.begin(), kIoEngineNames.end());
  return absl::InvalidArgumentError(
      absl::StrCat("unknown I/O engine \"", value, "\"; allowed: ", absl::StrJoin(names, ", ")));
}

absl::Status SetSize(uint64_t& field, const JobSpec& job, absl::string_view value) {
  if (!value.empty() && value.back() == '%') {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", value,
        "': percentages of the file or device size are not supported; give a size such as 1g"));
  }
  ASSIGN_OR_RETURN(field, ParseSize(Sv(value), job.kb_base));
  return absl::OkStatus();
}

// fio's boolean flags may be written bare (`time_based`): an empty value means true.
absl::Status SetBool(bool& field, absl::string_view value, bool invert = false) {
  bool parsed = true;
  if (!value.empty()) {
    ASSIGN_OR_RETURN(parsed, ParseBool(Sv(value)));
  }
  field = invert ? !parsed : parsed;
  return absl::OkStatus();
}

absl::Status SetBool(std::optional<bool>& field, absl::string_view value) {
  bool parsed = true;
  RETURN_IF_ERROR(SetBool(parsed, value));
  field = parsed;
  return absl::OkStatus();
}

absl::Status SetInt(int& field, absl::string_view value, int64_t min_value, int64_t max_value) {
  ASSIGN_OR_RETURN(int64_t parsed, ParseInt(Sv(value), min_value, max_value));
  field = static_cast<int>(parsed);
  return absl::OkStatus();
}

absl::Status SetDuration(absl::Duration& field, absl::string_view value) {
  // fio's runtime and ramp_time count seconds when no unit is written.
  ASSIGN_OR_RETURN(field, ParseDuration(Sv(value), absl::Seconds(1)));
  return absl::OkStatus();
}

absl::Status RejectPerDirectionList(absl::string_view value, absl::string_view what) {
  if (value.find(',') != absl::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat("'", value, "': separate read,write ", what,
                                                   " are not supported; give a single value"));
  }
  return absl::OkStatus();
}

absl::Status SetRw(JobSpec& job, absl::string_view value) {
  struct Entry {
    absl::string_view name;
    RwPattern rw;
  };
  static constexpr Entry kPatterns[] = {
      {"read", RwPattern::kRead},         {"write", RwPattern::kWrite},
      {"randread", RwPattern::kRandRead}, {"randwrite", RwPattern::kRandWrite},
      {"rw", RwPattern::kReadWrite},      {"readwrite", RwPattern::kReadWrite},
      {"randrw", RwPattern::kRandRw},
  };
  const std::string lower = absl::AsciiStrToLower(value);
  for (const Entry& e : kPatterns) {
    if (e.name == lower) {
      job.rw = e.rw;
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "'", value,
      "' is not supported; allowed: read, write, randread, randwrite, rw, readwrite, randrw "
      "(trim patterns and ':<n>' offset modifiers are not supported)"));
}

absl::Status SetFileServiceType(JobSpec& job, absl::string_view value) {
  const std::string lower = absl::AsciiStrToLower(value);
  if (lower == "roundrobin") {
    job.file_service_type = FileServiceType::kRoundRobin;
  } else if (lower == "sequential") {
    job.file_service_type = FileServiceType::kSequential;
  } else if (lower == "random") {
    job.file_service_type = FileServiceType::kRandom;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("'", value, "' is not supported; allowed: roundrobin, sequential, random"));
  }
  return absl::OkStatus();
}

absl::Status SetKbBase(JobSpec& job, absl::string_view value) {
  ASSIGN_OR_RETURN(int64_t base, ParseInt(Sv(value), 1000, 1024));
  if (base != 1000 && base != 1024) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", value, "' is not allowed; allowed: 1000, 1024"));
  }
  job.kb_base = static_cast<int>(base);
  return absl::OkStatus();
}

absl::Status SetSharing(JobSpec& job, absl::string_view value) {
  for (FileSharing sharing :
       {FileSharing::kFilePerAgent, FileSharing::kSharedDir, FileSharing::kSharedFile}) {
    if (std::string(value) == FileSharingName(sharing)) {
      job.sharing = sharing;
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "'", value, "' is not supported; allowed: file-per-agent, shared-dir, shared-file"));
}

absl::Status SetClockSource(JobSpec& job, absl::string_view value) {
  for (ClockSource source : {ClockSource::kCpu, ClockSource::kClockGettime}) {
    if (Sv(value) == ClockSourceName(source)) {
      job.clocksource = source;
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("'", value,
                   "' is not supported; allowed: cpu (the time-stamp counter), clock_gettime "
                   "(CLOCK_MONOTONIC); gettimeofday is refused (microsecond resolution)"));
}

// Applies a canonical option. Returns NotFound for a name that is not in kOptionNames.
absl::Status ApplyCanonical(JobSpec& job, absl::string_view key, absl::string_view value) {
  if (key == "name") return SetString(job.name, value);
  if (key == "description" || key == "thread")
    return absl::OkStatus();  // output only / always threads
  if (key == "filename") return SetString(job.filename, value);
  if (key == "directory") return SetString(job.directory, value);
  if (key == "size") return SetSize(job.size_bytes, job, value);
  if (key == "io_size") return SetSize(job.io_size_bytes, job, value);
  if (key == "offset") return SetSize(job.offset_bytes, job, value);
  if (key == "bs") {
    RETURN_IF_ERROR(RejectPerDirectionList(value, "block sizes"));
    return SetSize(job.block_size_bytes, job, value);
  }
  if (key == "rw") return SetRw(job, value);
  if (key == "rwmixread") return SetInt(job.rwmixread_percent, value, 0, 100);
  if (key == "rwmixwrite") {
    int write_percent = 0;
    RETURN_IF_ERROR(SetInt(write_percent, value, 0, 100));
    job.rwmixread_percent = 100 - write_percent;
    return absl::OkStatus();
  }
  if (key == "ioengine") return SetEngine(job.ioengine, value);
  // --- nfs engine --- (common/nfs_url.h has the form; CheckNfsJob the whole-job rules)
  if (key == "nfs_url") {
    RETURN_IF_ERROR(ParseNfsUrl(Sv(value)).status());
    job.nfs_url = std::string(value);
    return absl::OkStatus();
  }
  // --- end nfs engine ---
  if (key == "iodepth") return SetInt(job.iodepth, value, 1, kMaxIodepth);
  if (key == "iodepth_batch_submit") return SetInt(job.iodepth_batch_submit, value, 0, kMaxIodepth);
  if (key == "iodepth_batch_complete_min") {
    return SetInt(job.iodepth_batch_complete_min, value, 0, kMaxIodepth);
  }
  if (key == "iodepth_batch_complete_max") {
    return SetInt(job.iodepth_batch_complete_max, value, 0, kMaxIodepth);
  }
  if (key == "numjobs") return SetInt(job.numjobs, value, 1, kMaxNumjobs);
  if (key == "nrfiles") return SetInt(job.nrfiles, value, 1, kMaxNrfiles);
  if (key == "file_service_type") return SetFileServiceType(job, value);
  if (key == "direct") return SetBool(job.direct, value);
  if (key == "buffered") return SetBool(job.direct, value, /*invert=*/true);
  if (key == "fsync") return SetInt(job.fsync_every_n, value, 0, kMaxInt);
  if (key == "fdatasync") return SetInt(job.fdatasync_every_n, value, 0, kMaxInt);
  if (key == "end_fsync") return SetBool(job.end_fsync, value);
  if (key == "runtime") return SetDuration(job.runtime, value);
  if (key == "time_based") return SetBool(job.time_based, value);
  if (key == "ramp_time") return SetDuration(job.ramp_time, value);
  if (key == "randrepeat") return SetBool(job.randrepeat, value);
  if (key == "randseed") {
    ASSIGN_OR_RETURN(int64_t seed, ParseInt(Sv(value), 0, kMaxInt64));
    job.randseed = static_cast<uint64_t>(seed);
    return absl::OkStatus();
  }
  if (key == "norandommap") return SetBool(job.norandommap, value);
  if (key == "rate_iops") {
    RETURN_IF_ERROR(RejectPerDirectionList(value, "rates"));
    ASSIGN_OR_RETURN(int64_t iops, ParseInt(Sv(value), 0, kMaxInt64));
    job.rate_iops = static_cast<uint64_t>(iops);
    return absl::OkStatus();
  }
  if (key == "uring_wait_pause") {
    // A bare number counts microseconds, as fio's thinktime does.
    ASSIGN_OR_RETURN(absl::Duration pause, ParseDuration(Sv(value), absl::Microseconds(1)));
    if (pause > kMaxUringWaitPause) {
      return absl::InvalidArgumentError(absl::StrCat("'", value, "' is out of range: allowed 0..",
                                                     absl::FormatDuration(kMaxUringWaitPause)));
    }
    job.uring_wait_pause = pause;
    return absl::OkStatus();
  }
  if (key == "fixedbufs") return SetBool(job.fixedbufs, value);
  if (key == "registerfiles") return SetBool(job.registerfiles, value);
  if (key == "op_log") return SetBool(job.op_log, value);
  if (key == "op_log_rate") {
    ASSIGN_OR_RETURN(int64_t rate, ParseInt(Sv(value), 1, 10'000'000));
    job.op_log_rate = static_cast<uint64_t>(rate);
    return absl::OkStatus();
  }
  if (key == "invalidate") return SetBool(job.invalidate, value);
  if (key == "buffer_compress_percentage") {
    return SetInt(job.buffer_compress_percentage, value, 0, 100);
  }
  if (key == "refill_buffers") return SetBool(job.refill_buffers, value);
  if (key == "scramble_buffers") return SetBool(job.scramble_buffers, value);
  if (key == "group_reporting") return SetBool(job.group_reporting, value);
  if (key == "stonewall") return SetBool(job.stonewall, value);
  if (key == "sharing") return SetSharing(job, value);
  if (key == "new_group") return SetBool(job.new_group, value);
  if (key == "kb_base") return SetKbBase(job, value);
  if (key == "clocksource") return SetClockSource(job, value);
  return absl::NotFoundError(absl::StrCat("unknown option '", key, "'"));
}

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

}  // namespace

bool IsRandom(RwPattern rw) {
  return rw == RwPattern::kRandRead || rw == RwPattern::kRandWrite || rw == RwPattern::kRandRw;
}

bool DoesRead(RwPattern rw) {
  return rw == RwPattern::kRead || rw == RwPattern::kRandRead || rw == RwPattern::kReadWrite ||
         rw == RwPattern::kRandRw;
}

bool DoesWrite(RwPattern rw) {
  return rw == RwPattern::kWrite || rw == RwPattern::kRandWrite || rw == RwPattern::kReadWrite ||
         rw == RwPattern::kRandRw;
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

std::vector<std::string> JobSpec::FilePaths(int clone_index) const {
  std::vector<std::string> paths;
  if (!filename.empty()) {
    for (std::string& name : SplitFilenames(filename)) {
      paths.push_back(name.front() == '/' ? std::move(name) : JoinPath(directory, name));
    }
    return paths;
  }
  for (int file_index = 0; file_index < nrfiles; ++file_index) {
    paths.push_back(JoinPath(
        directory, absl::StrCat(file_name_prefix, name, ".", clone_index, ".", file_index)));
  }
  return paths;
}

absl::Status ApplyJobOption(JobSpec& job, std::string_view raw_key, std::string_view raw_value) {
  const absl::string_view key = absl::StripAsciiWhitespace(Av(raw_key));
  const absl::string_view value = absl::StripAsciiWhitespace(Av(raw_value));
  const absl::string_view canonical = Canonical(key);
  if (!IsCanonicalOption(canonical)) {
    return absl::NotFoundError(
        absl::StrCat("unknown option '", key, "'; supported: ", SupportedList()));
  }
  // Apply to a copy so that a failed option leaves the job unchanged.
  JobSpec updated = job;
  absl::Status status = ApplyCanonical(updated, canonical, value);
  if (!status.ok()) {
    return absl::Status(status.code(), absl::StrCat("option '", key, "': ", status.message()));
  }
  job = std::move(updated);
  return absl::OkStatus();
}

bool IsKnownJobOption(std::string_view key) {
  const absl::string_view canonical = Canonical(absl::StripAsciiWhitespace(Av(key)));
  for (absl::string_view name : kOutputOnlyOptions) {
    if (name == canonical) return true;
  }
  return false;
}

bool IsSupportedJobOption(std::string_view key) {
  return IsCanonicalOption(Canonical(absl::StripAsciiWhitespace(Av(key))));
}

std::vector<std::string> SupportedJobOptionNames() {
  std::vector<std::string> names(std::begin(kOptionNames), std::end(kOptionNames));
  for (const Alias& a : kAliases) names.emplace_back(a.alias);
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

absl::Status ValidateJobSpec(const JobSpec& job) {
  RETURN_IF_ERROR(CheckJobName(job.name));
  if (job.size_bytes == 0) {
    return absl::InvalidArgumentError("size must be given and greater than 0 (e.g. size=1g)");
  }
  if (job.block_size_bytes == 0) return absl::InvalidArgumentError("bs must be greater than 0");
  if (job.block_size_bytes > kMaxBlockSizeBytes) {
    return absl::InvalidArgumentError(absl::StrCat("bs (", FormatBytes(job.block_size_bytes),
                                                   ") is too large: allowed up to ",
                                                   FormatBytes(kMaxBlockSizeBytes)));
  }
  if (job.block_size_bytes > job.size_bytes) {
    return absl::InvalidArgumentError(absl::StrCat("bs (", FormatBytes(job.block_size_bytes),
                                                   ") must not exceed size (",
                                                   FormatBytes(job.size_bytes), ")"));
  }
  if (job.iodepth < 1 || job.iodepth > kMaxIodepth) {
    return absl::InvalidArgumentError(
        absl::StrCat("iodepth ", job.iodepth, " is out of range: allowed 1..", kMaxIodepth));
  }
  if (job.numjobs < 1 || job.numjobs > kMaxNumjobs) {
    return absl::InvalidArgumentError(
        absl::StrCat("numjobs ", job.numjobs, " is out of range: allowed 1..", kMaxNumjobs));
  }
  if (job.nrfiles < 1 || job.nrfiles > kMaxNrfiles) {
    return absl::InvalidArgumentError(
        absl::StrCat("nrfiles ", job.nrfiles, " is out of range: allowed 1..", kMaxNrfiles));
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
  if ((job.ioengine == "libaio" || job.ioengine == "io_uring") &&
      job.iodepth > kMaxKernelAsyncIodepth) {
    return absl::InvalidArgumentError(absl::StrCat("iodepth ", job.iodepth, " exceeds ioengine ",
                                                   job.ioengine, "'s limit: allowed 1..",
                                                   kMaxKernelAsyncIodepth));
  }
  RETURN_IF_ERROR(CheckNfsJob(job.ioengine, job.nfs_url, job.block_size_bytes, job.direct));  // nfs
  if (job.uring_wait_pause && (*job.uring_wait_pause < absl::ZeroDuration() ||
                               *job.uring_wait_pause > kMaxUringWaitPause)) {
    return absl::InvalidArgumentError(
        absl::StrCat("uring_wait_pause ", absl::FormatDuration(*job.uring_wait_pause),
                     " is out of range: allowed 0..", absl::FormatDuration(kMaxUringWaitPause)));
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
  if (job.kb_base != 1000 && job.kb_base != 1024) {
    return absl::InvalidArgumentError(
        absl::StrCat("kb_base ", job.kb_base, " is not allowed: allowed 1000, 1024"));
  }
  return absl::OkStatus();
}

}  // namespace azbench

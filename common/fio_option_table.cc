#include "common/fio_option_table.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/error_policy.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"
#include "common/steady_state.h"
#include "common/thread_placement.h"
#include "common/units.h"
#include "common/verify_options.h"

namespace azbench {
namespace {

// This Abseil build's string_view is its own type, not std::string_view: convert at the boundary.
absl::string_view Av(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// The range texts below spell these limits out.
static_assert(kMaxJobIodepth == 65536 && kMaxKernelAsyncIodepth == 4096);
static_assert(kMaxJobNumjobs == 4096 && kMaxJobNrfiles == 1'000'000);
static_assert(kMaxUringWaitPause == absl::Milliseconds(1));
constexpr int64_t kMaxInt = std::numeric_limits<int>::max();
constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();

// --- Value parsers: the setters of the honoured entries. ---

absl::Status SetString(std::string& field, std::string_view value) {
  if (value.empty()) return absl::InvalidArgumentError("a non-empty value is required");
  field = std::string(value);
  return absl::OkStatus();
}

// Generated names stay inside the job's directory, as every other file of a job must.
absl::Status SetFilenameFormat(JobSpec& job, std::string_view value) {
  if (value.empty()) return absl::InvalidArgumentError("a non-empty value is required");
  if (value.front() == '/') {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", Av(value), "' is an absolute path; generated names are relative to `directory`"));
  }
  for (absl::string_view part : absl::StrSplit(Av(value), '/')) {
    if (part == "..") {
      return absl::InvalidArgumentError(
          absl::StrCat("'", Av(value), "' leaves the job's directory ('..')"));
    }
  }
  job.filename_format = std::string(value);
  return absl::OkStatus();
}

absl::Status SetSize(uint64_t& field, const JobSpec& job, std::string_view value) {
  if (!value.empty() && value.back() == '%') {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", Av(value),
        "': percentages of the file or device size are not supported; give a size such as 1g"));
  }
  ASSIGN_OR_RETURN(field, ParseSize(value, job.kb_base));
  return absl::OkStatus();
}

// fio's `size=N%` and its kind: a percentage of each existing file's size, resolved by the agent
// (agent/workloads/block_io/existing_file_sizes.h). Bytes clear the percentage and the reverse.
absl::Status SetSizeOrPercent(uint64_t& bytes, uint32_t& percent, const JobSpec& job,
                              std::string_view value, uint32_t min_percent) {
  if (value.empty() || value.back() != '%') {
    ASSIGN_OR_RETURN(bytes, ParseSize(value, job.kb_base));
    percent = 0;
    return absl::OkStatus();
  }
  absl::StatusOr<int64_t> parsed = ParseInt(value.substr(0, value.size() - 1), min_percent, 100);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("'", Av(value),
                                                   "': a percentage of the file "
                                                   "size is a whole number from ",
                                                   min_percent, "% to 100%"));
  }
  percent = static_cast<uint32_t>(*parsed);
  bytes = 0;
  return absl::OkStatus();
}

// fio's boolean flags may be written bare (`time_based`): an empty value means true.
absl::StatusOr<bool> ParseFlag(std::string_view value) {
  if (value.empty()) return true;
  return ParseBool(value);
}

absl::Status SetBool(bool& field, std::string_view value) {
  ASSIGN_OR_RETURN(field, ParseFlag(value));
  return absl::OkStatus();
}

absl::Status SetBool(std::optional<bool>& field, std::string_view value) {
  ASSIGN_OR_RETURN(field, ParseFlag(value));
  return absl::OkStatus();
}

absl::Status SetInt(int& field, std::string_view value, int64_t min_value, int64_t max_value) {
  ASSIGN_OR_RETURN(int64_t parsed, ParseInt(value, min_value, max_value));
  field = static_cast<int>(parsed);
  return absl::OkStatus();
}

absl::Status SetOptionalInt(std::optional<int>& field, std::string_view value, int64_t min_value,
                            int64_t max_value) {
  ASSIGN_OR_RETURN(int64_t parsed, ParseInt(value, min_value, max_value));
  field = static_cast<int>(parsed);
  return absl::OkStatus();
}

// fio's runtime and ramp_time count seconds when no unit is written.
// fio's write_*_log: the value is the file name prefix; a bare option means the job's name.
absl::Status SetLogPrefix(std::optional<std::string>& field, std::string_view value) {
  field = std::string(value);
  return absl::OkStatus();
}

absl::Status SetLogAvgMsec(JobSpec& job, std::string_view value) {
  int ms = 0;
  RETURN_IF_ERROR(SetInt(ms, value, 0, INT32_MAX));
  job.fio_logs.avg_msec = static_cast<uint64_t>(ms);
  return absl::OkStatus();
}

absl::Status SetLogHistMsec(JobSpec& job, std::string_view value) {
  int ms = 0;
  RETURN_IF_ERROR(SetInt(ms, value, 0, INT32_MAX));
  job.fio_logs.hist_msec = static_cast<uint64_t>(ms);
  return absl::OkStatus();
}

// fio sums 2^N of its 1856 bins per column; past 6 the bins do not divide evenly and fio 3.33
// reads beyond its histogram, so azbench stops at fio's documented range.
absl::Status SetLogHistCoarseness(JobSpec& job, std::string_view value) {
  return SetInt(job.fio_logs.hist_coarseness, value, 0, 6);
}

absl::Status SetSeconds(absl::Duration& field, std::string_view value) {
  ASSIGN_OR_RETURN(field, ParseDuration(value, absl::Seconds(1)));
  return absl::OkStatus();
}

// Looks `value` up (case-insensitively) among `names`; InvalidArgument listing them otherwise.
template <typename T, size_t N>
absl::StatusOr<T> ParseChoice(std::string_view value,
                              const std::pair<std::string_view, T> (&names)[N],
                              std::string_view allowed) {
  const std::string lower = absl::AsciiStrToLower(Av(value));
  for (const auto& [name, choice] : names) {
    if (lower == name) return choice;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("'", Av(value), "' is not supported; allowed: ", Av(allowed)));
}

absl::Status SetRw(JobSpec& job, std::string_view value) {
  static constexpr std::pair<std::string_view, RwPattern> kPatterns[] = {
      {"read", RwPattern::kRead},
      {"write", RwPattern::kWrite},
      {"trim", RwPattern::kTrim},
      {"randread", RwPattern::kRandRead},
      {"randwrite", RwPattern::kRandWrite},
      {"randtrim", RwPattern::kRandTrim},
      {"rw", RwPattern::kReadWrite},
      {"readwrite", RwPattern::kReadWrite},
      {"randrw", RwPattern::kRandRw},
      {"trimwrite", RwPattern::kTrimWrite},
      {"randtrimwrite", RwPattern::kRandTrimWrite},
  };
  const size_t colon = value.find(':');
  ASSIGN_OR_RETURN(job.rw, ParseChoice(value.substr(0, colon), kPatterns,
                                       "read, write, trim, randread, randwrite, randtrim, rw, "
                                       "readwrite, randrw, trimwrite, randtrimwrite (each with "
                                       "an optional ':<n>')"));
  job.rw_seq_add_bytes = 0;
  job.rw_seq_nr = 1;
  if (colon == std::string_view::npos) return absl::OkStatus();
  std::string_view modifier = value.substr(colon + 1);
  if (IsRandom(job.rw)) {
    // fio: a new random offset every <n> I/Os.
    ASSIGN_OR_RETURN(int64_t nr, ParseInt(modifier, 1, kMaxInt));
    job.rw_seq_nr = static_cast<int>(nr);
    return absl::OkStatus();
  }
  // fio: bytes added to each sequential offset, backwards when negative.
  const bool negative = !modifier.empty() && modifier.front() == '-';
  if (negative) modifier.remove_prefix(1);
  ASSIGN_OR_RETURN(uint64_t bytes, ParseSize(modifier, job.kb_base));
  if (bytes > static_cast<uint64_t>(kMaxInt64)) {
    return absl::InvalidArgumentError(absl::StrCat("'", Av(value), "': the offset is too large"));
  }
  job.rw_seq_add_bytes = negative ? -static_cast<int64_t>(bytes) : static_cast<int64_t>(bytes);
  return absl::OkStatus();
}

absl::Status SetRwSequencer(JobSpec& job, std::string_view value) {
  static constexpr std::pair<std::string_view, RwSequencer> kSequencers[] = {
      {"sequential", RwSequencer::kSequential},
      {"identical", RwSequencer::kIdentical},
  };
  ASSIGN_OR_RETURN(job.rw_sequencer, ParseChoice(value, kSequencers, "sequential, identical"));
  return absl::OkStatus();
}

absl::Status SetEngine(JobSpec& job, std::string_view value) {
  // fio's cpp_null is its null engine written in C++: the same behaviour.
  if (value == "cpp_null") value = "null";
  for (std::string_view name : kIoEngineNames) {
    if (value == name) {
      job.ioengine = std::string(value);
      return absl::OkStatus();
    }
  }
  std::vector<std::string> names(kIoEngineNames.begin(), kIoEngineNames.end());
  return absl::InvalidArgumentError(absl::StrCat("unknown I/O engine \"", Av(value),
                                                 "\"; allowed: ", absl::StrJoin(names, ", ")));
}

absl::Status SetFileSize(JobSpec& job, std::string_view value) {
  if (value.find(':') != std::string_view::npos || value.find('-') != std::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", Av(value), "': ranges of file sizes are not supported; give one size"));
  }
  RETURN_IF_ERROR(SetSize(job.file_size_bytes, job, value));
  if (job.file_size_bytes == 0) return absl::InvalidArgumentError("must be greater than 0");
  return absl::OkStatus();
}

absl::Status SetExitWhat(JobSpec& job, std::string_view value) {
  static constexpr std::pair<std::string_view, ExitWhat> kWhat[] = {
      {"group", ExitWhat::kGroup}, {"stonewall", ExitWhat::kStonewall}, {"all", ExitWhat::kAll}};
  ASSIGN_OR_RETURN(job.exit_what, ParseChoice(value, kWhat, "group, stonewall, all"));
  return absl::OkStatus();
}

absl::Status SetFallocate(JobSpec& job, std::string_view value) {
  // fio's "0" and "1" are the old spellings of none and posix.
  static constexpr std::pair<std::string_view, FallocateMode> kModes[] = {
      {"none", FallocateMode::kNone},         {"native", FallocateMode::kNative},
      {"posix", FallocateMode::kPosix},       {"keep", FallocateMode::kKeep},
      {"truncate", FallocateMode::kTruncate}, {"0", FallocateMode::kNone},
      {"1", FallocateMode::kPosix},
  };
  ASSIGN_OR_RETURN(job.fallocate,
                   ParseChoice(value, kModes, "none, native, posix, keep, truncate, 0, 1"));
  return absl::OkStatus();
}

absl::Status SetStatType(JobSpec& job, std::string_view value) {
  static constexpr std::pair<std::string_view, StatType> kTypes[] = {
      {"stat", StatType::kStat}, {"lstat", StatType::kLstat}, {"statx", StatType::kStatx}};
  ASSIGN_OR_RETURN(job.stat_type, ParseChoice(value, kTypes, "stat, lstat, statx"));
  return absl::OkStatus();
}

absl::Status SetFileServiceType(JobSpec& job, std::string_view value) {
  static constexpr std::pair<std::string_view, FileServiceType> kTypes[] = {
      {"roundrobin", FileServiceType::kRoundRobin},
      {"sequential", FileServiceType::kSequential},
      {"random", FileServiceType::kRandom},
  };
  ASSIGN_OR_RETURN(job.file_service_type,
                   ParseChoice(value, kTypes, "roundrobin, sequential, random"));
  return absl::OkStatus();
}

absl::Status SetKbBase(JobSpec& job, std::string_view value) {
  ASSIGN_OR_RETURN(int64_t base, ParseInt(value, 1000, 1024));
  if (base != 1000 && base != 1024) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", Av(value), "' is not allowed; allowed: 1000, 1024"));
  }
  job.kb_base = static_cast<int>(base);
  return absl::OkStatus();
}

absl::Status SetSharing(JobSpec& job, std::string_view value) {
  for (FileSharing sharing : {FileSharing::kFilePerAgent, FileSharing::kSharedDir,
                              FileSharing::kSharedFile, FileSharing::kWriteVerify}) {
    if (value == FileSharingName(sharing)) {
      job.sharing = sharing;
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "'", Av(value),
      "' is not supported; allowed: file-per-agent, shared-dir, shared-file, write-verify"));
}

absl::Status SetClockSource(JobSpec& job, std::string_view value) {
  for (ClockSource source : {ClockSource::kCpu, ClockSource::kClockGettime}) {
    if (value == ClockSourceName(source)) {
      job.clocksource = source;
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("'", Av(value),
                   "' is not supported; allowed: cpu (the time-stamp counter), clock_gettime "
                   "(CLOCK_MONOTONIC); gettimeofday is refused (microsecond resolution)"));
}

absl::Status SetRwmixwrite(JobSpec& job, std::string_view value) {
  int write_percent = 0;
  RETURN_IF_ERROR(SetInt(write_percent, value, 0, 100));
  job.rwmixread_percent = 100 - write_percent;
  return absl::OkStatus();
}

std::vector<std::string_view> SplitOn(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t at = text.find(separator); at != std::string_view::npos;
       at = text.find(separator, start)) {
    parts.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  parts.push_back(text.substr(start));
  return parts;
}

// fio's per-direction values "read[,write[,trim]]": a single value applies to every direction;
// an empty part leaves that direction as it was. Only bs keeps a trim value (SetBlockSize); for
// the others the trim part is dropped and a job that trims refuses them (common/trim_options.h).
// `set(dir, part)` parses one part (0 read, 1 write).
template <typename SetOne>
absl::Status SetPerDirection(std::string_view value, SetOne set) {
  const std::vector<std::string_view> parts = SplitOn(value, ',');
  if (parts.size() > 3) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", Av(value), "': at most three comma-separated values (read,write,trim) are allowed"));
  }
  if (parts.size() == 1) {
    RETURN_IF_ERROR(set(0, parts[0]));
    return set(1, parts[0]);
  }
  for (size_t dir = 0; dir < parts.size(); ++dir) {
    if (parts[dir].empty()) continue;
    if (dir == 2) continue;  // trim: nothing to act on
    RETURN_IF_ERROR(set(static_cast<int>(dir), parts[dir]));
  }
  return absl::OkStatus();
}

// fio's bs: a value not followed by a comma applies to the directions after it too, so "8k,32k"
// trims 32k while "8k,32k," leaves the trims' size as it was.
absl::Status SetBlockSize(JobSpec& job, std::string_view value) {
  RETURN_IF_ERROR(SetPerDirection(value, [&](int dir, std::string_view v) {
    return SetSize(dir == 0 ? job.block_size_bytes : job.write_block_size_bytes, job, v);
  }));
  const std::vector<std::string_view> parts = SplitOn(value, ',');
  const std::string_view trim = parts.size() == 3 ? parts[2] : parts.back();
  if (trim.empty()) return absl::OkStatus();
  return SetSize(job.trim_block_size_bytes, job, trim);
}

absl::Status SetPercentageRandom(JobSpec& job, std::string_view value) {
  return SetPerDirection(value, [&](int dir, std::string_view v) {
    return SetInt(job.percentage_random[dir], v, 0, 100);
  });
}

absl::Status SetBlockAlign(JobSpec& job, std::string_view value) {
  return SetPerDirection(value, [&](int dir, std::string_view v) -> absl::Status {
    RETURN_IF_ERROR(SetSize(job.blockalign_bytes[dir], job, v));
    if (job.blockalign_bytes[dir] == 0) return absl::InvalidArgumentError("must be greater than 0");
    return absl::OkStatus();
  });
}

// fio's bsrange: "low-high" (or "low:high") per direction.
absl::Status SetBlockSizeRange(JobSpec& job, std::string_view value) {
  return SetPerDirection(value, [&](int dir, std::string_view v) -> absl::Status {
    const size_t dash = v.find_first_of("-:");
    if (dash == std::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", Av(v), "' is not a range; give low-high, e.g. 4k-64k"));
    }
    uint64_t low = 0, high = 0;
    RETURN_IF_ERROR(SetSize(low, job, v.substr(0, dash)));
    RETURN_IF_ERROR(SetSize(high, job, v.substr(dash + 1)));
    if (low == 0 || low > high) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", Av(v), "': the low end must be greater than 0 and not above the high end"));
    }
    job.bsrange_bytes[dir] = {low, high};
    return absl::OkStatus();
  });
}

// fio's bssplit: "bs/percent:bs/percent:..." per direction. As in fio, an entry without a
// percentage (or with 0) shares what the others leave of 100 equally, a lone entry gets 100, a
// percentage above 100 counts as 100, and entries are ordered by share for the draw.
absl::Status SetBlockSizeSplit(JobSpec& job, std::string_view value) {
  return SetPerDirection(value, [&](int dir, std::string_view v) -> absl::Status {
    std::vector<BlockSizeShare> shares;
    std::vector<bool> missing;
    uint64_t total = 0;
    size_t missing_count = 0;
    for (std::string_view entry : SplitOn(v, ':')) {
      if (entry.empty()) break;  // fio stops at an empty entry
      const size_t slash = entry.find('/');
      BlockSizeShare share;
      RETURN_IF_ERROR(SetSize(share.bytes, job, entry.substr(0, slash)));
      if (share.bytes == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("'", Av(entry), "': the block size must be greater than 0"));
      }
      int64_t percent = 0;
      if (slash != std::string_view::npos && slash + 1 < entry.size()) {
        ASSIGN_OR_RETURN(percent, ParseInt(entry.substr(slash + 1), 0, kMaxInt));
      }
      share.percent = static_cast<uint32_t>(std::min<int64_t>(percent, 100));
      missing.push_back(share.percent == 0);
      if (share.percent == 0) {
        ++missing_count;
      } else {
        total += share.percent;
      }
      shares.push_back(share);
    }
    if (shares.empty()) {
      return absl::InvalidArgumentError("give at least one entry bs/percent, e.g. 4k/50:64k/50");
    }
    if (total > 100) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", Av(v), "': the percentages add up to ", total, ", more than 100"));
    }
    if (missing_count > 0) {
      const uint32_t each =
          shares.size() == 1 ? 100 : static_cast<uint32_t>((100 - total) / missing_count);
      for (size_t i = 0; i < shares.size(); ++i) {
        if (missing[i]) shares[i].percent = each;
      }
    }
    std::stable_sort(
        shares.begin(), shares.end(),
        [](const BlockSizeShare& a, const BlockSizeShare& b) { return a.percent < b.percent; });
    job.bssplit[dir] = std::move(shares);
    return absl::OkStatus();
  });
}

absl::Status SetBuffered(JobSpec& job, std::string_view value) {
  ASSIGN_OR_RETURN(bool buffered, ParseFlag(value));
  job.direct = !buffered;
  return absl::OkStatus();
}

// fio's zoned / zoned_abs list for one direction: "access/size:access/size...", access shares in
// percent adding up to 100, sizes in percent of the region (adding up to 100; zones without one
// share the rest) or in bytes.
absl::StatusOr<std::vector<RandomZone>> ParseZones(const JobSpec& job, std::string_view text,
                                                   bool absolute) {
  std::vector<RandomZone> zones;
  std::vector<size_t> missing;
  uint64_t access_total = 0, size_total = 0;
  for (std::string_view entry : SplitOn(text, ':')) {
    if (entry.empty()) continue;
    const size_t slash = entry.find('/');
    if (slash == std::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrCat(
          "zone '", Av(entry), "' needs access/size, e.g. ", absolute ? "60/10m" : "60/10"));
    }
    RandomZone zone;
    ASSIGN_OR_RETURN(int64_t access, ParseInt(entry.substr(0, slash), 0, 100));
    zone.access_percent = static_cast<uint32_t>(access);
    if (absolute) {
      RETURN_IF_ERROR(SetSize(zone.size_bytes, job, entry.substr(slash + 1)));
    } else if (slash + 1 == entry.size()) {
      missing.push_back(zones.size());  // no size: shares what the others leave, as in fio
    } else {
      ASSIGN_OR_RETURN(int64_t size, ParseInt(entry.substr(slash + 1), 0, 100));
      zone.size_percent = static_cast<uint32_t>(size);
      size_total += zone.size_percent;
    }
    access_total += zone.access_percent;
    zones.push_back(zone);
  }
  if (zones.empty()) return absl::InvalidArgumentError("give at least one zone access/size");
  if (access_total != 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("the zones' access shares add up to ", access_total, ", not 100"));
  }
  if (!missing.empty() && size_total < 100) {
    const uint64_t each = (100 - size_total) / missing.size();
    for (size_t i : missing) zones[i].size_percent = static_cast<uint32_t>(each);
    size_total += each * missing.size();
  }
  if (!absolute && size_total != 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("the zones' sizes add up to ", size_total, "% of the region, not 100"));
  }
  return zones;
}

// fio's sequence list (after 3.33): up to 64 block indices, each digits only, ',' between.
constexpr size_t kMaxSequenceBlocks = 64;
absl::StatusOr<std::vector<uint64_t>> ParseSequence(std::string_view list) {
  if (list.empty()) {
    return absl::InvalidArgumentError("sequence needs its block indices: sequence:2,0,1");
  }
  const std::vector<std::string_view> items = SplitOn(list, ',');
  if (items.size() > kMaxSequenceBlocks) {
    return absl::InvalidArgumentError(absl::StrCat("a sequence has at most ", kMaxSequenceBlocks,
                                                   " block indices, not ", items.size()));
  }
  std::vector<uint64_t> blocks;
  for (std::string_view item : items) {
    const std::string text(absl::StripAsciiWhitespace(Av(item)));
    uint64_t block = 0;
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
        !absl::SimpleAtoi(text, &block) || block > std::numeric_limits<int32_t>::max()) {
      return absl::InvalidArgumentError(
          absl::StrCat("sequence element '", Av(item),
                       "' is not a block index (an integer from 0 to 2147483647)"));
    }
    blocks.push_back(block);
  }
  return blocks;
}

// fio's random_distribution: random | zipf[:theta[:center]] | pareto[:h[:center]] |
// normal[:dev[:center]] | zoned:... | zoned_abs:... | sequence:i,j,... (fio's defaults: theta 1.1,
// h 0.2, dev 0).
absl::Status SetRandomDistribution(JobSpec& job, std::string_view value) {
  const size_t colon = value.find(':');
  const std::string kind = absl::AsciiStrToLower(Av(value.substr(0, colon)));
  const std::string_view rest =
      colon == std::string_view::npos ? std::string_view() : value.substr(colon + 1);
  RandomDistributionSpec spec;
  spec.sequence_stride = job.random_distribution.sequence_stride;  // its own option
  if (kind == "sequence") {
    spec.kind = RandomDistributionKind::kSequence;
    ASSIGN_OR_RETURN(spec.sequence, ParseSequence(rest));
  } else if (kind == "random") {
    spec.kind = RandomDistributionKind::kUniform;
  } else if (kind == "zoned" || kind == "zoned_abs") {
    const bool absolute = kind == "zoned_abs";
    spec.kind = absolute ? RandomDistributionKind::kZonedAbs : RandomDistributionKind::kZoned;
    const std::vector<std::string_view> dirs = SplitOn(rest, ',');
    if (dirs.size() > 3) {
      return absl::InvalidArgumentError(
          "at most three comma-separated zone lists "
          "(read,write,trim) are allowed");
    }
    ASSIGN_OR_RETURN(spec.zones[0], ParseZones(job, dirs[0], absolute));
    spec.zones[1] = spec.zones[0];
    if (dirs.size() > 1 && !dirs[1].empty()) {
      ASSIGN_OR_RETURN(spec.zones[1], ParseZones(job, dirs[1], absolute));
    }
  } else if (kind == "zipf" || kind == "pareto" || kind == "normal" || kind == "gauss") {
    spec.kind = kind == "zipf"     ? RandomDistributionKind::kZipf
                : kind == "pareto" ? RandomDistributionKind::kPareto
                                   : RandomDistributionKind::kNormal;
    spec.value = kind == "zipf" ? 1.1 : kind == "pareto" ? 0.2 : 0.0;
    if (!rest.empty()) {
      const std::vector<std::string_view> parts = SplitOn(rest, ':');
      if (parts.size() > 2) {
        return absl::InvalidArgumentError(
            absl::StrCat("'", Av(value), "': give ", kind, ":value[:center]"));
      }
      double number = 0;
      if (!absl::SimpleAtod(Av(parts[0]), &number)) {
        return absl::InvalidArgumentError(absl::StrCat("'", Av(parts[0]), "' is not a number"));
      }
      spec.value = number;
      if (parts.size() == 2) {
        if (!absl::SimpleAtod(Av(parts[1]), &number) || number < 0 || number > 1) {
          return absl::InvalidArgumentError(
              absl::StrCat("center '", Av(parts[1]), "' must be a number in 0..1"));
        }
        spec.center = number;
      }
    }
    if (spec.kind == RandomDistributionKind::kZipf && (spec.value <= 0 || spec.value == 1.0)) {
      return absl::InvalidArgumentError("zipf's theta must be greater than 0 and not 1");
    }
    if (spec.kind == RandomDistributionKind::kPareto && (spec.value <= 0 || spec.value >= 1)) {
      return absl::InvalidArgumentError("pareto's h must be between 0 and 1 (exclusive)");
    }
    if (spec.kind == RandomDistributionKind::kNormal && (spec.value < 0 || spec.value >= 100)) {
      return absl::InvalidArgumentError("normal's deviation must be in 0..100 (exclusive)");
    }
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", Av(value),
        "' is not supported; allowed: random, zipf:theta, pareto:h, normal:dev "
        "(each with an optional :center), zoned:..., zoned_abs:..., sequence:i,j,..."));
  }
  job.random_distribution = std::move(spec);
  return absl::OkStatus();
}

absl::Status SetRandomGenerator(JobSpec& job, std::string_view value) {
  static constexpr std::pair<std::string_view, RandomGenerator> kGenerators[] = {
      {"tausworthe", RandomGenerator::kTausworthe},
      {"lfsr", RandomGenerator::kLfsr},
      {"tausworthe64", RandomGenerator::kTausworthe64},
  };
  ASSIGN_OR_RETURN(job.random_generator,
                   ParseChoice(value, kGenerators, "tausworthe, lfsr, tausworthe64"));
  return absl::OkStatus();
}

absl::Status SetRandseed(JobSpec& job, std::string_view value) {
  ASSIGN_OR_RETURN(int64_t seed, ParseInt(value, 0, kMaxInt64));
  job.randseed = static_cast<uint64_t>(seed);
  return absl::OkStatus();
}

// fio's per-direction lists: `v` sets reads and writes, `r,w` each, an empty part leaves that
// direction at 0 (none). A third (trim) value is checked and then has nothing to act on:
// azbench does not pace trims (ApplyJobOption warns; common/trim_options.h refuses rates on a
// job that trims).
template <typename Parse>
absl::Status SetPerDirection(std::array<uint64_t, 2>& field, std::string_view value, Parse parse) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t comma = value.find(',', start);
    parts.push_back(
        value.substr(start, comma == std::string_view::npos ? value.npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (parts.size() > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", Av(value), "': give one value, or read,write[,trim]"));
  }
  if (parts.size() == 3 && !parts[2].empty()) {
    RETURN_IF_ERROR(parse(parts[2]).status());
  }
  std::array<uint64_t, 2> parsed = {0, 0};
  for (size_t dir = 0; dir < 2; ++dir) {
    const std::string_view part = parts[parts.size() == 1 ? 0 : dir];
    if (!part.empty()) {
      ASSIGN_OR_RETURN(parsed[dir], parse(part));
    }
  }
  field = parsed;
  return absl::OkStatus();
}

absl::Status SetRatesIops(std::array<uint64_t, 2>& field, std::string_view value) {
  return SetPerDirection(field, value, [](std::string_view v) -> absl::StatusOr<uint64_t> {
    ASSIGN_OR_RETURN(int64_t iops, ParseInt(v, 0, kMaxInt64));
    return static_cast<uint64_t>(iops);
  });
}

absl::Status SetRatesBytes(std::array<uint64_t, 2>& field, const JobSpec& job,
                           std::string_view value) {
  const int kb_base = job.kb_base;
  return SetPerDirection(field, value,
                         [kb_base](std::string_view v) { return ParseSize(v, kb_base); });
}

absl::Status SetRateProcess(JobSpec& job, std::string_view value) {
  static constexpr std::pair<std::string_view, bool> kProcesses[] = {{"linear", false},
                                                                     {"poisson", true}};
  ASSIGN_OR_RETURN(job.rate_poisson, ParseChoice(value, kProcesses, "linear, poisson"));
  return absl::OkStatus();
}

absl::Status SetThinktimeBlocksType(JobSpec& job, std::string_view value) {
  static constexpr std::pair<std::string_view, bool> kTypes[] = {{"complete", false},
                                                                 {"issue", true}};
  ASSIGN_OR_RETURN(job.thinktime_blocks_issue, ParseChoice(value, kTypes, "complete, issue"));
  return absl::OkStatus();
}

absl::Status SetCpusAllowedPolicy(JobSpec& job, std::string_view value) {
  static constexpr std::pair<std::string_view, bool> kPolicies[] = {{"shared", false},
                                                                    {"split", true}};
  ASSIGN_OR_RETURN(job.placement.split, ParseChoice(value, kPolicies, "shared, split"));
  return absl::OkStatus();
}

// fio's thinktime options count microseconds when no unit is written.
absl::Status SetMicros(absl::Duration& field, std::string_view value) {
  ASSIGN_OR_RETURN(field, ParseDuration(value, absl::Microseconds(1)));
  return absl::OkStatus();
}

// fio's latency_percentile: one number in 0..100 (fio's list takes only one here).
absl::Status SetLatencyPercentile(JobSpec& job, std::string_view value) {
  double percent = 0;
  if (!absl::SimpleAtod(Av(value), &percent) || !(percent >= 0 && percent <= 100)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", Av(value), "' is not a percentage: give one number in 0..100"));
  }
  job.latency_percentile = percent;
  return absl::OkStatus();
}

// fio's startdelay: seconds when no unit is written; `lo-hi` draws a delay in that range per clone.
absl::Status SetStartDelay(JobSpec& job, std::string_view value) {
  const size_t dash = value.find('-');
  ASSIGN_OR_RETURN(job.startdelay, ParseDuration(value.substr(0, dash), absl::Seconds(1)));
  job.startdelay_high = job.startdelay;
  if (dash != std::string_view::npos) {
    ASSIGN_OR_RETURN(job.startdelay_high, ParseDuration(value.substr(dash + 1), absl::Seconds(1)));
    if (job.startdelay_high < job.startdelay) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", Av(value), "': the range's end must not be below its start"));
    }
  }
  return absl::OkStatus();
}

absl::Status SetUringWaitPause(JobSpec& job, std::string_view value) {
  // A bare number counts microseconds, as fio's thinktime does.
  ASSIGN_OR_RETURN(absl::Duration pause, ParseDuration(value, absl::Microseconds(1)));
  if (pause > kMaxUringWaitPause) {
    return absl::InvalidArgumentError(absl::StrCat("'", Av(value), "' is out of range: allowed 0..",
                                                   absl::FormatDuration(kMaxUringWaitPause)));
  }
  job.uring_wait_pause = pause;
  return absl::OkStatus();
}

absl::Status SetOpLogRate(JobSpec& job, std::string_view value) {
  ASSIGN_OR_RETURN(int64_t rate, ParseInt(value, 1, 10'000'000));
  job.op_log_rate = static_cast<uint64_t>(rate);
  return absl::OkStatus();
}

using T = FioOptionType;

// The entry makers: one per FioSupport, so each row says what azbench does with the option.
constexpr FioOptionInfo Honoured(std::string_view name, std::string_view alias, FioOptionType type,
                                 std::string_view unit, std::string_view range,
                                 std::string_view default_value, std::string_view category,
                                 std::string_view help, FioOptionSetter set,
                                 std::string_view note = {}) {
  return FioOptionInfo{
      name, alias, type, unit, range, default_value, category, help, FioSupport::kHonoured,
      note, set};
}
constexpr FioOptionInfo NoEffect(std::string_view name, std::string_view alias, FioOptionType type,
                                 std::string_view default_value, std::string_view category,
                                 std::string_view help, std::string_view why) {
  return FioOptionInfo{
      name, alias,  type, {}, {}, default_value, category, help, FioSupport::kNoEffect,
      why,  nullptr};
}
constexpr FioOptionInfo Refused(std::string_view name, std::string_view alias, FioOptionType type,
                                std::string_view default_value, std::string_view category,
                                std::string_view help, std::string_view why) {
  return FioOptionInfo{
      name, alias, type, {}, {}, default_value, category, help, FioSupport::kRefused, why, nullptr};
}

// Categories, as fio groups its options.
constexpr std::string_view kDescription = "Description";
constexpr std::string_view kFiles = "Files and layout";
constexpr std::string_view kIoBasic = "I/O type and depth";
constexpr std::string_view kSizes = "Sizes and offsets";
constexpr std::string_view kBlockSize = "Block size";
constexpr std::string_view kRandom = "Randomness";
constexpr std::string_view kSync = "Sync and cache";
constexpr std::string_view kRuntime = "Runtime";
constexpr std::string_view kBuffers = "Buffers and memory";
constexpr std::string_view kVerify = "Verification";
constexpr std::string_view kTrim = "Trim";
constexpr std::string_view kIolog = "I/O logs and replay";
constexpr std::string_view kCommands = "Commands";
constexpr std::string_view kZones = "Zoned devices";
constexpr std::string_view kRwmix = "Read/write mix";
constexpr std::string_view kScheduling = "CPU, priority and credentials";
constexpr std::string_view kThinktime = "Think time";
constexpr std::string_view kRate = "Rate";
constexpr std::string_view kLatency = "Latency target";
constexpr std::string_view kProcess = "Jobs and groups";
constexpr std::string_view kLogs = "Log files";
constexpr std::string_view kStats = "Statistics and output";
constexpr std::string_view kErrors = "Error handling";
constexpr std::string_view kFlow = "Flow";
constexpr std::string_view kSteady = "Steady state";
constexpr std::string_view kUring = "io_uring engine";
constexpr std::string_view kNfs = "nfs engine";
constexpr std::string_view kAzbench = "azbench";

// Reasons shared by several options.
constexpr std::string_view kWhyVerify = "not implemented in azbench's verify";
constexpr std::string_view kWhyTrim =
    "azbench does not trim verified blocks (rw=trim and its kin trim, without verify)";
constexpr std::string_view kTrimValueNote =
    "a third (trim) value is accepted with a warning that it has no effect, and a job that "
    "trims refuses rates: azbench does not pace trims";
constexpr std::string_view kWhyIolog =
    "an agent reads and writes only its jobs' data files, never other files a job names";
constexpr std::string_view kWhyZones =
    "zoned block devices are not a target: azbench measures file systems";
constexpr std::string_view kWhyPlacement =
    "agents do not change a job's CPU, NUMA or I/O priority placement; pin the agent service "
    "instead";
constexpr std::string_view kWhyCredentials =
    "an agent runs as one unprivileged user and cannot switch users or cgroups";
constexpr std::string_view kWhyMaxLatency =
    "not implemented; latency_target finds the depth that keeps latency under a target instead";
constexpr std::string_view kLatencyTargetNote =
    "azbench's figures cover the whole run, the search included; fio resets its statistics when "
    "the last window at the depth found begins";
constexpr std::string_view kWhyLayout =
    "azbench lays out every job's files itself, whole, before the measured run";
constexpr std::string_view kWhyLogEpoch =
    "azbench's log times count milliseconds from the job's measured start (fio's default)";
constexpr std::string_view kWhyLogRuns =
    "`azbench-agent run` writes it in the current directory; a campaign's coordinator beside its "
    "database, as <database>.oplog/<scenario>/<agent>.<prefix>_<type>.<N>.log (the prefix cannot "
    "contain '/')";
constexpr std::string_view kWhyLogStreamed =
    "azbench writes its log files as the ops complete: there is no in-memory log to size or "
    "compress";
constexpr std::string_view kWhyMeasured =
    "azbench always measures submission, completion and total latency and bandwidth";
constexpr std::string_view kWhyDeprecated = "fio deprecated it and ignores it too";
constexpr std::string_view kWhyMemory =
    "azbench allocates I/O buffers itself, aligned for O_DIRECT";

// fio 3.33's options in options.c order, then fio's io_uring options, then azbench's own.
constexpr FioOptionInfo kOptions[] = {
    NoEffect("description", "", T::kString, "", kDescription, "Free text describing the job",
             "azbench neither stores nor prints it"),
    Honoured("name", "", T::kString, "", "1-100 characters, no '/'", "the section name",
             kDescription, "Name of the job; part of its file names and result rows",
             [](JobSpec& j, std::string_view v) { return SetString(j.name, v); }),
    Honoured("wait_for", "", T::kString, "", "the name of an earlier job", "", kProcess,
             "Start only after the named job has ended",
             [](JobSpec& j, std::string_view v) { return SetString(j.wait_for, v); }),
    Honoured("filename", "", T::kString, "", "':'-separated paths ('\\:' is a colon)", "", kFiles,
             "The files (or one device) to do I/O to, instead of generated names",
             [](JobSpec& j, std::string_view v) { return SetString(j.filename, v); }),
    Honoured(
        "directory", "", T::kString, "", "a path, or ':'-separated paths ('\\:' is a colon)",
        "the agent's working directory", kFiles, "Directory that holds the job's files",
        [](JobSpec& j, std::string_view v) { return SetString(j.directory, v); },
        "with several, clone n's files go in the (n mod count)-th and `filename`'s in the first, "
        "as fio; lists are for `azbench-agent run`: a campaign gives each agent its directory"),
    Honoured(
        "filename_format", "", T::kString, "", "a relative name, no '..'",
        "$jobname.$jobnum.$filenum", kFiles,
        "Pattern for generated file names ($jobname, $jobnum, $filenum, $clientuid)",
        [](JobSpec& j, std::string_view v) { return SetFilenameFormat(j, v); },
        "$clientuid is the agent's id in a campaign, empty in a one-shot run; shared-dir "
        "still puts the agent's id in front"),
    NoEffect("unique_filename", "", T::kBool, "1", kFiles,
             "Prefix generated file names with the client's address in client/server mode",
             "agents never share generated names: each works in its own directory unless "
             "`sharing` says otherwise"),
    Refused("lockfile", "", T::kChoice, "none", kFiles,
            "Lock each file around its I/O (none, exclusive, readwrite)",
            "azbench takes no file locks around I/O"),
    Refused("opendir", "", T::kString, "", kFiles, "Add every file below a directory to the job",
            kWhyIolog),
    Honoured("rw", "readwrite", T::kChoice, "",
             "read, write, trim, randread, randwrite, randtrim, rw, readwrite, randrw, "
             "trimwrite, randtrimwrite, each [:<n>]",
             "read", kIoBasic, "Direction and order of the I/O", SetRw,
             "':<n>' is fio's: bytes added to each sequential offset (negative: backwards), or a "
             "new random offset every n I/Os (not with trims). A trim is fio's: ioengine=falloc "
             "punches a hole, null completes it, the other engines issue BLKDISCARD, which a "
             "regular file fails with ENOTTY. trimwrite writes each trimmed range right after "
             "its trim, and counts the writes alone against size"),
    Honoured("rw_sequencer", "", T::kChoice, "", "sequential, identical", "sequential", kIoBasic,
             "Where the I/Os between the random ones of rw=rand...:<n> go", SetRwSequencer),
    Honoured(
        "ioengine", "", T::kChoice, "",
        "psync, sync, vsync, pvsync, pvsync2, posixaio, mmap, libaio, io_uring, null (cpp_null), "
        "nfs, "
        "filecreate, filestat, filedelete, dircreate, dirstat, dirdelete, falloc, ftruncate",
        "psync", kIoBasic, "How the I/O is issued", SetEngine),
    Honoured(
        "iodepth", "", T::kInt, "I/Os", "1..65536 (libaio, io_uring, posixaio: 1..4096)", "1",
        kIoBasic, "How many I/Os each clone keeps in flight",
        [](JobSpec& j, std::string_view v) { return SetInt(j.iodepth, v, 1, kMaxJobIodepth); }),
    Honoured(
        "iodepth_batch", "iodepth_batch_submit", T::kInt, "I/Os", "0..65536", "0", kIoBasic,
        "How many I/Os to submit per call (async engines)",
        [](JobSpec& j, std::string_view v) {
          return SetInt(j.iodepth_batch_submit, v, 0, kMaxJobIodepth);
        },
        "0 (the default) submits every free slot, one per call with direct=1; fio's default "
        "is 1"),
    Honoured(
        "iodepth_batch_complete_min", "iodepth_batch_complete", T::kInt, "I/Os", "0..65536", "0",
        kIoBasic, "Fewest completions to wait for per reap (async engines)",
        [](JobSpec& j, std::string_view v) {
          return SetInt(j.iodepth_batch_complete_min, v, 0, kMaxJobIodepth);
        },
        "0 (the default) waits for at least one, as fio's 1"),
    Honoured(
        "iodepth_batch_complete_max", "", T::kInt, "I/Os", "0..65536", "0", kIoBasic,
        "Most completions to take per reap (async engines)",
        [](JobSpec& j, std::string_view v) {
          return SetInt(j.iodepth_batch_complete_max, v, 0, kMaxJobIodepth);
        },
        "0 (the default) takes up to iodepth"),
    Refused("iodepth_low", "", T::kInt, "iodepth", kIoBasic,
            "Queue depth at which to start refilling the queue",
            "azbench refills the queue as soon as a slot is free"),
    Refused("serialize_overlap", "", T::kBool, "0", kIoBasic,
            "Hold back I/Os that overlap one in flight",
            "azbench does not track overlapping in-flight I/Os"),
    NoEffect("io_submit_mode", "", T::kChoice, "inline", kIoBasic,
             "Submit I/O from the job thread or an offload pool",
             "a rated clone keeps its requests in flight and reaps them while it waits for its "
             "next op's time, as fio's offload mode does (fio's inline mode drains the queue "
             "before each wait); submission stays on the clone's thread"),
    Honoured(
        "size", "", T::kSize, "bytes", "1 and up, or 1%..100% of the files' size",
        "the files' size", kSizes, "Bytes of file per clone: its files share it",
        [](JobSpec& j, std::string_view v) {
          return SetSizeOrPercent(j.size_bytes, j.size_percent, j, v, 1);
        },
        "without size, or with a percentage, the agent reads the size of the existing files "
        "(st_size, or a block device's size) when it prepares the job; the files of a job must "
        "then be of one size"),
    Honoured("io_size", "io_limit", T::kSize, "bytes", "0 and up, or 1%..100% of size", "size",
             kSizes, "Bytes of I/O per clone, when different from size",
             [](JobSpec& j, std::string_view v) {
               return SetSizeOrPercent(j.io_size_bytes, j.io_size_percent, j, v, 1);
             }),
    Honoured(
        "fill_device", "fill_fs", T::kBool, "", "0, 1", "0", kSizes,
        "Write until the device or file system is full",
        [](JobSpec& j, std::string_view v) { return SetBool(j.fill_device, v); },
        "ENOSPC or EDQUOT ends the job without an error, its bytes counted; jobs that only write "
        "(without size: rw=write); a serving agent refuses it without size, as it keeps the "
        "configured free space"),
    Honoured("filesize", "", T::kSize, "bytes", "1 and up (no ranges)", "size/nrfiles", kSizes,
             "Size of each file, or a range, instead of size/nrfiles", SetFileSize,
             "size, when not given, is nrfiles x filesize; when given, it is the I/O per clone "
             "over its files of filesize each"),
    Refused("file_append", "", T::kBool, "0", kSizes, "Do the I/O past the end of the file",
            "azbench does its I/O inside the laid-out region"),
    Honoured(
        "offset", "fileoffset", T::kSize, "bytes", "0 and up, or 0%..100% of the files' size", "0",
        kSizes, "Where in each file the I/O region starts",
        [](JobSpec& j, std::string_view v) {
          return SetSizeOrPercent(j.offset_bytes, j.offset_percent, j, v, 0);
        },
        "a percentage is rounded up to the smallest block size, as fio without offset_align"),
    Refused("offset_align", "", T::kInt, "0", kSizes, "Alignment of a percentage offset",
            "azbench rounds percentage offsets up to the smallest block size (fio's default)"),
    Honoured("offset_increment", "", T::kSize, "bytes", "0 and up, or 0%..100% of the files' size",
             "0", kSizes, "Offset added per clone: clone n starts at offset + n * offset_increment",
             [](JobSpec& j, std::string_view v) {
               return SetSizeOrPercent(j.offset_increment_bytes, j.offset_increment_percent, j, v,
                                       0);
             }),
    Honoured(
        "number_ios", "", T::kInt, "I/Os", "0 and up", "0 (no cap)", kSizes,
        "Stop each loop after this many I/Os, or at io_size if sooner",
        [](JobSpec& j, std::string_view v) -> absl::Status {
          ASSIGN_OR_RETURN(int64_t n, ParseInt(v, 0, kMaxInt64));
          j.number_ios = static_cast<uint64_t>(n);
          return absl::OkStatus();
        },
        "counted in I/Os whatever their sizes (bssplit, bsrange, bs=<read>,<write>)"),
    Honoured("bs", "blocksize", T::kSize, "bytes", "1..1g, per direction read,write[,trim]", "4k",
             kBlockSize, "Bytes per I/O", SetBlockSize,
             "a value not followed by ',' applies to the directions after it, as fio"),
    Honoured("ba", "blockalign", T::kSize, "bytes", "1 and up, per direction read,write[,trim]",
             "minimum bs", kBlockSize, "Alignment of random offsets", SetBlockAlign),
    Honoured("bsrange", "blocksize_range", T::kList, "bytes",
             "low-high, per direction read,write[,trim]", "", kBlockSize,
             "Pick each I/O's size from a range", SetBlockSizeRange,
             "sizes are drawn as fio does: multiples of the low end, the top one a little more "
             "often"),
    Honoured("bssplit", "", T::kList, "", "bs/percent:bs/percent..., per direction with ','", "",
             kBlockSize, "Mix of block sizes with their shares", SetBlockSizeSplit),
    Honoured("bs_unaligned", "blocksize_unaligned", T::kBool, "", "", "0", kBlockSize,
             "Allow sizes from bsrange that are not multiples of its low end",
             [](JobSpec& j, std::string_view v) { return SetBool(j.bs_unaligned, v); }),
    Honoured(
        "bs_is_seq_rand", "", T::kBool, "", "", "0", kBlockSize,
        "Read bs's read,write values as sequential,random",
        [](JobSpec& j, std::string_view v) { return SetBool(j.bs_is_seq_rand, v); },
        "refused with percentage_random below 100 and rw=randread:N; fio 3.33 ends some random "
        "jobs early when the size differs from the direction's bs, azbench does the whole size"),
    Honoured("randrepeat", "", T::kBool, "", "", "1", kRandom,
             "Seed the random generator the same way every run",
             [](JobSpec& j, std::string_view v) { return SetBool(j.randrepeat, v); }),
    Honoured("randseed", "", T::kInt, "", "0..2^63-1", "unset", kRandom,
             "Seed for the random generator", SetRandseed),
    Honoured("norandommap", "", T::kBool, "", "", "0", kRandom,
             "Draw random offsets freely instead of visiting each block once per pass",
             [](JobSpec& j, std::string_view v) { return SetBool(j.norandommap, v); }),
    Refused("softrandommap", "", T::kBool, "0", kRandom,
            "Carry on without a random map when it cannot be allocated",
            "azbench's random map needs no allocation that can fail at run time"),
    Honoured("random_generator", "", T::kChoice, "", "tausworthe, lfsr, tausworthe64", "tausworthe",
             kRandom, "Which random generator to use", SetRandomGenerator,
             "azbench draws from one generator (xoshiro256**) for all three; lfsr visits every "
             "block exactly once per pass, even with norandommap, as fio's"),
    Honoured("random_distribution", "", T::kChoice, "",
             "random, zipf:theta, pareto:h, normal:dev (each [:center]), zoned:a/s:..., "
             "zoned_abs:a/size:..., sequence:i,j,... (at most 64 block indices)",
             "random", kRandom, "Distribution of random offsets", SetRandomDistribution,
             "zipf and pareto hash their ranks as fio does, so hot blocks are spread; normal "
             "is not hashed; sequence (fio after 3.33) visits the listed blocks in turn"),
    Honoured(
        "random_sequence_stride", "", T::kBool, "", "", "0", kRandom,
        "Move random_distribution=sequence on by its length after each round",
        [](JobSpec& j, std::string_view v) {
          return SetBool(j.random_distribution.sequence_stride, v);
        },
        "fio's option after 3.33: 2,0,1 then 5,3,4"),
    Honoured("percentage_random", "", T::kList, "percent",
             "0..100, per direction read,write[,trim]", "100", kRandom,
             "Share of I/Os that are random, the rest sequential", SetPercentageRandom),
    NoEffect("percentage_sequential", "", T::kList, "", kRandom, "Old form of percentage_random",
             kWhyDeprecated),
    Refused("allrandrepeat", "", T::kBool, "0", kRandom,
            "Seed every random generator of the job the same way each run",
            "randrepeat and randseed seed azbench's only generator"),
    Honoured(
        "nrfiles", "nr_files", T::kInt, "files", "1..1000000", "1", kFiles, "Files per clone",
        [](JobSpec& j, std::string_view v) { return SetInt(j.nrfiles, v, 1, kMaxJobNrfiles); }),
    Honoured(
        "openfiles", "", T::kInt, "files", "1..1000000", "nrfiles", kFiles,
        "Most files open at once",
        [](JobSpec& j, std::string_view v) { return SetInt(j.openfiles, v, 1, kMaxJobNrfiles); },
        "file-operation engines keep at most one open; others keep all of a clone's files "
        "open, so a value below nrfiles is refused"),
    Honoured("file_service_type", "", T::kChoice, "", "roundrobin, sequential, random",
             "roundrobin", kFiles, "How the next file is chosen", SetFileServiceType,
             "per-file counts (random:4) and zipf/pareto/normal/gauss are refused"),
    Honoured("fallocate", "", T::kChoice, "", "none, native, posix, keep, truncate, 0, 1", "native",
             kFiles, "How to preallocate files before laying them out", SetFallocate,
             "at layout, on a file the layout creates or extends, as fio: native is fallocate "
             "mode 0 (a failure is ignored), posix posix_fallocate, keep FALLOC_FL_KEEP_SIZE, "
             "truncate ftruncate; 0 is none, 1 posix. A write-only or trim job's file is not "
             "extended further, so with none it grows as it is written. ioengine=nfs: native and "
             "truncate extend the file sparsely, keep and posix are refused"),
    Refused("fadvise_hint", "", T::kChoice, "1", kSync,
            "posix_fadvise hint about the access pattern",
            "azbench gives the kernel no access-pattern hints"),
    Honoured("fsync", "", T::kInt, "writes", "0..2^31-1", "0", kSync,
             "fsync after every N writes (0: never)",
             [](JobSpec& j, std::string_view v) { return SetInt(j.fsync_every_n, v, 0, kMaxInt); }),
    Honoured(
        "fdatasync", "", T::kInt, "writes", "0..2^31-1", "0", kSync,
        "fdatasync after every N writes (0: never)",
        [](JobSpec& j, std::string_view v) { return SetInt(j.fdatasync_every_n, v, 0, kMaxInt); }),
    Refused("write_barrier", "", T::kInt, "0", kSync, "Make every Nth write a barrier write",
            "Linux has no barrier writes for files"),
    Refused("sync_file_range", "", T::kList, "", kSync, "sync_file_range after every N writes",
            "azbench syncs with fsync and fdatasync only"),
    Honoured("direct", "", T::kBool, "", "", "0", kSync, "Use O_DIRECT (bypass the page cache)",
             [](JobSpec& j, std::string_view v) { return SetBool(j.direct, v); }),
    Refused("atomic", "", T::kBool, "0", kSync, "Use atomic direct writes",
            "Linux offers no atomic O_DIRECT writes to files here"),
    Honoured("buffered", "", T::kBool, "", "", "1", kSync,
             "Go through the page cache (the opposite of direct)", SetBuffered),
    Refused("overwrite", "", T::kBool, "0", kFiles, "Lay the file out first, then overwrite it",
            kWhyLayout),
    Honoured("loops", "", T::kInt, "loops", "1 and up", "1", kRuntime,
             "Do the job's io_size (or number_ios) this many times, each from the region's start",
             [](JobSpec& j, std::string_view v) { return SetInt(j.loops, v, 1, kMaxInt); }),
    Honoured(
        "numjobs", "", T::kInt, "clones", "1..4096", "1", kProcess,
        "Clones of the job, each with its own files",
        [](JobSpec& j, std::string_view v) { return SetInt(j.numjobs, v, 1, kMaxJobNumjobs); }),
    Honoured("startdelay", "", T::kDuration, "s", "0 and up, or a range lo-hi", "0", kRuntime,
             "Start each clone this much later (a range: random per clone)", SetStartDelay),
    Honoured("runtime", "timeout", T::kDuration, "s", "0 and up", "0 (until io_size is done)",
             kRuntime, "Stop the job after this long",
             [](JobSpec& j, std::string_view v) { return SetSeconds(j.runtime, v); }),
    Honoured("time_based", "", T::kBool, "", "", "0", kRuntime,
             "Run for runtime, going over the files again as often as needed",
             [](JobSpec& j, std::string_view v) { return SetBool(j.time_based, v); }),
    Honoured("verify_only", "", T::kBool, "", "", "0", kVerify,
             "Write nothing: read back and check what the job would have written",
             [](JobSpec& j, std::string_view v) { return SetBool(j.verify_only, v); }),
    Honoured("ramp_time", "", T::kDuration, "s", "0 and up", "0", kRuntime,
             "Run this long before measuring",
             [](JobSpec& j, std::string_view v) { return SetSeconds(j.ramp_time, v); }),
    Honoured("clocksource", "", T::kChoice, "", "cpu, clock_gettime", "auto", kRuntime,
             "Clock that timestamps each I/O", SetClockSource,
             "auto (the default) takes cpu where the TSC is usable; gettimeofday is refused"),
    Refused("mem", "iomem", T::kChoice, "malloc", kBuffers,
            "Where I/O buffers come from (malloc, shm, mmap, hugepages, ...)", kWhyMemory),
    Refused("iomem_align", "mem_align", T::kInt, "0", kBuffers, "Alignment of I/O buffers",
            kWhyMemory),
    Honoured("verify", "", T::kChoice, "",
             "0, md5, crc32c, crc32c-intel, crc32, sha1, sha256, sha512, xxhash, meta, pattern, "
             "null",
             "0", kVerify, "Write a checksummed header into each block and check it when read",
             SetVerify,
             "write jobs read back what they wrote, read jobs check what they read; jobs mixing "
             "reads and writes are refused; crc64, crc16, crc7 and sha3 are not implemented"),
    Honoured("do_verify", "", T::kBool, "", "", "1", kVerify,
             "Read back and check the blocks after a write job's writes",
             [](JobSpec& j, std::string_view v) { return SetBool(j.do_verify, v); }),
    NoEffect("verifysort", "", T::kBool, "", kVerify, "Old option to sort verify reads",
             kWhyDeprecated),
    NoEffect("verifysort_nr", "", T::kInt, "", kVerify, "Old option to sort verify reads",
             kWhyDeprecated),
    Honoured("verify_interval", "", T::kInt, "bytes", "above the header's size", "bs", kVerify,
             "Bytes covered by each verify header",
             [](JobSpec& j, std::string_view v) { return SetSize(j.verify_interval_bytes, j, v); }),
    Honoured("verify_offset", "", T::kInt, "bytes", "0 up to the interval less the header", "0",
             kVerify, "Where in each interval the verify header goes",
             [](JobSpec& j, std::string_view v) { return SetSize(j.verify_offset_bytes, j, v); }),
    Honoured(
        "verify_pattern", "", T::kString, "", "0x hex, a decimal number, \"a string\"", "", kVerify,
        "Pattern to write and check (sets verify=pattern when verify is unset)",
        [](JobSpec& j, std::string_view v) -> absl::Status {
          ASSIGN_OR_RETURN(j.verify_pattern, ParseVerifyPattern(v));
          return absl::OkStatus();
        },
        "fio's %o offset format is refused"),
    Honoured(
        "verify_fatal", "", T::kBool, "", "", "0", kVerify,
        "Stop checking a block at its first bad interval",
        [](JobSpec& j, std::string_view v) { return SetBool(j.verify_fatal, v); },
        "as in fio, the job stops at the first bad block either way"),
    Honoured(
        "verify_dump", "", T::kBool, "", "", "0", kVerify,
        "Save each failed interval as read and as written (<file>.<offset>.received, .expected; "
        ".hdr_fail for a bad header) in the current directory",
        [](JobSpec& j, std::string_view v) { return SetBool(j.verify_dump, v); },
        "`azbench-agent run` only: a serving agent writes only its jobs' data files"),
    NoEffect("verify_async", "", T::kInt, "0", kVerify, "Threads that verify in the background",
             "the job's own thread checks each block; the same blocks are checked and reported"),
    Honoured(
        "verify_backlog", "", T::kInt, "writes", "0 and up", "0 (after all the writes)", kVerify,
        "Read back and check the blocks written after every this many writes",
        [](JobSpec& j, std::string_view v) -> absl::Status {
          ASSIGN_OR_RETURN(int64_t n, ParseInt(v, 0, kMaxInt));
          j.verify_backlog = static_cast<uint64_t>(n);
          return absl::OkStatus();
        },
        "the writes in flight complete first; each batch is read back one block at a time"),
    Refused("verify_backlog_batch", "", T::kInt, "", kVerify,
            "How many blocks each backlog verify checks", kWhyVerify),
    Refused("verify_async_cpus", "", T::kList, "", kVerify, "CPUs of the verify threads",
            kWhyVerify),
    Refused("experimental_verify", "", T::kBool, "0", kVerify,
            "Verify by replaying offsets instead of logging them", kWhyVerify),
    Refused("verify_state_load", "", T::kBool, "0", kVerify,
            "Load the verify state a crashed run saved", kWhyIolog),
    Refused("verify_state_save", "", T::kBool, "1", kVerify,
            "Save the verify state when the job ends", kWhyIolog),
    Refused("trim_percentage", "", T::kInt, "0", kTrim, "Share of verified blocks to trim",
            kWhyTrim),
    Refused("trim_verify_zero", "", T::kBool, "1", kTrim, "Check that trimmed blocks read zero",
            kWhyTrim),
    Refused("trim_backlog", "", T::kInt, "", kTrim, "Trim after this many writes", kWhyTrim),
    Refused("trim_backlog_batch", "", T::kInt, "", kTrim, "How many blocks each backlog trims",
            kWhyTrim),
    Refused("write_iolog", "", T::kString, "", kIolog, "Record the job's I/O to a file", kWhyIolog),
    Refused("read_iolog", "", T::kString, "", kIolog, "Replay I/O recorded in a file", kWhyIolog),
    Refused("read_iolog_chunked", "", T::kBool, "0", kIolog,
            "Read the replay log a piece at a time", kWhyIolog),
    Refused("replay_no_stall", "", T::kBool, "0", kIolog,
            "Replay as fast as possible, ignoring recorded times", kWhyIolog),
    Refused("replay_redirect", "", T::kString, "", kIolog,
            "Replay every recorded I/O to this device", kWhyIolog),
    Refused("replay_scale", "", T::kInt, "1", kIolog, "Divide replayed offsets by this", kWhyIolog),
    Refused("replay_align", "", T::kInt, "", kIolog, "Align replayed offsets to this", kWhyIolog),
    Refused("replay_time_scale", "", T::kInt, "100", kIolog,
            "Percentage of the recorded pace to replay at", kWhyIolog),
    Refused("replay_skip", "", T::kList, "", kIolog, "Kinds of I/O to leave out of a replay",
            kWhyIolog),
    Refused("merge_blktrace_file", "", T::kString, "", kIolog,
            "Merge several blktraces into this file", kWhyIolog),
    Refused("merge_blktrace_scalars", "", T::kList, "", kIolog,
            "Percentages to scale each merged trace's time", kWhyIolog),
    Refused("merge_blktrace_iters", "", T::kList, "", kIolog,
            "How often to repeat each merged trace", kWhyIolog),
    Refused("exec_prerun", "", T::kString, "", kCommands, "Run a command before the job",
            "an agent never runs commands a job names"),
    Refused("exec_postrun", "", T::kString, "", kCommands, "Run a command after the job",
            "an agent never runs commands a job names"),
    Refused("ioscheduler", "", T::kString, "", kScheduling,
            "Switch the device's I/O scheduler before the job",
            "an agent does not change system settings"),
    Refused("zonemode", "", T::kChoice, "none", kZones, "How to treat zones", kWhyZones),
    Refused("zonesize", "", T::kSize, "0", kZones, "Size of a zone", kWhyZones),
    Refused("zonecapacity", "", T::kSize, "0", kZones, "Usable bytes of a zone", kWhyZones),
    Refused("zonerange", "", T::kSize, "0", kZones, "Size of a strided zone", kWhyZones),
    Refused("zoneskip", "", T::kSize, "0", kZones, "Bytes to skip after each zone", kWhyZones),
    Refused("read_beyond_wp", "", T::kBool, "0", kZones, "Read past a zone's write pointer",
            kWhyZones),
    Refused("max_open_zones", "", T::kInt, "0", kZones, "Most zones open at once", kWhyZones),
    Refused("job_max_open_zones", "", T::kInt, "0", kZones, "Most zones one job keeps open",
            kWhyZones),
    Refused("ignore_zone_limits", "", T::kBool, "0", kZones, "Ignore the device's open-zone limit",
            kWhyZones),
    Refused("zone_reset_threshold", "", T::kList, "", kZones,
            "Share of written zones that triggers resets", kWhyZones),
    Refused("zone_reset_frequency", "", T::kList, "", kZones, "Reset a zone every N writes",
            kWhyZones),
    Refused("lockmem", "", T::kSize, "0", kBuffers, "Lock this much memory away from the job",
            "an agent does not take memory from the system"),
    Honoured("rwmixread", "", T::kInt, "%", "0..100", "50", kRwmix, "Share of reads in a mixed job",
             [](JobSpec& j, std::string_view v) { return SetInt(j.rwmixread_percent, v, 0, 100); }),
    Honoured("rwmixwrite", "", T::kInt, "%", "0..100", "50", kRwmix,
             "Share of writes in a mixed job (sets rwmixread to the rest)", SetRwmixwrite),
    NoEffect("rwmixcycle", "", T::kInt, "", kRwmix, "Old option for the read/write switch period",
             kWhyDeprecated),
    Honoured("nice", "", T::kInt, "", "-20..19", "0", kScheduling,
             "Add this to the nice value of the job's threads (negative needs CAP_SYS_NICE)",
             [](JobSpec& j, std::string_view v) { return SetInt(j.placement.nice, v, -20, 19); }),
    Honoured("prio", "", T::kInt, "", "0..7", "", kScheduling,
             "I/O priority level of the job's threads (0 highest), set with ioprio_set",
             [](JobSpec& j, std::string_view v) {
               return SetOptionalInt(j.placement.ioprio_level, v, 0, 7);
             }),
    Honoured("prioclass", "", T::kInt, "", "0..3 (1 rt, 2 best effort, 3 idle; 0: 2)", "",
             kScheduling, "I/O priority class of the job's threads, set with ioprio_set",
             [](JobSpec& j, std::string_view v) {
               return SetOptionalInt(j.placement.ioprio_class, v, 0, 3);
             }),
    Honoured("thinktime", "", T::kDuration, "us", "0 and up", "0", kThinktime,
             "Drain the queue and pause this long after every thinktime_blocks I/Os",
             [](JobSpec& j, std::string_view v) { return SetMicros(j.thinktime, v); }),
    Honoured("thinktime_spin", "", T::kDuration, "us", "0 and up, at most thinktime", "0",
             kThinktime, "Part of the think time spent spinning instead of sleeping",
             [](JobSpec& j, std::string_view v) { return SetMicros(j.thinktime_spin, v); }),
    Honoured(
        "thinktime_blocks", "", T::kInt, "I/Os", "1 and up", "1", kThinktime,
        "I/Os between think times",
        [](JobSpec& j, std::string_view v) { return SetInt(j.thinktime_blocks, v, 1, kMaxInt); }),
    Honoured("thinktime_blocks_type", "", T::kChoice, "", "complete, issue", "complete", kThinktime,
             "Count completed or issued I/Os for thinktime_blocks", SetThinktimeBlocksType),
    Honoured("thinktime_iotime", "", T::kDuration, "s", "0 and up", "0", kThinktime,
             "Think after this long of I/O, or after thinktime_blocks I/Os if set and sooner",
             [](JobSpec& j, std::string_view v) { return SetSeconds(j.thinktime_iotime, v); }),
    Honoured(
        "rate", "", T::kList, "bytes/s", "0 and up; read,write[,trim]", "0 (unlimited)", kRate,
        "Cap the bandwidth of each clone, per direction (not with rate_iops)",
        [](JobSpec& j, std::string_view v) { return SetRatesBytes(j.rate_bytes_per_s, j, v); },
        kTrimValueNote),
    Honoured(
        "rate_min", "ratemin", T::kList, "bytes/s", "0 and up; read,write[,trim]", "0 (none)",
        kRate, "Fail the job if a direction's bandwidth over a rate_cycle drops below this",
        [](JobSpec& j, std::string_view v) { return SetRatesBytes(j.rate_min_bytes_per_s, j, v); },
        kTrimValueNote),
    Honoured(
        "rate_iops", "", T::kList, "IOPS", "0 and up; read,write[,trim]", "0 (unlimited)", kRate,
        "Cap the IOPS of each clone, per direction",
        [](JobSpec& j, std::string_view v) { return SetRatesIops(j.rate_iops, v); },
        kTrimValueNote),
    Honoured(
        "rate_iops_min", "", T::kList, "IOPS", "0 and up; read,write[,trim]", "0 (none)", kRate,
        "Fail the job if a direction's IOPS over a rate_cycle drop below this",
        [](JobSpec& j, std::string_view v) { return SetRatesIops(j.rate_iops_min, v); },
        kTrimValueNote),
    Honoured("rate_process", "", T::kChoice, "", "linear, poisson", "linear", kRate,
             "How rated I/Os are spaced: evenly, or with exponential gaps", SetRateProcess),
    Honoured("rate_cycle", "ratecycle", T::kInt, "ms", "1 and up", "1000", kRate,
             "Window over which rate_min and rate_iops_min are checked",
             [](JobSpec& j, std::string_view v) -> absl::Status {
               ASSIGN_OR_RETURN(int64_t ms, ParseInt(v, 1, kMaxInt));
               j.rate_cycle = absl::Milliseconds(ms);
               return absl::OkStatus();
             }),
    Honoured("rate_ignore_thinktime", "", T::kBool, "", "", "0", kRate,
             "Move the rate's schedule on by each think time instead of catching up",
             [](JobSpec& j, std::string_view v) { return SetBool(j.rate_ignore_thinktime, v); }),
    Refused("max_latency", "", T::kDuration, "", kLatency,
            "Fail the job when a completion takes longer", kWhyMaxLatency),
    Honoured(
        "latency_target", "", T::kDuration, "us", "0 and up (0: no search)", "0", kLatency,
        "Find the deepest queue, up to iodepth, that keeps latency under this",
        [](JobSpec& j, std::string_view v) { return SetMicros(j.latency_target, v); },
        kLatencyTargetNote),
    Honoured("latency_window", "", T::kDuration, "us", "0 and up", "0", kLatency,
             "Window over which latency_target is checked at each depth",
             [](JobSpec& j, std::string_view v) { return SetMicros(j.latency_window, v); }),
    Honoured("latency_percentile", "", T::kList, "%", "one number in 0..100", "100", kLatency,
             "Share of a window's I/Os that must be within latency_target", SetLatencyPercentile),
    Honoured("latency_run", "", T::kBool, "", "", "0", kLatency,
             "Keep adjusting the depth for the whole run instead of ending once found",
             [](JobSpec& j, std::string_view v) { return SetBool(j.latency_run, v); }),
    Honoured("invalidate", "", T::kBool, "", "", "1", kSync,
             "Drop the files' page cache before the job",
             [](JobSpec& j, std::string_view v) { return SetBool(j.invalidate, v); }),
    Refused("sync", "", T::kChoice, "none", kSync, "Open files with O_SYNC or O_DSYNC",
            "azbench opens files without O_SYNC; use fsync= or fdatasync="),
    Refused("write_hint", "", T::kChoice, "", kSync, "Lifetime hint for written data",
            "azbench gives the kernel no write hints"),
    Honoured(
        "create_serialize", "", T::kBool, "", "", "1", kFiles,
        "Lay the job's files out one job after another (0: at once with the other jobs set to 0)",
        [](JobSpec& j, std::string_view v) { return SetBool(j.create_serialize, v); },
        "before the run, as every layout; a job's clones lay out their files one after another"),
    Refused("create_fsync", "", T::kBool, "1", kFiles, "fsync each file after laying it out",
            kWhyLayout),
    Honoured(
        "create_on_open", "", T::kBool, "", "1 only with filecreate, dircreate", "0", kFiles,
        "Create files when the job opens them, not before",
        [](JobSpec& j, std::string_view v) { return SetBool(j.create_on_open, v); },
        "other engines have their files laid out before the run"),
    Honoured("stat_type", "", T::kChoice, "", "stat, lstat, statx", "stat", kFiles,
             "Which system call filestat and dirstat time", SetStatType),
    Refused("create_only", "", T::kBool, "0", kFiles, "Lay the files out and stop",
            "the files are laid out as part of every run"),
    Refused("allow_file_create", "", T::kBool, "1", kFiles,
            "Allow the job to create files that do not exist", kWhyLayout),
    Refused("allow_mounted_write", "", T::kBool, "0", kFiles,
            "Allow writes to a mounted block device",
            "an agent writes only beneath its allowed roots"),
    Refused("pre_read", "", T::kBool, "0", kSync, "Read the files into the cache before the job",
            "azbench warms nothing before a run (invalidate drops the cache)"),
    Honoured("cpumask", "", T::kInt, "", "bit n allows CPU n; CPUs of this host", "", kScheduling,
             "CPUs the job's threads may run on, as a bit mask",
             [](JobSpec& j, std::string_view v) -> absl::Status {
               ASSIGN_OR_RETURN(j.placement.cpus, ParseCpuMask(v, ConfiguredCpuCount()));
               return absl::OkStatus();
             }),
    Honoured("cpus_allowed", "", T::kList, "", "CPU numbers and ranges (0-3,6) of this host", "",
             kScheduling, "CPUs the job's threads may run on",
             [](JobSpec& j, std::string_view v) -> absl::Status {
               ASSIGN_OR_RETURN(j.placement.cpus, ParseCpuList(v, ConfiguredCpuCount()));
               return absl::OkStatus();
             }),
    Honoured("cpus_allowed_policy", "", T::kChoice, "", "shared, split", "shared", kScheduling,
             "Whether the clones share cpus_allowed or each runs on one of its CPUs",
             SetCpusAllowedPolicy,
             "split: clone n of a job runs on its CPUs' (n mod count)th; fio counts n over all "
             "jobs of the run"),
    Refused("numa_cpu_nodes", "", T::kList, "", kScheduling, "NUMA nodes the job may run on",
            kWhyPlacement),
    Refused("numa_mem_policy", "", T::kString, "", kScheduling, "NUMA memory policy of the job",
            kWhyPlacement),
    Refused("gpu_dev_id", "", T::kInt, "0", kBuffers, "GPU whose memory holds the buffers",
            kWhyMemory),
    Honoured("end_fsync", "", T::kBool, "", "", "0", kSync, "fsync the files when the job ends",
             [](JobSpec& j, std::string_view v) { return SetBool(j.end_fsync, v); }),
    Refused("fsync_on_close", "", T::kBool, "0", kSync, "fsync each file when it is closed",
            "azbench syncs with fsync=, fdatasync= and end_fsync only"),
    Honoured(
        "unlink", "", T::kBool, "", "", "0", kFiles, "Delete the job's files when it ends",
        [](JobSpec& j, std::string_view v) { return SetBool(j.unlink, v); },
        "`azbench-agent run` removes the files (as --unlink) when every job sets unlink=1 "
        "and refuses a run where only some do; a serving agent always removes them"),
    Honoured(
        "unlink_each_loop", "", T::kBool, "", "", "0", kFiles, "Delete the files after every loop",
        [](JobSpec& j, std::string_view v) { return SetBool(j.unlink_each_loop, v); },
        "block-I/O jobs: between loops each clone removes its files and opens them again; a job "
        "that only reads then fails with ENOENT, as fio's"),
    Honoured(
        "exitall", "", T::kBool, "", "", "0", kProcess, "End other jobs when a job ends",
        [](JobSpec& j, std::string_view v) { return SetBool(j.exitall, v); },
        "as fio's, one job's exitall makes every job's end count; the jobs ended keep and report "
        "what they did"),
    Honoured("exit_what", "", T::kChoice, "", "group, stonewall, all", "group", kProcess,
             "Which jobs exitall ends", SetExitWhat,
             "group: the job's reporting group; stonewall: the running stonewall group; all: "
             "every job, and later groups never start"),
    Honoured(
        "exitall_on_error", "", T::kBool, "", "", "0", kProcess,
        "End other jobs when this one fails",
        [](JobSpec& j, std::string_view v) { return SetBool(j.exitall_on_error, v); },
        "the jobs exit_what names end"),
    Honoured("stonewall", "wait_for_previous", T::kBool, "", "", "0", kProcess,
             "Start only after every job before this one has ended; starts a new group",
             [](JobSpec& j, std::string_view v) { return SetBool(j.stonewall, v); }),
    Honoured("new_group", "", T::kBool, "", "", "0", kProcess,
             "Start a new reporting group with this job",
             [](JobSpec& j, std::string_view v) { return SetBool(j.new_group, v); }),
    NoEffect("thread", "", T::kBool, "0", kProcess, "Run clones as threads instead of processes",
             "azbench always runs clones as threads of the agent"),
    Honoured("per_job_logs", "", T::kBool, "", "", "1", kLogs,
             "One log file per clone (.N in its name); 0: the clones of a job share one",
             [](JobSpec& j, std::string_view v) { return SetBool(j.fio_logs.per_job_logs, v); }),
    Honoured(
        "write_bw_log", "", T::kString, "", "", "", kLogs,
        "Write a bandwidth log file (KiB/s) with this prefix (empty: the job's name)",
        [](JobSpec& j, std::string_view v) { return SetLogPrefix(j.fio_logs.bw_prefix, v); },
        kWhyLogRuns),
    Honoured(
        "write_lat_log", "", T::kString, "", "", "", kLogs,
        "Write lat, clat and slat log files (ns) with this prefix (empty: the job's name)",
        [](JobSpec& j, std::string_view v) { return SetLogPrefix(j.fio_logs.lat_prefix, v); },
        kWhyLogRuns),
    Honoured(
        "write_iops_log", "", T::kString, "", "", "", kLogs,
        "Write an IOPS log file with this prefix (empty: the job's name)",
        [](JobSpec& j, std::string_view v) { return SetLogPrefix(j.fio_logs.iops_prefix, v); },
        kWhyLogRuns),
    NoEffect("log_entries", "", T::kInt, "1024", kLogs, "Initial size of the in-memory logs",
             kWhyLogStreamed),
    Honoured("log_avg_msec", "", T::kInt, "ms", "0..2147483647", "0", kLogs,
             "Average log entries over this many ms (0: one entry per I/O)", SetLogAvgMsec),
    Honoured("log_hist_msec", "", T::kInt, "ms", "0..2147483647", "0", kLogs,
             "Write a clat_hist line per direction about every this many ms (0: none)",
             SetLogHistMsec),
    Honoured("log_hist_coarseness", "", T::kInt, "", "0..6", "0", kLogs,
             "Sum 2^N of fio's 1856 latency bins per clat_hist column", SetLogHistCoarseness),
    Honoured(
        "write_hist_log", "", T::kString, "", "", "", kLogs,
        "Write a clat histogram log file with this prefix (empty: the job's name)",
        [](JobSpec& j, std::string_view v) { return SetLogPrefix(j.fio_logs.hist_prefix, v); },
        kWhyLogRuns),
    Honoured("log_max_value", "", T::kBool, "", "", "0", kLogs,
             "Log the window's maximum latency, not its mean",
             [](JobSpec& j, std::string_view v) { return SetBool(j.fio_logs.max_value, v); }),
    Honoured("log_offset", "", T::kBool, "", "", "0", kLogs, "Add each I/O's offset to the logs",
             [](JobSpec& j, std::string_view v) { return SetBool(j.fio_logs.offset, v); }),
    NoEffect("log_prio", "", T::kBool, "0", kLogs, "Add each I/O's priority to the logs",
             "azbench sets no I/O priorities: the logs' priority column is always 0"),
    NoEffect("log_compression", "", T::kSize, "", kLogs, "Compress logs in chunks of this size",
             kWhyLogStreamed),
    NoEffect("log_compression_cpus", "", T::kList, "", kLogs, "CPUs that compress logs",
             kWhyLogStreamed),
    Refused("log_store_compressed", "", T::kBool, "0", kLogs, "Store logs compressed",
            "azbench writes the log files uncompressed"),
    Refused("log_unix_epoch", "", T::kBool, "0", kLogs, "Log timestamps as Unix time",
            kWhyLogEpoch),
    Refused("log_alternate_epoch", "", T::kBool, "0", kLogs,
            "Log timestamps from another clock's epoch", kWhyLogEpoch),
    Refused("log_alternate_epoch_clock_id", "", T::kInt, "", kLogs, "Clock for log_alternate_epoch",
            kWhyLogEpoch),
    NoEffect("block_error_percentiles", "", T::kBool, "0", kStats,
             "Report where in their life trimmed blocks failed",
             "it reports on trims, which azbench does not issue"),
    NoEffect("bwavgtime", "", T::kInt, "500", kStats, "Bandwidth sample window in ms",
             "bandwidth samples are the intervals of the interval series (--interval)"),
    NoEffect("iopsavgtime", "", T::kInt, "500", kStats, "IOPS sample window in ms",
             "IOPS samples are the intervals of the interval series (--interval)"),
    Honoured(
        "group_reporting", "", T::kBool, "", "", "0", kStats, "Report each reporting group as one",
        [](JobSpec& j, std::string_view v) { return SetBool(j.group_reporting, v); },
        "numjobs clones are always reported merged; this merges the jobs of a group too"),
    NoEffect("stats", "", T::kBool, "1", kStats, "Collect statistics for this job",
             "azbench always collects every job's statistics"),
    Honoured("zero_buffers", "", T::kBool, "", "", "0", kBuffers, "Write zeroes",
             [](JobSpec& j, std::string_view v) { return SetBool(j.zero_buffers, v); }),
    Honoured("refill_buffers", "", T::kBool, "", "", "0", kBuffers,
             "Refill the whole buffer before every write (default on with "
             "buffer_compress_percentage 1..99 and with dedupe_percentage)",
             [](JobSpec& j, std::string_view v) { return SetBool(j.refill_buffers, v); }),
    Honoured("scramble_buffers", "", T::kBool, "", "", "1", kBuffers,
             "Change part of the buffer before every write so blocks do not dedupe (off with "
             "compression or dedupe; off by default with zero_buffers or buffer_pattern)",
             [](JobSpec& j, std::string_view v) { return SetBool(j.scramble_buffers, v); }),
    Honoured("buffer_pattern", "", T::kString, "", "0x hex, a decimal number, \"a string\"", "",
             kBuffers,
             "Fill write buffers with a pattern (fio's pattern syntax, as verify_pattern)",
             [](JobSpec& j, std::string_view v) -> absl::Status {
               ASSIGN_OR_RETURN(j.buffer_pattern, ParseVerifyPattern(v));
               return absl::OkStatus();
             }),
    Honoured("buffer_compress_percentage", "", T::kInt, "%", "0..100", "0", kBuffers,
             "How compressible written data is",
             [](JobSpec& j,
                std::string_view v) { return SetInt(j.buffer_compress_percentage, v, 0, 100); }),
    Honoured("buffer_compress_chunk", "", T::kSize, "", "", "512", kBuffers,
             "Size of each random-then-compressible run (0: the smallest write size)",
             [](JobSpec& j, std::string_view v) {
               return SetSize(j.buffer_compress_chunk_bytes, j, v);
             }),
    Honoured("dedupe_percentage", "", T::kInt, "%", "0..100", "0", kBuffers,
             "Share of written blocks that repeat earlier ones",
             [](JobSpec& j, std::string_view v) { return SetInt(j.dedupe_percentage, v, 0, 100); }),
    Honoured("dedupe_global", "", T::kBool, "", "", "0", kBuffers,
             "With dedupe_mode=working_set, draw the working set from every clone of the run",
             [](JobSpec& j, std::string_view v) { return SetBool(j.dedupe_global, v); }),
    Honoured(
        "dedupe_mode", "", T::kChoice, "", "repeat, working_set", "repeat", kBuffers,
        "How deduplicated blocks are chosen (repeat: the previous block again; working_set: one "
        "of the job's first unique blocks)",
        [](JobSpec& j, std::string_view v) -> absl::Status {
          if (v != "repeat" && v != "working_set") {
            return absl::InvalidArgumentError(
                absl::StrCat("dedupe_mode '", std::string(v),
                             "' is not supported; allowed: repeat, working_set"));
          }
          j.dedupe_working_set = v == "working_set";
          return absl::OkStatus();
        }),
    Honoured("dedupe_working_set_percentage", "", T::kInt, "%", "0..100", "5", kBuffers,
             "Share of the job's size whose unique blocks dedupe_mode=working_set repeats",
             [](JobSpec& j, std::string_view v) {
               return SetInt(j.dedupe_working_set_percentage, v, 0, 100);
             }),
    Honoured("clat_percentiles", "", T::kBool, "", "", "1", kStats,
             "Report completion latency percentiles",
             [](JobSpec& j, std::string_view v) { return SetBool(j.report.clat, v); }),
    Honoured("lat_percentiles", "", T::kBool, "", "", "0", kStats,
             "Report total latency percentiles (terse's list then is the total latency's)",
             [](JobSpec& j, std::string_view v) { return SetBool(j.report.lat, v); }),
    Honoured("slat_percentiles", "", T::kBool, "", "", "0", kStats,
             "Report submission latency percentiles",
             [](JobSpec& j, std::string_view v) { return SetBool(j.report.slat, v); }),
    Honoured("percentile_list", "", T::kList, "percent", "0..100, at most 20, ':' between",
             "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99", kStats,
             "Which percentiles to report",
             [](JobSpec& j, std::string_view v) { return ParsePercentileList(v, j.report); }),
    Honoured(
        "significant_figures", "", T::kInt, "", "1..10", "4", kStats,
        "Significant figures of the normal output's IOPS, bandwidth and sizes",
        [](JobSpec& j, std::string_view v) {
          return SetInt(j.report.significant_figures, v, 1, 10);
        },
        "as fio's num2str"),
    Honoured(
        "disk_util", "", T::kBool, "", "", "1", kStats,
        "Report the utilisation of the block devices under the job's files",
        [](JobSpec& j, std::string_view v) { return SetBool(j.disk_util, v); },
        "none under a network file system, as fio"),
    NoEffect("gtod_reduce", "", T::kBool, "0", kStats, "Take fewer timestamps", kWhyMeasured),
    NoEffect("disable_lat", "", T::kBool, "0", kStats, "Do not measure total latency",
             kWhyMeasured),
    NoEffect("disable_clat", "", T::kBool, "0", kStats, "Do not measure completion latency",
             kWhyMeasured),
    NoEffect("disable_slat", "", T::kBool, "0", kStats, "Do not measure submission latency",
             kWhyMeasured),
    NoEffect("disable_bw_measurement", "disable_bw", T::kBool, "0", kStats,
             "Do not sample bandwidth", kWhyMeasured),
    NoEffect("gtod_cpu", "", T::kInt, "", kStats, "Dedicate a CPU to keeping time",
             "azbench's clock needs no time-keeping thread"),
    Honoured(
        "unified_rw_reporting", "", T::kChoice, "", "none, mixed, both, 0, 1, 2", "none", kStats,
        "Report reads, writes and trims together",
        [](JobSpec& j, std::string_view v) -> absl::Status {
          ASSIGN_OR_RETURN(j.report.unified, ParseUnifiedRw(v));
          return absl::OkStatus();
        },
        "in the fio-format outputs (JSON, terse, normal), as fio's: mixed replaces the directions "
        "and sync with one \"mixed\" direction, both adds it after them"),
    Honoured(
        "continue_on_error", "", T::kChoice, "", "none, read, write, io, verify, all, 0, 1", "none",
        kErrors, "Which errors let the job go on",
        [](JobSpec& j, std::string_view v) -> absl::Status {
          ASSIGN_OR_RETURN(j.continue_on_error, ParseContinueOnError(v));
          return absl::OkStatus();
        },
        "as fio's: only EIO and EILSEQ (or ignore_error's errors) are ignored, counted in "
        "total_err and first_error; other errors still end the clone"),
    Honoured("ignore_error", "", T::kList, "",
             "read,write,verify lists of errno names (EPERM..ERANGE) or numbers, ':'-separated",
             "EIO:EILSEQ", kErrors, "Errors that let the job go on, per error type", SetIgnoreError,
             "a list also sets its type in continue_on_error, as fio's"),
    Honoured(
        "error_dump", "", T::kBool, "", "", "0", kErrors,
        "Log every error as it happens, ignored ones too",
        [](JobSpec& j, std::string_view v) { return SetBool(j.error_dump, v); },
        "logged by the agent (stderr for `azbench-agent run`)"),
    Refused("profile", "", T::kChoice, "", kProcess, "Run one of fio's built-in profiles",
            "azbench has no built-in profiles; campaigns play that part"),
    NoEffect("threads", "", T::kInt, "", kProcess, "Threads of fio's tiobench profile",
             "an option of fio's tiobench profile, which fio 3.33 accepts in any job and uses "
             "only under --profile=tiobench"),
    Refused("cgroup", "", T::kString, "", kScheduling, "Run the job in this cgroup",
            kWhyCredentials),
    Refused("cgroup_nodelete", "", T::kBool, "0", kScheduling, "Keep the cgroup after the job",
            kWhyCredentials),
    Refused("cgroup_weight", "", T::kInt, "", kScheduling, "Weight of the job's cgroup",
            kWhyCredentials),
    Refused("uid", "", T::kInt, "", kScheduling, "Run the job as this user", kWhyCredentials),
    Refused("gid", "", T::kInt, "", kScheduling, "Run the job as this group", kWhyCredentials),
    Honoured("kb_base", "", T::kChoice, "", "1000, 1024", "1024", kSizes,
             "What k, m, g mean in sizes (4KiB is always 4096)", SetKbBase,
             "applied before the other options of its section, as fio does"),
    NoEffect("unit_base", "", T::kChoice, "", kStats, "Report in bits or bytes",
             "azbench reports bytes"),
    NoEffect("hugepage-size", "", T::kSize, "", kBuffers, "Huge page size for mem=mmaphuge",
             "mem is refused, so no buffer comes from huge pages"),
    Honoured(
        "flow_id", "", T::kInt, "", "0..4294967295", "0", kFlow, "Flow the job belongs to",
        [](JobSpec& j, std::string_view v) -> absl::Status {
          ASSIGN_OR_RETURN(int64_t id, ParseInt(v, 0, std::numeric_limits<uint32_t>::max()));
          j.flow_id = static_cast<uint32_t>(id);
          return absl::OkStatus();
        },
        "flows span the jobs of one agent's run, not agents"),
    Honoured(
        "flow", "", T::kInt, "", "0..1000", "0 (no flow)", kFlow, "Weight of the job in its flow",
        [](JobSpec& j, std::string_view v) -> absl::Status {
          ASSIGN_OR_RETURN(int64_t weight, ParseInt(v, 0, 1000));
          j.flow_weight = static_cast<uint32_t>(weight);
          return absl::OkStatus();
        },
        "each clone issues I/Os in proportion to its weight among the running clones of its "
        "flow; data engines only"),
    NoEffect("flow_watermark", "", T::kInt, "", kFlow, "Old flow option", kWhyDeprecated),
    Honoured(
        "flow_sleep", "", T::kDuration, "us", "0 and up", "0", kFlow,
        "Pause when the job is ahead of its flow",
        [](JobSpec& j, std::string_view v) { return SetMicros(j.flow_sleep, v); },
        "a clone that is ahead drains its queue and sleeps this long; 0: it tries again at once"),
    Honoured(
        "steadystate", "ss", T::kString, "", "iops, iops_slope, bw, bw_slope, then :limit[%]",
        "iops_slope:0.01%", kSteady, "End the job when IOPS or bandwidth settle",
        [](JobSpec& j, std::string_view v) {
          return ParseSteadyStateCriterion(v, j.kb_base, j.steadystate);
        },
        "numjobs above 1 needs group_reporting, as azbench reports a job's clones as one; each "
        "agent "
        "judges its own clones, and the steadystate block is in one-shot output only"),
    Honoured("steadystate_duration", "ss_dur", T::kDuration, "s", "0 and up (whole seconds count)",
             "0", kSteady, "Window over which steadystate is judged",
             [](JobSpec& j, std::string_view v) { return SetSeconds(j.steadystate.duration, v); }),
    Honoured("steadystate_ramp_time", "ss_ramp", T::kDuration, "s", "0 and up", "0", kSteady,
             "Time before steadystate starts judging",
             [](JobSpec& j, std::string_view v) { return SetSeconds(j.steadystate.ramp, v); }),
    // fio's io_uring engine options that azbench reads.
    Honoured(
        "fixedbufs", "", T::kBool, "", "io_uring only", "1 with direct=1, else 0", kUring,
        "Register the I/O buffers with the ring",
        [](JobSpec& j, std::string_view v) { return SetBool(j.fixedbufs, v); },
        "fio's default is 0; buffered I/O is faster without (bench/README.md)"),
    Honoured(
        "registerfiles", "", T::kBool, "", "io_uring only", "1", kUring,
        "Register the files with the ring",
        [](JobSpec& j, std::string_view v) { return SetBool(j.registerfiles, v); },
        "fio's default is 0"),
    Honoured(
        "hipri", "", T::kBool, "", "pvsync2 only", "0", kIoBasic,
        "Polled completion (RWF_HIPRI) for every read and write",
        [](JobSpec& j, std::string_view v) { return SetBool(j.hipri, v); },
        "io_uring's polled rings are not set up, so other engines refuse it; the kernel "
        "polls only O_DIRECT I/O on a device with poll queues"),
    Honoured(
        "nowait", "", T::kBool, "", "pvsync2 only", "0", kIoBasic,
        "Fail a read or write with EAGAIN rather than block (RWF_NOWAIT)",
        [](JobSpec& j, std::string_view v) { return SetBool(j.nowait, v); },
        "other engines refuse it"),
    Honoured(
        "nfs_url", "", T::kString, "",
        "nfs://server[:port]/export[?version=3|4&nfsport=N&mountport=N]", "", kNfs,
        "The NFS export ioengine=nfs reaches through libnfs, with no kernel mount",
        [](JobSpec& j, std::string_view v) {
          RETURN_IF_ERROR(ParseNfsUrl(v).status());
          j.nfs_url = std::string(v);
          return absl::OkStatus();
        },
        "server must be an address the agent's allowed_nfs_servers lists; over NFSv4 an I/O "
        "larger than libnfs 4.0 sends in one RPC goes as several"),
    // azbench's own options.
    Honoured("uring_wait_pause", "", T::kDuration, "us", "0..1ms, io_uring only", "2us", kAzbench,
             "How long io_uring spins before blocking while waits are short", SetUringWaitPause,
             "0 never spins"),
    Honoured("op_log", "", T::kBool, "", "", "0", kAzbench,
             "Stream every measured op's record with the results",
             [](JobSpec& j, std::string_view v) { return SetBool(j.op_log, v); }),
    Honoured("op_log_rate", "", T::kInt, "records/s", "1..10000000", "10000", kAzbench,
             "Most op_log records per second per clone; the rest are counted", SetOpLogRate),
    Honoured("sharing", "", T::kChoice, "", "file-per-agent, shared-dir, shared-file, write-verify",
             "file-per-agent", kAzbench,
             "How the agents of a scenario share a job's files (write-verify: agent 0 writes, "
             "the others verify)",
             SetSharing),
};

}  // namespace

std::string_view FioOptionTypeName(FioOptionType type) {
  switch (type) {
    case FioOptionType::kString:
      return "string";
    case FioOptionType::kInt:
      return "integer";
    case FioOptionType::kSize:
      return "size";
    case FioOptionType::kBool:
      return "boolean";
    case FioOptionType::kDuration:
      return "duration";
    case FioOptionType::kChoice:
      return "choice";
    case FioOptionType::kList:
      return "list";
  }
  return "string";
}

std::string_view FioSupportName(FioSupport support) {
  switch (support) {
    case FioSupport::kHonoured:
      return "honoured";
    case FioSupport::kNoEffect:
      return "no effect";
    case FioSupport::kRefused:
      return "refused";
  }
  return "refused";
}

std::span<const FioOptionInfo> FioOptionTable() { return kOptions; }

const FioOptionInfo* FindFioOption(std::string_view name) {
  for (const FioOptionInfo& info : kOptions) {
    if (info.name == name || (!info.alias.empty() && info.alias == name)) return &info;
  }
  return nullptr;
}

namespace {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string TypeAndUnit(const FioOptionInfo& info) {
  if (info.unit.empty()) return std::string(FioOptionTypeName(info.type));
  return absl::StrCat(Av(FioOptionTypeName(info.type)), " (", Av(info.unit), ")");
}

// "honoured", "honoured (note)", "no effect: why", "refused: why".
std::string SupportText(const FioOptionInfo& info) {
  if (info.why.empty()) return std::string(FioSupportName(info.support));
  if (info.support == FioSupport::kHonoured) {
    return absl::StrCat("honoured (", Av(info.why), ")");
  }
  return absl::StrCat(Av(FioSupportName(info.support)), ": ", Av(info.why));
}

}  // namespace

std::string SuggestFioOption(std::string_view name) {
  std::string_view best;
  size_t best_distance = std::max<size_t>(2, name.size() / 4) + 1;
  for (const FioOptionInfo& info : kOptions) {
    for (std::string_view candidate : {info.name, info.alias}) {
      if (candidate.empty()) continue;
      const size_t distance = EditDistance(name, candidate);
      if (distance < best_distance) {
        best = candidate;
        best_distance = distance;
      }
    }
  }
  return std::string(best);
}

std::string FioOptionListText() {
  std::string out;
  for (const FioOptionInfo& info : kOptions) {
    std::string name(info.name);
    if (!info.alias.empty()) absl::StrAppend(&name, " (", Av(info.alias), ")");
    name.resize(std::max<size_t>(name.size(), 34), ' ');
    absl::StrAppend(&out, name, " ", Av(info.help), " [", Av(FioSupportName(info.support)), "]\n");
  }
  return out;
}

absl::StatusOr<std::string> FioOptionHelpText(std::string_view name) {
  const FioOptionInfo* info = FindFioOption(name);
  if (info == nullptr) {
    const std::string suggestion = SuggestFioOption(name);
    return absl::NotFoundError(
        absl::StrCat("no option '", Av(name), "' in fio 3.33 or azbench",
                     suggestion.empty() ? "" : absl::StrCat("; did you mean '", suggestion, "'?")));
  }
  std::string out;
  const auto line = [&out](std::string_view label, std::string_view value) {
    if (value.empty()) return;
    std::string padded(label);
    padded.resize(10, ' ');
    absl::StrAppend(&out, padded, ": ", Av(value), "\n");
  };
  line("name", info->name);
  line("alias", info->alias);
  line("type", TypeAndUnit(*info));
  line("range", info->range);
  line("default", info->default_value);
  line("category", info->category);
  line("help", info->help);
  line("azbench", SupportText(*info));
  return out;
}

std::string FioOptionsMarkdown() {
  std::string out =
      "# fio options in azbench\n\n"
      "<!-- Generated by `azbench-agent --cmdhelp=markdown` from common/fio_option_table.cc; "
      "edit the table, not this page. -->\n\n"
      "Every option fio 3.33 defines, fio's io_uring options and later options that azbench "
      "reads (random_sequence_stride), and azbench's own, with what azbench does with each: "
      "**honoured** (read with fio's meaning, any "
      "difference noted), **no effect** (accepted; the job file parser warns why) or "
      "**refused** (an error saying why). A name that is not in this table is an error too. "
      "`azbench-agent --cmdhelp=NAME` prints one entry. Units, job-file syntax and the "
      "differences in behaviour are in [fio compatibility](fio-compatibility.md).\n";
  int honoured = 0, no_effect = 0, refused = 0, aliases = 0;
  for (const FioOptionInfo& info : kOptions) {
    honoured += info.support == FioSupport::kHonoured;
    no_effect += info.support == FioSupport::kNoEffect;
    refused += info.support == FioSupport::kRefused;
    aliases += !info.alias.empty();
  }
  absl::StrAppend(&out, "\n", std::size(kOptions), " options (", aliases,
                  " with an alias): ", honoured, " honoured, ", no_effect, " without effect, ",
                  refused, " refused.\n");
  std::vector<std::string_view> categories;
  for (const FioOptionInfo& info : kOptions) {
    if (std::find(categories.begin(), categories.end(), info.category) == categories.end()) {
      categories.push_back(info.category);
    }
  }
  for (std::string_view category : categories) {
    absl::StrAppend(&out, "\n## ", Av(category), "\n\n",
                    "| Option | Type | Range | Default | azbench | Meaning |\n",
                    "|---|---|---|---|---|---|\n");
    for (const FioOptionInfo& info : kOptions) {
      if (info.category != category) continue;
      std::string name = absl::StrCat("`", Av(info.name), "`");
      if (!info.alias.empty()) absl::StrAppend(&name, " (`", Av(info.alias), "`)");
      const std::string default_value =
          info.default_value.empty() ? "" : absl::StrCat("`", Av(info.default_value), "`");
      absl::StrAppend(&out, "| ", name, " | ", TypeAndUnit(info), " | ", Av(info.range), " | ",
                      default_value, " | ", SupportText(info), " | ", Av(info.help), " |\n");
    }
  }
  return out;
}

}  // namespace azbench

#include "common/trim_options.h"

#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"

namespace azbench {

namespace {

absl::Status Refuse(const JobSpec& job, std::string_view what, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(
      std::string(what), " cannot be used with rw=", std::string(RwPatternName(job.rw)), ": ",
      std::string(why)));
}

}  // namespace

absl::Status ValidateTrimOptions(const JobSpec& job) {
  if (!DoesTrim(job.rw)) return absl::OkStatus();
  constexpr std::string_view kBsOnly = "azbench sizes trims by bs alone";
  for (int dir = 0; dir < 2; ++dir) {
    if (job.bsrange_bytes[dir].first != 0) return Refuse(job, "bsrange", kBsOnly);
    if (!job.bssplit[dir].empty()) return Refuse(job, "bssplit", kBsOnly);
    if (job.blockalign_bytes[dir] != 0) return Refuse(job, "blockalign", kBsOnly);
    if (job.percentage_random[dir] != 100) {
      return Refuse(job, "percentage_random", "azbench's trims are all sequential or all random");
    }
    if (job.rate_iops[dir] != 0 || job.rate_bytes_per_s[dir] != 0 ||
        job.rate_min_bytes_per_s[dir] != 0 || job.rate_iops_min[dir] != 0) {
      return Refuse(job, "rate, rate_iops, rate_min and rate_iops_min",
                    "azbench does not pace trims");
    }
  }
  if (job.bs_unaligned) return Refuse(job, "bs_unaligned", kBsOnly);
  if (job.bs_is_seq_rand) return Refuse(job, "bs_is_seq_rand", kBsOnly);
  if (job.rw_seq_nr > 1 || job.rw_seq_add_bytes != 0) {
    return Refuse(job, "a rw modifier (':<n>')",
                  "azbench's trims are all sequential or all random");
  }
  if (job.random_distribution.kind == RandomDistributionKind::kZoned ||
      job.random_distribution.kind == RandomDistributionKind::kZonedAbs) {
    return Refuse(job, "random_distribution=zoned and zoned_abs",
                  "azbench has no trim zones (their third part)");
  }
  if (job.number_ios != 0) {
    return Refuse(job, "number_ios", "azbench counts a trimming job's loop in bytes only");
  }
  if (job.EffectiveVerify() != VerifyType::kNone) {
    return Refuse(job, "verify", "azbench does not check trimmed blocks");
  }
  if (job.fill_device) return Refuse(job, "fill_device", "trims free space, they fill nothing");
  if (job.ioengine == "nfs" || job.ioengine == "ftruncate") {
    return Refuse(job, absl::StrCat("ioengine=", job.ioengine),
                  "fio's engine fails every trim; use ioengine=falloc to punch holes");
  }
  if (job.rw == RwPattern::kTrimWrite || job.rw == RwPattern::kRandTrimWrite) {
    if (job.nrfiles > 1) {
      return Refuse(job, "nrfiles above 1",
                    "azbench writes each trimmed range at once, in the same file");
    }
    const uint64_t write_bytes =
        job.write_block_size_bytes != 0 ? job.write_block_size_bytes : job.block_size_bytes;
    if (write_bytes != job.trim_block_size_bytes) {
      return Refuse(job,
                    absl::StrCat("a write bs (", write_bytes, ") other than the trim bs (",
                                 job.trim_block_size_bytes, ")"),
                    "each write covers the range its trim freed");
    }
  }
  return absl::OkStatus();
}

}  // namespace azbench

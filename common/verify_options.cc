#include "common/verify_options.h"

#include <cctype>
#include <cstdint>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace azbench {

std::string_view VerifyTypeName(VerifyType type) {
  switch (type) {
    case VerifyType::kNone:
      return "0";
    case VerifyType::kMeta:
      return "meta";
    case VerifyType::kMd5:
      return "md5";
    case VerifyType::kCrc32:
      return "crc32";
    case VerifyType::kCrc32c:
      return "crc32c";
    case VerifyType::kSha256:
      return "sha256";
    case VerifyType::kSha512:
      return "sha512";
    case VerifyType::kXxhash:
      return "xxhash";
    case VerifyType::kSha1:
      return "sha1";
    case VerifyType::kPattern:
    case VerifyType::kPatternNoHeader:
      return "pattern";
    case VerifyType::kNull:
      return "null";
  }
  return "?";
}

absl::Status SetVerify(JobSpec& job, std::string_view value) {
  static constexpr std::pair<std::string_view, VerifyType> kTypes[] = {
      {"0", VerifyType::kNone},
      {"md5", VerifyType::kMd5},
      {"crc32c", VerifyType::kCrc32c},
      {"crc32c-intel", VerifyType::kCrc32c},
      {"crc32", VerifyType::kCrc32},
      {"sha1", VerifyType::kSha1},
      {"sha256", VerifyType::kSha256},
      {"sha512", VerifyType::kSha512},
      {"xxhash", VerifyType::kXxhash},
      {"meta", VerifyType::kMeta},
      {"pattern", VerifyType::kPatternNoHeader},
      {"null", VerifyType::kNull},
  };
  const std::string lower = absl::AsciiStrToLower(std::string(value));
  for (const auto& [name, type] : kTypes) {
    if (lower == name) {
      job.verify = type;
      return absl::OkStatus();
    }
  }
  if (lower == "crc64" || lower == "crc16" || lower == "crc7" || lower.rfind("sha3-", 0) == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", std::string(value),
                     "' is not implemented in azbench; use crc32c, crc32, md5, sha1, sha256, "
                     "sha512 or xxhash"));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "'", std::string(value),
      "' is not supported; allowed: 0, md5, crc32c, crc32c-intel, crc32, sha1, sha256, sha512, "
      "xxhash, meta, pattern, null"));
}

absl::StatusOr<std::string> ParseVerifyPattern(std::string_view value) {
  std::string out;
  size_t i = 0;
  auto bad = [&](std::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("'", std::string(value), "': ", std::string(why),
                                                   "; allowed: 0x hex digits, a decimal number or "
                                                   "a \"quoted\" string, one right after another"));
  };
  while (i < value.size()) {
    const char c = value[i];
    if (c == '"') {
      const size_t end = value.find(c, i + 1);
      if (end == std::string_view::npos) return bad("a quote is not closed");
      out.append(value.substr(i + 1, end - i - 1));
      i = end + 1;
    } else if (value.substr(i, 2) == "0x" || value.substr(i, 2) == "0X") {
      size_t j = i + 2;
      while (j < value.size() && std::isxdigit(static_cast<unsigned char>(value[j]))) ++j;
      std::string_view digits = value.substr(i + 2, j - i - 2);
      if (digits.empty()) return bad("0x without hex digits");
      // An odd count has its first digit alone in the first byte.
      std::string padded =
          digits.size() % 2 == 1 ? absl::StrCat("0", std::string(digits)) : std::string(digits);
      for (size_t k = 0; k < padded.size(); k += 2) {
        out.push_back(static_cast<char>(std::stoi(padded.substr(k, 2), nullptr, 16)));
      }
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      uint64_t number = 0;
      while (j < value.size() && std::isdigit(static_cast<unsigned char>(value[j]))) {
        const uint64_t digit = static_cast<uint64_t>(value[j] - '0');
        if (number > (UINT64_MAX - digit) / 10) return bad("a decimal number above 2^64-1");
        number = number * 10 + digit;
        ++j;
      }
      do {
        out.push_back(static_cast<char>(number & 0xff));
        number >>= 8;
      } while (number != 0);
      i = j;
    } else if (c == '%') {
      return bad("fio's %o offset format is not supported");
    } else {
      return bad(absl::StrCat("unexpected '", std::string(1, c), "'"));
    }
  }
  if (out.empty()) return bad("the pattern is empty");
  return out;
}

absl::Status ValidateVerifyOptions(const JobSpec& job) {
  const VerifyType type = job.EffectiveVerify();
  if (job.sharing == FileSharing::kWriteVerify) {
    // The verifiers replay the writer's writes (verify_only), so they must know them in advance.
    if (type == VerifyType::kNone || type == VerifyType::kNull) {
      return absl::InvalidArgumentError(
          "sharing=write-verify needs a verify type that checks data (e.g. verify=crc32c)");
    }
    if (!DoesWrite(job.rw)) {
      return absl::InvalidArgumentError(
          absl::StrCat("sharing=write-verify with rw=", std::string(RwPatternName(job.rw)),
                       ": the first agent writes the files the others verify; allowed: write, "
                       "randwrite"));
    }
    if (job.time_based) {
      return absl::InvalidArgumentError(
          "sharing=write-verify with time_based=1: the verifiers replay the writer's writes, "
          "which a time-based job does not know in advance; give a size instead");
    }
  }
  if (type == VerifyType::kNone) {
    if (job.verify_only) {
      return absl::InvalidArgumentError("verify_only=1 needs a verify type (e.g. verify=crc32c)");
    }
    return absl::OkStatus();
  }
  if (DoesRead(job.rw) && DoesWrite(job.rw)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "verify with rw=", std::string(RwPatternName(job.rw)),
        ": azbench verifies write jobs (read back after their writes) and read jobs (each block "
        "read is checked), not jobs that mix reads and writes"));
  }
  if ((type == VerifyType::kPattern || type == VerifyType::kPatternNoHeader) &&
      job.verify_pattern.empty()) {
    return absl::InvalidArgumentError("verify=pattern needs verify_pattern (e.g. 0xdeadbeef)");
  }
  if (job.verify_only && !DoesWrite(job.rw)) {
    return absl::InvalidArgumentError(
        "verify_only=1 applies to write jobs (it reads back what the job would write); a read "
        "job with verify checks what it reads anyway");
  }
  if (job.verify_only && job.time_based) {
    return absl::InvalidArgumentError(
        "verify_only=1 with time_based=1: what a time-based job would have written is not known "
        "in advance; give a size instead");
  }
  if (job.verify_backlog > 0 && !DoesWrite(job.rw)) {
    return absl::InvalidArgumentError("verify_backlog applies to write jobs");
  }
  return absl::OkStatus();
}

}  // namespace azbench

#include "agent/workloads/verify_block.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "agent/workloads/verify_checksum.h"

namespace azbench {

namespace {

// Header field offsets (the layout in verify_block.h).
constexpr size_t kMagicAt = 0, kTypeAt = 2, kLenAt = 4, kSeedAt = 8, kOffsetAt = 16,
                 kTimeSecAt = 24, kTimeNsecAt = 28, kThreadAt = 32, kNumberioAt = 34, kCrcAt = 36;
static_assert(kCrcAt + 4 == kVerifyHeaderBytes);

template <typename T>
void Put(uint8_t* p, size_t at, T value) {
  std::memcpy(p + at, &value, sizeof(T));
}
template <typename T>
T Get(const uint8_t* p, size_t at) {
  T value;
  std::memcpy(&value, p + at, sizeof(T));
  return value;
}

void SwapBytes(uint8_t* a, uint8_t* b, size_t len) {
  if (a == b) return;
  for (size_t i = 0; i < len; ++i) std::swap(a[i], b[i]);
}

std::string Hex(const uint8_t* p, size_t len) {
  std::string out;
  for (size_t i = 0; i < len; ++i) absl::StrAppendFormat(&out, "%02x", p[i]);
  return out;
}

bool HasHeader(VerifyType type) { return type != VerifyType::kPatternNoHeader; }

}  // namespace

absl::StatusOr<VerifyFormat> VerifyFormat::ForJob(const JobSpec& spec) {
  VerifyFormat format;
  format.type = spec.EffectiveVerify();
  format.pattern = spec.verify_pattern;
  format.unaligned_sizes = spec.bs_unaligned;
  const BlockSizeChoice writes = spec.BlockSizes(/*write=*/true);
  const BlockSizeChoice reads = spec.BlockSizes(/*write=*/false);
  uint64_t interval = spec.verify_interval_bytes;
  if (writes.max_bytes != writes.min_bytes && interval == 0) interval = writes.min_bytes;
  if (interval > writes.min_bytes) {
    interval = writes.min_bytes;
  } else if (DoesRead(spec.rw) && interval > reads.min_bytes) {
    interval = reads.min_bytes;
  }
  if (interval == 0 || writes.min_bytes % interval != 0 || writes.max_bytes % interval != 0) {
    interval = std::gcd(writes.min_bytes, writes.max_bytes);
  }
  format.interval_bytes = static_cast<uint32_t>(interval);
  format.header_offset_bytes = static_cast<uint32_t>(spec.verify_offset_bytes);
  if (format.type == VerifyType::kNone || format.type == VerifyType::kNull) return format;
  const uint64_t header = format.HeaderBytes();
  if (header > 0 && interval <= header) {
    return absl::InvalidArgumentError(absl::StrCat(
        "verify=", std::string(VerifyTypeName(format.type)), ": the verify interval of ", interval,
        " bytes (verify_interval, at most the block size) must be larger than its header of ",
        header, " bytes"));
  }
  if (spec.verify_offset_bytes + header > interval) {
    return absl::InvalidArgumentError(
        absl::StrCat("verify_offset ", spec.verify_offset_bytes, " plus the header of ", header,
                     " bytes goes past the verify interval of ", interval, " bytes"));
  }
  return format;
}

uint32_t VerifyFormat::HeaderBytes() const {
  if (!HasHeader(type)) return 0;
  return kVerifyHeaderBytes + static_cast<uint32_t>(VerifyChecksumFieldBytes(type));
}

uint32_t VerifyFormat::Stride(uint32_t len) const {
  return interval_bytes != 0 && interval_bytes <= len && !unaligned_sizes ? interval_bytes : len;
}

void FillVerifyBlock(const VerifyFormat& format, uint8_t* buf, uint32_t len, uint64_t offset_bytes,
                     const VerifyStamp& stamp) {
  if (format.type == VerifyType::kNull || format.type == VerifyType::kNone) return;
  if (!format.pattern.empty()) {
    const size_t n = format.pattern.size();
    for (size_t i = 0; i < len; i += n) {
      std::memcpy(buf + i, format.pattern.data(), std::min<size_t>(n, len - i));
    }
  }
  if (!HasHeader(format.type)) return;
  const uint32_t stride = format.Stride(len);
  const uint32_t header = format.HeaderBytes();
  // fio leaves the seed 0 when a pattern, not random data, fills the block.
  const uint64_t seed = format.pattern.empty() ? stamp.seed : 0;
  for (uint32_t at = 0, n = 0; at < len; at += stride, ++n) {
    uint8_t* p = buf + at;
    Put<uint16_t>(p, kMagicAt, kVerifyMagic);
    Put<uint16_t>(p, kTypeAt, static_cast<uint16_t>(format.type));
    Put<uint32_t>(p, kLenAt, stride);
    Put<uint64_t>(p, kSeedAt, seed);
    Put<uint64_t>(p, kOffsetAt, offset_bytes + uint64_t{n} * format.interval_bytes);
    Put<uint32_t>(p, kTimeSecAt, static_cast<uint32_t>(stamp.time_ns / 1'000'000'000ULL));
    Put<uint32_t>(p, kTimeNsecAt, static_cast<uint32_t>(stamp.time_ns % 1'000'000'000ULL));
    Put<uint16_t>(p, kThreadAt, format.thread);
    Put<uint16_t>(p, kNumberioAt, stamp.numberio);
    Put<uint32_t>(p, kCrcAt, FioCrc32c(p, kCrcAt));
    if (VerifyChecksumFieldBytes(format.type) > 0 && stride > header) {
      ComputeVerifyChecksum(format.type, p + header, std::min(stride, len - at) - header,
                            p + kVerifyHeaderBytes);
    }
    if (format.header_offset_bytes != 0) SwapBytes(p, p + format.header_offset_bytes, header);
  }
}

VerifyBlockResult CheckVerifyBlock(const VerifyFormat& format, uint8_t* buf, uint32_t len,
                                   uint64_t offset_bytes, std::string_view path,
                                   const VerifyExpect& expect, bool stop_at_first) {
  VerifyBlockResult result;
  if (format.type == VerifyType::kNull || format.type == VerifyType::kNone) return result;
  const uint32_t stride = format.Stride(len);
  const uint32_t header = format.HeaderBytes();
  const std::string where_block =
      absl::StrCat(" (requested block: offset=", offset_bytes, ", length=", len, ")");
  uint32_t at = 0;
  uint8_t* p = buf;
  auto fail = [&](uint64_t at_offset, std::string message, bool bad_header) {
    ++result.bad_intervals;
    result.bad_offsets.push_back(at_offset);
    VerifyBadInterval bad{.at_bytes = at,
                          .length_bytes = std::min(stride, len - at),
                          .offset_bytes = at_offset,
                          .bad_header = bad_header,
                          .stamp = {}};
    if (HasHeader(format.type) && !bad_header) {
      bad.stamp = {.seed = Get<uint64_t>(p, kSeedAt),
                   .numberio = Get<uint16_t>(p, kNumberioAt),
                   .time_ns = Get<uint32_t>(p, kTimeSecAt) * 1'000'000'000ULL +
                              Get<uint32_t>(p, kTimeNsecAt)};
    }
    result.intervals.push_back(bad);
    if (result.message.empty()) result.message = std::move(message);
  };
  for (uint32_t n = 0; at < len; at += stride, ++n) {
    if (result.bad_intervals > 0 && stop_at_first) break;
    p = buf + at;
    const uint64_t interval_offset = offset_bytes + uint64_t{n} * stride;
    if (format.header_offset_bytes != 0) SwapBytes(p, p + format.header_offset_bytes, header);
    if (HasHeader(format.type)) {
      std::string bad;
      const uint64_t want_offset = offset_bytes + uint64_t{n} * format.interval_bytes;
      if (Get<uint16_t>(p, kMagicAt) != kVerifyMagic) {
        bad = absl::StrFormat("bad magic header %x, wanted %x", Get<uint16_t>(p, kMagicAt),
                              kVerifyMagic);
      } else if (Get<uint32_t>(p, kLenAt) != stride) {
        bad = absl::StrFormat("bad header length %u, wanted %u", Get<uint32_t>(p, kLenAt), stride);
      } else if (expect.check_seed && Get<uint64_t>(p, kSeedAt) != expect.seed) {
        bad = absl::StrFormat("bad header rand_seed %u, wanted %u", Get<uint64_t>(p, kSeedAt),
                              expect.seed);
      } else if (Get<uint64_t>(p, kOffsetAt) != want_offset) {
        bad = absl::StrFormat("bad header offset %u, wanted %u", Get<uint64_t>(p, kOffsetAt),
                              want_offset);
      } else if (expect.check_numberio && Get<uint16_t>(p, kNumberioAt) != expect.numberio) {
        bad = absl::StrFormat("bad header numberio %u, wanted %u", Get<uint16_t>(p, kNumberioAt),
                              expect.numberio);
      } else if (Get<uint32_t>(p, kCrcAt) != FioCrc32c(p, kCrcAt)) {
        bad = absl::StrFormat("bad header crc %x, calculated %x", Get<uint32_t>(p, kCrcAt),
                              FioCrc32c(p, kCrcAt));
      }
      if (!bad.empty()) {
        // As fio: a bad header ends the block's check.
        fail(interval_offset,
             absl::StrCat("verify: ", bad, " at file ", std::string(path), " offset ",
                          interval_offset, ", length ", stride, where_block),
             /*bad_header=*/true);
        return result;
      }
    }
    const uint32_t data_len = std::min(stride, len - at) - header;
    const size_t sum_len = VerifyChecksumBytes(format.type);
    if (sum_len > 0) {
      std::array<uint8_t, kMaxVerifyChecksumBytes> sum{};
      ComputeVerifyChecksum(format.type, p + header, data_len, sum.data());
      const uint8_t* stored = p + kVerifyHeaderBytes;
      if (std::memcmp(stored, sum.data(), sum_len) != 0) {
        fail(interval_offset,
             absl::StrCat(std::string(VerifyTypeName(format.type)), ": verify failed at file ",
                          std::string(path), " offset ", interval_offset, ", length ", stride,
                          where_block, ": expected ", Hex(stored, sum_len), ", received ",
                          Hex(sum.data(), sum_len)),
             /*bad_header=*/false);
      }
    } else if (!format.pattern.empty()) {
      const std::string& pattern = format.pattern;
      size_t mod = (uint64_t{stride} * n + header) % pattern.size();
      const uint8_t* data = p + header;
      for (uint32_t i = 0; i < data_len; ++i) {
        const auto want = static_cast<uint8_t>(pattern[mod]);
        if (data[i] != want) {
          fail(interval_offset,
               absl::StrFormat("pattern: verify failed at file %s offset %u, length %u%s: got "
                               "pattern '%02x', wanted '%02x' at byte %u",
                               std::string(path), interval_offset, stride, where_block, data[i],
                               want, i),
               /*bad_header=*/false);
          break;
        }
        if (++mod == pattern.size()) mod = 0;
      }
    }
  }
  return result;
}

}  // namespace azbench

#include "agent/eta_line.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace azbench {

namespace {

int DecimalDigits(uint64_t n) {
  int digits = 1;
  while (n >= 10) {
    n /= 10;
    ++digits;
  }
  return digits;
}

}  // namespace

std::string FioNum2Str(uint64_t num, int max_digits, int base, bool pow2, Num2StrUnit unit) {
  static constexpr const char* kDecimal[] = {"", "k", "M", "G", "T", "P", "E"};
  static constexpr const char* kBinary[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  constexpr int kPrefixes = 7;
  const char* const* prefixes = pow2 ? kBinary : kDecimal;
  const char* unit_text = unit == Num2StrUnit::kBytesPerSecond ? "B/s" : "";
  const uint64_t thousand = pow2 ? 1024 : 1000;
  // `num` is already in units of `base`: its prefix starts that many steps up (a base of 1024
  // counts as one step in decimal units too, as fio does).
  int prefix = 0;
  for (uint64_t b = static_cast<uint64_t>(base); b > 1; b /= thousand) ++prefix;
  bool divided = false;
  uint64_t remainder = 0;
  while (prefix < kPrefixes && DecimalDigits(num) > max_digits) {
    remainder = num % thousand;
    num /= thousand;
    divided = true;
    ++prefix;
  }
  if (prefix >= kPrefixes) prefix = 0;
  if (!divided) return absl::StrCat(num, prefixes[prefix], unit_text);
  // Decimals fill the digits left but one (the point); with no room, the remainder rounds.
  const int room = max_digits - DecimalDigits(num);
  if (room <= 1) {
    if (remainder >= thousand / 2) ++num;
    return absl::StrCat(num, prefixes[prefix], unit_text);
  }
  const std::string fraction = absl::StrFormat(
      "%.*f", room - 1, static_cast<double>(remainder) / static_cast<double>(thousand));
  // The fraction rounded up to 1.0: the whole part carries ("1.0" keeps its zero, as fio's).
  if (fraction[0] == '1') ++num;
  return absl::StrCat(num, ".", fraction.substr(2), prefixes[prefix], unit_text);
}

std::string FioEtaToStr(uint64_t eta_sec) {
  if (eta_sec == UINT64_MAX) return "--";
  const uint64_t s = eta_sec % 60;
  const uint64_t m = eta_sec / 60 % 60;
  const uint64_t h = eta_sec / 3600 % 24;
  const uint64_t d = eta_sec / 86400;
  std::string out;
  if (d > 0) absl::StrAppendFormat(&out, "%02ud:", d);
  if (h > 0 || d > 0) absl::StrAppendFormat(&out, "%02uh:", h);
  absl::StrAppendFormat(&out, "%02um:%02us", m, s);
  return out;
}

std::string CondenseRunString(absl::string_view states) {
  std::string out;
  for (size_t i = 0; i < states.size();) {
    size_t run = 1;
    while (i + run < states.size() && states[i + run] == states[i]) ++run;
    if (!out.empty()) out += ',';
    absl::StrAppend(&out, std::string(1, states[i]), "(", run, ")");
    i += run;
  }
  return out;
}

std::string EtaLineDisplay::Render(const JobsEta& je, absl::Time now) {
  const bool eta_known = je.eta_sec != JobsEta::kEtaUnknown;
  double perc = 0.0;
  std::string eta_str;
  if (eta_known && je.elapsed_sec > 0) {
    perc = static_cast<double>(je.elapsed_sec) / static_cast<double>(je.elapsed_sec + je.eta_sec);
    eta_str = FioEtaToStr(je.eta_sec);
  }
  std::string out;
  if (newline_pending_) {
    newline_pending_ = false;
    last_length_ = 0;
    out += "\n";
  }
  absl::StrAppend(&out, "Jobs: ", je.nr_running, " (f=", je.files_open, ")");
  const auto sum = [](const std::array<uint64_t, 3>& a) { return a[0] + a[1] + a[2]; };
  if (sum(je.rate_min_bytes_per_s) > 0 || sum(je.rate_max_bytes_per_s) > 0) {
    absl::StrAppend(
        &out, ", ",
        FioNum2Str(sum(je.rate_min_bytes_per_s), 4, 1, je.is_pow2, Num2StrUnit::kBytesPerSecond),
        "-",
        FioNum2Str(sum(je.rate_max_bytes_per_s), 4, 1, je.is_pow2, Num2StrUnit::kBytesPerSecond));
  } else if (sum(je.rate_min_iops) > 0 || sum(je.rate_max_iops) > 0) {
    absl::StrAppend(&out, ", ", sum(je.rate_min_iops), "-", sum(je.rate_max_iops), " IOPS");
  }
  if (eta_known && je.nr_running > 0) {
    std::string perc_str;
    if ((je.eta_sec == 0 && !eta_good_) || je.nr_ramp == je.nr_running ||
        je.eta_sec == UINT64_MAX) {
      perc_str = "-.-%";
    } else {
      double mult = 100.0;
      if (je.nr_setting_up > 0) {
        mult *= 1.0 - static_cast<double>(je.nr_setting_up) / static_cast<double>(je.nr_running);
      }
      eta_good_ = true;
      perc_str = absl::StrFormat("%3.1f%%", perc * mult);
    }
    absl::StrAppend(&out, ": [", je.run_str, "][", perc_str, "]");
    static constexpr char kDirection[] = {'r', 'w', 't'};
    std::string rates, iops;
    for (int d = 0; d < 3; ++d) {
      if (je.rate_kib_per_s[d] == 0 && je.iops[d] == 0) continue;
      const char* sep = rates.empty() ? "" : ",";
      absl::StrAppend(
          &rates, sep, std::string(1, kDirection[d]), "=",
          FioNum2Str(je.rate_kib_per_s[d], 4, 1024, je.is_pow2, Num2StrUnit::kBytesPerSecond));
      absl::StrAppend(&iops, sep, std::string(1, kDirection[d]), "=",
                      FioNum2Str(je.iops[d], 4, 1, false, Num2StrUnit::kNone));
    }
    if (!rates.empty()) absl::StrAppend(&out, "[", rates, "][", iops, " IOPS]");
    absl::StrAppend(&out, "[eta ", eta_str, "]");
    // A line shorter than the last one blanks the rest of it (the length counts a leading "\n",
    // as fio's does).
    const int length = static_cast<int>(out.size());
    if (length < last_length_) out.append(static_cast<size_t>(last_length_ - length), ' ');
    last_length_ = length;
  }
  out += "\r";
  if (!last_newline_.has_value()) {
    last_newline_ = now;
  } else if (newline_every_ > absl::ZeroDuration() &&
             absl::ToInt64Milliseconds(now - *last_newline_) >
                 absl::ToInt64Milliseconds(newline_every_)) {
    last_newline_ = now;
    newline_pending_ = true;
  }
  return out;
}

}  // namespace azbench

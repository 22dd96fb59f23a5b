#include "common/units.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace azbench {
namespace {

using uint128 = unsigned __int128;

// This Abseil build's string_view is its own type, not std::string_view: convert at the boundary.
absl::string_view Av(std::string_view s) { return absl::string_view(s.data(), s.size()); }

constexpr absl::string_view kSizeForms =
    "expected a non-negative integer or decimal with an optional suffix: b, k/kb, m/mb, g/gb, "
    "t/tb, p/pb (powers of kb_base), kib, mib, gib, tib, pib (powers of 1024), e.g. 4k, 1.5g, 4KiB";
constexpr absl::string_view kDurationForms =
    "expected a non-negative integer or decimal with an optional suffix: ns, us, ms, s, "
    "m (minutes), h, d, e.g. 60s, 500ms, 1.5h";
constexpr absl::string_view kBoolForms = "expected 1/0, true/false, yes/no or on/off";

// Up to 18 fractional digits keep every intermediate product below 2^128 (10^18 * 2^50 < 2^110).
constexpr int kMaxFractionDigits = 18;

// A number as written: integer part, fraction digits and the suffix that followed them.
struct Number {
  uint128 integer = 0;
  uint64_t fraction = 0;     // the fraction digits as an integer ("1.25" -> 25)
  int fraction_digits = 0;   // how many there were ("1.25" -> 2)
  absl::string_view suffix;  // the rest, not yet interpreted
};

enum class NumberError { kNone, kEmpty, kNegative, kMalformed, kTooLarge, kTooPrecise };

uint64_t Pow10(int n) {
  uint64_t result = 1;
  for (int i = 0; i < n; ++i) result *= 10;
  return result;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Splits "<digits>[.<digits>]<suffix>". The integer part saturates just above uint64 so the caller
// can report overflow; at least one digit is required on either side of the point.
NumberError SplitNumber(absl::string_view text, Number& out) {
  if (text.empty()) return NumberError::kEmpty;
  if (text.front() == '-') return NumberError::kNegative;
  size_t i = 0;
  int integer_digits = 0;
  constexpr uint128 kSaturated = static_cast<uint128>(std::numeric_limits<uint64_t>::max()) + 1;
  while (i < text.size() && IsDigit(text[i])) {
    out.integer = out.integer * 10 + static_cast<uint128>(text[i] - '0');
    if (out.integer > kSaturated) out.integer = kSaturated;  // stays far below 2^128
    ++i;
    ++integer_digits;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && IsDigit(text[i])) {
      if (out.fraction_digits == kMaxFractionDigits) return NumberError::kTooPrecise;
      out.fraction = out.fraction * 10 + static_cast<uint64_t>(text[i] - '0');
      ++out.fraction_digits;
      ++i;
    }
    if (out.fraction_digits == 0) return NumberError::kMalformed;
  }
  if (integer_digits == 0 && out.fraction_digits == 0) return NumberError::kMalformed;
  if (out.integer >= kSaturated) return NumberError::kTooLarge;
  out.suffix = text.substr(i);
  return NumberError::kNone;
}

absl::Status NumberErrorStatus(NumberError error, absl::string_view text, absl::string_view what,
                               absl::string_view forms) {
  switch (error) {
    case NumberError::kEmpty:
      return absl::InvalidArgumentError(absl::StrCat("empty ", what, ": ", forms));
    case NumberError::kNegative:
      return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a valid ", what,
                                                     ": negative values are not allowed; ", forms));
    case NumberError::kTooLarge:
      return absl::InvalidArgumentError(
          absl::StrCat("'", text, "' is not a valid ", what, ": too large (overflows 64 bits)"));
    case NumberError::kTooPrecise:
      return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a valid ", what,
                                                     ": more than ", kMaxFractionDigits,
                                                     " decimal places"));
    case NumberError::kMalformed:
    case NumberError::kNone:
      break;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("'", text, "' is not a valid ", what, ": ", forms));
}

// value * multiplier exactly; fails if the result is not whole or does not fit in `limit`.
enum class ScaleError { kNone, kNotWhole, kTooLarge };
ScaleError Scale(const Number& n, uint64_t multiplier, uint128 limit, uint128& result) {
  const uint128 whole = n.integer * multiplier;  // < 2^64 * 2^64: cannot wrap for our multipliers
  const uint128 scaled_fraction = static_cast<uint128>(n.fraction) * multiplier;
  const uint64_t denominator = Pow10(n.fraction_digits);
  if (scaled_fraction % denominator != 0) return ScaleError::kNotWhole;
  result = whole + scaled_fraction / denominator;
  return result > limit ? ScaleError::kTooLarge : ScaleError::kNone;
}

uint64_t IntPow(uint64_t base, int exponent) {
  uint64_t result = 1;
  for (int i = 0; i < exponent; ++i) result *= base;
  return result;
}

// The multiplier of a size suffix (already lower-cased), or 0 if the suffix is not known.
uint64_t SizeMultiplier(absl::string_view suffix, int kb_base) {
  if (suffix.empty() || suffix == "b") return 1;
  static constexpr absl::string_view kPrefixes = "kmgtp";
  const size_t power = kPrefixes.find(suffix.front());
  if (power == absl::string_view::npos) return 0;
  const absl::string_view rest = suffix.substr(1);
  const int exponent = static_cast<int>(power) + 1;
  if (rest.empty() || rest == "b") return IntPow(static_cast<uint64_t>(kb_base), exponent);
  if (rest == "ib") return IntPow(1024, exponent);
  return 0;
}

// Nanoseconds per unit of a duration suffix (already lower-cased), or 0 if the suffix is not known.
uint64_t DurationMultiplierNs(absl::string_view suffix) {
  if (suffix == "ns" || suffix == "nsec") return 1;
  if (suffix == "us" || suffix == "usec") return 1'000;
  if (suffix == "ms" || suffix == "msec") return 1'000'000;
  if (suffix == "s" || suffix == "sec") return 1'000'000'000;
  if (suffix == "m" || suffix == "min") return 60ULL * 1'000'000'000;
  if (suffix == "h") return 3600ULL * 1'000'000'000;
  if (suffix == "d") return 86400ULL * 1'000'000'000;
  return 0;
}

// Rounds x to `decimals` places, as printf would.
double RoundTo(double x, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(x * scale) / scale;
}

}  // namespace

absl::StatusOr<uint64_t> ParseSize(std::string_view text, int kb_base) {
  if (kb_base != 1000 && kb_base != 1024) {
    return absl::InvalidArgumentError(absl::StrCat("kb_base must be 1000 or 1024, not ", kb_base,
                                                   " (parsing size '", Av(text), "')"));
  }
  const absl::string_view trimmed = absl::StripAsciiWhitespace(Av(text));
  Number number;
  if (NumberError e = SplitNumber(trimmed, number); e != NumberError::kNone) {
    return NumberErrorStatus(e, trimmed, "size", kSizeForms);
  }
  const std::string suffix = absl::AsciiStrToLower(number.suffix);
  const uint64_t multiplier = SizeMultiplier(suffix, kb_base);
  if (multiplier == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", trimmed, "' is not a valid size: unknown suffix '", number.suffix, "'; ", kSizeForms));
  }
  uint128 bytes = 0;
  switch (Scale(number, multiplier, std::numeric_limits<uint64_t>::max(), bytes)) {
    case ScaleError::kNotWhole:
      return absl::InvalidArgumentError(
          absl::StrCat("'", trimmed, "' is not a valid size: not a whole number of bytes"));
    case ScaleError::kTooLarge:
      return NumberErrorStatus(NumberError::kTooLarge, trimmed, "size", kSizeForms);
    case ScaleError::kNone:
      break;
  }
  return static_cast<uint64_t>(bytes);
}

absl::StatusOr<absl::Duration> ParseDuration(std::string_view text, absl::Duration default_unit) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(Av(text));
  const int64_t default_unit_ns = absl::ToInt64Nanoseconds(default_unit);
  if (default_unit_ns <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("default unit ", absl::FormatDuration(default_unit),
                     " must be at least 1ns (parsing '", trimmed, "')"));
  }
  Number number;
  if (NumberError e = SplitNumber(trimmed, number); e != NumberError::kNone) {
    return NumberErrorStatus(e, trimmed, "duration", kDurationForms);
  }
  const std::string suffix = absl::AsciiStrToLower(number.suffix);
  const uint64_t unit_ns =
      suffix.empty() ? static_cast<uint64_t>(default_unit_ns) : DurationMultiplierNs(suffix);
  if (unit_ns == 0) {
    return absl::InvalidArgumentError(absl::StrCat("'", trimmed,
                                                   "' is not a valid duration: unknown suffix '",
                                                   number.suffix, "'; ", kDurationForms));
  }
  uint128 ns = 0;
  switch (Scale(number, unit_ns, std::numeric_limits<int64_t>::max(), ns)) {
    case ScaleError::kNotWhole:
      return absl::InvalidArgumentError(
          absl::StrCat("'", trimmed, "' is not a valid duration: finer than 1ns"));
    case ScaleError::kTooLarge:
      return absl::InvalidArgumentError(absl::StrCat(
          "'", trimmed,
          "' is not a valid duration: too large (at most 2^63-1 ns, about 292 years)"));
    case ScaleError::kNone:
      break;
  }
  return absl::Nanoseconds(static_cast<int64_t>(ns));
}

absl::StatusOr<bool> ParseBool(std::string_view text) {
  const std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(Av(text)));
  if (lower == "1" || lower == "true" || lower == "yes" || lower == "on") return true;
  if (lower == "0" || lower == "false" || lower == "no" || lower == "off") return false;
  return absl::InvalidArgumentError(
      absl::StrCat("'", Av(text), "' is not a boolean: ", kBoolForms));
}

absl::StatusOr<int64_t> ParseInt(std::string_view text, int64_t min_value, int64_t max_value) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(Av(text));
  const std::string range = absl::StrCat("an integer from ", min_value, " to ", max_value);
  if (trimmed.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("empty integer: expected ", range));
  }
  absl::string_view digits = trimmed;
  const bool negative = digits.front() == '-';
  if (negative || digits.front() == '+') digits.remove_prefix(1);
  if (digits.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", trimmed, "' is not an integer: expected ", range));
  }
  uint128 magnitude = 0;
  constexpr uint128 kCap = static_cast<uint128>(1) << 64;
  for (char c : digits) {
    if (!IsDigit(c)) {
      return absl::InvalidArgumentError(absl::StrCat("'", trimmed, "' is not an integer: expected ",
                                                     range,
                                                     " written with digits only (no suffix)"));
    }
    magnitude = magnitude * 10 + static_cast<uint128>(c - '0');
    if (magnitude > kCap) magnitude = kCap;
  }
  const __int128 value =
      negative ? -static_cast<__int128>(magnitude) : static_cast<__int128>(magnitude);
  if (value < min_value || value > max_value) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", trimmed, "' is out of range: expected ", range));
  }
  return static_cast<int64_t>(value);
}

std::string FormatBytes(uint64_t bytes) {
  static constexpr absl::string_view kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  constexpr int kLastUnit = 6;
  int unit = 0;
  while (unit < kLastUnit && bytes >= (uint64_t{1} << (10 * (unit + 1)))) ++unit;
  const uint64_t divisor = uint64_t{1} << (10 * unit);
  if (bytes % divisor == 0) return absl::StrCat(bytes / divisor, kUnits[unit]);
  double value = RoundTo(static_cast<double>(bytes) / static_cast<double>(divisor), 2);
  if (value >= 1024.0 && unit < kLastUnit) {
    ++unit;
    value = RoundTo(value / 1024.0, 2);
  }
  std::string text = absl::StrFormat("%.2f", value);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return absl::StrCat(text, kUnits[unit]);
}

std::string FioNum2Str(uint64_t num, int max_digits, uint64_t base, bool binary,
                       std::string_view unit) {
  static constexpr std::array<absl::string_view, 7> kSi = {"", "k", "M", "G", "T", "P", "E"};
  static constexpr std::array<absl::string_view, 7> kIec = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  const std::array<absl::string_view, 7>& prefixes = binary ? kIec : kSi;
  const absl::string_view unit_text(unit.data(), unit.size());
  const uint64_t thousand = binary ? 1024 : 1000;
  size_t prefix = 0;
  for (; base > 1; ++prefix) base /= thousand;
  bool divided = false;
  bool carry = false;
  uint64_t modulo = 0;
  auto digits = [](uint64_t n) { return static_cast<int>(absl::StrCat(n).size()); };
  while (prefix < prefixes.size() && digits(num) > max_digits) {
    modulo = num % thousand;
    num /= thousand;
    carry = modulo >= thousand / 2;
    ++prefix;
    divided = true;
  }
  if (prefix >= prefixes.size()) prefix = 0;
  if (!divided) return absl::StrCat(num, prefixes[prefix], unit_text);
  const int room = max_digits - digits(num);
  if (room <= 1) {
    if (carry) ++num;
    return absl::StrCat(num, prefixes[prefix], unit_text);
  }
  // The fraction rounded to the room left; "1.0..." carries into the whole part, as fio's.
  const std::string fraction = absl::StrFormat(
      "%.*f", room - 1, static_cast<double>(modulo) / static_cast<double>(thousand));
  if (fraction[0] == '1') ++num;
  return absl::StrCat(num, ".", fraction.substr(2), prefixes[prefix], unit_text);
}

std::string FormatNanos(double ns) {
  if (std::isnan(ns)) return "nan";
  if (ns < 0) return absl::StrCat("-", FormatNanos(-ns));
  if (std::isinf(ns)) return "inf";
  if (ns == 0) return "0ns";
  struct Unit {
    double ns;
    absl::string_view name;
  };
  static constexpr Unit kUnits[] = {{1, "ns"}, {1e3, "us"}, {1e6, "ms"}, {1e9, "s"}};
  constexpr int kLastUnit = 3;
  int unit = 0;
  while (unit < kLastUnit && ns >= kUnits[unit + 1].ns) ++unit;
  double value = ns / kUnits[unit].ns;
  // Three significant digits; a value that rounds up to 1000 moves to the next unit.
  if (unit < kLastUnit && RoundTo(value, 0) >= 1000.0) {
    ++unit;
    value = ns / kUnits[unit].ns;
  }
  int decimals = 2;
  if (RoundTo(value, 2) >= 10.0) decimals = 1;
  if (RoundTo(value, 1) >= 100.0) decimals = 0;
  return absl::StrCat(absl::StrFormat("%.*f", decimals, value), kUnits[unit].name);
}

}  // namespace azbench

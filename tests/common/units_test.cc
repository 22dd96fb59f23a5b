#include "common/units.h"

#include <cstdint>
#include <limits>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::_;
using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr uint64_t kGiB = 1024 * kMiB;
constexpr uint64_t kTiB = 1024 * kGiB;
constexpr uint64_t kPiB = 1024 * kTiB;

// --- ParseSize ---

TEST(ParseSizeTest, NumberWithoutSuffixOrWithBIsBytes) {
  EXPECT_EQ(*ParseSize("0"), 0u);
  EXPECT_EQ(*ParseSize("4096"), 4096u);
  EXPECT_EQ(*ParseSize("512b"), 512u);
  EXPECT_EQ(*ParseSize("512B"), 512u);
}

TEST(ParseSizeTest, SingleLetterSuffixesArePowersOf1024ByDefault) {
  EXPECT_EQ(*ParseSize("4k"), 4 * kKiB);
  EXPECT_EQ(*ParseSize("4K"), 4 * kKiB);
  EXPECT_EQ(*ParseSize("1m"), kMiB);
  EXPECT_EQ(*ParseSize("4m"), 4 * kMiB);
  EXPECT_EQ(*ParseSize("1g"), kGiB);
  EXPECT_EQ(*ParseSize("4G"), 4 * kGiB);
  EXPECT_EQ(*ParseSize("1t"), kTiB);
  EXPECT_EQ(*ParseSize("1p"), kPiB);
}

TEST(ParseSizeTest, KbStyleSuffixesMeanTheSameAsSingleLettersWithKbBase1024LikeFio) {
  EXPECT_EQ(*ParseSize("1kb"), kKiB);
  EXPECT_EQ(*ParseSize("1MB"), kMiB);
  EXPECT_EQ(*ParseSize("1Gb"), kGiB);
  EXPECT_EQ(*ParseSize("1tb"), kTiB);
  EXPECT_EQ(*ParseSize("1pb"), kPiB);
}

TEST(ParseSizeTest, KbBase1000MakesKAndKbStyleSuffixesDecimal) {
  EXPECT_EQ(*ParseSize("1k", 1000), 1'000u);
  EXPECT_EQ(*ParseSize("1kb", 1000), 1'000u);
  EXPECT_EQ(*ParseSize("1m", 1000), 1'000'000u);
  EXPECT_EQ(*ParseSize("1MB", 1000), 1'000'000u);
  EXPECT_EQ(*ParseSize("1g", 1000), 1'000'000'000u);
  EXPECT_EQ(*ParseSize("1t", 1000), 1'000'000'000'000u);
  EXPECT_EQ(*ParseSize("1p", 1000), 1'000'000'000'000'000u);
}

TEST(ParseSizeTest, IbSuffixesAreAlwaysPowersOf1024) {
  for (int kb_base : {1000, 1024}) {
    EXPECT_EQ(*ParseSize("4KiB", kb_base), 4 * kKiB);
    EXPECT_EQ(*ParseSize("4kib", kb_base), 4 * kKiB);
    EXPECT_EQ(*ParseSize("1MiB", kb_base), kMiB);
    EXPECT_EQ(*ParseSize("1GiB", kb_base), kGiB);
    EXPECT_EQ(*ParseSize("1TiB", kb_base), kTiB);
    EXPECT_EQ(*ParseSize("1PiB", kb_base), kPiB);
  }
}

TEST(ParseSizeTest, DecimalsAreExact) {
  EXPECT_EQ(*ParseSize("1.5g"), kGiB + kGiB / 2);
  EXPECT_EQ(*ParseSize("0.5k"), 512u);
  EXPECT_EQ(*ParseSize(".5k"), 512u);
  EXPECT_EQ(*ParseSize("1.25m"), kMiB + kMiB / 4);
  EXPECT_EQ(*ParseSize("2.5k", 1000), 2'500u);
  EXPECT_EQ(*ParseSize("1.0"), 1u);
}

TEST(ParseSizeTest, SurroundingWhitespaceIsIgnored) { EXPECT_EQ(*ParseSize("  4k\t"), 4 * kKiB); }

TEST(ParseSizeTest, LargestUint64IsAcceptedAndOneMoreOverflows) {
  EXPECT_EQ(*ParseSize("18446744073709551615"), std::numeric_limits<uint64_t>::max());
  EXPECT_THAT(ParseSize("18446744073709551616"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("too large")));
  EXPECT_THAT(ParseSize("99999999999999999999999999999"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("too large")));
}

TEST(ParseSizeTest, SuffixThatOverflowsIsAnError) {
  EXPECT_EQ(*ParseSize("16383p"), 16383 * kPiB);
  EXPECT_THAT(ParseSize("16384p"), StatusIs(absl::StatusCode::kInvalidArgument,
                                            AllOf(HasSubstr("'16384p'"), HasSubstr("too large"))));
}

TEST(ParseSizeTest, EmptyTextIsAnErrorListingTheAcceptedForms) {
  EXPECT_THAT(ParseSize(""), StatusIs(absl::StatusCode::kInvalidArgument,
                                      AllOf(HasSubstr("empty size"), HasSubstr("kib"))));
  EXPECT_THAT(ParseSize("   "), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("empty")));
}

TEST(ParseSizeTest, NegativeSizeIsAnError) {
  EXPECT_THAT(ParseSize("-4k"), StatusIs(absl::StatusCode::kInvalidArgument,
                                         AllOf(HasSubstr("'-4k'"), HasSubstr("negative"))));
}

TEST(ParseSizeTest, UnknownSuffixIsAnErrorNamingTextAndForms) {
  EXPECT_THAT(ParseSize("4x"), StatusIs(absl::StatusCode::kInvalidArgument,
                                        AllOf(HasSubstr("'4x'"), HasSubstr("unknown suffix 'x'"),
                                              HasSubstr("kib"))));
  EXPECT_THAT(ParseSize("4kk"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'kk'")));
  EXPECT_THAT(ParseSize("4 k"), StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(ParseSize("4kib2"), StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(ParseSize("4e"), StatusIs(absl::StatusCode::kInvalidArgument, _));
}

TEST(ParseSizeTest, TextWithoutDigitsIsAnError) {
  EXPECT_THAT(ParseSize("k"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'k'")));
  EXPECT_THAT(ParseSize("+4k"), StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(ParseSize("abc"), StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(ParseSize("."), StatusIs(absl::StatusCode::kInvalidArgument, _));
}

TEST(ParseSizeTest, DecimalPointWithoutFractionDigitsIsAnError) {
  EXPECT_THAT(ParseSize("4.k"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'4.k'")));
  EXPECT_THAT(ParseSize("1.2.3k"), StatusIs(absl::StatusCode::kInvalidArgument, _));
}

TEST(ParseSizeTest, FractionalBytesAreAnError) {
  EXPECT_THAT(ParseSize("1.5"), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("not a whole number of bytes")));
  EXPECT_THAT(ParseSize("0.1k"), StatusIs(absl::StatusCode::kInvalidArgument,
                                          HasSubstr("not a whole number of bytes")));
}

TEST(ParseSizeTest, MoreThanEighteenDecimalPlacesIsAnError) {
  EXPECT_EQ(*ParseSize("1.000000000000000000k"), kKiB);
  EXPECT_THAT(ParseSize("1.0000000000000000000k"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("decimal places")));
}

TEST(ParseSizeTest, KbBaseOtherThan1000Or1024IsAnError) {
  EXPECT_THAT(ParseSize("4k", 1023), StatusIs(absl::StatusCode::kInvalidArgument,
                                              AllOf(HasSubstr("kb_base"), HasSubstr("1023"))));
}

// --- ParseDuration ---

TEST(ParseDurationTest, NumberWithoutSuffixUsesTheDefaultUnit) {
  EXPECT_EQ(*ParseDuration("60"), absl::Seconds(60));
  EXPECT_EQ(*ParseDuration("100", absl::Milliseconds(1)), absl::Milliseconds(100));
  EXPECT_EQ(*ParseDuration("7", absl::Microseconds(1)), absl::Microseconds(7));
  EXPECT_EQ(*ParseDuration("1.5"), absl::Milliseconds(1500));
}

TEST(ParseDurationTest, EverySuffixHasItsUnit) {
  EXPECT_EQ(*ParseDuration("100ns"), absl::Nanoseconds(100));
  EXPECT_EQ(*ParseDuration("250us"), absl::Microseconds(250));
  EXPECT_EQ(*ParseDuration("500ms"), absl::Milliseconds(500));
  EXPECT_EQ(*ParseDuration("60s"), absl::Seconds(60));
  EXPECT_EQ(*ParseDuration("2m"), absl::Minutes(2));
  EXPECT_EQ(*ParseDuration("1h"), absl::Hours(1));
  EXPECT_EQ(*ParseDuration("1d"), absl::Hours(24));
}

TEST(ParseDurationTest, SuffixesAreCaseInsensitiveAndAcceptFioLongForms) {
  EXPECT_EQ(*ParseDuration("60S"), absl::Seconds(60));
  EXPECT_EQ(*ParseDuration("5MS"), absl::Milliseconds(5));
  EXPECT_EQ(*ParseDuration("3sec"), absl::Seconds(3));
  EXPECT_EQ(*ParseDuration("3msec"), absl::Milliseconds(3));
  EXPECT_EQ(*ParseDuration("3usec"), absl::Microseconds(3));
  EXPECT_EQ(*ParseDuration("3nsec"), absl::Nanoseconds(3));
  EXPECT_EQ(*ParseDuration("3min"), absl::Minutes(3));
}

TEST(ParseDurationTest, DecimalsAreExact) {
  EXPECT_EQ(*ParseDuration("1.5h"), absl::Minutes(90));
  EXPECT_EQ(*ParseDuration("0.25s"), absl::Milliseconds(250));
  EXPECT_EQ(*ParseDuration(".5ms"), absl::Microseconds(500));
  EXPECT_EQ(*ParseDuration("0s"), absl::ZeroDuration());
}

TEST(ParseDurationTest, EmptyNegativeAndUnknownSuffixAreErrorsListingTheForms) {
  EXPECT_THAT(ParseDuration(""), StatusIs(absl::StatusCode::kInvalidArgument,
                                          AllOf(HasSubstr("empty duration"), HasSubstr("ms"))));
  EXPECT_THAT(ParseDuration("-1s"), StatusIs(absl::StatusCode::kInvalidArgument,
                                             AllOf(HasSubstr("'-1s'"), HasSubstr("negative"))));
  EXPECT_THAT(
      ParseDuration("10x"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(HasSubstr("'10x'"), HasSubstr("unknown suffix 'x'"), HasSubstr("ns, us"))));
  EXPECT_THAT(ParseDuration("10 s"), StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(ParseDuration("s"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'s'")));
}

TEST(ParseDurationTest, FractionOfANanosecondIsAnError) {
  EXPECT_THAT(ParseDuration("1.5ns"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("finer than 1ns")));
}

TEST(ParseDurationTest, DurationBeyondInt64NanosecondsIsAnError) {
  EXPECT_THAT(ParseDuration("200000d"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("too large")));
  EXPECT_THAT(ParseDuration("99999999999999999999999s"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("too large")));
}

TEST(ParseDurationTest, DefaultUnitBelowOneNanosecondIsAnError) {
  EXPECT_THAT(ParseDuration("5", absl::ZeroDuration()),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("default unit")));
}

// --- ParseBool ---

TEST(ParseBoolTest, AcceptsFioSpellingsCaseInsensitively) {
  for (const char* text : {"1", "true", "TRUE", "yes", "Yes", "on", "ON"}) {
    EXPECT_TRUE(*ParseBool(text)) << text;
  }
  for (const char* text : {"0", "false", "False", "no", "NO", "off", "Off"}) {
    EXPECT_FALSE(*ParseBool(text)) << text;
  }
}

TEST(ParseBoolTest, OtherTextIsAnErrorListingTheForms) {
  for (const char* text : {"", "2", "maybe", "y"}) {
    EXPECT_THAT(ParseBool(text),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("true/false")))
        << text;
  }
  EXPECT_THAT(ParseBool("maybe"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'maybe'")));
}

// --- ParseInt ---

TEST(ParseIntTest, AcceptsIntegersInsideTheRangeInclusive) {
  EXPECT_EQ(*ParseInt("1", 1, 65536), 1);
  EXPECT_EQ(*ParseInt("65536", 1, 65536), 65536);
  EXPECT_EQ(*ParseInt(" 32 ", 1, 65536), 32);
  EXPECT_EQ(*ParseInt("+5", 0, 10), 5);
  EXPECT_EQ(*ParseInt("-5", -10, 10), -5);
  EXPECT_EQ(*ParseInt("9223372036854775807", 0, std::numeric_limits<int64_t>::max()),
            std::numeric_limits<int64_t>::max());
}

TEST(ParseIntTest, OutOfRangeIsAnErrorNamingTheRange) {
  EXPECT_THAT(ParseInt("0", 1, 65536),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("'0'"), HasSubstr("from 1 to 65536"))));
  EXPECT_THAT(ParseInt("65537", 1, 65536),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("out of range")));
  EXPECT_THAT(ParseInt("-1", 0, 10),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("out of range")));
  EXPECT_THAT(ParseInt("99999999999999999999999", 0, std::numeric_limits<int64_t>::max()),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("out of range")));
}

TEST(ParseIntTest, SuffixesAndOtherCharactersAreErrors) {
  EXPECT_THAT(ParseInt("4k", 0, 100000),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("'4k'"), HasSubstr("digits only"))));
  EXPECT_THAT(ParseInt("1.5", 0, 10), StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(ParseInt("", 0, 10),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("empty")));
  EXPECT_THAT(ParseInt("-", 0, 10), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'-'")));
}

// --- FormatBytes / FormatNanos ---

TEST(FormatBytesTest, ExactMultiplesUseTheLargestBinaryUnit) {
  EXPECT_EQ(FormatBytes(0), "0B");
  EXPECT_EQ(FormatBytes(512), "512B");
  EXPECT_EQ(FormatBytes(1000), "1000B");
  EXPECT_EQ(FormatBytes(4 * kKiB), "4KiB");
  EXPECT_EQ(FormatBytes(kMiB), "1MiB");
  EXPECT_EQ(FormatBytes(4 * kGiB), "4GiB");
  EXPECT_EQ(FormatBytes(kTiB), "1TiB");
  EXPECT_EQ(FormatBytes(kPiB), "1PiB");
  EXPECT_EQ(FormatBytes(1024 * kPiB), "1EiB");
}

TEST(FormatBytesTest, OtherValuesShowAtMostTwoDecimals) {
  EXPECT_EQ(FormatBytes(kGiB + kGiB / 2), "1.5GiB");
  EXPECT_EQ(FormatBytes(1536), "1.5KiB");
  EXPECT_EQ(FormatBytes(1234567), "1.18MiB");
  EXPECT_EQ(FormatBytes(kMiB - 1), "1MiB");  // 1023.999 KiB rounds up into the next unit
  EXPECT_EQ(FormatBytes(std::numeric_limits<uint64_t>::max()), "16EiB");
}

TEST(FioNum2StrTest, DigitsPrefixesAndRoundingAreFios) {
  // fio 3.33's normal output for the same figures.
  EXPECT_EQ(FioNum2Str(19692, 4, 1, false, ""), "19.7k");
  EXPECT_EQ(FioNum2Str(80'659'692, 4, 1, true, "B/s"), "76.9MiB/s");
  EXPECT_EQ(FioNum2Str(80'659'692, 4, 1, false, "B/s"), "80.7MB/s");
  EXPECT_EQ(FioNum2Str(1 << 20, 4, 1, true, "B"), "1024KiB");
  EXPECT_EQ(FioNum2Str(0, 4, 1, false, ""), "0");
  EXPECT_EQ(FioNum2Str(5, 4, 1, false, "B"), "5B");
  EXPECT_EQ(FioNum2Str(4 * kMiB, 4, 1, false, "B/s"), "4194kB/s");
  // No room for a fraction: the carry rounds the whole part.
  EXPECT_EQ(FioNum2Str(123'600, 4, 1, false, ""), "124k");
  // The fraction rounds up into the whole part.
  EXPECT_EQ(FioNum2Str(19'996, 4, 1, false, ""), "20.0k");
  // More digits, fewer digits.
  EXPECT_EQ(FioNum2Str(19692, 6, 1, false, ""), "19692");
  EXPECT_EQ(FioNum2Str(1'234'567, 6, 1, false, ""), "1234.6k");
  EXPECT_EQ(FioNum2Str(19692, 2, 1, false, ""), "20k");
  EXPECT_EQ(FioNum2Str(19692, 1, 1, false, ""), "0M");  // fio prints "0M" too
  // A count of KiB (base 1024) starts one prefix up.
  EXPECT_EQ(FioNum2Str(78'769, 4, 1024, true, "B/s"), "76.9MiB/s");
}

TEST(FormatNanosTest, ShowsThreeSignificantDigitsInTheLargestFittingUnit) {
  EXPECT_EQ(FormatNanos(0), "0ns");
  EXPECT_EQ(FormatNanos(5), "5.00ns");
  EXPECT_EQ(FormatNanos(250), "250ns");
  EXPECT_EQ(FormatNanos(250'000), "250us");
  EXPECT_EQ(FormatNanos(1'200'000), "1.20ms");
  EXPECT_EQ(FormatNanos(15'700'000), "15.7ms");
  EXPECT_EQ(FormatNanos(61.3e9), "61.3s");
  EXPECT_EQ(FormatNanos(3600e9), "3600s");
}

TEST(FormatNanosTest, ValuesThatRoundTo1000MoveToTheNextUnit) {
  EXPECT_EQ(FormatNanos(999.4e3), "999us");
  EXPECT_EQ(FormatNanos(999.6e3), "1.00ms");
  EXPECT_EQ(FormatNanos(99.96), "100ns");
}

TEST(FormatNanosTest, NegativeAndNonFiniteValuesAreReadable) {
  EXPECT_EQ(FormatNanos(-1'500), "-1.50us");
  EXPECT_EQ(FormatNanos(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(FormatNanos(std::numeric_limits<double>::infinity()), "inf");
}

}  // namespace
}  // namespace azbench

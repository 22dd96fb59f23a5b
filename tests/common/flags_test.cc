// The one flag parser of both binaries: its forms and its errors, worded once for every command.
#include "common/flags.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::ElementsAre;

const std::vector<FlagSpec> kTable = {
    {.name = "--listen"},
    {.name = "--root", .repeatable = true},
    {.name = "--quiet", .is_switch = true},
    {.name = "-o", .alias = "--output"},
};

std::string ErrorOf(const std::vector<std::string>& args, const FlagSyntax& syntax = {}) {
  absl::StatusOr<ParsedFlags> parsed = ParseFlags(kTable, args, syntax);
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(parsed.status().message());
}

TEST(FlagsTest, ValuesComeAfterAnEqualsSignOrAsTheNextArgument) {
  absl::StatusOr<ParsedFlags> parsed =
      ParseFlags(kTable, {"a", "--listen", "x:1", "--root=/r1", "-", "--root", "/r2", "--quiet"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_THAT(parsed->positional, ElementsAre("a", "-"));
  ASSERT_NE(parsed->Get("--listen"), nullptr);
  EXPECT_EQ(*parsed->Get("--listen"), "x:1");
  EXPECT_THAT(parsed->GetAll("--root"), ElementsAre("/r1", "/r2"));
  EXPECT_EQ(*parsed->Get("--quiet"), "true");
  EXPECT_EQ(parsed->flags[0].written, "--listen x:1");
  EXPECT_EQ(parsed->flags[1].written, "--root=/r1");
}

TEST(FlagsTest, ASwitchReadsItsValueAndRefusesOneThatIsNoBoolean) {
  absl::StatusOr<ParsedFlags> parsed = ParseFlags(kTable, {"--quiet=no"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(*parsed->Get("--quiet"), "false");
  const std::string error = ErrorOf({"--quiet=maybe"});
  EXPECT_THAT(error, ::testing::StartsWith("--quiet: 'maybe' is not a boolean"));
  EXPECT_THAT(error, ::testing::HasSubstr(
                         "'--quiet' is a switch: give it alone, or as --quiet=true / =false"));
}

TEST(FlagsTest, ErrorsAreWordedOnceForEveryCommand) {
  EXPECT_EQ(ErrorOf({"--bogus"}),
            "unknown flag '--bogus' (allowed: --listen, --root, --quiet, -o, "
            "--output)");
  EXPECT_EQ(ParseFlags({}, {"-v"}).status().message(), "unknown flag '-v' (allowed: none)");
  EXPECT_EQ(ErrorOf({"--listen"}), "flag '--listen' needs a value");
  EXPECT_EQ(ErrorOf({"--listen", "a:1", "--listen=b:2"}),
            "--listen is given twice ('--listen a:1' and '--listen=b:2'): give it once");
  EXPECT_EQ(ErrorOf({"--quiet", "--quiet=false"}),
            "--quiet is given twice ('--quiet' and '--quiet=false'): give it once");
  EXPECT_EQ(ErrorOf({"-o", "a", "--output", "b"}), "-o and --output are the same flag: give one");
}

TEST(FlagsTest, SyntaxOptionsSayWhatAValueAndAFlagMayLookLike) {
  // serve: a next argument starting with "--" is the next flag, not a value.
  EXPECT_EQ(ErrorOf({"--listen", "--quiet"}, {.value_may_start_with_dashes = false}),
            "flag '--listen' needs a value");
  absl::StatusOr<ParsedFlags> file = ParseFlags(kTable, {"--listen", "--odd-name"});
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(*file->Get("--listen"), "--odd-name");
  // one-shot: values after '=' only, "-x" is an argument, unknown --key=value pass through.
  const FlagSyntax one_shot{
      .value_in_next_argument = false, .single_dash_flags = false, .keep_unknown = true};
  EXPECT_EQ(ErrorOf({"--listen", "x"}, one_shot), "flag '--listen' needs a value");
  absl::StatusOr<ParsedFlags> parsed =
      ParseFlags(kTable, {"--name=a", "-x", "--listen=l", "--bs=4k", "--bs=8k"}, one_shot);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_THAT(parsed->unknown, ElementsAre("--name=a", "--bs=4k", "--bs=8k"));
  EXPECT_THAT(parsed->positional, ElementsAre("-x"));
  EXPECT_EQ(*parsed->Get("--listen"), "l");
}

}  // namespace
}  // namespace azbench

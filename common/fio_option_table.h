// The one table of fio job options, as fio's `struct fio_option fio_options[]` in options.c: every
// option name fio 3.33 defines (plus fio's io_uring options and azbench's own), with its type,
// unit, range, default, one-line help, category and what azbench does with it. Parsing
// (ApplyJobOption), `azbench-agent --cmdhelp` and docs/fio-options.md all come from it; a new
// option is one entry.
//
//   const FioOptionInfo* info = FindFioOption("blocksize");  // the entry of "bs"
//   if (info && info->support == FioSupport::kHonoured) RETURN_IF_ERROR(info->set(job, "4k"));
#ifndef AZBENCH_COMMON_FIO_OPTION_TABLE_H_
#define AZBENCH_COMMON_FIO_OPTION_TABLE_H_

#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/job_spec.h"

namespace azbench {

enum class FioOptionType {
  kString,
  kInt,
  kSize,      // a byte count with fio's units (4k, 1.5g), read with the job's kb_base
  kBool,      // 0/1, true/false, yes/no, on/off; a bare flag means 1
  kDuration,  // a number with an optional unit (us, ms, s, m, h); the unit column says the default
  kChoice,    // one of the words the range column lists
  kList,      // fio's lists (percentiles, CPU sets, size splits, ...)
};
// "string", "integer", "size", "boolean", "duration", "choice", "list".
std::string_view FioOptionTypeName(FioOptionType type);

// What azbench does with an option.
enum class FioSupport {
  kHonoured,  // parsed into JobSpec with fio's meaning
  kNoEffect,  // accepted; the job file parser warns why it changes nothing in azbench
  kRefused,   // an error (Unimplemented) saying why
};
// "honoured", "no effect", "refused".
std::string_view FioSupportName(FioSupport support);

// Sets an option's field from its value (already trimmed). Messages describe the value; the
// caller prefixes the option's name.
using FioOptionSetter = absl::Status (*)(JobSpec& job, std::string_view value);

struct FioOptionInfo {
  std::string_view name;
  std::string_view alias;  // fio's other spelling, or empty
  FioOptionType type = FioOptionType::kString;
  std::string_view unit;           // e.g. "bytes", "s" (a bare number's unit), "%"; may be empty
  std::string_view range;          // allowed values as azbench reads them; may be empty
  std::string_view default_value;  // azbench's default (fio 3.33's unless `why` says otherwise)
  std::string_view category;
  std::string_view help;  // one line
  FioSupport support = FioSupport::kRefused;
  // kNoEffect, kRefused: why (completes "... in azbench: <why>"). kHonoured: a difference from fio
  // worth knowing, or empty.
  std::string_view why;
  FioOptionSetter set = nullptr;  // kHonoured only
};

// Every entry, in fio's order (azbench's own options last).
std::span<const FioOptionInfo> FioOptionTable();

// The entry whose name or alias is `name` (exact, as fio matches), or nullptr.
const FioOptionInfo* FindFioOption(std::string_view name);

// The closest option name or alias to an unknown `name` (for "did you mean"), or empty when none
// is close.
std::string SuggestFioOption(std::string_view name);

// `--cmdhelp`: one line per option, "name (alias): help [status]".
std::string FioOptionListText();
// `--cmdhelp=NAME`: name, alias, type, unit, range, default, category, help, azbench status and
// why. NotFound (with a suggestion) for a name that is not an option.
absl::StatusOr<std::string> FioOptionHelpText(std::string_view name);
// docs/fio-options.md (`--cmdhelp=markdown`).
std::string FioOptionsMarkdown();

}  // namespace azbench

#endif  // AZBENCH_COMMON_FIO_OPTION_TABLE_H_

#include "common/error_policy.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace azbench {
namespace {

absl::string_view Av(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// fio's str2error table: the names of errno 1 to 34 (Linux numbers them in this order).
constexpr std::array<std::string_view, 34> kErrnoNames = {
    "EPERM",  "ENOENT",  "ESRCH",  "EINTR",  "EIO",    "ENXIO",   "E2BIG",  "ENOEXEC", "EBADF",
    "ECHILD", "EAGAIN",  "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY",  "EEXIST",  "EXDEV",
    "ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE",  "ENOTTY", "ETXTBSY", "EFBIG",
    "ENOSPC", "ESPIPE",  "EROFS",  "EMLINK", "EPIPE",  "EDOM",    "ERANGE"};
static_assert(EIO == 5 && ENOSPC == 28 && ERANGE == 34);

// fio's default non-fatal errors, for a type ignore_error gives no list for.
constexpr std::array<int, 2> kDefaultNonFatal = {EIO, EILSEQ};

absl::StatusOr<int> ParseErrno(std::string_view text) {
  if (!text.empty() && text.front() == 'E') {
    const auto it = std::find(kErrnoNames.begin(), kErrnoNames.end(), text);
    if (it != kErrnoNames.end()) return static_cast<int>(it - kErrnoNames.begin()) + 1;
  } else {
    int64_t number = 0;
    if (absl::SimpleAtoi(Av(text), &number) && number != 0 && number > -4096 && number < 4096) {
      return static_cast<int>(number < 0 ? -number : number);
    }
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown error '", Av(text),
      "'; give an errno number (e.g. 122) or one of fio's names EPERM to ERANGE (e.g. ENOSPC)"));
}

}  // namespace

absl::StatusOr<uint32_t> ParseContinueOnError(std::string_view value) {
  static constexpr std::pair<std::string_view, uint32_t> kWords[] = {
      {"none", kContinueOnNone},
      {"read", 1u << static_cast<int>(ErrorType::kRead)},
      {"write", 1u << static_cast<int>(ErrorType::kWrite)},
      {"io",
       (1u << static_cast<int>(ErrorType::kRead)) | (1u << static_cast<int>(ErrorType::kWrite))},
      {"verify", 1u << static_cast<int>(ErrorType::kVerify)},
      {"all", kContinueOnAll},
      {"0", kContinueOnNone},
      {"1", kContinueOnAll}};
  const std::string lower = absl::AsciiStrToLower(Av(value));
  for (const auto& [word, mask] : kWords) {
    if (lower == word) return mask;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "'", Av(value), "' is not supported; allowed: none, read, write, io, verify, all, 0, 1"));
}

absl::Status SetIgnoreError(JobSpec& job, std::string_view value) {
  const std::vector<absl::string_view> lists = absl::StrSplit(Av(value), ',');
  if (lists.size() > static_cast<size_t>(kErrorTypeCount)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", Av(value), "' has ", lists.size(),
                     " lists; at most three: read,write,verify (errors separated by ':')"));
  }
  std::array<std::vector<int>, kErrorTypeCount> parsed_lists;
  for (size_t type = 0; type < lists.size(); ++type) {
    std::vector<int> errors;
    for (absl::string_view name : absl::StrSplit(lists[type], ':')) {
      if (name.empty()) break;  // as fio: a list ends at an empty entry
      auto parsed = ParseErrno(std::string_view(name.data(), name.size()));
      if (!parsed.ok()) return parsed.status();
      errors.push_back(*parsed);
    }
    parsed_lists[type] = std::move(errors);
  }
  // Applied only once the whole value parsed.
  for (int type = 0; type < kErrorTypeCount; ++type) {
    if (parsed_lists[type].empty()) continue;
    job.ignore_error[type] = std::move(parsed_lists[type]);
    job.continue_on_error |= 1u << type;
  }
  return absl::OkStatus();
}

ErrorType ErrorTypeOf(OpKind op, int errno_value) {
  if (errno_value == EILSEQ) return ErrorType::kVerify;
  return op == OpKind::kRead ? ErrorType::kRead : ErrorType::kWrite;
}

bool ContinuesOn(const JobSpec& job, ErrorType type) {
  return (job.continue_on_error & (1u << static_cast<int>(type))) != 0;
}

bool IsNonFatalError(const JobSpec& job, ErrorType type, int errno_value) {
  if (!ContinuesOn(job, type)) return false;
  const std::vector<int>& listed = job.ignore_error[static_cast<int>(type)];
  if (listed.empty()) {
    return std::find(kDefaultNonFatal.begin(), kDefaultNonFatal.end(), errno_value) !=
           kDefaultNonFatal.end();
  }
  return std::find(listed.begin(), listed.end(), errno_value) != listed.end();
}

}  // namespace azbench

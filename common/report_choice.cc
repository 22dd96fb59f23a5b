#include "common/report_choice.h"

#include <algorithm>
#include <memory>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace azbench {

absl::Status ParsePercentileList(std::string_view value, ReportChoice& choice) {
  // Debian's abseil has its own string_view.
  const absl::string_view text(value.data(), value.size());
  std::vector<double> list;
  int precision = 0;
  bool ended = false;
  const std::vector<absl::string_view> items = absl::StrSplit(text, ':');
  if (items.size() > static_cast<size_t>(kMaxPercentiles)) {
    return absl::InvalidArgumentError(absl::StrCat("percentile_list '", text, "' has ",
                                                   items.size(), " values; at most ",
                                                   kMaxPercentiles, " are allowed"));
  }
  for (absl::string_view item : items) {
    double p = 0;
    if (!absl::SimpleAtod(item, &p) || !(p >= 0 && p <= 100)) {
      return absl::InvalidArgumentError(absl::StrCat("percentile_list value '", item, "' in '",
                                                     text, "' is not a number from 0 to 100"));
    }
    if (p == 0) ended = true;
    if (ended) continue;
    list.push_back(p);
    const size_t point = item.find('.');
    if (point != absl::string_view::npos) {
      size_t digits = 0;
      while (point + 1 + digits < item.size() && item[point + 1 + digits] >= '0' &&
             item[point + 1 + digits] <= '9') {
        ++digits;
      }
      precision = std::max(precision, static_cast<int>(digits));
    }
  }
  std::sort(list.begin(), list.end());
  choice.list = std::move(list);
  choice.precision = precision;
  return absl::OkStatus();
}

absl::StatusOr<UnifiedRw> ParseUnifiedRw(std::string_view value) {
  if (value == "none" || value == "0") return UnifiedRw::kNone;
  if (value == "mixed" || value == "1") return UnifiedRw::kMixed;
  if (value == "both" || value == "2") return UnifiedRw::kBoth;
  return absl::InvalidArgumentError(absl::StrCat("unified_rw_reporting '",
                                                 absl::string_view(value.data(), value.size()),
                                                 "' is not one of none, mixed, both, 0, 1, 2"));
}

JobResult WithMixedDirections(const JobResult& result) {
  JobResult mixed = result.Clone();
  for (OpKind kind : {OpKind::kWrite, OpKind::kTrim}) {
    std::unique_ptr<OpStats>& stats = mixed.by_kind[static_cast<int>(kind)];
    if (stats == nullptr) continue;
    mixed.Stats(OpKind::kRead).Merge(*stats);
    stats.reset();
  }
  for (IntervalStats& interval : mixed.intervals) {
    IntervalOpStats& read = interval.by_kind[static_cast<int>(OpKind::kRead)];
    for (OpKind kind : {OpKind::kWrite, OpKind::kTrim}) {
      IntervalOpStats& other = interval.by_kind[static_cast<int>(kind)];
      read.ops += other.ops;
      read.bytes += other.bytes;
      read.errors += other.errors;
      read.lat = Histogram::AddSparse(read.lat, other.lat);
      other = IntervalOpStats{};
    }
  }
  return mixed;
}

}  // namespace azbench

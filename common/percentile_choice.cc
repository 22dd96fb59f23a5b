#include "common/percentile_choice.h"

#include <algorithm>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace azbench {

absl::Status ParsePercentileList(std::string_view value, PercentileChoice& choice) {
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

}  // namespace azbench

#include "coordinator/scenario.h"

#include "absl/strings/str_cat.h"

namespace azbench {

const char* ScenarioStatusName(ScenarioStatus status) {
  switch (status) {
    case ScenarioStatus::kComplete:
      return "complete";
    case ScenarioStatus::kPartial:
      return "partial";
    case ScenarioStatus::kFailed:
      return "failed";
    case ScenarioStatus::kSkipped:
      return "skipped";
  }
  return "unknown";
}

std::string ScenarioFileStem(const Scenario& scenario) {
  std::string name = absl::StrCat(scenario.index, "-", scenario.key);
  for (char& c : name) {
    if (c == '/' || c == '=' || c == ' ') c = '_';
  }
  return name;
}

}  // namespace azbench

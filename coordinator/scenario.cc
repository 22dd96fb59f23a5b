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

bool ScenarioUsesSharing(const Scenario& scenario, std::string_view mode) {
  for (const ScenarioJob& job : scenario.jobs) {
    bool uses = false;
    for (const auto& [key, value] : job.options) {
      if (key == "sharing") uses = value == mode;
    }
    if (uses) return true;
  }
  return false;
}

std::string ScenarioFileStem(const Scenario& scenario) {
  std::string name = absl::StrCat(scenario.index, "-", scenario.key);
  for (char& c : name) {
    if (c == '/' || c == '=' || c == ' ') c = '_';
  }
  return name;
}

}  // namespace azbench
